"""What a person sees while the table waits: the gathering countdown and its "Deal now",
a bust at Bouillotte (the new cave's button with its amount, and the others, a spectator
too, told what is awaited), "You'll be dealt in next hand" for a member who sits
mid-hand, the large "I'm back" of a player the timer sat out (a phone), and the hand log
after a reload mid-hand."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import (
    DEAL_TIMEOUT_MS,
    act,
    call_api,
    quick_table,
    resume,
    to_act,
)
from tests.e2e.ui import DESKTOP, PHONE, LiveServer, NewPage, Shot

# Long enough that only "Deal now" can explain a deal within the test's patience.
LONG_GATHERING = 120

# A second socket of the page's member that plays by a policy: the listed actions, in
# order of preference, at every turn (the page itself stays as a person sees it).
ROBOT = """([tableId, order]) => {
  const url = `${location.origin.replace(/^http/, "ws")}/ws/tables/${tableId}`;
  const socket = new WebSocket(url);
  let acted = null;
  socket.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type !== "snapshot") return;
    const legal = frame.view.hand?.legal_actions ?? [];
    if (!legal.length) return;
    const kinds = legal.map((a) => a.action);
    const kind = order.find((k) => kinds.includes(k)) ?? kinds[0];
    const key = `${frame.view.hand.number}:${frame.version}`;
    if (acted === key) return;
    acted = key;
    const id = `robot-${Math.random().toString(36).slice(2)}`;
    socket.send(JSON.stringify({ type: "action", id, version: frame.version, action: kind }));
  };
  window.__robot = socket;
}"""


def deal_everyone_now(pages: list[Page]) -> None:
    for page in pages:
        button = page.get_by_test_id("deal-now")
        expect(button).to_be_visible()
        button.click()
        expect(button).to_be_hidden()


def test_a_bust_at_bouillotte_asks_for_a_cave_and_tells_the_others(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner, table_id, players = quick_table(
        live_server,
        new_page,
        game="bouillotte",
        seats=3,
        names=["Alice", "Bob", "Carol"],
        screens=[DESKTOP, DESKTOP, PHONE],
        gathering_seconds=LONG_GATHERING,
    )
    pages = [page for page, _, _ in players]
    names = [name for _, _, name in players]
    # The owner watches without a seat: a spectator is told what the table waits for too.
    watching = "You are watching."
    expect(owner.locator("#prompt")).to_have_text(f"{watching} The table is paused.")
    resume(owner)
    # The gathering: a countdown, and "Deal now" for each seated player.
    first = pages[0]
    expect(first.get_by_test_id("gathering")).to_contain_text(re.compile(r"Dealing in \d+ s"))
    first.get_by_test_id("deal-now").click()
    expect(first.get_by_test_id("gathering")).to_contain_text("Dealing when Bob or Carol say so")
    shot(pages[2], "table-gathering-phone")
    deal_everyone_now(pages[1:])
    for page in pages:
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)

    # Alice and Bob go va tout every hand, Carol folds: one of the two is soon broke.
    for page, order in zip(
        pages,
        (["all_in", "call", "decline", "pass"],) * 2 + (["fold", "pass", "decline", "call"],),
        strict=True,
    ):
        page.evaluate(ROBOT, [table_id, order])
    deadline = time.monotonic() + 120
    broke: int | None = None
    while broke is None and time.monotonic() < deadline:
        for n, page in enumerate(pages[:2]):
            if page.get_by_test_id("buy-cave").is_visible():
                broke = n
        time.sleep(0.5)
    assert broke is not None, "nobody went broke"
    for page in pages:
        page.evaluate("() => window.__robot.close()")
    loser = pages[broke]
    others = [page for n, page in enumerate(pages) if n != broke]

    # The player with no chips: a button naming the cave's amount.
    expect(loser.get_by_test_id("buy-cave")).to_have_text("Buy a new cave: 100 chips")
    expect(loser.get_by_test_id("broke")).to_contain_text("You have no chips left")
    # The others: what the table waits for, and no countdown however long they wait.
    sentence = f"Waiting for {names[broke]}'s cave, or one more player."
    for page in others:
        expect(page.locator("#prompt")).to_have_text(sentence)
    # The spectator reads the same sentence, without the players' buttons.
    expect(owner.locator("#prompt")).to_have_text(f"{watching} {sentence}")
    for button in ("buy-cave", "deal-now"):
        expect(owner.get_by_test_id(button)).to_have_count(0)
    shot(pages[2], "table-waiting-for-a-cave-phone")
    shot(loser, "table-buy-a-cave")
    hand_before = loser.locator("#hand-info").inner_text()
    time.sleep(8)  # longer than the pause between hands
    for page in pages:
        expect(page.locator("#hand-info")).to_have_text(hand_before)
        expect(page.get_by_test_id("gathering")).to_have_count(0)

    # The cave is bought from the button: the table gathers again, and deals.
    loser.get_by_test_id("buy-cave").click()
    for page in pages:
        expect(page.get_by_test_id("deal-now")).to_be_visible()
    deal_everyone_now(pages)
    for page in pages:
        expect(page.locator("#hand-info")).not_to_have_text(hand_before, timeout=DEAL_TIMEOUT_MS)


def test_a_member_who_sits_mid_hand_is_dealt_in_next_hand(
    live_server: LiveServer, new_page: NewPage
) -> None:
    owner, table_id, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=3,
        names=["Alice", "Bob", "Carol"],
        screens=[DESKTOP, DESKTOP, PHONE],
    )
    late = players[2][0]
    call_api(late, "POST", f"/api/tables/{table_id}/stand")
    resume(owner)
    for page, _, _ in players[:2]:
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)
    call_api(
        late,
        "POST",
        f"/api/tables/{table_id}/seat",
        {"seat": 2, "buy_in": 100, "request_key": "late-0001"},
    )
    expect(late.get_by_test_id("dealt-next-hand")).to_have_text("You'll be dealt in next hand.")
    expect(late.locator("#my-hand button")).to_have_count(0)


def test_a_player_sat_out_by_the_timer_sees_a_large_im_back_button(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=3,
        names=["Alice", "Bob", "Carol"],
        screens=[PHONE, PHONE, PHONE],
        turn_seconds=5,
    )
    pages = [page for page, _, _ in players]
    resume(owner)
    # Nobody plays: the timer plays for everyone until it sits someone out.
    deadline = time.monotonic() + 120
    away: Page | None = None
    while away is None and time.monotonic() < deadline:
        away = next((p for p in pages if p.get_by_test_id("sat-out").is_visible()), None)
        time.sleep(0.5)
    assert away is not None, "the timer sat nobody out"
    banner = away.get_by_test_id("sat-out")
    expect(banner).to_contain_text("You were sat out after two timeouts.")
    button = away.get_by_test_id("im-back")
    expect(button).to_have_text("I'm back")
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport(ratio=1)
    box = button.bounding_box()
    assert box is not None
    # Large: a thumb's height and most of the phone's width.
    assert box["height"] >= 52 and box["width"] >= 300, box
    on_top = button.evaluate(
        """el => {
            const box = el.getBoundingClientRect();
            return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === el;
        }"""
    )
    assert on_top, "something covers the I'm back button"
    shot(away, "table-sat-out-phone")
    button.click()
    expect(banner).to_have_count(0)
    expect(away.locator("#sit-out")).to_have_text("Sit out")


def log_lines(page: Page) -> list[str]:
    return [line.strip() for line in page.locator("#hand-log li").all_text_contents()]


def test_the_hand_log_is_rebuilt_after_a_reload_mid_hand(
    live_server: LiveServer, new_page: NewPage
) -> None:
    owner, _, players = quick_table(
        live_server,
        new_page,
        game="bourre",
        seats=2,
        names=["Alice", "Bob"],
        screens=[DESKTOP, PHONE],
    )
    pages = [page for page, _, _ in players]
    resume(owner)
    for page in pages:
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)
    # Both come in and exchange two cards: declarations, exchanges, private draws.
    for _ in range(6):
        turn = to_act(pages, timeout=20)
        assert turn is not None
        controls = turn.locator("#controls")
        if (
            turn.locator("#my-hand button.is-legal").count()
            and not controls.get_by_role("button", name="Keep all").count()
        ):
            break  # the tricks: enough has happened
        play = controls.get_by_role("button", name="Play", exact=True)
        if play.count():
            act(turn, play)
            continue
        cards = turn.locator("#my-hand button")
        cards.nth(0).click()
        cards.nth(1).click()
        act(turn, controls.get_by_role("button", name=re.compile(r"^(Exchange|Draw)")))
    alice = pages[0]
    before = log_lines(alice)
    assert any("You drew" in line for line in before), before
    assert any("exchanges" in line for line in before), before

    alice.reload()
    expect(alice.locator("#connection")).to_have_text("Connected")
    expect(alice.locator("#hand-log li").last).to_have_text(before[-1])
    after = log_lines(alice)
    assert after[after.index("Hand 1") :] == before[before.index("Hand 1") :]
    assert not any("came in during" in line for line in after)
    # Bob's draw is his alone: none of the cards he drew is named in Alice's log.
    drawn = [line for line in log_lines(pages[1]) if line.startswith("You drew")]
    assert drawn, log_lines(pages[1])
    for label in drawn[-1].removeprefix("You drew ").rstrip(".").split():
        assert not any(label in line for line in after), (label, after)
