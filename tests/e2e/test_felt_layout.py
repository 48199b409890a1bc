"""The middle of the felt is the players' to read: the pot, the trump or upcard and every
card of the trick lie in a trick area that no seat covers, at every number of seats the
game allows (Bourré 2 to 8, Bouillotte 3 to 5), on a 375x667
phone and a 1280x800 laptop, for both games. Measured on the table page itself: each view
is drawn by the page's own felt code (as a snapshot from the server would be), with the
longest names and the most tags a seat can show, and every card of a full trick.

On a right-to-left page (Arabic, Persian) the page mirrors but the felt does not: it keeps
the game's direction of play, every seat, seat's part and card in its place."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.table_ui import call_api
from tests.e2e.test_phone_layout import inside, overlap
from tests.e2e.ui import PHONE, LiveServer, NewPage, Screen, Shot, log_in

LAPTOP = Screen(1280, 800)
SEATS = {"bourre": range(2, 9), "bouillotte": range(3, 6)}
CARDS = ["AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C"]
NAMES = [
    "Hyacinthe",
    "Barnabé-Louis",
    "Cunégonde",
    "Désiré",
    "Eulalie",
    "Fulbert",
    "Gudule",
    "Amandine",
]

# A view as the server sends it to the player in seat 0, mid-hand: every seat taken (bots
# and players), each with its tags; in Bourré a trick with a card from every seat.
_DRAW = """async ([game, count]) => {
    const felt = await import('/static/js/table/felt.js');
    const module = await import(`/static/js/table/${game}.js`);
    const cards = %(cards)s;
    const names = %(names)s;
    const seats = Array.from({length: count}, (_, seat) => ({
        seat, name: names[seat], username: `u${seat}`, stack: 1234, bot: seat %% 2 === 1,
        sitting_out: false, leaving: false, connected: true,
    }));
    const handSeats = Array.from({length: count}, (_, seat) => game === 'bourre'
        ? {seat, stack: 1234, status: 'playing', cards: 4, exchanged: 3, drawn: true,
           tricks: 2}
        : {seat, stack: 1234, status: 'in', cards: 3, stake: 120});
    const hand = game === 'bourre'
        ? {number: 7, phase: 'tricks', dealer: count - 1, to_act: [], seats: handSeats,
           trick: cards.slice(0, count).map((card, seat) => ({seat, card})), tricks: [],
           trump: 'H', turned_card: '2H', pot: 1616, hand_size: 5, stock: 10, hand: [],
           legal_actions: []}
        : {number: 7, phase: 'calls', dealer: count - 1, to_act: [], seats: handSeats,
           straddles: [{seat: 0, action: 'straddle'}], opener: 1, upcard: '2H', pot: 1616,
           highest_stake: 120, dead_money: 12, hand: [], legal_actions: []};
    const view = {table: {seat_count: count, turn_seconds: 30, status: 'open', rules: {}},
                  seats, you: {seat: 0}, hand, pot: 1616};
    const ctx = {cardOptions: {},
                 placeToward: (el, seat, share) => felt.placeToward(el, view, seat, share)};
    felt.drawFelt({seats: document.getElementById('seats'),
                   centre: document.getElementById('centre')}, view, module, ctx);
    return (%(measure)s)();
}"""

MEASURE = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    const uncovered = (el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && el.contains(hit);
    };
    const centre = document.getElementById('centre');
    const pot = document.querySelector('#centre [data-testid=pot]');
    return {
        felt: box(document.getElementById('seats')),
        area: box(centre),
        seats: [...document.querySelectorAll('#seats .seat')].map((s) => [s.dataset.seat, box(s)]),
        shown: [pot, ...document.querySelectorAll(
            '#centre .trick-card, #centre .trump > .card, #centre .upcard > .card,'
            + ' #centre .pot-notes > *')]
            .map((el) => [el.dataset.card || el.textContent, box(el), uncovered(el)]),
        trick: document.querySelectorAll('#centre .trick-card').length,
    };
}"""

# Where everything on the felt is (px from the felt's top left corner: the felt itself moves
# when the page mirrors), and on which side of the felt the chat is, or of the phone's bar
# its Menu button: the page's own direction.
PLACES = """() => {
    const felt = document.getElementById('seats').getBoundingClientRect();
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left - felt.left, r.top - felt.top, r.right - felt.left, r.bottom - felt.top];
    };
    const mid = (el) => {
        const r = el.getBoundingClientRect();
        return r.left + r.width / 2;
    };
    const phone = innerWidth < 761;
    const side = phone ? document.getElementById('menu-toggle') : document.querySelector('.chat');
    const of = phone ? document.querySelector('.table-bar') : document.getElementById('felt');
    return {
        direction: getComputedStyle(document.body).direction,
        placed: [...document.querySelectorAll('#seats *, #centre .trick-card')]
            .filter((el) => el.getClientRects().length)
            .map((el) => [`${el.closest('.seat')?.dataset.seat ?? 'trick'} ${el.className}`
                          + ` ${el.dataset.card ?? el.textContent}`, box(el)]),
        dealer: (() => {
            const button = document.querySelector('#seats .dealer-button');
            return [box(button.closest('.seat').querySelector('.avatar')), box(button)];
        })(),
        pageSide: mid(side) > mid(of) ? 'right' : 'left',
    };
}"""

DRAW = _DRAW % {"cards": CARDS, "names": NAMES, "measure": MEASURE}
DRAW_PLACES = _DRAW % {"cards": CARDS, "names": NAMES, "measure": PLACES}


def felt_problems(page: Page, game: str, count: int) -> list[str]:
    # Drawn and measured at once: no message from the (paused) table comes in between.
    found: dict[str, Any] = page.evaluate(DRAW, [game, count])
    area = found["area"]
    problems = []
    if not inside(area, found["felt"]):
        problems.append(f"the trick area {area} is not inside the felt {found['felt']}")
    for seat, seat_box in found["seats"]:
        if overlap(seat_box, area):
            problems.append(f"seat {seat} {seat_box} covers the trick area {area}")
    for what, shown_box, uncovered in found["shown"]:
        if not inside(shown_box, area):
            problems.append(f"{what!r} {shown_box} lies outside the trick area {area}")
        if not uncovered:
            problems.append(f"something covers {what!r} {shown_box}")
    if game == "bourre" and found["trick"] != count:
        problems.append(f"{found['trick']} cards in the trick, not {count}")
    return problems


def paused_table_on_two_screens(
    live_server: LiveServer, new_page: NewPage, table_name: str, game: str, seats: int
) -> Iterator[tuple[str, Page]]:
    """A paused table of `seats` seats opened by the owner, shown on a laptop, then on a
    phone: (screen's name, its page) in turn, each connected."""
    base = live_server.base_url
    owner = new_page(LAPTOP)
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    table = call_api(
        owner,
        "POST",
        "/api/tables",
        {
            "name": table_name,
            "game": game,
            "seat_count": seats,
            "turn_seconds": 300,
            "rules": {"cave": 100} if game == "bouillotte" else {"ante": 1},
            "buy_in_min": 100,
            "buy_in_max": 100,
        },
    )
    call_api(owner, "POST", f"/api/tables/{table['id']}/pause")
    for screen, name in ((LAPTOP, "laptop"), (PHONE, "phone")):
        page = owner if screen is LAPTOP else new_page(PHONE)
        if page is not owner:
            log_in(page, base, live_server.owner_username, live_server.owner_password)
        page.goto(f"{base}/tables/{table['id']}")
        expect(page.locator("#connection")).to_have_text("Connected")
        yield name, page


@pytest.mark.parametrize("game", ["bourre", "bouillotte"])
def test_no_seat_covers_the_trick_or_the_pot(
    live_server: LiveServer, new_page: NewPage, shot: Shot, game: str
) -> None:
    problems = []
    for name, page in paused_table_on_two_screens(
        live_server, new_page, f"Layout {game}", game, max(SEATS[game])
    ):
        for count in SEATS[game]:
            problems += [f"{name}, {count} seats: {p}" for p in felt_problems(page, game, count)]
            if count in (min(SEATS[game]), 5, 8):
                shot(page, f"felt-{game}-{name}-{count}-seats")
    assert not problems, "\n".join(problems)


def test_the_felt_does_not_mirror_right_to_left(live_server: LiveServer, new_page: NewPage) -> None:
    for name, page in paused_table_on_two_screens(
        live_server, new_page, "Right to left", "bourre", 6
    ):
        english: dict[str, Any] = page.evaluate(DRAW_PLACES, ["bourre", 6])
        page.evaluate("() => { document.documentElement.dir = 'rtl'; }")
        arabic: dict[str, Any] = page.evaluate(DRAW_PLACES, ["bourre", 6])
        # The page itself mirrors (else this test proves nothing)...
        assert (english["direction"], arabic["direction"]) == ("ltr", "rtl"), name
        assert (english["pageSide"], arabic["pageSide"]) == ("right", "left"), name
        # ...and the felt does not: every seat, avatar, name, stack, tag, card held, the
        # dealer's button and each card of the trick where it was, the button still on
        # the avatar's right.
        assert len(english["placed"]) > 6 * 4, name
        moved = [
            f"{what}: {before} -> {after}"
            for (what, before), (_, after) in zip(english["placed"], arabic["placed"], strict=True)
            if max(abs(a - b) for a, b in zip(before, after, strict=True)) > 1
        ]
        assert not moved, f"{name}: " + "; ".join(moved)
        avatar, button = arabic["dealer"]
        assert button[0] >= avatar[2] - 1, f"{name}: dealer's button {button}, avatar {avatar}"
