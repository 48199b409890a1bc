"""Jinja2 environment shared by the page routes (autoescaping on)."""

from __future__ import annotations

from pathlib import Path

from fastapi.templating import Jinja2Templates

from app.web.assets import asset_url

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

templates = Jinja2Templates(directory=TEMPLATES_DIR)
# Pages link their CSS and scripts as `{{ asset_url("css/salon.css") }}` (versioned, cached).
templates.env.globals["asset_url"] = asset_url
