"""What the server says about a game, in French and German: each project game's title,
options' descriptions and rulings are translated in its own package's catalog, every error code the
server or a game raises has a message for people in each language, and no translation
loses a `{placeholder}`. A new text without its translations fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api.errors import _HTTP_CODES
from domain.i18n import (
    ERROR,
    SERVER_DOMAIN,
    SERVER_LOCALE,
    catalog_path,
    game_locale_dir,
    read_catalog,
)
from tests.support.games import project_games

ROOT = Path(__file__).parents[2]
LANGUAGES = ("fr", "de")
_CODE = [re.compile(r'\bcode\s*=\s*"([a-z][a-z_]+)"'),
         re.compile(r'\bcode:\s*str\s*=\s*"([a-z][a-z_]+)"'),
         re.compile(r'ApiError\(\s*\d+\s*,\s*"([a-z][a-z_]+)"')]
_FAILURE = re.compile(r'Failure\(\s*\d+\s*,\s*\(([^)]*)\)')
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def codes_in(paths: list[Path]) -> set[str]:
    """The error codes raised in these sources (`code="…"`, `ApiError(400, "…"`, the codes a
    documented `Failure` lists)."""
    found: set[str] = set()
    for path in paths:
        text = path.read_text()
        for pattern in _CODE:
            found.update(pattern.findall(text))
        for listed in _FAILURE.findall(text):
            found.update(re.findall(r'"([a-z][a-z_]+)"', listed))
    return found


def server_codes() -> set[str]:
    sources = [p for folder in ("api", "domain") for p in (ROOT / folder).rglob("*.py")
               if "games" not in p.relative_to(ROOT).parts]
    documented = json.dumps(json.loads((ROOT / "openapi" / "openapi.json").read_text()))
    listed = set()
    for codes in re.findall(r'"x-codes": \[([^\]]*)\]', documented):
        listed.update(re.findall(r'"([a-z_]+)"', codes))
    return codes_in(sources) | listed | set(_HTTP_CODES.values())


def game_catalog(game_id: str, lang: str) -> dict:
    game = project_games()[game_id]
    return dict(read_catalog(catalog_path(game_locale_dir(game), lang, game_id)))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_says_its_title_options_and_rulings_in_each_language(lang):
    for game_id, game in project_games().items():
        catalog = game_catalog(game_id, lang)
        texts = [game.title, *[o.description for o in game.options if o.description],
                 *game.rules]
        missing = [t for t in texts if (None, t) not in catalog]
        assert not missing, f"{game_id} ({lang}): no translation of {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_a_message_in_each_language(lang):
    server = read_catalog(catalog_path(SERVER_LOCALE, lang, SERVER_DOMAIN))
    missing = sorted(c for c in server_codes() if (ERROR, c) not in server)
    assert not missing, f"{lang}: error codes without a message: {missing}"
    games = [game_catalog(g, lang) for g in project_games()]
    rule_codes = codes_in(list((ROOT / "domain" / "games").rglob("*.py")))
    missing = sorted(c for c in rule_codes
                     if (ERROR, c) not in server and not any((ERROR, c) in g for g in games))
    assert not missing, f"{lang}: the games' rule codes without a message: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_loses_a_placeholder(lang):
    catalogs = [read_catalog(catalog_path(SERVER_LOCALE, lang, SERVER_DOMAIN))]
    catalogs += [game_catalog(g, lang) for g in project_games()]
    for catalog in catalogs:
        for (_context, msgid), text in catalog.items():
            for form in (text,) if isinstance(text, str) else text:
                assert set(_PLACEHOLDER.findall(form)) <= set(_PLACEHOLDER.findall(msgid)) \
                    | {"n"}, (lang, msgid, form)
