"""The table's words: "1 trick", not "1 tricks"; "Kept all" like "Drew 2", as soon as that
player has drawn; the rules' own words (an opening names the stake it reaches, a stay is
not a declined straddle, brelan carré, each suit's points with its owner, the ante a
bourré player skips); display names, not usernames, even for a player who has stood up
since; and a timeout said out loud ("Dave timed out: passed") in the table's notices, the
hand log and the result."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import DEAL_TIMEOUT_MS, seat_players_with_timer, table_option
from tests.e2e.ui import LiveServer, NewPage, Shot

RESULT_TEXT = """async (report) => {
    const { result, seatTags } = await import('/static/js/table/bourre.js');
    const ctx = { displayName: (u) => u.toUpperCase(), cardOptions: {}, delta: () => null,
                  rules: () => ({}) };
    const rows = result(report, ctx).flatMap((el) => [...el.querySelectorAll('li')])
        .map((li) => li.textContent);
    const tags = seatTags({ status: 'playing', tricks: 1, exchanged: 0, drawn: true },
                          { phase: 'tricks' });
    // Mid-draw: one player kept all, one drew two, one is still to draw.
    const drawing = [{ exchanged: 0, drawn: true }, { exchanged: 2, drawn: true },
                     { exchanged: 0, drawn: false }]
        .map((seat) => seatTags({ status: 'playing', tricks: 0, ...seat }, { phase: 'draw' }));
    return { rows, tags, drawing };
}"""


def test_one_trick_is_singular(live_server: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{live_server.base_url}/login")
    report = {
        "number": 3,
        "pot": 6,
        "players": ["ann", "bo"],
        "tricks": {"ann": 1, "bo": 4},
        "winner": "bo",
        "bourre": [],
        "carry": 0,
        "trump": "H",
        "stacks": {"ann": 90, "bo": 110},
    }
    said = page.evaluate(RESULT_TEXT, report)
    assert said["rows"][0].startswith("ANN1 trick"), said
    assert said["rows"][1].startswith("BO4 tricks"), said
    assert said["tags"] == ["Playing", "Kept all", "1 trick"]
    assert said["drawing"] == [["Playing", "Kept all"], ["Playing", "Drew 2"], ["Playing"]]


BOUILLOTTE_WORDS = """async () => {
    const b = await import('/static/js/table/bouillotte.js');
    const bo = await import('/static/js/table/bourre.js');
    const line = (kind, data) => b.eventLine(kind, data, { someone: 'Ann' })?.text;
    b.onEvent({ kind: 'new_hand', data: {} }, {});
    const log = [line('new_hand', {}), line('declined', {}), line('upcard', { card: '2H' }),
                 line('opened', { stake: 5 }), line('declined', {})];
    const name = (u) => u.toUpperCase();
    const ctx = { displayName: name, cardOptions: {}, delta: () => null, rules: () => ({}),
                  act: () => {} };
    const report = { number: 2, players: ['ann', 'bo'], pots: [{ winner: 'ann', amount: 20 }],
        showdown: { ann: { cards: ['AC', 'AH', 'AD'], rank: 'carre' },
                    bo: { cards: ['KS', '9H', '8C'], rank: 'points' } },
        suit_points: { S: 21, H: 11 }, stacks: { ann: 120, bo: 80 }, bonuses: [], carry: 0 };
    const result = b.result(report, ctx).map((el) => el.textContent).join(' | ');
    const view = { hand: { pot: 10, viewer: 0, phase: 'opening', seats: [{ stake: 2 }],
        legal_actions: [{ action: 'pass' }, { action: 'open', min: 5, max: 100 }], hand: [] } };
    const open = b.myArea(view, ctx).controls.flatMap((el) => [el, ...el.querySelectorAll('*')])
        .find((el) => el.dataset?.action === 'open').textContent;
    const bourre = bo.result({ number: 3, pot: 8, players: ['ann', 'bo'],
        tricks: { ann: 5, bo: 0 }, winner: 'ann', bourre: ['bo'], carry: 8, trump: 'H',
        stacks: { ann: 108, bo: 92 } }, ctx).map((el) => el.textContent).join(' | ');
    return { log, result, open, bourre };
}"""


def test_the_rules_words_at_the_table(live_server: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{live_server.base_url}/login")
    said = page.evaluate(BOUILLOTTE_WORDS)
    assert said["log"][1] == "Ann declines to straddle.", said["log"]
    assert said["log"][4] == "Ann stays.", said["log"]
    assert said["log"][3] == "Ann opens to 5.", said["log"]
    assert "Brelan carré" in said["result"] and "carre " not in said["result"], said["result"]
    assert "♠ 21 (BO)" in said["result"], said["result"]  # the king of spades is Bo's
    assert "♥ 11 (ANN)" in said["result"], said["result"]
    assert "brelan carré of aces" in said["result"], said["result"]
    assert said["open"] == "Open to 5 (add 3)", said["open"]
    assert "skips the next ante" in said["bourre"], said["bourre"]


def notices(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat-log .chat-notice").all_inner_texts()
    return texts


def test_a_timeout_is_said_with_display_names_after_a_player_stands_up(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players_with_timer(
        live_server,
        new_page,
        game="bourre",
        names=["Jay", "Kay", "Lee"],
        buy_in=100,
        turn_seconds=5,
    )
    pages = [p for p, _, _ in players]
    names = [n for _, _, n in players]
    usernames = [u for _, u, _ in players]
    # Nobody acts: the timer passes for each player in turn, and says so to everyone.
    timed_out = re.compile(rf"^({'|'.join(names)}) timed out: passed\.$")
    # The chat's notice names its hand too: read later, it is not taken for the hand in play.
    noticed = re.compile(rf"^Hand \d+: ({'|'.join(names)}) timed out: passed\.$")
    for page in pages:
        expect(page.locator("#chat-log .chat-notice").filter(has_text=noticed).first).to_be_visible(
            timeout=DEAL_TIMEOUT_MS
        )
        expect(page.locator("#hand-log .log-line--timeout").first).to_have_text(timed_out)
    # The hand ends once everyone has passed: the result lists each timeout.
    for page in pages:
        expect(page.locator("#result")).to_be_visible(timeout=30_000)
        lines = page.locator("#result .result-timeouts li")
        expect(lines.first).to_have_text(timed_out)
    shot(pages[0], "result-timeouts-laptop")
    shot(pages[-1], "result-timeouts-phone")
    said = pages[0].locator("#result .result-timeouts").inner_text()
    for username in usernames:
        assert username not in said
    # The phone's player stands up; a page opened afterwards still names everyone as the
    # table knew them, in the last hand's result.
    leaver = pages[-1]
    leaver.once("dialog", lambda dialog: dialog.accept())
    table_option(leaver, "button", "Stand up").click()  # in the phone's menu
    expect(pages[0].locator(".seat-name", has_text=re.compile(f"^{names[-1]}$"))).to_have_count(0)
    other = pages[1]
    other.reload()
    expect(other.locator("#connection")).to_have_text("Connected")
    if other.locator("#result").is_hidden():
        table_option(other, "button", "Last hand").click()
    result = other.locator("#result")
    expect(result.locator(".result-timeouts")).to_contain_text(f"{names[-1]} timed out")
    text = result.inner_text()
    for username in usernames:
        assert username not in text, text
    # Every notice of the timer named a display name.
    for line in notices(pages[0]):
        if "timed out" in line:
            assert noticed.match(line), line
