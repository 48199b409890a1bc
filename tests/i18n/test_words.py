"""Game facts in the reader's language: a table's house rules (each option's label, value
and explanation, the one-line summary), the option schema the rules form is built from, a
time left and a count of chips; the English ones are the other tests'."""

from __future__ import annotations

from contextvars import copy_context
from datetime import UTC, datetime, timedelta
from html import unescape

import orjson
from fastapi import FastAPI

from app.db.models import User
from app.db.session import Database
from app.i18n import use_language
from app.services.hand_text import chip_count
from app.services.time_words import time_left_words
from tests.helpers import add_member, found_club, logged_in_client, open_bourre_table


async def test_a_tables_rules_page_reads_in_russian_and_persian(app: FastAPI, db: Database) -> None:
    owner_id = await found_club(db)
    async with db.transaction() as session:
        owner_user = await session.get(User, owner_id)
        assert owner_user is not None
        table = await open_bourre_table(session, owner_user, "Friday")
    await add_member(db, "rose")
    rose = await logged_in_client(app, "rose")
    russian = unescape(
        (await rose.get(f"/tables/{table.id}/rules", headers={"accept-language": "ru"})).text
    )
    # An option's label, its value in words and its explanation; the summary.
    assert "Предел банка" in russian and "Pot limit" not in russian
    assert "без предела" in russian and "no limit" not in russian
    assert "Фишки, которые каждый игрок кладёт в банк перед раздачей." in russian
    assert "The chips each player puts in the pot before the deal." not in russian
    assert "Анте 1 фишка · стандартные правила" in russian
    persian = unescape(
        (await rose.get(f"/tables/{table.id}/rules", headers={"accept-language": "fa"})).text
    )
    assert "اجبار به حکم زدن" in persian and "Must trump" not in persian
    assert "فقط با حکمی که بتواند ببرد" in persian


async def test_the_rules_forms_schema_follows_the_language_and_keeps_its_codes(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    owner = await logged_in_client(app, "owner")
    fields = {
        f["name"]: f
        for f in orjson.loads(
            (
                await owner.get(
                    "/api/admin/rulesets/schema/bourre", headers={"accept-language": "ru"}
                )
            ).content
        )
    }
    must_trump = fields["must_trump"]
    assert must_trump["label"] == "Обязательно козырять"
    assert must_trump["choices"] == [
        ["to_win", "только козырем, который может взять"],
        ["always", "всегда"],
    ]
    # Machine words stay: option names, kinds, values.
    assert must_trump["kind"] == "choice" and must_trump["default"] == "to_win"
    assert fields["pot_limit"]["none_words"] == "без предела"


def test_a_time_left_and_chips_are_counted_by_the_languages_plural_rules() -> None:
    now = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)

    def in_russian() -> list[str]:
        use_language("ru")
        return [
            time_left_words(now + timedelta(minutes=2), now),
            time_left_words(now + timedelta(hours=5), now),
            chip_count(21),
            chip_count(1616),
        ]

    assert copy_context().run(in_russian) == ["2 минуты", "5 часов", "21 фишка", "1616 фишек"]
