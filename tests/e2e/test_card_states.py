"""What a Bourré player sees of their cards' state, measured on the page (computed styles,
not classes): in the draw a chosen card is lifted and outlined; on a trick the cards that
may be played stand out (lifted, ringed) and the others are dimmed — on a phone too; while
another player is to play, a player's own cards look as cards do, none dimmed."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.e2e.table_ui import act, seat_players, to_act
from tests.e2e.ui import LiveServer, NewPage, Shot, serious_violations

STYLE = """el => {
    const s = getComputedStyle(el);
    return {transform: s.transform, filter: s.filter, outline: s.outlineStyle, shadow: s.boxShadow};
}"""


def look(card: Locator) -> dict[str, str]:
    """The computed style of the card face inside a hand's card button."""
    style: dict[str, str] = card.locator("span.card").evaluate(STYLE)
    return style


def lifted(style: dict[str, str]) -> bool:
    # A translateY shows as matrix(1, 0, 0, 1, 0, -N) with N > 0.
    return (
        style["transform"].startswith("matrix")
        and float(style["transform"].rstrip(")").split(",")[-1]) < 0
    )


def test_legal_illegal_and_chosen_cards_look_different(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Jo", "Kim", "Lou"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    seen_draw = seen_trick = seen_waiting = False
    # Hands follow each other until a turn has shown both kinds of card (some deals never
    # leave a player holding a card they may not play).
    for _ in range(300):
        if seen_draw and seen_trick:
            break
        page: Page | None = to_act(pages, timeout=20)
        if page is None:  # the hand is over: the next one is dealt in a few seconds
            expect(pages[0].locator("#result")).to_be_hidden(timeout=20_000)
            continue
        controls = page.locator("#controls")
        if controls.get_by_role("button", name="Play", exact=True).count():
            act(page, controls.get_by_role("button", name="Play", exact=True))
            continue
        keep = controls.get_by_role("button", name="Keep all")
        if keep.count():
            card = page.locator("#my-hand button.card-button").first
            before = look(card)
            card.click()
            chosen = look(card)
            assert chosen["outline"] == "solid" and lifted(chosen), chosen
            assert chosen != before
            seen_draw = True
            shot(page, "bourre-card-chosen")
            controls.get_by_role("button", name="Clear").click()
            assert look(card)["outline"] != "solid"
            act(page, keep)
            continue
        legal = page.locator("#my-hand button.is-legal")
        if legal.count() and not seen_waiting:
            # The others wait for this player: their cards are not greyed like illegal ones.
            for other in pages:
                if other is page or not other.locator("#my-hand button").count():
                    continue
                other.mouse.move(1, 1)
                for n in range(other.locator("#my-hand button").count()):
                    waiting = look(other.locator("#my-hand button").nth(n))
                    assert waiting["filter"] == "none", waiting
                    assert (
                        other.locator("#my-hand span.card")
                        .nth(n)
                        .evaluate("el => getComputedStyle(el).opacity")
                        == "1"
                    )
                seen_waiting = True
        illegal = page.locator("#my-hand button.is-disabled")
        if legal.count() and illegal.count() and not seen_trick:
            page.mouse.move(1, 1)  # as seen without a mouse over the cards (a touch screen)
            ok, dim = look(legal.first), look(illegal.first)
            assert lifted(ok) and "grayscale" not in ok["filter"], ok
            assert "grayscale" in dim["filter"] and not lifted(dim), dim
            assert ok["shadow"] != dim["shadow"]
            seen_trick = True
            shot(page, "bourre-cards-legal-and-dimmed")
            assert serious_violations(page) == []  # the table mid-hand, on this screen
        # A card if one may be played, else whatever the table asks first (taking the
        # trump card, a second declaration...).
        act(page, legal.first if legal.count() else controls.locator("button:enabled").first)
    assert seen_draw, "nobody drew"
    assert seen_trick, "no turn offered legal and illegal cards together"
    assert seen_waiting, "nobody waited for another's card"
