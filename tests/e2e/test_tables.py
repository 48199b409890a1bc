"""Whole hands of both games played in Chromium by clicking, to the settlement. For the first,
three members register, receive chips and buy in from the lobby through the pages; the
others are seated through the API from the same pages. The third member of each table plays
on a phone-sized screen."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.table_ui import (
    START,
    Seated,
    act,
    acting,
    every_card_shown,
    my_cards,
    result_shown,
    seat_players,
    stack_of,
    to_act,
    version,
)
from tests.e2e.ui import LiveServer, NewPage, Shot, log_in


def no_foreign_cards(players: Seated, public: set[str]) -> None:
    """No page shows a card another player holds, unless it is public."""
    hands = {username: set(my_cards(page)) for page, username, _ in players}
    for page, username, _ in players:
        shown = every_card_shown(page)
        for other, cards in hands.items():
            if other != username:
                leaked = (cards - public) & shown
                assert not leaked, f"{username}'s page shows {other}'s cards {leaked}"


def check_result(players: Seated, total: int) -> None:
    """Every page shows the result; the stacks on every felt agree with the result panel,
    and the stacks plus what is carried to the next pot hold every chip bought in."""
    for page, _, _ in players:
        expect(page.locator("#result")).to_be_visible()
    page = players[0][0]
    panel = page.locator("#result")
    # Someone takes the pot, or nobody does (a split of the tricks: §7): said either way.
    expect(panel.locator(".result-headline")).to_contain_text(
        re.compile(r" wins .*pot|No one took the pot")
    )
    stacks = {name: stack_of(page, name) for _, _, name in players}
    for other, _, _ in players[1:]:
        assert {name: stack_of(other, name) for _, _, name in players} == stacks
    for _, _, name in players:
        row = panel.locator("li").filter(has=page.locator(".result-name", has_text=name))
        expect(row.locator(".result-stack")).to_contain_text(f"stack {stacks[name]}")
    carried = panel.get_by_test_id("carry")
    carry = int(carried.inner_text()) if carried.count() else 0
    assert sum(stacks.values()) + carry == total
    assert stacks != {name: total // len(players) for _, _, name in players}, "nothing moved"


def test_a_bourre_hand_played_in_three_browsers(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    buy_in = 200
    # Set up as people do it, through the forms and the lobby (other tests use the API).
    players = seat_players(
        live_server,
        new_page,
        shot,
        game="bourre",
        names=["Ada", "Basile", "Cora"],
        buy_in=buy_in,
        through_pages=True,
    )
    pages = [p for p, _, _ in players]
    for page in pages:
        expect(page.locator("#my-hand span.card")).to_have_count(5)
        # The others' hands are face down: five backs at each of the two other seats.
        expect(page.locator(".seat:not(.seat--me) .seat-cards .card--back")).to_have_count(10)
    trump = pages[0].locator("#centre .trump [data-card]").get_attribute("data-card")
    assert trump is not None
    no_foreign_cards(players, {trump})

    # The declaration: everybody plays.
    for _ in range(3):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Play"))

    # The draw: the first to draw exchanges one card with the picker, the others keep all.
    page = acting(pages)
    expect(page.locator("#prompt")).to_contain_text("exchange")
    before = my_cards(page)
    keep_all = page.locator("#controls").get_by_role("button", name="Keep all")
    expect(keep_all).to_be_enabled()
    page.locator("#my-hand button").first.click()
    exchange = page.locator("#controls").get_by_role("button", name="Exchange 1")
    expect(exchange).to_be_enabled()
    act(page, exchange)
    expect(page.locator("#my-hand span.card")).to_have_count(5)
    assert len(set(my_cards(page)) & set(before)) == 4
    for _ in range(2):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Keep all"))
    no_foreign_cards(players, {trump})

    # A reload in the middle of the hand restores the same table and the same cards.
    reloaded = pages[1]
    cards_before = sorted(my_cards(reloaded))
    reloaded.reload()
    expect(reloaded.locator("#connection")).to_have_text("Connected")
    expect(reloaded.locator("#my-hand span.card")).to_have_count(5)
    assert sorted(my_cards(reloaded)) == cards_before

    # Tricks: only legal cards are enabled; an illegal one gets the server's reason.
    refusals = 0
    plays = 0
    while (turn := to_act(pages)) is not None:
        page = turn
        legal = page.locator("#my-hand button.is-legal")
        expect(legal.first).to_be_visible()
        legal_cards = legal.evaluate_all("els => els.map(e => e.dataset.card)")
        led = page.locator("#centre .trick-card").first
        if led.count():
            suit = (led.get_attribute("data-card") or "??")[1]
            if any(card[1] == suit for card in my_cards(page)):
                assert all(card[1] == suit for card in legal_cards), (legal_cards, suit)
        illegal = page.locator("#my-hand button[aria-disabled='true']")
        if illegal.count() and not refusals:
            refused = illegal.first.get_attribute("data-card")
            # Dimmed (aria-disabled) but clickable: Playwright's enabled check must be skipped.
            illegal.first.click(force=True)
            expect(page.locator("#toast")).to_be_visible()
            expect(page.locator("#toast")).not_to_be_empty()
            # The message only tells: a tap where it floats reaches what is under it.
            tapped = page.locator("#toast").evaluate(
                "(el) => { const r = el.getBoundingClientRect();"
                " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.id; }"
            )
            assert tapped != "toast"
            expect(page.locator(f"#my-hand span.card[data-card='{refused}']")).to_have_count(1)
            refusals += 1
        if plays == 4:
            shot(page, "bourre-mid-hand")
        held = page.locator("#my-hand button").count()
        legal.first.click()
        plays += 1
        expect(page.locator("#my-hand button")).to_have_count(held - 1)
    assert plays == 15, "five tricks of three cards"
    check_result(players, 3 * buy_in)
    expect(pages[0].locator("#result")).to_contain_text("tricks")
    went_bourre = pages[0].locator("#result").get_by_test_id("bourre-line")
    if went_bourre.count():  # §7: a bourré pays the size of the pot (no limit here)
        pot = pages[0].locator("#result .result-headline").inner_text().split()[-1].rstrip(".")
        expect(went_bourre).to_contain_text(f"pays {pot} into the next pot")
    shot(pages[0], "bourre-result")
    shot(pages[2], "bourre-result-phone")
    # The lobby shows each member the balance left after buying in.
    pages[0].goto(f"{live_server.base_url}/lobby")
    expect(pages[0].get_by_test_id("lobby-balance")).to_have_text(str(START - buy_in))


def test_a_bouillotte_hand_played_in_three_browsers(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    cave = 100  # the lobby form's default cave: every buy-in is exactly that
    players = seat_players(
        live_server,
        new_page,
        shot,
        game="bouillotte",
        names=["Denis", "Elise", "Fanny"],
        buy_in=cave,
    )
    pages = [p for p, _, _ in players]
    # Straddles are declined by everyone; then the cards and the upcard are dealt.
    while not pages[0].locator("#centre .upcard [data-card]").count():
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Decline"))
    upcard = pages[0].locator("#centre .upcard [data-card]").get_attribute("data-card")
    assert upcard is not None
    for page in pages:
        expect(page.locator("#my-hand span.card")).to_have_count(3)
        expect(page.locator(".seat:not(.seat--me) .seat-cards .card--back")).to_have_count(6)
    no_foreign_cards(players, {upcard})

    # The first to speak opens at the minimum with the picker; everyone else calls.
    page = acting(pages)
    expect(page.locator("#prompt")).to_contain_text("open the betting")
    controls = page.locator("#controls")
    opener = controls.locator("button[data-action='open']")
    # The button names the whole stake and what it adds to the ante already in (§5): the
    # first to speak sits after the dealer, and antes 1 (the dealer antes 2).
    controls.get_by_role("button", name="Max", exact=True).click()
    expect(opener).to_have_text(f"Open to {cave} (add {cave - 1})")
    controls.get_by_role("button", name="Min", exact=True).click()
    minimum = int(controls.get_by_label("Open amount").input_value())
    expect(opener).to_have_text(f"Open to {minimum} (add {minimum - 1})")
    act(page, opener)
    shot(acting(pages), "bouillotte-mid-hand")
    while (turn := to_act(pages)) is not None:
        page = turn
        call = page.locator("#controls button[data-action='call']")
        stay = page.locator("#controls button[data-action='decline']")
        act(page, call if call.count() else stay)

    # The showdown: every hand face up with its category; each suit's points when no brelan
    # of a player still in decides it (rules/bouillotte.md §6).
    assert result_shown(pages)
    panel = pages[0].locator("#result")
    showdown = panel.get_by_role("list", name="Showdown").locator("li")
    expect(showdown).to_have_count(3)
    expect(panel.locator(".showdown-cards [data-card]")).to_have_count(9)
    # The winner's line says why: a brelan (then no points are counted) or the points.
    headline = panel.get_by_test_id("winner").first.inner_text()
    if " with a " in headline and "brelan" in headline:
        expect(panel.get_by_label("Points by suit")).to_have_count(0)
    else:
        expect(panel.get_by_label("Points by suit")).to_be_visible()
    check_result(players, 3 * cave)
    shot(pages[0], "bouillotte-result")
    shot(pages[2], "bouillotte-result-phone")


def test_spectator_chat_keyboard_and_deck_colours(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    """A spectator sees only backs; chat is shown as text; a card is played with the arrow
    keys and Enter; the four-colour deck is a toggle that sticks."""
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Gaston", "Hortense", "Igor"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    watcher = new_page()
    log_in(watcher, live_server.base_url, live_server.owner_username, live_server.owner_password)
    table_url = pages[0].url
    watcher.goto(table_url)
    expect(watcher.locator("#prompt")).to_contain_text("You are watching")
    expect(watcher.locator("#my-hand span.card")).to_have_count(0)
    expect(watcher.locator(".seat .seat-cards .card--back")).to_have_count(15)
    trump = watcher.locator("#centre .trump [data-card]").get_attribute("data-card")
    held = set().union(*(set(my_cards(page)) for page in pages)) - {trump}
    assert not held & every_card_shown(watcher), "a spectator sees a player's card"

    # Chat: typed markup arrives as text, on every page.
    pages[0].get_by_label("Chat message").fill("<b>bonne chance</b>")
    pages[0].get_by_role("button", name="Send").click()
    for page in [*pages, watcher]:
        line = page.locator("#chat-log li").last
        expect(line).to_contain_text("<b>bonne chance</b>")
        expect(line.locator("b")).to_have_count(0)

    # Everybody plays and keeps their cards, to reach the tricks.
    for _ in range(3):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Play"))
    for _ in range(3):
        page = acting(pages)
        act(page, page.locator("#controls").get_by_role("button", name="Keep all"))

    # Keyboard: focus the hand, walk to the last legal card with the arrows, press Enter.
    page = acting(pages)
    legal = page.locator("#my-hand button.is-legal").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    order = page.locator("#my-hand button").evaluate_all("els => els.map(e => e.dataset.card)")
    page.locator("#my-hand button[tabindex='0']").focus()
    start = order.index(page.evaluate("document.activeElement.dataset.card"))
    for _ in range((order.index(legal[-1]) - start) % len(order)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == legal[-1]
    before = version(page)
    page.keyboard.press("Enter")
    expect(page.locator("#table-app")).not_to_have_attribute("data-version", str(before))
    expect(page.locator(f"#centre .trick-card[data-card='{legal[-1]}']")).to_have_count(1)
    expect(page.locator(f"#my-hand span.card[data-card='{legal[-1]}']")).to_have_count(0)

    # The four-colour deck: diamonds turn blue, and the choice survives a reload.
    colour = pages[0].get_by_role("button", name="4-colour deck")
    expect(colour).to_have_attribute("aria-pressed", "false")
    colour.click()
    expect(colour).to_have_attribute("aria-pressed", "true")
    pages[0].reload()
    expect(pages[0].get_by_role("button", name="4-colour deck")).to_have_attribute(
        "aria-pressed", "true"
    )
    blue = pages[0].locator("#felt, #my-hand").locator("svg [fill='#1550b8']")
    diamonds = pages[0].locator("#my-hand span.card[data-card$='D'], #centre [data-card$='D']")
    if diamonds.count():
        expect(blue.first).to_be_attached()
    shot(watcher, "bourre-spectator")
