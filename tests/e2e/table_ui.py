"""The lobby and the live table, driven through the browser as players do it.

Every step clicks what a player would click and reads what the page shows; nothing here
talks to the API directly, so the tests prove the pages work, not only the server.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Sequence
from typing import Any, Literal

from playwright.sync_api import Locator, Page, expect

from tests.e2e.ui import (
    DESKTOP,
    PHONE,
    LiveServer,
    NewPage,
    Screen,
    Shot,
    approve,
    grant_chips,
    log_in,
    open_menu,
    register,
)

# A hand is dealt a couple of seconds after enough players are ready.
DEAL_TIMEOUT_MS = 20_000


# The lobby form's standard buy-in limits at a Bourré table.
LOBBY_BUY_IN_RANGE = (50, 500)


def create_table(page: Page, base: str, *, name: str, game: str, seats: int) -> int:
    """As an admin: open a table from the lobby's form; returns its id (from the page URL)."""
    page.goto(f"{base}/lobby")
    form = page.locator("#create-table")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Bourré" if game == "bourre" else "Bouillotte", exact=True).check()
    form.get_by_label("Seats").fill(str(seats))
    form.get_by_label("Turn timer (s)").fill("300")
    form.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+$"))
    expect(page.locator("#connection")).to_have_text("Connected")
    return int(page.url.rsplit("/", 1)[1])


def table_option(page: Page, role: Literal["button", "link"], name: str) -> Locator:
    """A link or button of the table's bar, where a player finds it: in the bar on a laptop,
    in the table's menu on a phone (opened first). An option that acts folds the menu
    again; a switch (sound, notifications…) leaves it open (`fold_menu`)."""
    open_menu(page)
    return page.locator("#table-options").get_by_role(role, name=name, exact=True)


def open_paused_table(page: Page, base: str, *, name: str, game: str, seats: int) -> int:
    """As an admin: open a table and pause it at once, so that players can sit down before
    the first hand is dealt (the admin resumes it with `resume`)."""
    table_id = create_table(page, base, name=name, game=game, seats=seats)
    table_option(page, "button", "Pause").click()
    expect(page.locator("#pause-table")).to_have_text("Resume")
    return table_id


def resume(page: Page) -> None:
    """As an admin, on the table's page: resume play."""
    table_option(page, "button", "Resume").click()
    expect(page.locator("#pause-table")).to_have_text("Pause")


def table_row(page: Page, table_id: int) -> Locator:
    return page.locator(f"li.table-row[data-table-id='{table_id}']")


def join_from_lobby(page: Page, base: str, table_id: int, amount: int, balance: int) -> None:
    """In the lobby: Join, check the chooser shows the balance, buy in, land at the table."""
    page.goto(f"{base}/lobby")
    expect(page.get_by_test_id("lobby-balance")).to_have_text(f"{balance:,}".replace(",", "\u202f"))
    table_row(page, table_id).get_by_role("button", name="Join").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator(".buyin-balance")).to_have_text(f"{balance:,}".replace(",", "\u202f"))
    field = dialog.get_by_label("Amount", exact=True)
    if field.get_attribute("readonly") is None:
        field.fill(str(amount))
    expect(field).to_have_value(str(amount))
    dialog.get_by_role("button", name="Buy in").click()
    expect(page).to_have_url(f"{base}/tables/{table_id}")
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator(".seat--me")).to_have_count(1)


def member_at_table(page: Page, base: str, username: str, password: str) -> None:
    log_in(page, base, username, password)
    expect(page).to_have_url(f"{base}/lobby")


def my_cards(page: Page) -> list[str]:
    """The names of the cards in the viewer's own hand, as the page shows them."""
    names: list[str] = page.locator("#my-hand span.card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return names


def every_card_shown(page: Page) -> set[str]:
    """Every face-up card anywhere on the page (backs carry no name)."""
    names: list[str] = page.locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    return set(names)


def to_act(pages: Sequence[Page], timeout: float = 15) -> Page | None:
    """The page whose prompt says it is that player's turn, or None once the hand's result
    is shown (waits for one or the other)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#prompt.prompt--turn").count():
                return page
        if result_shown(pages):
            return None
        time.sleep(0.05)
    prompts = " | ".join(p.locator("#prompt").inner_text() for p in pages)
    raise AssertionError(f"nobody was asked to act: {prompts}")


def acting(pages: Sequence[Page]) -> Page:
    """The page of the player to act, when the hand cannot be over yet."""
    page = to_act(pages)
    assert page is not None, "the hand ended early"
    return page


def result_shown(pages: Sequence[Page]) -> bool:
    return all(page.locator("#result").is_visible() for page in pages)


def stack_of(page: Page, seat_name: str) -> int:
    seat = page.locator(".seat").filter(
        has=page.locator(".seat-name", has_text=re.compile(f"^{re.escape(seat_name)}$"))
    )
    return int(seat.get_by_test_id("stack").inner_text().replace("\u202f", ""))


def version(page: Page) -> int:
    """The table version of the page's last snapshot."""
    return int(page.locator("#table-app").get_attribute("data-version") or "-1")


def act(page: Page, control: Locator) -> None:
    """Click one of my controls and wait until the table has moved on (a newer snapshot)."""
    before = version(page)
    control.click()
    expect(page.locator("#table-app")).not_to_have_attribute("data-version", str(before))


def expect_usable(control: Locator) -> None:
    """A person can use this control: it is shown, enabled, inside the window, and nothing
    covers it (the element under its centre is the control or inside it)."""
    expect(control).to_be_visible()
    expect(control).to_be_enabled()
    expect(control).to_be_in_viewport(ratio=1)
    on_top = control.evaluate(
        """el => {
            const box = el.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return hit !== null && el.contains(hit);
        }"""
    )
    assert on_top, f"something covers {control}"


PASSWORD = "correct horse battery"
START = 1000
Seated = list[tuple[Page, str, str]]


def seat_players(
    live_server: LiveServer,
    new_page: NewPage,
    shot: Shot,
    *,
    game: str,
    names: list[str],
    buy_in: int,
    through_pages: bool = False,
) -> Seated:
    """Members sit down at a new three-seat table of the owner's (the last on a phone),
    paused while they do; then play resumes and hand 1 is dealt. The table has the lobby
    form's standard settings.

    `through_pages`: as people do it — each registers on the form, the owner approves them
    and grants chips on the dashboard and opens the table from the lobby, and each joins
    from the lobby. Otherwise the same is done through the API from the same pages (those
    pages have their own tests), which saves most of a minute a test."""
    if not through_pages:
        screens = [DESKTOP] * (len(names) - 1) + [PHONE]
        owner, _, players = quick_table(
            live_server,
            new_page,
            game=game,
            seats=3,
            names=names,
            screens=screens,
            buy_in=buy_in,
            buy_in_range=LOBBY_BUY_IN_RANGE if game == "bourre" else None,
        )
        resume(owner)
        wait_for_the_deal([page for page, _, _ in players])
        return players
    base = live_server.base_url
    players = []
    for n, name in enumerate(names):
        page = new_page(PHONE) if n == len(names) - 1 else new_page()
        username = f"{name.lower()}{secrets.token_hex(2)}"
        assert register(page, base, username, PASSWORD, name), "approval is required"
        players.append((page, username, name))
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    for _, username, _ in players:
        approve(owner, username)
        grant_chips(owner, username, START, "Club night")
    table_id = open_paused_table(owner, base, name=f"{names[0]}'s {game}", game=game, seats=3)
    for n, (page, username, _) in enumerate(players):
        member_at_table(page, base, username, PASSWORD)
        if n == 0:
            shot(page, f"lobby-{game}")
        join_from_lobby(page, base, table_id, buy_in, START)
    resume(owner)
    wait_for_the_deal([page for page, _, _ in players])
    return players


def wait_for_the_deal(pages: Sequence[Page]) -> None:
    for page in pages:
        expect(page.locator("#prompt")).not_to_have_text("The table is paused.")
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)


# ---------------------------------------------------------------- quick tables
# Tables with many seats (a Bourré table seats up to eight) are set up through the API from
# the players' own pages: registering eight members through the forms would take most of a
# minute. The tests then look only at what the pages show.


def call_api(page: Page, method: str, path: str, body: object | None = None) -> Any:
    """Call the API from the page's own session (its cookies and CSRF token); the JSON
    answer. Fails on any error status."""
    answer: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const meta = document.querySelector('meta[name="csrf-token"]');
            const token = meta ? meta.content
                : (await (await fetch("/api/auth/csrf")).json()).csrf_token;
            const response = await fetch(path, {
                method,
                headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                body: body === null ? undefined : JSON.stringify(body),
            });
            const text = await response.text();
            return {status: response.status, body: text ? JSON.parse(text) : null};
        }""",
        [method, path, body],
    )
    status = answer["status"]
    assert isinstance(status, int) and status < 400, (method, path, answer)
    return answer["body"]


def quick_table(
    live_server: LiveServer,
    new_page: NewPage,
    *,
    game: str,
    seats: int,
    names: Sequence[str],
    screens: Sequence[Screen],
    buy_in: int = 100,
    buy_in_range: tuple[int, int] | None = None,
    turn_seconds: int = 300,
    gathering_seconds: int | None = None,
) -> tuple[Page, int, Seated]:
    """The owner opens a paused table of `seats` seats; one member per name registers on a
    page of the matching screen, is approved, granted chips and sits in the next seat. The
    table stays paused (`resume` deals). Returns the owner's page (on the table), the
    table's id and the seated players. `buy_in_range`: a Bourré table's smallest and
    largest buy-in (`buy_in` to five times it unless given); `gathering_seconds`: the
    table's own gathering countdown (else the club's)."""
    base = live_server.base_url
    owner = new_page()
    log_in(owner, base, live_server.owner_username, live_server.owner_password)
    cave = {"cave": buy_in} if game == "bouillotte" else {"ante": 1}
    if game == "bouillotte":
        low, high = buy_in, buy_in
    else:
        low, high = buy_in_range or (buy_in, 5 * buy_in)
    table = call_api(
        owner,
        "POST",
        "/api/tables",
        {
            "name": f"{names[0]}'s {game}",
            "game": game,
            "seat_count": seats,
            "rules": cave,
            "buy_in_min": low,
            "buy_in_max": high,
            "turn_seconds": turn_seconds,
            **({"gathering_seconds": gathering_seconds} if gathering_seconds is not None else {}),
        },
    )
    table_id = int(table["id"])
    call_api(owner, "POST", f"/api/tables/{table_id}/pause")
    players: Seated = []
    for seat, (name, screen) in enumerate(zip(names, screens, strict=True)):
        page = new_page(screen)
        username = f"player{seat}-{secrets.token_hex(3)}"
        page.goto(f"{base}/login")
        member = call_api(
            page,
            "POST",
            "/api/auth/register",
            {"username": username, "password": PASSWORD, "display_name": name},
        )
        member_id = member["member"]["id"]
        if not member["logged_in"]:
            call_api(owner, "POST", f"/api/admin/members/{member_id}/approve")
        call_api(
            owner,
            "POST",
            "/api/admin/chips/grant",
            {
                "member_id": member_id,
                "amount": START,
                "reason": "Club night",
                "idempotency_key": secrets.token_hex(8),
            },
        )
        if not member["logged_in"]:
            call_api(page, "POST", "/api/auth/login", {"username": username, "password": PASSWORD})
        page.goto(f"{base}/lobby")
        call_api(
            page,
            "POST",
            f"/api/tables/{table_id}/seat",
            {"seat": seat, "buy_in": buy_in, "request_key": secrets.token_hex(8)},
        )
        page.goto(f"{base}/tables/{table_id}")
        # Connected, in whatever language the page speaks.
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
        players.append((page, username, name))
    owner.goto(f"{base}/tables/{table_id}")
    expect(owner.locator("#connection")).to_have_text("Connected")
    return owner, table_id, players


def play_out_bourre_hand(pages: Sequence[Page], *, shortcut: bool = False) -> None:
    """Everyone comes in, keeps their cards and plays the first card they may, until the
    hand's result is shown. `shortcut`: declarations and draws by keyboard."""
    for _ in range(200):
        page = to_act(pages, timeout=20)
        if page is None:
            return
        controls = page.locator("#controls")
        play = controls.get_by_role("button", name="Play", exact=True)
        keep = controls.get_by_role("button", name="Keep all")
        legal = page.locator("#my-hand button.is-legal")
        if play.count():
            act(page, play)
        elif keep.count():
            act(page, keep)
        elif legal.count():
            act(page, legal.first)
        else:
            act(page, controls.locator("button:enabled").first)
    raise AssertionError("the hand did not end")


ROW_UNCOVERED = """el => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && el.contains(hit);
}"""


def expect_readable(page: Page, locator: Locator) -> None:
    """Each element matched is inside the window (after scrolling its panel to it) and
    nothing covers it (the element under its centre is inside it)."""
    for n in range(locator.count()):
        row = locator.nth(n)
        row.scroll_into_view_if_needed()
        expect(row).to_be_in_viewport(ratio=1)
        assert row.evaluate(ROW_UNCOVERED), f"something covers {row.inner_text()!r}"


def seat_players_with_timer(
    live_server: LiveServer,
    new_page: NewPage,
    *,
    game: str,
    names: list[str],
    buy_in: int,
    turn_seconds: int,
) -> Seated:
    """As `seat_players` (the last player on a phone), at a table of as many seats as names
    whose turn timer is `turn_seconds`: the timer then plays for whoever does not act."""
    screens = [DESKTOP] * (len(names) - 1) + [PHONE]
    owner, _, players = quick_table(
        live_server,
        new_page,
        game=game,
        seats=len(names),
        names=names,
        screens=screens,
        buy_in=buy_in,
        buy_in_range=LOBBY_BUY_IN_RANGE if game == "bourre" else None,
        turn_seconds=turn_seconds,
    )
    resume(owner)
    wait_for_the_deal([page for page, _, _ in players])
    return players


def press(page: Page, key: str) -> None:
    """Press a key on the table page and wait until the table has moved on."""
    before = version(page)
    page.keyboard.press(key)
    expect(page.locator("#table-app")).not_to_have_attribute("data-version", str(before))


def alice_and_bob_dealt_in(
    new_page: NewPage, base: str, admin: Page, table_id: int, password: str
) -> list[Page]:
    """Alice (laptop) and Bob (phone) log in at `base` and join the paused table from the
    lobby; the admin resumes it. Returns their pages once the first hand is dealt."""
    pages = []
    for name in ("alice", "bob"):
        page = new_page(PHONE) if name == "bob" else new_page()
        member_at_table(page, base, name, password)
        join_from_lobby(page, base, table_id, 100, 1000)
        pages.append(page)
    resume(admin)
    for page in pages:
        expect(page.locator("#hand-info")).to_contain_text("Hand 1", timeout=DEAL_TIMEOUT_MS)
    return pages
