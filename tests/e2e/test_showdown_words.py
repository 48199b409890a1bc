"""The Bouillotte result says why the winner won, in words: the brelan, or the suit whose
points carried it and whether the upcard counted — checked in Chromium on the worked
example of rules/bouillotte.md §6 (the table page's own module renders the result)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.e2e.ui import LiveServer, NewPage

RENDER = """async (report) => {
    const { result } = await import('/static/js/table/bouillotte.js');
    const ctx = { displayName: (u) => u, cardOptions: {}, delta: () => '' };
    return result(report, ctx)
        .filter((el) => el.dataset && el.dataset.testid === 'winner')
        .map((el) => el.textContent);
}"""


def headlines(page: Page, report: dict[str, Any]) -> list[str]:
    lines: list[str] = page.evaluate(RENDER, report)
    return lines


def report_of(showdown: dict[str, list[str]], *, players: list[str], upcard: str) -> dict[str, Any]:
    values = {"A": 11, "K": 10, "Q": 10, "J": 10, "9": 9, "8": 8}
    points: dict[str, int] = {}
    for card in [upcard, *(c for cards in showdown.values() for c in cards)]:
        points[card[1]] = points.get(card[1], 0) + values[card[0]]
    return {
        "number": 1,
        "upcard": upcard,
        "players": players,
        "pots": [],
        "showdown": {p: {"rank": "points", "cards": cards} for p, cards in showdown.items()},
        "suit_points": dict(sorted(points.items(), key=lambda kv: -kv[1])),
        "bonuses": [],
        "carry": 0,
        "stacks": {p: 100 for p in showdown},
    }


def test_the_showdown_says_why(live_server: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{live_server.base_url}/login")
    # §6's worked example: diamonds (39) win; the AD is folded, so C (KD) owns them.
    example = report_of(
        {
            "A": ["AD", "9C", "8H"],
            "B": ["QH", "AC", "8C"],
            "C": ["KD", "QD", "AS"],
            "D": ["KH", "8D", "QS"],
        },
        players=["B", "C"],
        upcard="9S",
    )
    example["pots"] = [{"amount": 12, "winner": "C"}]
    assert example["suit_points"]["D"] == 39
    assert headlines(page, example) == ["C wins the pot of 12 with 39 in diamonds."]
    # The upcard in the winning suit is said to count.
    spades = report_of(
        {"B": ["AS", "KS", "8C"], "C": ["QH", "9H", "8D"]}, players=["B", "C"], upcard="QS"
    )
    spades["pots"] = [{"amount": 6, "winner": "B"}]
    assert headlines(page, spades) == ["B wins the pot of 6 with 31 in spades (upcard counted)."]
    # A brelan is named, and side pots say which pot each winner takes.
    brelan = report_of(
        {"B": ["KH", "KD", "KC"], "C": ["AS", "AH", "9D"]}, players=["B", "C"], upcard="8S"
    )
    brelan["showdown"]["B"]["rank"] = "brelan"
    brelan["pots"] = [{"amount": 10, "winner": "B"}, {"amount": 4, "winner": "C"}]
    said = headlines(page, brelan)
    assert said[0] == "B wins the main pot of 10 with a brelan of kings."
    assert said[1].startswith("C wins side pot 1 of 4")
