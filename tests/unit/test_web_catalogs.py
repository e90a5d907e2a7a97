"""The web table's texts in three languages: every message the page shows goes through
`t("…")` / `tn("…", "…", n)` with literal ids, and the French and German catalogs
(`web/src/locales/<lang>.json`) translate each of them, keep every `{placeholder}`, and hold
nothing else."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).parents[2] / "web" / "src"
LANGUAGES = ("fr", "de")
_STRING = r'"((?:[^"\\]|\\.)*)"'
_T = re.compile(r"\bt\(\s*" + _STRING)
_TN = re.compile(r"\btn\(\s*" + _STRING + r"\s*,\s*" + _STRING)
_ANY_CALL = re.compile(r"\bt(n?)\(")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _sources() -> dict[Path, str]:
    return {p: p.read_text() for p in sorted(WEB.rglob("*.ts"))
            if p.name not in ("api.d.ts", "i18n.ts")}  # (i18n.ts: t and tn themselves)


def page_messages() -> set[str]:
    found: set[str] = set()
    for text in _sources().values():
        found.update(json.loads(f'"{m}"') for m in _T.findall(text))
        for one, other in _TN.findall(text):
            found.update((json.loads(f'"{one}"'), json.loads(f'"{other}"')))
    return found


def test_every_call_names_its_message_literally():
    for path, text in _sources().items():
        for m in _ANY_CALL.finditer(text):
            rest = text[m.end():].lstrip()
            assert rest.startswith('"'), \
                f"{path.name}: t{m.group(1)}( with no literal id: {rest[:40]}"


def test_the_page_has_messages_to_translate():
    assert len(page_messages()) > 150


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_translates_every_message_and_nothing_else(lang):
    catalog = json.loads((WEB / "locales" / f"{lang}.json").read_text())
    wanted = page_messages()
    missing = sorted(wanted - set(catalog))
    assert not missing, f"{lang}: {len(missing)} messages without a translation: {missing[:20]}"
    stale = sorted(set(catalog) - wanted)
    assert not stale, f"{lang}: translations of messages the page no longer has: {stale[:20]}"
    for msgid, text in catalog.items():
        assert text.strip(), f"{lang}: {msgid!r} is translated by nothing"
        assert set(_PLACEHOLDER.findall(text)) == set(_PLACEHOLDER.findall(msgid)), \
            f"{lang}: {msgid!r} → {text!r} changes the placeholders"
