"""The direction of imports between the project's packages (`docs/architecture.md`), read
from the source with `ast`, nothing imported: no import cycle between modules; `domain`
imports none of the other packages nor Flask or RQ; `api` and `workers` never import each
other; only entry points import the composition root; what is installed imports neither the
benchmarks nor the tests, and no test imports the benchmarks. Every import counts, also one
inside a function: a cycle through a late import is still a cycle in the design."""

from __future__ import annotations

import ast
import functools
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "domain", "workers", "donkeypost", "bench")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def _sources() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES
            for p in sorted((ROOT / package).rglob("*.py"))}


@functools.cache
def _nodes(path: Path) -> list[ast.AST]:
    return list(ast.walk(ast.parse(path.read_text(), str(path))))


def _imported(name: str, path: Path, modules: set[str]) -> Iterator[str]:
    """The absolute names of what module `name` (at `path`) imports: for `from pkg import
    x`, `pkg.x` when that is one of `modules`, else `pkg`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield submodule if submodule in modules else base


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Module → the project's modules it imports."""
    sources = _sources()
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, path in sources.items():
        for target in _imported(name, path, set(sources)):
            if target in sources and target != name:
                graph[name].add(target)
    return graph


@functools.cache
def external_imports() -> dict[str, set[str]]:
    """Module → the top-level packages it imports (its own project's included)."""
    sources = _sources()
    return {name: {target.split(".")[0] for target in _imported(name, path, set(sources))
                   if target}
            for name, path in sources.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _offenders(package: str, forbidden: set[str]) -> dict[str, list[str]]:
    return {name: sorted(imports & forbidden)
            for name, imports in sorted(external_imports().items())
            if name.split(".")[0] == package and imports & forbidden}


def test_the_graph_sees_the_project():
    graph = import_graph()
    assert {"domain.service", "api.app", "workers.jobs", "donkeypost.bootstrap"} <= set(graph)
    assert "domain.service" in graph["api.app"]
    assert "workers.context" in graph["workers.jobs"]  # (`from workers import context`)


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules():
    found = cycles(import_graph())
    assert found == [], "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_the_domain_imports_no_other_package_nor_flask_or_rq():
    forbidden = {"api", "workers", "donkeypost", "bench", "flask", "flask_smorest", "rq"}
    assert _offenders("domain", forbidden) == {}


def test_the_api_never_imports_the_workers():
    assert _offenders("api", {"workers", "rq", "donkeypost", "bench"}) == {}


def test_the_workers_never_import_the_api():
    assert _offenders("workers", {"api", "flask", "flask_smorest", "donkeypost", "bench"}) == {}


def test_what_is_installed_imports_neither_the_benchmarks_nor_the_tests():
    for package in ("api", "domain", "workers", "donkeypost"):
        assert _offenders(package, {"bench", "tests"}) == {}


def test_the_benchmarks_are_not_installed_and_no_test_imports_them():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    assert not any(p.startswith("bench") for p in setuptools["packages"]["find"]["include"])
    assert not any(p.startswith("bench") for p in setuptools.get("package-data", {}))
    # The harnesses the benchmarks share with the tests live in tests/support.
    importing = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        name = _module_name(path)
        found = {t for t in _imported(name, path, set()) if t.split(".")[0] == "bench"}
        if found:
            importing[name] = sorted(found)
    assert importing == {}


def test_route_factories_stay_short():
    """Routes read like flask-smorest's own examples: a module per resource, its views in a
    short function (no factory grows into a closure holding a dozen operations)."""
    longest = 120
    found = {}
    for path in sorted((ROOT / "api" / "routes").rglob("*.py")):
        for node in _nodes(path):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(inner, ast.ClassDef) for inner in ast.walk(node)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > longest:
                    found[f"{_module_name(path)}.{node.name}"] = lines
    assert found == {}, f"route factories over {longest} lines: split them by resource"
