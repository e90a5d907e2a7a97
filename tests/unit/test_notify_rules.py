"""The notifications' pure rules: quiet hours in a player's time zone (across midnight and
a change of daylight saving time), what one round of the notifier sends by which channel,
and the signed links."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from domain.notify.digest import NotifyState, plan_round
from domain.notify.links import CONFIRM, UNSUBSCRIBE, make_token, read_token
from domain.notify.prefs import BadPreferences, preferences, quiet_until

BERLIN = ZoneInfo("Europe/Berlin")


def at(year: int, month: int, day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(year, month, day, hour, minute, tzinfo=BERLIN).timestamp()


def test_quiet_hours_across_midnight_end_by_the_players_clock():
    prefs = preferences({"quiet_hours": {"start": "22:00", "end": "07:30"},
                         "time_zone": "Europe/Berlin"})
    assert quiet_until(prefs, at(2026, 6, 1, 21, 59)) is None
    assert quiet_until(prefs, at(2026, 6, 1, 23, 0)) == at(2026, 6, 2, 7, 30)
    assert quiet_until(prefs, at(2026, 6, 2, 3, 0)) == at(2026, 6, 2, 7, 30)
    assert quiet_until(prefs, at(2026, 6, 2, 7, 30)) is None
    # The night the clocks go forward (29 March 2026): 7:30 is still 7:30 on the wall.
    assert quiet_until(prefs, at(2026, 3, 28, 23, 0)) == at(2026, 3, 29, 7, 30)
    assert at(2026, 3, 29, 7, 30) - at(2026, 3, 28, 23, 0) == 7.5 * 3600


def test_preferences_refuse_what_cannot_be_kept():
    for bad in ({"time_zone": "Mars/Olympus"}, {"digest_hours": 500},
                {"quiet_hours": {"start": "25:00", "end": "07:00"}},
                {"quiet_hours": {"start": "07:00", "end": "07:00"}}):
        with pytest.raises(BadPreferences):
            preferences(bad)


def entry(n: int, kind: str = "my_turn", game: str = "g1") -> dict:
    return {"id": f"1000-{n}", "type": kind, "game": game, "game_type": "trash",
            "at": 1.0, "data": {}}


def test_a_round_pushes_each_wanted_entry_and_mails_them_once_per_window():
    prefs = preferences({"channels": ["email", "push"], "kinds": ["my_turn"],
                         "digest_hours": 2})
    entries = [entry(1), entry(2, "message"), entry(3, game="g2")]
    first = plan_round(prefs, NotifyState(), entries, 10_000.0, lambda e: False, True, True)
    assert [e["id"] for e in first.push] == ["1000-1", "1000-3"]  # chat is not wanted
    assert first.email is not None and [e["id"] for e in first.email] == ["1000-1", "1000-3"]
    assert first.state.email_after == first.state.push_after == "1000-3"
    # Within the window: pushed at once, the e-mail waits for the window's end.
    later = plan_round(prefs, first.state, [entry(4)], 11_000.0, lambda e: False, True, True)
    assert [e["id"] for e in later.push] == ["1000-4"] and later.email is None
    assert later.next_look == 10_000.0 + 2 * 3600 and later.state.email_after == "1000-3"
    # A game the player is at: passed over by both channels.
    skipped = plan_round(prefs, first.state, [entry(4)], 20_000.0,
                         lambda e: e["game"] == "g1", True, True)
    assert skipped.push == [] and skipped.email is None
    assert skipped.state.email_after == "1000-4"


def test_nothing_goes_out_in_quiet_hours_and_nothing_is_lost():
    prefs = preferences({"channels": ["push"], "quiet_hours": {"start": "00:00",
                                                               "end": "23:59"}})
    now = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC).timestamp()
    held = plan_round(prefs, NotifyState(), [entry(1)], now, lambda e: False, False, True)
    assert held.push == [] and held.state == NotifyState() and held.next_look is not None


def test_links_are_signed_bound_to_their_address_and_expire():
    secret = b"k" * 32
    token = make_token(secret, UNSUBSCRIBE, "player1", "Ann@Example.org", 100.0, 60.0)
    found = read_token(secret, token, 150.0)
    assert found is not None and found.purpose == UNSUBSCRIBE and found.player_id == "player1"
    assert read_token(secret, token, 161.0) is None  # expired
    assert read_token(b"x" * 32, token, 150.0) is None  # another server's
    assert read_token(secret, token.replace(UNSUBSCRIBE, CONFIRM, 1), 150.0) is None
    other = make_token(secret, UNSUBSCRIBE, "player1", "bob@example.org", 100.0, 60.0)
    assert read_token(secret, other, 150.0).address_digest != found.address_digest
