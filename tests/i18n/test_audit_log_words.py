"""The audit log in the admin's language: its actions, what they were done to, the names of
the settings and options that changed and their values, while the codes stay in the data."""

# ruff: noqa: RUF001 (Russian and Greek letters, as meant)

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import TypeVar

from fastapi import FastAPI

from app.db.session import Database
from app.i18n import use_language
from app.services import admin_log
from tests.api.test_admin_log import _actions
from tests.helpers import logged_in_client

T = TypeVar("T")


def spoken(code: str, read: Callable[[], T]) -> T:
    """What `read` returns in `code`, without leaving the language set for other tests."""

    def in_language() -> T:
        use_language(code)
        return read()

    return contextvars.copy_context().run(in_language)


def test_a_settings_change_reads_in_russian() -> None:
    changed = spoken(
        "ru",
        lambda: admin_log.changes(
            {"signup_requires_approval": False, "seed_reveal": "session"},
            {"signup_requires_approval": True, "seed_reveal": "hand"},
        ),
    )
    assert [(c.label, c.before, c.after) for c in changed] == [
        ("Вступление только с одобрением", admin_log.Shown("выкл."), admin_log.Shown("вкл.")),
        (
            "Публикация зёрен раздач",
            admin_log.Shown("по окончании сеанса"),
            admin_log.Shown("по окончании каждой раздачи"),
        ),
    ]


def test_a_table_s_options_read_in_the_game_s_greek_words() -> None:
    opened = spoken(
        "el",
        lambda: admin_log.changes(None, {"rules": {"ante": 2}, "seat": 0, "bot_fill": True}),
    )
    words = {c.label: c.after.words for c in opened if c.after}
    # The option's name and its value as the rules' pages say them (a plural by the
    # language's rules), the log's own fields, a yes-or-no.
    assert words["Κανόνες"] == "Άντε 2 μάρκες"
    assert words["Θέση"] == "1"
    assert words["Τα bot γεμίζουν τις άδειες θέσεις"] == "ενεργό"
    # An option changed on its own is named by the game's words.
    ante = spoken("el", lambda: admin_log.changes({"ante": 1}, {"ante": 3}))
    assert ante[0].label == "Άντε"
    assert (ante[0].before, ante[0].after) == (
        admin_log.Shown("1 μάρκα"),
        admin_log.Shown("3 μάρκες"),
    )


def test_the_server_s_shell_is_named_in_french_and_a_member_by_their_name() -> None:
    made_by = spoken(
        "fr",
        lambda: [admin_log.shown("link_made_by", who) for who in ("the salon command", "ada")],
    )
    assert made_by == [admin_log.Shown("la commande salon"), admin_log.Shown("ada")]


def test_actions_and_targets_read_in_persian_and_keep_their_codes() -> None:
    actions = spoken("fa", admin_log.action_words)
    targets = spoken("fa", admin_log.target_words)
    assert set(actions) == set(admin_log.ACTIONS)
    assert set(targets) == set(admin_log.TARGET_KINDS)
    assert actions["club.settings"] == "تغییر تنظیمات باشگاه"
    assert targets["ruleset"] == "مجموعهٔ قوانین"
    # Every one translated: none is left in English.
    assert not [code for code, words in actions.items() if words == admin_log.ACTIONS[code]]
    assert not [kind for kind, words in targets.items() if words == admin_log.TARGET_KINDS[kind]]
    # English stays the source.
    assert spoken("en", admin_log.action_words)["club.settings"] == "changed the club's settings"


async def test_the_audit_log_page_speaks_french(app: FastAPI, db: Database) -> None:
    await _actions(app, db)
    owner = await logged_in_client(app, "owner")
    page = await owner.get("/admin/log?action=chips.grant", headers={"accept-language": "fr"})
    assert page.status_code == 200
    # The rows' action (capitalised by the page) and the filter's choice; the code stays in
    # the row's attribute and the option's value.
    assert page.text.count('<tr data-action="chips.grant">') == 2
    assert '<td data-label="Action">Attribution de jetons</td>' in page.text
    assert '<option value="chips.grant" selected>Attribution de jetons</option>' in page.text
    assert "(un membre #" in page.text and '<span class="muted">Solde:</span>' in page.text
    assert "ranted chips" not in page.text and "a member" not in page.text
    await owner.aclose()
