"""What the server says, in the players' languages: English (the messages' ids), French and
German, from gettext catalogs (`.po` files, read with Babel).

Two kinds of catalog:
- the server's own (`domain/locale/<lang>/LC_MESSAGES/donkeypost.po`): the error messages
  people read, one per error `code` (in the context `error`), and the table's own words;
- each game's, in the game's own package: `<dir>/locale/<lang>/LC_MESSAGES/<game id>.po`,
  where `<dir>` is the folder of the module its entry point names (a game may say
  otherwise with a `locale_dir` attribute). It translates the game's title, its options'
  descriptions, its rulings, its labels and sentences, and its rules' error codes (context
  `error`). A plugin game brings its catalogs in its own distribution: nothing here names
  a game.

A message without a translation reads in English: nothing fails at run time; the tests
fail instead when a message lacks one (`tests/unit/test_server_catalogs.py`).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LANGUAGES = ("en", "fr", "de")
DEFAULT = "en"
SERVER_DOMAIN = "donkeypost"
SERVER_LOCALE = Path(__file__).with_name("locale")
ERROR = "error"  # the context of an error code's message
GAMES_GROUP = "donkeypost.games"

Translate = Callable[[str], str]
# (msgid, English plural, count) -> the template in the language: what the games' texts
# are rendered with (domain.texts)
TranslatePlural = Callable[[str, str | None, int | None], str]
Key = tuple[str | None, str]  # (context, msgid)
Forms = str | tuple[str, ...]  # a translation, or its plural forms


def catalog_path(locale_dir: Path, lang: str, domain: str) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=256)
def read_catalog(path: Path) -> Mapping[Key, Forms]:
    """The translated messages of a `.po` file (none if there is no such file), by context
    and message id (a plural message by its singular id, with its forms): fuzzy and empty
    translations are left out."""
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        catalog = read_po(f)
    out: dict[Key, Forms] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, str):
            if isinstance(message.string, str) and message.string:
                out[(message.context, message.id)] = message.string
        elif message.string and all(message.string):
            out[(message.context, message.id[0])] = tuple(message.string)
    return out


def plural_form(lang: str, n: int) -> int:
    """Which plural form a count takes: French says "1 carte, 0 carte, 2 cartes", German
    and English "1 Karte, 0 Karten"."""
    return int(n > 1) if lang == "fr" else int(n != 1)


def game_locale_dir(game: Any) -> Path:
    """Where a game's catalogs are: its `locale_dir`, else `locale/` beside the module its
    entry point names, else beside the module that defines its class."""
    explicit = getattr(game, "locale_dir", None)
    if explicit:
        return Path(explicit)
    for point in entry_points(group=GAMES_GROUP, name=game.id):
        module = sys.modules.get(point.module) or importlib.import_module(point.module)
        if getattr(module, "__file__", None):
            return Path(module.__file__).parent / "locale"  # type: ignore[arg-type]
    return Path(inspect.getfile(type(game))).parent / "locale"


def negotiate(asked: str | None, accepted: Iterable[tuple[str, float]] = ()) -> str:
    """The language to answer in: `asked` if it is one of ours, else the first of the
    accepted ones (language tags with their weights, as in `Accept-Language`), else
    English."""
    if asked and asked.lower()[:2] in LANGUAGES:
        return asked.lower()[:2]
    best = sorted(((q, -i, tag.lower()[:2]) for i, (tag, q) in enumerate(accepted)
                   if tag.lower()[:2] in LANGUAGES and q > 0), reverse=True)
    return best[0][2] if best else DEFAULT


class Texts:
    """The translations this process knows: the server's catalogs and those of its games."""

    def __init__(self, games: Mapping[str, Any], server_dir: Path = SERVER_LOCALE) -> None:
        self._server_dir = server_dir
        self._game_dirs = {game_id: game_locale_dir(game) for game_id, game in games.items()}

    def _catalogs(self, lang: str, game: str | None) -> list[Mapping[Key, str]]:
        found = []
        if game is not None and game in self._game_dirs:
            found.append(read_catalog(catalog_path(self._game_dirs[game], lang, game)))
        found.append(read_catalog(catalog_path(self._server_dir, lang, SERVER_DOMAIN)))
        return found

    def translate(self, lang: str, msgid: str, game: str | None = None,
                  context: str | None = None) -> str:
        """`msgid` in `lang`: from the game's catalog, else the server's, else as it is."""
        if lang == DEFAULT:
            return msgid
        for catalog in self._catalogs(lang, game):
            text = catalog.get((context, msgid))
            if isinstance(text, str):
                return text
            if text is not None:
                return text[0]
        return msgid

    def translate_plural(self, lang: str, msgid: str, plural: str | None, n: int | None,
                         game: str | None = None) -> str:
        """A message with an English plural, in `lang`, in the form `n` takes."""
        english = plural if plural is not None and n is not None and n != 1 else msgid
        if lang == DEFAULT:
            return english
        for catalog in self._catalogs(lang, game):
            text = catalog.get((None, msgid))
            if isinstance(text, tuple):
                form = plural_form(lang, n if n is not None else 1)
                return text[min(form, len(text) - 1)]
            if text is not None:
                return text
        return english

    def translator(self, lang: str, game: str | None = None) -> TranslatePlural:
        """What a game's labels, sentences and layout are rendered with, in `lang`."""
        return lambda msgid, plural, n: self.translate_plural(lang, msgid, plural, n, game)

    def gettext(self, lang: str, game: str | None = None) -> Translate:
        """A translator for one language and game (for the game's labels and sentences)."""
        if lang == DEFAULT:
            return _same
        return lambda msgid: self.translate(lang, msgid, game)

    def error(self, lang: str, code: str, message: str) -> str:
        """What people read for an error: its code's message in `lang` (looked up in the
        server's catalog, then in each game's: a game's rules have codes of their own), or
        the English message as it was raised."""
        if lang == DEFAULT:
            return message
        for catalog in self._catalogs(lang, None):
            if isinstance(text := catalog.get((ERROR, code)), str):
                return text
        for game_id, folder in self._game_dirs.items():
            text = read_catalog(catalog_path(folder, lang, game_id)).get((ERROR, code))
            if isinstance(text, str):
                return text
        return message

    def game_type(self, lang: str, described: dict[str, Any]) -> dict[str, Any]:
        """A game type's description (GET /games/types) with its title, options'
        descriptions and rulings in `lang`."""
        if lang == DEFAULT:
            return described
        game = described["id"]
        out = dict(described)
        out["title"] = self.translate(lang, described["title"], game)
        out["options"] = [{**o, "description": self.translate(lang, o["description"], game)}
                          if o.get("description") else o for o in described["options"]]
        out["rules"] = [self.translate(lang, rule, game) for rule in described["rules"]]
        return out


def _same(msgid: str) -> str:
    return msgid
