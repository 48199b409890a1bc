"""Jinja2 environment shared by the page routes (autoescaping on)."""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

from app.api.games import GAMES_DESCRIBED
from app.web import display
from app.web.assets import asset_url

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

templates = Jinja2Templates(directory=TEMPLATES_DIR)
# Pages link their CSS and scripts as `{{ asset_url("css/salon.css") }}` (versioned, cached).
templates.env.globals["asset_url"] = asset_url
# The games, from the registry: pages list them (`game_list`, `game_described` by key,
# `game_titles`) and embed them for the scripts (base.html), so that no page or script keeps
# its own list.
_GAMES = [game.model_dump() for game in GAMES_DESCRIBED]
templates.env.globals["game_list"] = _GAMES
templates.env.globals["game_described"] = {game["name"]: game for game in _GAMES}
templates.env.globals["game_titles"] = {game["name"]: game["title"] for game in _GAMES}
# Times, counts and codes as people read them (app.web.display): `{{ at|when }}`,
# `{{ n|counted(club.chip_unit) }}`, `{{ kind|ledger_kind }}`.
templates.env.filters["when"] = display.when
templates.env.filters["counted"] = display.counted
templates.env.filters["ledger_kind"] = display.ledger_kind
