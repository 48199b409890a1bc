"""The pages' scripts outside the table (lobby, buy-in and confirmation dialogs, cards' names,
the hand pages and the fair-deal check) speak the reader's language: their words reach the
browser in the JSON static/js/i18n.js loads."""

from __future__ import annotations

import httpx
import orjson

from app.db.session import Database
from tests.helpers import found_club


async def test_the_scripts_words_reach_a_greek_reader(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    answer = await client.get("/i18n/el.json")
    assert answer.status_code == 200
    body = orjson.loads(answer.content)
    words = body["messages"]
    # The lobby, the buy-in dialog, the replay and the fair-deal verdict.
    assert words["Waiting for players"] == "Αναμονή παικτών"
    balance = "Το υπόλοιπό σας: {balance} {unit}."  # noqa: RUF001 (Greek, as meant)
    assert words["Your balance: {balance} {unit}."] == balance
    assert words["Step {number} of {total}: {label}"] == "Βήμα {number} από {total}: {label}"
    assert words["Trick {number}"] == "Μπάζα {number}"
    # A screen reader's card name, and words told apart by their sense.
    assert words["{rank} of hearts"] == "{rank} κούπα"
    assert words["card\u0004Queen"] == "Ντάμα"
    assert words["table\u0004Join"] == "Συμμετοχή"
    # A plural in the language's two forms, chosen by CLDR category.
    assert words["{n} watching"] == ["{n} θεατής", "{n} θεατές"]
    assert body["plural"] == {"one": 0, "other": 1}
    # The verdict of a hand checked in the browser, one part or several.
    verdict = words["No match: the {parts} does not agree with what was published."]
    assert verdict[1] == "Καμία αντιστοιχία: {parts} δεν συμφωνούν με όσα δημοσιεύτηκαν."
