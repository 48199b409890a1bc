"""The hand so far, beside the felt: the log of who declared, drew how many, played what
and won which trick (never another player's drawn cards); the card winning the trick in
play, marked; the last trick on request. Bouillotte's log says who declined, passed,
opened, folded, went va tout and called, for how much. On a phone the log starts folded,
below the controls."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.table_ui import (
    act,
    expect_readable,
    expect_usable,
    press,
    seat_players,
    to_act,
)
from tests.e2e.ui import LiveServer, NewPage, Shot

CARD_STYLE = """el => {
    const s = getComputedStyle(el);
    return {transform: s.transform, shadow: s.boxShadow};
}"""


def log_text(page: Page, number: int = 1) -> str:
    """The log's lines for hand `number` (the next hand's lines follow them)."""
    lines: list[str] = page.locator("#hand-log .log-line").evaluate_all(
        "els => els.map((e) => e.textContent)"
    )
    start = lines.index(f"Hand {number}")
    rest = lines[start + 1 :]
    end = rest.index(f"Hand {number + 1}") if f"Hand {number + 1}" in rest else len(rest)
    return " ".join(rest[:end])


def test_bourre_hand_log_winning_card_and_last_trick(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bourre", names=["Gus", "Hal", "Ivy"], buy_in=100
    )
    pages = [p for p, _, _ in players]
    names = [n for _, _, n in players]
    laptop, phone = pages[0], pages[-1]
    # Open beside the felt on a laptop; folded on a phone, where it sits below the controls.
    assert laptop.locator("#hand-log-panel").evaluate("el => el.open")
    assert not phone.locator("#hand-log-panel").evaluate("el => el.open")

    # Before the first trick there is none to look at: the button says so by its look.
    toggle = laptop.locator("#last-trick-toggle")
    expect(toggle).to_be_disabled()
    assert float(toggle.evaluate("el => getComputedStyle(el).opacity")) < 0.6

    drawer: Page | None = None
    checked_winning = False
    for _ in range(200):
        page = to_act(pages, timeout=20)
        if page is None or "Hand 1" not in page.locator("#hand-info").inner_text():
            break
        controls = page.locator("#controls")
        if page is phone:  # the folded log takes no room from what the player must press
            buttons = controls.locator("button")
            mine = page.locator("#my-hand button.is-legal")
            expect_usable(buttons.first if buttons.count() else mine.first)
        play = controls.get_by_role("button", name="Play", exact=True)
        keep = controls.get_by_role("button", name="Keep all")
        if play.count():
            act(page, play)
            continue
        if keep.count():
            if drawer is None:  # the first to draw exchanges one card
                drawer = page
                page.locator("#my-hand button.card-button").first.click()
                act(page, controls.get_by_role("button", name="Exchange 1"))
            else:
                act(page, keep)
            continue
        trick = laptop.locator("#centre .trick span.card")
        if trick.count() >= 2 and not checked_winning:
            winning = laptop.locator("#centre .trick span.card.is-winning")
            expect(winning).to_have_count(1)
            expect(winning).to_have_attribute("aria-label", re.compile(r", winning$"))
            other = laptop.locator("#centre .trick span.card:not(.is-winning)").first
            assert winning.evaluate(CARD_STYLE) != other.evaluate(CARD_STYLE)
            shot(laptop, "trick-winning-card-laptop")
            shot(phone, "trick-winning-card-phone")
            checked_winning = True
        legal = page.locator("#my-hand button.is-legal")
        act(page, legal.first if legal.count() else controls.locator("button:enabled").first)
        # After the first trick, the laptop's player looks at it again.
        toggle = laptop.locator("#last-trick-toggle")  # hidden between hands
        if toggle.is_enabled() and toggle.get_attribute("aria-pressed") == "false":
            assert toggle.evaluate("el => getComputedStyle(el).opacity") == "1"
            toggle.click()
            last = laptop.locator("#last-trick")
            expect(last.locator(".last-trick-card")).to_have_count(3)
            expect(last).to_contain_text("won it")
            shot(laptop, "last-trick-laptop")
    assert drawer is not None and checked_winning
    assert laptop.get_by_role("button", name="Last trick").get_attribute("aria-pressed") == "true"

    # The log names players by their display names, says who exchanged how many, and
    # shows the drawn cards to the one who drew them only.
    for page in pages:
        text = log_text(page)
        for name in names:
            assert f"{name} plays." in text, text
        assert re.search(r"exchanges 1 card, draws 1\.", text), text
        assert re.search(r"wins trick 1\.", text), text
        assert re.search(r"(wins the pot of|Nobody takes the pot)", text), text
        assert ("You drew" in text) == (page is drawer), text
    # Milestones stand out as the eye scans the log: a trick won is bold, a card played not.
    weight = "line => Number(getComputedStyle(line).fontWeight)"
    lines = laptop.locator("#hand-log .log-line")
    won = lines.filter(has_text=re.compile(r"wins trick 1\.$")).first
    played = lines.filter(has_text=re.compile(r" plays \S+\.$")).first
    assert won.evaluate(weight) >= 600 > played.evaluate(weight)
    phone.locator("#hand-log-panel summary").click()
    expect(phone.locator("#hand-log .log-line").first).to_be_visible()
    # Opened on the phone, it shows its latest line, inside its own panel.
    expect_readable(phone, phone.locator("#hand-log .log-line").last)
    inside = phone.evaluate(
        """() => {
            const panel = document.querySelector('aside.chat').getBoundingClientRect();
            const log = document.getElementById('hand-log').getBoundingClientRect();
            return log.top >= panel.top - 0.5 && log.bottom <= panel.bottom + 0.5;
        }"""
    )
    assert inside, "the hand log spills out of its panel"
    # Scrolled to its end, the log's top line names the hand the lines under it belong to.
    for page in (laptop, phone):
        top = page.locator("#hand-log").evaluate(
            """log => {
                log.scrollTop = log.scrollHeight;
                const box = log.getBoundingClientRect();
                const at = document.elementFromPoint(box.left + 8, box.top + 4);
                return [log.scrollHeight > log.clientHeight, at && at.textContent,
                        !!(at && at.closest('.log-line--hand'))];
            }"""
        )
        assert top[2] and str(top[1]).startswith("Hand "), top
    shot(phone, "hand-log-phone")
    shot(laptop, "hand-log-laptop")


def test_bouillotte_hand_log_by_keyboard(
    live_server: LiveServer, new_page: NewPage, shot: Shot
) -> None:
    players = seat_players(
        live_server, new_page, shot, game="bouillotte", names=["Mo", "Ned", "Oz"], buy_in=100
    )
    pages = [p for p in (p for p, _, _ in players)]
    laptops = pages[:-1]
    done: list[str] = []
    for _ in range(30):
        page = to_act(pages, timeout=20)
        if page is None:
            break
        if page is pages[-1]:  # the phone's player taps
            controls = page.locator("#controls")
            for name in ("Decline", "Stay", "Pass", "Fold"):
                button = controls.get_by_role("button", name=name, exact=True)
                if button.count():
                    act(page, button)
                    break
            else:
                act(page, controls.locator("button:enabled").first)
            continue
        controls = page.locator("#controls")
        has = {
            a: controls.locator(f"[data-action='{a}']").count() > 0
            for a in ("decline", "open", "all_in", "call", "pass", "fold")
        }
        if has["decline"]:
            press(page, "d")
            done.append("decline")
        elif has["open"]:
            press(page, "o")
            done.append("open")
        elif has["all_in"] and "all_in" not in done:
            button = controls.locator("[data-action='all_in']")
            expect(button).to_have_attribute("aria-keyshortcuts", "V")
            page.keyboard.press("v")  # the first press only arms it, as a first tap does
            expect(button).to_have_attribute("data-armed", "true")
            press(page, "v")
            done.append("all_in")
        elif has["call"]:
            press(page, "c")
            done.append("call")
        else:
            press(page, "x" if has["pass"] else "f")
            done.append("pass/fold")
    assert "open" in done, done
    for page in laptops:
        text = log_text(page)
        assert re.search(r"\w+ opens to \d+\.", text), text
        if "all_in" in done:
            assert "va tout" in text, text
        assert re.search(r"wins \d+\.|Everyone passed", text), text
    shot(laptops[0], "bouillotte-hand-log")
