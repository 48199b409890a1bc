"""Jinja2 environment shared by the page routes (autoescaping on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates

from app.api.games import GAMES_DESCRIBED
from app.i18n import available_languages, current_language, language_named
from app.i18n.browser import browser_catalog_url
from app.i18n.current import raw_gettext, raw_ngettext, raw_npgettext, raw_pgettext
from app.web import display
from app.web.assets import asset_url

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

templates = Jinja2Templates(directory=TEMPLATES_DIR)
templates.env.add_extension("jinja2.ext.i18n")
# `{{ _("Log in") }}`, `{% trans %}`, in the request's language (app/i18n); newstyle: the
# placeholders are filled by name and their values escaped.
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    raw_gettext, raw_ngettext, newstyle=True, pgettext=raw_pgettext, npgettext=raw_npgettext
)
# The page's language (`<html lang dir>`) and the languages a visitor may choose.
templates.env.globals["page_language"] = lambda: language_named(current_language())
templates.env.globals["languages"] = available_languages
# The scripts' words (static/js/i18n.js reads the URL from base.html).
templates.env.globals["words_url"] = browser_catalog_url
# Pages link their CSS and scripts as `{{ asset_url("css/salon.css") }}` (versioned, cached).
templates.env.globals["asset_url"] = asset_url
# The games, from the registry: pages list them (`game_list()`, `game_described()` by key,
# `game_titles()`) and embed them for the scripts (base.html), so that no page or script
# keeps its own list. Their titles in the page's language (marked in the engines).
_GAMES = [game.model_dump() for game in GAMES_DESCRIBED]


def games_said() -> list[dict[str, Any]]:
    return [{**game, "title": raw_gettext(game["title"])} for game in _GAMES]


templates.env.globals["game_list"] = games_said
templates.env.globals["game_described"] = lambda: {game["name"]: game for game in games_said()}
templates.env.globals["game_titles"] = lambda: {g["name"]: g["title"] for g in games_said()}
# Times, counts and codes as people read them (app.web.display): `{{ at|when }}`,
# `{{ n|counted(club.chip_unit) }}`, `{{ kind|ledger_kind }}`.
templates.env.filters["when"] = display.when
templates.env.filters["counted"] = display.counted
templates.env.filters["ledger_kind"] = display.ledger_kind
