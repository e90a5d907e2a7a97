"""The run's tables, and the speed targets checked against its figures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape
from rich.table import Table

TARGET_CLIENTS = 32


def _f(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value)


def _lat(lat: dict[str, Any] | None, keys: tuple[str, ...] = ("p50", "p95", "p99")) -> str:
    if not lat:
        return "–"
    return " / ".join(_f(lat.get(k)) for k in keys)


def tables(sections: dict[str, Any]) -> list[Table]:
    out = [render(sections[name]) for name, render in SECTION_TABLES if name in sections]
    if "profile" in sections:
        out.extend(profile_tables(sections["profile"]))
    return out


def _table(title: str, columns: list[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for n, col in enumerate(columns):
        table.add_column(col, justify="left" if n == 0 else "right")
    return table


def http_table(sec: dict[str, Any]) -> Table:
    t = _table("1. Moves over HTTP (a move = GET view + POST action) vs the ceiling "
               "(GET /bench/ping), in turns; CPU = the server's (workers + Redis); "
               f"{sec.get('rate_limits', 'RATE_LIMITS=on')}",
               ["clients", "fsync", "ceiling req/s", "moves/s", "moves/ceiling",
                "requests/ceiling",
                "move ms p50/p95/p99", "view ms p50/p95/p99", "CPU ms ping / move",
                "CPU ratio moves / requests", "sockets per worker", "errors", "409/412"])
    for r in sec["rows"]:
        t.add_row(str(r["clients"]), r.get("appendfsync", "everysec"),
                  _f(r["ceiling_per_s"], 0), _f(r["moves_per_s"], 0),
                  _f(r["moves_per_ceiling"], 3), _f(r["requests_per_ceiling"], 3),
                  _lat(r["move_latency_ms"]), _lat(r["view_latency_ms"]),
                  f"{_f(r['server_cpu_ms_per_ping'], 3)} / {_f(r['server_cpu_ms_per_move'], 3)}",
                  f"{_f(r['cpu_moves_per_ceiling'], 3)} / "
                  f"{_f(r['cpu_requests_per_ceiling'], 3)}",
                  "/".join(map(str, (r.get("sockets_per_watched_process") or [])[:-1])),
                  str(sum(r["errors"].values())), str(sum(r["expected_refusals"].values())))
    ratios = sec.get("appendfsync_ratios")
    if ratios:
        t.caption = "appendfsync: " + "; ".join(
            f"{x['clients']} clients, {x['mode']}/{x['per']} moves/s {_f(x['moves_per_s'], 2)}, "
            f"move p50 {_f(x['move_p50_ms'], 2)}" for x in ratios)
    return t


def state_table(sec: dict[str, Any]) -> Table:
    t = _table("2. State load vs log length (ratios: p50 / p50 of the smallest log)",
               ["size", "events", "load ms p50", "load ratio", "GET /games/{id} ms p50",
                "GET ratio", "full fold ms p50"])
    for r in sec["rows"]:
        t.add_row(str(r["size"]), str(r["events"]), _f(r["load_ms"]["p50"], 3),
                  _f(r["load_ratio"], 2), _f(r["get_ms"]["p50"], 3), _f(r["get_ratio"], 2),
                  _f(r["full_fold_ms"]["p50"], 1))
    return t


def replay_table(sec: dict[str, Any]) -> Table:
    t = _table(f"3. Replay to a random seq of a {sec['events']}-event log",
               ["path", "seqs", "p50 ms", "p99 ms", "max ms"])
    for name, key in (("GameService.state_at", "state_at_ms"),
                      ("GET /games/{id}/states/{seq}", "get_states_ms")):
        ms = sec[key]
        t.add_row(name, str(sec["seqs"]), _f(ms["p50"], 2), _f(ms["p99"], 2),
                  _f(ms["max"], 2))
    return t


def engine_table(sec: dict[str, Any]) -> Table:
    t = _table("4. Engine: complete random-bot games, in process",
               ["game", "players", "games", "games/s", "moves/s", "µs/move", "error"])
    for r in sec["rows"]:
        t.add_row(r["game"], str(r["players"]), _f(r.get("games")),
                  _f(r.get("games_per_s"), 0), _f(r.get("moves_per_s"), 0),
                  _f(r.get("us_per_move"), 1), r.get("error", ""))
    return t


def bots_table(sec: dict[str, Any]) -> Table:
    t = _table(f"5. Bots: move time (strong budget {_f(sec['budget_s'], 3)} s); the strong "
               "bot's search speed in playouts/s",
               ["game", "level", "moves", "p50 ms", "p99 ms", "max ms", "playouts/s", "error"])
    for r in sec["rows"]:
        t.add_row(r["game"], r["level"], _f(r.get("moves")), _f(r.get("p50_ms"), 2),
                  _f(r.get("p99_ms"), 2), _f(r.get("max_ms"), 2),
                  _f(r.get("playouts_per_s"), 0), r.get("error", ""))
    return t


def timers_table(sec: dict[str, Any]) -> Table:
    t = _table(f"6. Timers: {sec['measured']}",
               ["moves", "move ms p50", "hooks ms p50", "share (p50)", "share (mean)",
                "bare round trip ms p50", "bytes per timer", "rebuild: games", "rebuild ms"])
    trip, rebuild = sec["round_trip"], sec["rebuild"]
    t.add_row(str(sec["moves"]), _f(sec["move_ms"]["p50"], 3), _f(sec["hooks_ms"]["p50"], 3),
              _f(sec["share_p50"], 3), _f(sec["share_mean"], 3), _f(trip["ms"]["p50"], 3),
              _f(sec["timer_bytes"], 0), _f(rebuild["active_games"]), _f(rebuild["ms"], 0))
    return t


def aof_table(sec: dict[str, Any]) -> Table:
    t = _table("7. AOF bytes per move (3-seat Ochs & Esel, random moves)",
               ["snapshot written", "moves", "AOF bytes/move", "event bytes/move",
                "snapshot bytes"])
    for r in sec["rows"]:
        t.add_row(r["mode"], str(r["moves"]), _f(r["aof_bytes_per_move"], 0),
                  _f(r["event_bytes_per_move"], 0), _f(r["snapshot_bytes"], 0))
    loads = ", ".join(f"{k}: {_f(v, 0)}" for k, v in sec["load_us_by_events_folded"].items())
    t.caption = (f"AOF bytes per move, now / before: {_f(sec['aof_ratio'], 2)}; load µs p50 "
                 f"by events folded: {loads}")
    return t


def soak_table(sec: dict[str, Any]) -> Table:
    t = _table(f"Soak: {_f(sec['minutes'], 1)} min of games created, played, finished, swept "
               f"(never-started games expire after {_f(sec['unstarted_ttl_s'], 0)} s)",
               ["created", "finished", "never started", "swept", "moves/s",
                "memory MB/h", "without the archive MB/h", "archive KB/game"])

    def mb(value: float | None) -> str:
        return _f(value / 1e6, 2) if value is not None else "–"

    t.add_row(str(sec["games_created"]), str(sec["games_finished"]),
              str(sec["games_never_started"]), str(sec["games_swept"]),
              _f(sec["moves_per_s"], 0), mb(sec["memory_per_hour"]),
              mb(sec["memory_without_archive_per_hour"]),
              _f(sec["archive_bytes_per_finished_game"] / 1e3, 1))
    low, high = sec["unstarted_listed"]
    t.caption = (f"slopes over the {sec['steady_samples']} samples after "
                 f"{_f(sec['steady_from_s'], 0)} s (the steady state); finished games are "
                 f"kept (the archive); never-started games present: {low}–{high}")
    return t


def peer_table(sec: dict[str, Any]) -> Table:
    from bench.peer.report import peer_table as table  # (it uses this module's helpers)

    return table(sec)


def inbox_table(sec: dict[str, Any]) -> Table:
    t = _table(f"8. Inbox: GET /players/me/games?my_turn=true vs GET /games/{{id}}, with the "
               f"player's key ({sec['samples']} of each per size, interleaved)",
               ["player's games", "their turn", "page entries", "inbox ms p50/p95",
                "view ms p50/p95", "inbox / view (p50)"])
    for r in sec["rows"]:
        t.add_row(str(r["games"]), str(r["my_turn"]), str(r["page_entries"]),
                  _lat(r["inbox_ms"], ("p50", "p95")), _lat(r["view_ms"], ("p50", "p95")),
                  _f(r["inbox_per_view"], 2))
    return t


def cluster_table(sec: dict[str, Any]) -> Table:
    t = _table("9. Moves over HTTP: one Redis vs a three-master Redis Cluster, in turns "
               "(per move: Redis commands, Redis's own µs, CPU ms of the store, the web "
               "workers and the queues' Redis)",
               ["clients", "store", "moves/s", "move ms p50/p95/p99", "commands/move",
                "Redis µs/move", "Redis CPU ms/move", "web CPU ms/move",
                "queues: commands, CPU ms /move", "errors"])
    for r in sec["rows"]:
        t.add_row(str(r["clients"]), r["store"], _f(r["moves_per_s"], 0),
                  _lat(r["move_latency_ms"]), _f(r["redis_commands_per_move"], 1),
                  _f(r["redis_us_per_move"], 0), _f(r["redis_cpu_ms_per_move"], 3),
                  _f(r["web_cpu_ms_per_move"], 3),
                  f"{_f(r['queue_commands_per_move'], 1)}, "
                  f"{_f(r['queue_cpu_ms_per_move'], 3)}",
                  str(sum(r["errors"].values())))
    t.caption = "cluster / one Redis: " + "; ".join(
        f"{x['clients']} clients, moves/s {_f(x['moves_per_s'], 2)}, "
        f"move p99 {_f(x['move_p99'], 2)}" for x in sec.get("ratios", [])) + \
        ". CPU µs per append notice, publisher / each other node / a subscriber: " + \
        "; ".join(f"{x['store']} {_f(x['publisher_us_per_notice'], 1)} / "
                  f"{'+'.join(_f(u, 1) for u in x['other_nodes_us_per_notice']) or '-'} / "
                  f"{_f(x['subscriber_us_per_notice'], 1)}" for x in sec.get("notices", []))
    return t


def app_table(sec: dict[str, Any]) -> Table:
    t = _table(f"App: process CPU per request in the WSGI app (no server), median of "
               f"{sec['rounds']} rounds of {sec['moves_per_round']} moves (min–max)",
               ["mode", "GET /games/{id} ms", "POST …/actions ms", "move ms"])
    for r in sec["rows"]:
        t.add_row(r["rate_limits"], *(
            f"{r[k]['median']:.3f} ({r[k]['min']:.3f}–{r[k]['max']:.3f})"
            for k in ("get_ms", "post_ms", "move_ms")))
    return t


# Each section's table, in the order the run prints them (the profile adds several).
SECTION_TABLES: tuple[tuple[str, Callable[[dict[str, Any]], Table]], ...] = (
    ("http", http_table), ("state", state_table), ("replay", replay_table),
    ("engine", engine_table), ("bots", bots_table), ("timers", timers_table),
    ("aof", aof_table), ("peer", peer_table), ("inbox", inbox_table), ("cluster", cluster_table),
    ("app", app_table), ("soak", soak_table),
)


def profile_tables(sec: dict[str, Any]) -> list[Table]:
    if "error" in sec:
        t = _table("Profile", ["error"])
        t.add_row(sec["error"])
        return [t]
    out = []
    for title, part in (
            (f"Profile: web workers under {sec['clients']} clients, py-spy "
             f"({sec['samples']} samples)", sec),
            ("Profile: the same moves in process, pyinstrument "
             f"({_f(sec.get('in_process', {}).get('ms_per_move'), 3)} ms per move)",
             sec.get("in_process", {}))):
        for key, label in (("top_self", "by self time"), ("top_total_own_code",
                                                           "our code by total time")):
            if key not in part:
                continue
            t = _table(f"{title}, {label}", ["function", "self %", "total %"])
            for r in part[key]:
                t.add_row(escape(r["function"]), _f(r["self_pct"], 1), _f(r["total_pct"], 1))
            out.append(t)
    return out


# --- targets ------------------------------------------------------------------------------

def targets(sections: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with the figure that decides it; `met` is None when not measured."""
    out: list[dict[str, Any]] = []

    def add(name: str, value: Any, limit: str, met: bool | None, at: str) -> None:
        out.append({"target": name, "value": value, "limit": limit, "met": met, "at": at})

    http = sections.get("http")
    if http and http["rows"]:
        first = http["rows"][0].get("appendfsync")  # the targets read the first mode's runs
        rows = {r["clients"]: r for r in http["rows"] if r.get("appendfsync") == first}
        clients = TARGET_CLIENTS if TARGET_CLIENTS in rows else max(rows)
        r = rows[clients]
        at = f"{clients} clients"
        add("moves/ceiling", r["moves_per_ceiling"], ">= 0.5",
            _ge(r["moves_per_ceiling"], 0.5), at)
        add("requests/ceiling (2 requests per move)", r["requests_per_ceiling"], ">= 0.5",
            _ge(r["requests_per_ceiling"], 0.5), at)
        add("CPU per ping / CPU per move", r["cpu_moves_per_ceiling"], ">= 0.5",
            _ge(r["cpu_moves_per_ceiling"], 0.5), at)
        add("CPU per ping / CPU per request", r["cpu_requests_per_ceiling"], ">= 0.5",
            _ge(r["cpu_requests_per_ceiling"], 0.5), at)
        p99 = (r["move_latency_ms"] or {}).get("p99")
        add("move p99 ms", p99, "<= 50", _le(p99, 50.0), at)
        errors = sum(sum(x["errors"].values()) for x in http["rows"])
        add("errors other than 409/412", errors, "== 0", errors == 0, "every run")
    state = sections.get("state")
    if state and state["rows"]:
        last = state["rows"][-1]
        at = f"{last['events']} vs {state['rows'][0]['events']} events"
        add("state load ratio", last["load_ratio"], "<= 1.2", _le(last["load_ratio"], 1.2), at)
        add("GET /games/{id} ratio", last["get_ratio"], "<= 1.2",
            _le(last["get_ratio"], 1.2), at)
    replay = sections.get("replay")
    if replay:
        worst = replay["state_at_ms"]["max"]
        add("replay max ms", worst, "<= 50", _le(worst, 50.0),
            f"{replay['seqs']} seqs of {replay['events']} events")
    bots = sections.get("bots")
    if bots:
        strong = [r for r in bots["rows"] if r["level"] == "strong"]
        measured = [r["p99_ms"] for r in strong if "p99_ms" in r]
        worst_bot = max(measured) if measured else None
        failed = [r["game"] for r in strong if "error" in r]
        add("strong bot p99 ms", worst_bot, "<= 1000", _le(worst_bot, 1000.0),
            "worst game" + (f"; failed: {', '.join(failed)}" if failed else ""))
    inbox = sections.get("inbox")
    if inbox and inbox["rows"]:
        first, last = inbox["rows"][0], inbox["rows"][-1]
        # A page of up to 10 games against the view of one: about one view, not one per game.
        add("inbox page / view", last["inbox_per_view"], "<= 2",
            _le(last["inbox_per_view"], 2.0), f"{last['games']} games, p50 / p50")
        growth = last["inbox_ms"]["p50"] / first["inbox_ms"]["p50"]
        add("inbox page, many games / few", growth, "<= 1.3", _le(growth, 1.3),
            f"{last['games']} vs {first['games']} games, p50")
    timers = sections.get("timers")
    if timers:
        add("deadline / move", timers["share_p50"], "<= 0.10", _le(timers["share_p50"], 0.10),
            "p50 / p50")
    return out


def _ge(value: float | None, limit: float) -> bool | None:
    return None if value is None else value >= limit


def _le(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def targets_table(rows: list[dict[str, Any]]) -> Table:
    t = _table("Targets", ["target", "value", "limit", "met", "at"])
    for r in rows:
        met = {True: "yes", False: "NO", None: "–"}[r["met"]]
        value = r["value"]
        t.add_row(r["target"], _f(value, 3) if isinstance(value, float) else _f(value),
                  r["limit"], met, r["at"])
    return t
