"""The stylesheets follow the page's direction: an Arabic or Persian page (dir="rtl") is
mirrored by the same rules that lay out the English one, and only what is marked
`/* physical: why */` (the felt's geometry, a box centred on the page) stays put."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.css_lint import physical_directions

STATIC_CSS = Path(__file__).resolve().parents[2] / "static" / "css"


def test_every_stylesheet_is_direction_neutral() -> None:
    sheets = sorted(STATIC_CSS.glob("*.css"))
    assert sheets, f"no stylesheet under {STATIC_CSS}"
    found = [
        problem
        for sheet in sheets
        for problem in physical_directions(sheet.read_text(encoding="utf-8"), sheet.name)
    ]
    assert not found, "physical directions (use logical ones, or mark them):\n" + "\n".join(found)


@pytest.mark.parametrize(
    "css",
    [
        ".a { margin-left: 1rem; }",
        ".a { padding-right: 1rem }",
        ".a { border-left: 4px solid red; }",
        ".a { border-left-color: red; }",
        ".a { border-top-right-radius: 4px; }",
        ".a { position: absolute; left: 0; }",
        ".a { right: 2px; }",
        ".a { text-align: left; }",
        ".a { text-align: right !important; }",
        ".a { float: right; }",
        ".a { clear: left; }",
        ".a { transition: margin-left .2s; }",
        ".a { background: linear-gradient(to right, red, blue); }",
        ".a { margin: 0 0 0 auto; }",
        ".a { padding: .2rem .4rem .2rem .6rem; }",
        ".a { border-radius: 0 12px 12px 0; }",
        ".a { box-shadow: inset 4px 0 0 gold; }",
        ".a { box-shadow: 0 1px 2px #000, -3px 0 0 red; }",
        "@media (max-width: 760px) {\n  .a { color: red; margin-left: 0; }\n}",
    ],
)
def test_a_physical_direction_is_caught(css: str) -> None:
    assert len(physical_directions(css)) == 1, css


@pytest.mark.parametrize(
    "css",
    [
        ".a { margin-inline-start: 1rem; }",
        ".a { padding-inline-end: 1rem; border-inline-start: 4px solid red; }",
        ".a { inset-inline: 0; inset-inline-end: 2px; }",
        ".a { text-align: start; float: inline-end; clear: inline-start; }",
        ".a { border-start-end-radius: 4px; border-radius: 0 0 12px 12px; }",
        ".a { margin: 0 auto; padding: .2rem .4rem .2rem .4rem; }",
        ".a { margin-block: .25rem; margin-inline: 0 .5rem; }",
        ".a { transform: translateX(-50%) translate(-50%, -50%); }",
        ".a { box-shadow: 0 1px 3px rgb(0 0 0 / .08), 0 0 0 3px var(--gold); }",
        '.a { grid-template-areas: "left right"; content: "left"; }',
        ".a:hover, .b::before { color: red; }",
        "/* the panel is left alone, on the right */ .a { color: #fff; }",
        ".a { left: 50%; } /* physical: centred */",
        "/* physical: the felt does not mirror */\n.a { left: var(--x); top: var(--y); }",
    ],
)
def test_a_logical_or_marked_rule_passes(css: str) -> None:
    assert physical_directions(css) == [], css


def test_a_problem_names_its_file_and_line() -> None:
    css = ".a { color: red; }\n\n.b {\n  margin-inline-start: 1rem;\n  margin-left: 1rem;\n}\n"
    assert physical_directions(css, "x.css") == ["x.css:5: margin-left: 1rem (a physical property)"]


def test_a_marker_excuses_its_line_and_the_next_only() -> None:
    css = "/* physical: the felt does not mirror */\n.a { left: 0; }\n.b { left: 0; }\n"
    assert physical_directions(css, "x.css") == ["x.css:3: left: 0 (a physical property)"]
