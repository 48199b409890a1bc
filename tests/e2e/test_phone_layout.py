"""The table on a 375x667 touch phone, measured on the page: on the player's Bouillotte turn
the pot, the stake to match, their cards and every control are on screen together, each
control a 44 px tap target; eight seats fit around the felt with their tags, the dealer's
button beside the avatar; the table's options show whole labels; and no card flying to the
trick's winner widens the page (on a laptop either). The phone's first screen and its menu:
test_table_menu.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import act, quick_table, resume, to_act
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Shot

TAP = 44  # px, each way: the smallest comfortable touch target

# Everything the player needs on their turn, with its box in the window (CSS px).
TURN_BOXES = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: r.width, height: r.height};
    };
    const named = (selector, what) => [...document.querySelectorAll(selector)]
        .filter((el) => el.getClientRects().length)
        .map((el) => ({what: what(el), ...box(el)}));
    return {
        screen: [screen.width, screen.height],
        inner: [innerWidth, innerHeight],
        needed: [
            ...named("[data-testid=pot]", () => "pot"),
            ...named("[data-testid=stake]", () => "stake to match"),
            ...named("#centre .upcard", () => "upcard"),
            ...named("#my-hand span.card", (el) => `card ${el.dataset.card}`),
            ...named("#controls button, #controls input",
                     (el) => `control ${el.textContent || el.getAttribute("aria-label")}`),
        ],
        taps: named("#controls button, #controls input, #my-hand button",
                    (el) => el.textContent || el.getAttribute("aria-label")),
    };
}"""


def off_screen(page: Page) -> list[str]:
    """What the player needs on their turn but cannot see without scrolling, and the tap
    targets smaller than 44 px: empty when the turn is usable as it is."""
    found: dict[str, Any] = page.evaluate(TURN_BOXES)
    width = min(found["screen"][0], found["inner"][0])
    height = min(found["screen"][1], found["inner"][1])
    problems = [
        f"{b['what']} at {b['left']:.0f},{b['top']:.0f} to {b['right']:.0f},{b['bottom']:.0f}"
        for b in found["needed"]
        if b["left"] < -0.5
        or b["top"] < -0.5
        or b["right"] > width + 0.5
        or b["bottom"] > height + 0.5
    ]
    problems += [
        f"{t['what']!r} is {t['width']:.0f}x{t['height']:.0f}"
        for t in found["taps"]
        if t["width"] < TAP - 0.5 or t["height"] < TAP - 0.5
    ]
    kinds = {b["what"].split()[0] for b in found["needed"]}
    problems += [f"no {kind} shown" for kind in ("pot", "stake", "card") if kind not in kinds]
    return problems


# Resolves once the page has not scrolled for 300 ms: the turn's smooth scroll is over.
SCROLL_SETTLED = """() => new Promise((resolve) => {
    let last = scrollY;
    let still = 0;
    const look = () => {
        still = scrollY === last ? still + 1 : 0;
        last = scrollY;
        if (still >= 3) resolve(scrollY);
        else setTimeout(look, 100);
    };
    setTimeout(look, 100);
})"""


def expect_whole_turn_on_screen(page: Page, state: str) -> None:
    """Once the page has scrolled to the turn (smoothly, and a busy phone may take its
    time) and stopped there, everything fits: polled for up to 10 s. Measured on the
    still page, not in the middle of its scroll, and so the test's next tap meets a still
    control: Playwright retries a tap on a moving control by scrolling it to the screen's
    bottom itself, which is not what a player's page does."""
    problems: list[str] = []
    for _ in range(100):
        page.evaluate(SCROLL_SETTLED)
        problems = off_screen(page)
        if not problems:
            return
        page.wait_for_timeout(100)
    scrolled = page.evaluate("() => [scrollY, innerHeight, document.documentElement.scrollHeight]")
    raise AssertionError(f"{state}: {problems}; scrollY, innerHeight, page height: {scrolled}")


GROW_THE_CONTROLS = """() => {
    const room = innerHeight - document.getElementById("me").getBoundingClientRect().bottom;
    const block = document.createElement("div");
    block.id = "grown-block";
    block.style.height = `${Math.max(0, room) + 40}px`;
    document.querySelector("#controls .bet-picker").prepend(block);
}"""


def button(page: Page, action: str) -> Any:
    return page.locator(f"#controls button[data-action='{action}']")


def test_a_bouillotte_turn_fits_a_phone_screen(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    """Hands are played until the phone has been first to open, faced a bet and faced a
    raise; at each of those turns (and with a preset tapped, and Va tout armed) the pot, the
    stake, the upcard, the phone's cards and every control are inside the screen."""
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bouillotte",
        seats=3,
        names=["Ariane", "Basile", "Clovis"],
        screens=[DESKTOP, DESKTOP, PHONE],
    )
    pages = [p for p, _, _ in players]
    phone = pages[2]
    resume(owner)
    seen: set[str] = set()
    raised_in_hand: int | None = None
    for _ in range(200):
        if {"opening", "facing a bet", "facing a raise"} <= seen:
            break
        page = to_act(pages, timeout=20)
        if page is None:  # the hand is over: the next is dealt in a few seconds
            # The next hand is dealt (the result may stay up for whoever has no cards yet).
            expect(phone.locator("#hand-info")).not_to_be_empty(timeout=20_000)
            continue
        hand = int(page.locator("#hand-info").inner_text().split()[1])
        straddling = button(page, "straddle").count() or button(page, "buy_back").count()
        if straddling:
            act(page, button(page, "decline"))
            continue
        if page is phone:
            kind = phone_turn(phone, facing_raise=raised_in_hand == hand)
            if kind:
                seen.add(kind)
            continue
        # The laptops open, raise once a hand, and call: the phone meets every situation.
        if button(page, "open").count():
            act(page, button(page, "open"))
        elif button(page, "raise").count() and raised_in_hand != hand:
            raised_in_hand = hand
            act(page, button(page, "raise"))
        elif button(page, "call").count():
            act(page, button(page, "call"))
        else:
            act(page, button(page, "decline"))
    assert {"opening", "facing a bet", "facing a raise"} <= seen, seen


def phone_turn(phone: Page, *, facing_raise: bool) -> str | None:
    """The phone's turn: checked to fit the screen, then played (open at the minimum, or
    call). Returns which situation it was."""
    if button(phone, "open").count():
        expect_whole_turn_on_screen(phone, "opening")
        phone.locator("#controls").get_by_role("button", name="Max", exact=True).click()
        expect_whole_turn_on_screen(phone, "opening, Max preset chosen")
        phone.locator("#controls").get_by_role("button", name="Min", exact=True).click()
        act(phone, button(phone, "open"))
        return "opening"
    call = button(phone, "call")
    if call.count() and (call.inner_text().startswith("Call")):
        kind = "facing a raise" if facing_raise else "facing a bet"
        expect_whole_turn_on_screen(phone, kind)
        if button(phone, "raise").count():
            phone.locator("#controls").get_by_role("button", name="Pot", exact=True).click()
            expect_whole_turn_on_screen(phone, f"{kind}, Pot preset chosen")
            # The controls grow by more than the room left under them (a label wraps):
            # the page follows them down.
            phone.evaluate(GROW_THE_CONTROLS)
            expect_whole_turn_on_screen(phone, f"{kind}, the controls grown past the screen")
            phone.evaluate("() => document.getElementById('grown-block').remove()")
        all_in = button(phone, "all_in")
        if all_in.count():
            all_in.click()
            expect(all_in).to_have_attribute("data-armed", "true")
            expect_whole_turn_on_screen(phone, f"{kind}, Va tout armed")
        act(phone, call)
        return kind
    act(phone, call if call.count() else button(phone, "decline"))
    return None


SEAT_BOXES = """() => {
    const box = (el) => el && el.getBoundingClientRect();
    const felt = box(document.getElementById("felt"));
    return {
        width: Math.min(screen.width, innerWidth),
        felt: [felt.left, felt.top, felt.right, felt.bottom],
        seats: [...document.querySelectorAll("#seats .seat")].map((seat) => {
            const s = box(seat);
            return {
                seat: seat.dataset.seat,
                box: [s.left, s.top, s.right, s.bottom],
                avatar: seat.querySelector(".avatar") && (({left, top, right, bottom}) =>
                    [left, top, right, bottom])(box(seat.querySelector(".avatar"))),
                dealer: seat.querySelector(".dealer-button") && (({left, top, right, bottom}) =>
                    [left, top, right, bottom])(box(seat.querySelector(".dealer-button"))),
                tags: [...seat.querySelectorAll(".tag")].map((t) => {
                    const r = box(t);
                    return [t.textContent, r.left, r.top, r.right, r.bottom];
                }),
            };
        }),
        options: [...document.querySelectorAll(".table-bar a:not([hidden]), .table-menu button")]
            .filter((el) => el.getClientRects().length)
            .map((el) => {
                const r = box(el);
                return [el.textContent, el.scrollWidth, el.clientWidth, r.width, r.height];
            }),
    };
}"""

Box = list[float]


def inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def seat_problems(page: Page, *, touch: bool) -> list[str]:
    """Seats hanging over the felt or off the screen, tags outside their seat, seats on top
    of each other, a dealer's button over an avatar, options cut short or too small."""
    found: dict[str, Any] = page.evaluate(SEAT_BOXES)
    felt = found["felt"]
    problems = []
    for seat in found["seats"]:
        name = f"seat {seat['seat']}"
        if not inside(seat["box"], felt):
            problems.append(f"{name} {seat['box']} hangs over the felt {felt}")
        if seat["box"][0] < 0 or seat["box"][2] > found["width"]:
            problems.append(f"{name} is off the screen")
        for text, *tag in seat["tags"]:
            if not inside(tag, seat["box"]):
                problems.append(f"{name}'s tag {text!r} spills out of it")
        if seat["dealer"] and overlap(seat["dealer"], seat["avatar"]):
            problems.append(f"{name}'s dealer button covers the avatar")
    # On a phone's crowded felt no seat may cover another (a laptop's seats have room
    # around their avatars and names, their boxes' empty corners may meet).
    for n, a in enumerate(found["seats"] if touch else []):
        for b in found["seats"][n + 1 :]:
            if overlap(a["box"], b["box"]):
                problems.append(f"seats {a['seat']} and {b['seat']} overlap")
    for text, scroll_width, client_width, width, height in found["options"]:
        if scroll_width > client_width:
            problems.append(f"the option {text!r} is cut ({scroll_width} > {client_width})")
        if touch and (width < TAP - 0.5 or height < TAP - 0.5):
            problems.append(f"the option {text!r} is {width:.0f}x{height:.0f}")
    return problems


def test_eight_seats_fit_a_phone_felt(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    """A full Bourré table (eight seats, the most its rules allow) seen on a phone and on a
    laptop, before the deal and during the first hand (status tags, the dealer's button, the
    players who left the page shown offline)."""
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=8,
        names=[
            "Amandine",
            "Barnabé",
            "Cunégonde",
            "Désiré",
            "Eulalie",
            "Fulbert",
            "Gudule",
            "Hyacinthe",
        ],
        screens=[PHONE, DESKTOP, *[DESKTOP] * 6],
    )
    phone, laptop = players[0][0], players[1][0]
    for page, _, _ in players[2:]:
        page.close()  # their seats stay taken, shown offline: more tags to fit
    expect(phone.locator(".seat .tag", has_text="Offline")).to_have_count(6)
    assert seat_problems(phone, touch=True) == []
    assert seat_problems(laptop, touch=False) == []
    resume(owner)
    expect(phone.locator(".dealer-button")).to_have_count(1, timeout=20_000)
    expect(phone.locator(".seat .tag", has_text="To speak").first).to_be_visible()
    assert seat_problems(phone, touch=True) == []
    assert seat_problems(laptop, touch=False) == []
    shot(phone, "bourre-phone-eight-seats")
    shot(laptop, "bourre-laptop-eight-seats")


# Samples, every frame, how far the page reaches past the screen's width (a phone's
# browser widens its layout to hold what overflows, so innerWidth grows with it).
WIDEST = """() => {
    window.widest = 0;
    const sample = () => {
        const wide = Math.max(document.documentElement.scrollWidth, innerWidth);
        window.widest = Math.max(window.widest, wide - screen.width);
        requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
}"""


def test_trick_cards_never_widen_the_page(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    """Two Bourré hands played to their results, on two laptops and a phone: while the
    tricks are played and their cards fly to the winners, and while the result shows, no
    page is ever wider than its screen."""
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=3,
        names=["Anatole", "Berthe", "Cyprien"],
        screens=[DESKTOP, DESKTOP, PHONE],
    )
    pages = [p for p, _, _ in players]
    for seated in pages:
        seated.evaluate(WIDEST)
    resume(owner)
    results = 0
    flights = 0
    while results < 2:
        turn = to_act(pages, timeout=20)
        if turn is None:
            results += 1
            pages[2].wait_for_timeout(1500)  # the last trick's flight, under the result
            # The next hand is dealt (the result may stay up for whoever has no cards yet).
            expect(pages[2].locator("#hand-info")).not_to_be_empty(timeout=20_000)
            continue
        controls = turn.locator("#controls")
        legal = turn.locator("#my-hand button.is-legal")
        if controls.get_by_role("button", name="Play", exact=True).count():
            act(turn, controls.get_by_role("button", name="Play", exact=True))
        elif controls.get_by_role("button", name="Keep all").count():
            act(turn, controls.get_by_role("button", name="Keep all"))
        elif legal.count():
            flights += 1
            if turn is pages[2]:  # the phone's cards are tap targets too
                sizes = turn.locator("#my-hand button").evaluate_all(
                    "els => els.map(e => [e.offsetWidth, e.offsetHeight])"
                )
                assert all(w >= TAP and h >= TAP for w, h in sizes), sizes
            act(turn, legal.first)
        else:
            act(turn, controls.locator("button:enabled").first)
    assert flights >= 10, "not enough tricks were played"
    for page in pages:
        assert page.evaluate("window.widest") == 0, page.viewport_size
