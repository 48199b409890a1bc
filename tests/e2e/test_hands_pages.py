"""Past hands in Chromium: a hand of each game is played by clicks, then a player opens
"My hands" from the table's bar (on a laptop; from its menu on a phone), replays the hand step by
step on the felt, and checks the shuffle with Verify; an admin finds a hand by member and
date and sees every card. What is checked is what a person sees: shown, inside the window,
not covered, no page wider than the window."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.e2e.table_ui import (
    DEAL_TIMEOUT_MS,
    Seated,
    act,
    acting,
    expect_usable,
    seat_players,
    table_option,
    to_act,
)
from tests.e2e.ui import (
    LiveServer,
    NewPage,
    Shot,
    fold_menu,
    log_in,
    reveal_each_hand,
    serious_violations,
)


def fits_the_window(page: Page) -> None:
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{page.url} is {wide[0]} px wide in a {wide[1]} px window"


def seen(control: Locator) -> None:
    """Scrolled to the middle of the window (and of a scrolled list), then usable: shown,
    inside the window, not covered."""
    control.evaluate("el => el.scrollIntoView({block: 'center'})")
    expect_usable(control)


def play_bourre_hand(pages: list[Page]) -> None:
    """Everybody plays and keeps their cards; then the first legal card each time."""
    for _ in range(3):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Play"))
    for _ in range(3):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Keep all"))
    while (turn := to_act(pages)) is not None:
        act(turn, turn.locator("#my-hand button.is-legal").first)


def play_bouillotte_hand(pages: list[Page]) -> None:
    """No straddles; the first to speak opens at the minimum and the others fold."""
    while not pages[0].locator("#centre .upcard [data-card]").count():
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Decline"))
    page = acting(pages)
    act(page, page.locator("#controls button[data-action='open']"))
    while (turn := to_act(pages)) is not None:
        act(turn, turn.locator("#controls button[data-action='fold']"))


def open_my_hands_from_the_table(page: Page, shot: Shot, table_name: str, name: str) -> None:
    """The next hand is dealt: the last one stays one click away (Last hand opens its
    result again, which links to its page), and so does My hands."""
    expect(page.locator("#hand-info")).to_contain_text("Hand 2", timeout=DEAL_TIMEOUT_MS)
    last = table_option(page, "button", "Last hand")  # in the menu on a phone
    seen(last)
    if page.locator("#result").is_hidden():  # still shown before the next hand's cards
        last.click()
    fold_menu(page)
    link = page.locator("#result").get_by_role("link", name="Open this hand")
    seen(link)
    assert re.search(r"/hands/\d+$", link.get_attribute("href") or "")
    shot(page, name)
    mine = table_option(page, "link", "My hands")
    seen(mine)
    mine.click()
    expect(page.get_by_role("heading", name="My hands", level=1)).to_be_visible()
    row = page.locator("#hand-list .hand-row").filter(has_text=f"{table_name} · hand 1")
    expect(row).to_have_count(1)
    expect(row.get_by_test_id("my-net")).to_be_visible()
    fits_the_window(page)


def cards_shown(page: Page) -> list[str]:
    names: list[str] = page.locator("#felt [data-card], #replay-cards [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card).sort()"
    )
    return names


def current_step(page: Page) -> int:
    return int(page.locator("#hand-app").get_attribute("data-step") or "-1")


def expect_step(page: Page, step: int) -> None:
    expect(page.locator("#hand-app")).to_have_attribute("data-step", str(step))
    line = page.locator("#action-log li.is-current")
    expect(line).to_have_count(1)
    expect(line).to_have_attribute("data-step", str(step))
    expect(line.get_by_role("button")).to_have_attribute("aria-current", "step")
    expect(page.locator("#step-label")).to_contain_text(f"Step {step + 1} of ")


def step_through(page: Page, shot: Shot, name: str, jump_to: str) -> None:
    """Open the hand from My hands and replay it: step forward until the cards on the felt
    change, back with the arrow key, jump to a trick or round, click a log line, play."""
    page.locator("#hand-list .hand-link").first.click()
    expect(page).to_have_url(re.compile(r"/hands/\d+$"))
    expect(page.locator("#replay")).to_be_visible()
    expect_step(page, 0)
    expect(page.locator("#felt .seat")).to_have_count(3)
    for name_of_link in ("log (JSON)", "log (text)"):
        href = page.get_by_role("link", name=name_of_link).evaluate("a => a.href")
        assert page.request.get(href).ok, href
    # The page and the printed record say when the hand ended in the reader's own zone,
    # named.
    short_zone = page.evaluate(
        """new Intl.DateTimeFormat(undefined, {timeZoneName: 'short'}).formatToParts(new Date())
            .find((part) => part.type === 'timeZoneName').value"""
    )
    named = re.compile(rf"\d:\d\d.* {re.escape(short_zone)} · ")
    expect(page.locator("#hand-meta")).to_contain_text(named)
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    record = page.request.get(href).text()
    assert re.search(rf"^Ended .+ \({re.escape(zone)}\)$", record, re.MULTILINE), record
    first = cards_shown(page)  # Bouillotte: none yet, the straddles come before the deal
    forward = page.get_by_role("button", name="Step forward")
    steps = page.locator("#action-log li").count()
    for step in range(1, steps):
        seen(forward)
        forward.click()
        expect_step(page, step)
        if cards_shown(page) != first:
            break
    else:
        raise AssertionError("the cards on the felt never changed")
    shot(page, f"{name}-step")
    at = current_step(page)
    page.keyboard.press("ArrowLeft")
    expect_step(page, at - 1)
    page.keyboard.press("ArrowRight")
    expect_step(page, at)

    jump = page.get_by_label("Jump to")
    seen(jump)
    option = jump.locator("option").filter(has_text=jump_to).first
    target = int(option.get_attribute("value") or "-1")
    jump.select_option(str(target))
    expect_step(page, target)

    last_line = page.locator("#action-log li").last.get_by_role("button")
    seen(last_line)
    last_line.click()
    expect_step(page, steps - 1)
    expect(page.locator("#hand-result")).to_be_visible()
    expect(page.locator("#hand-result .result-headline").first).to_be_visible()
    shot(page, f"{name}-end")

    play = page.get_by_role("button", name="Play", exact=True)
    seen(play)
    play.click()  # from the end, playing starts again at the deal
    expect(page.locator("#hand-app")).not_to_have_attribute("data-step", str(steps - 1))
    expect(page.locator("#hand-app")).not_to_have_attribute("data-step", "0")
    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    fits_the_window(page)


def verify(page: Page, shot: Shot, name: str) -> None:
    """The seed is revealed: Verify recomputes in the browser the commitment, the seed from
    the server seed and the players' shares, and the deck, and shows a match; the same check
    on the hand with one card of its deck swapped fails."""
    panel = page.locator("#verify")
    expect(panel.get_by_role("link", name="How the fair shuffle works")).to_be_visible()
    expect(panel.locator("#seed")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    button = panel.get_by_role("button", name="Verify", exact=True)
    seen(button)
    button.click()
    result = panel.locator("#verify-result")
    expect(result).to_have_attribute("data-state", "match")
    expect(result).to_contain_text("deals exactly these cards")
    tampered = page.evaluate(
        """async () => {
            const api = location.pathname.replace('/hands/', '/api/hands/');
            const detail = await (await fetch(api)).json();
            const { verifyHand } = await import('/static/js/fair.js');
            const deck = [...detail.deck];
            [deck[0], deck[1]] = [deck[1], deck[0]];
            const args = {commitment: detail.commitment, serverSeed: detail.server_seed,
                contributions: detail.contributions, seed: detail.seed, game: detail.hand.game};
            const honest = await verifyHand({...args, deck: detail.deck});
            return [honest, await verifyHand({...args, deck})];
        }"""
    )
    assert tampered[0]["deck"] and tampered[0]["seed"] and tampered[0]["commitment"]
    assert not tampered[1]["deck"], "a changed card went unnoticed"
    assert serious_violations(page) == []  # the hand page, on this screen
    shot(page, name)


def replay_at_both_sizes(players: Seated, shot: Shot, game: str, table: str, jump: str) -> None:
    laptop, phone = players[0][0], players[2][0]
    for page, size in ((laptop, "laptop"), (phone, "phone")):
        open_my_hands_from_the_table(page, shot, table, f"table-{game}-{size}-last-hand")
        shot(page, f"my-hands-{game}-{size}")
        step_through(page, shot, f"hand-{game}-{size}", jump)
        verify(page, shot, f"hand-{game}-verified-{size}")


def test_a_bourre_hand_replayed_on_a_laptop_and_a_phone(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner = new_page()
    log_in(owner, live_server.base_url, live_server.owner_username, live_server.owner_password)
    reveal_each_hand(owner)
    names = ["Ada", "Basile", "Cora"]
    players = seat_players(live_server, new_page, shot, game="bourre", names=names, buy_in=200)
    play_bourre_hand([p for p, _, _ in players])
    replay_at_both_sizes(players, shot, "bourre", "Ada's bourre", "Trick 1")
    stages = players[0][0].get_by_label("Jump to").locator("option").all_inner_texts()
    assert stages[:3] == ["Deal", "Declaration", "The draw"], stages
    assert stages[3:] == [f"Trick {n}" for n in range(1, 6)] + ["End"], stages


def test_a_bouillotte_hand_replayed_and_found_by_an_admin(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner = new_page()
    log_in(owner, live_server.base_url, live_server.owner_username, live_server.owner_password)
    reveal_each_hand(owner)
    names = ["Denis", "Elise", "Fanny"]
    players = seat_players(live_server, new_page, shot, game="bouillotte", names=names, buy_in=100)
    play_bouillotte_hand([p for p, _, _ in players])
    replay_at_both_sizes(players, shot, "bouillotte", "Denis's bouillotte", "Opening")

    # The admin searches every hand: Elise's hands of today.
    owner.get_by_role("link", name="Hands", exact=True).click()
    expect(owner.get_by_role("heading", name="Hands", level=1)).to_be_visible()
    elise = players[1][1]
    member = owner.get_by_label("Member")
    member.select_option(label=member.locator("option").filter(has_text=f"(@{elise})").inner_text())
    today = owner.evaluate("new Date().toLocaleDateString('en-CA')")  # the browser's own day
    owner.get_by_label("From").fill(today)
    owner.get_by_label("To").fill(today)
    search = owner.get_by_role("button", name="Search")
    seen(search)
    search.click()
    rows = owner.locator("#hand-list .hand-row")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Denis's bouillotte · hand 1")
    expect(rows).to_contain_text("Elise")
    shot(owner, "hands-admin-search")
    rows.get_by_role("link").click()
    badge = owner.get_by_text("Admin view: every card shown")
    expect(badge).to_be_visible()
    # Every player's cards face up on the felt once dealt: three hands of three cards.
    jump = owner.get_by_label("Jump to")
    jump.select_option(label="Opening")
    expect(owner.locator("#felt .seat-cards--open [data-card]")).to_have_count(9)
    shot(owner, "hand-admin-view")
    fits_the_window(owner)
