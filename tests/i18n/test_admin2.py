"""The treasurer's pages and the house rules in the admin's language: the ledger, the
sessions and who pays whom, the chip requests, the rules list."""

from __future__ import annotations

import re

from fastapi import FastAPI

from app.db.session import Database
from tests.api.test_treasury_pages import client_of, token_in
from tests.i18n.test_language_pages import html_language
from tests.treasury_scene import evening


async def test_the_sessions_and_ledger_speak_the_admins_language(
    app: FastAPI, db: Database
) -> None:
    scene = await evening(db)
    admin = await client_of(app, "owner")
    page = await admin.get("/admin/sessions", headers={"accept-language": "ru"})
    assert html_language(page) == ("ru", "ltr")
    assert '<h2 id="settle-title">Кто кому платит</h2>' in page.text
    assert "Who pays whom" not in page.text and "Every member" not in page.text
    # The names stay in their own elements, the sentence around them is Russian.
    transfers = page.text.split('data-testid="transfers"')[1].split("</ul>")[0]
    assert "<strong>Alice</strong> платит <strong>Bob</strong> 20" in transfers
    assert " pays " not in transfers
    # The ledger's count by the language's plural rules, right to left in Persian.
    persian = await admin.get(
        f"/admin/ledger?member={scene.bob}&kind=top_up&since=2000-01-01",
        headers={"accept-language": "fa"},
    )
    assert html_language(persian) == ("fa", "rtl")
    assert 'data-testid="ledger-total">1 جابه‌جایی</span>' in persian.text
    assert "<h1>دفتر حساب</h1>" in persian.text and "Movements, newest" not in persian.text
    await admin.aclose()


async def test_a_chip_request_is_answered_in_the_admins_language(
    app: FastAPI, db: Database
) -> None:
    await evening(db)
    alice = await client_of(app, "alice")
    token = token_in(await alice.get("/account"))
    await alice.post("/account/chip-requests", data={"csrf_token": token, "amount": "60"})
    admin = await client_of(app, "owner")
    french = {"accept-language": "fr"}
    listing = await admin.get("/admin/chip-requests", headers=french)
    assert "<h1>Demandes de jetons</h1>" in listing.text and "Waiting (" not in listing.text
    asked = re.search(r'data-request="([0-9]+)"', listing.text)
    assert asked
    done = await admin.post(
        f"/admin/chip-requests/{asked.group(1)}/approve",
        data={"csrf_token": token_in(listing)},
        headers=french,
    )
    assert f"Demande nº {asked.group(1)} de Alice pour 60 accordée." in done.text
    # The answer's status in words (its code stays in the class).
    assert '<span class="status-approved">accordée</span>' in done.text
    await alice.aclose()
    await admin.aclose()


async def test_the_house_rules_page_speaks_greek(app: FastAPI, db: Database) -> None:
    await evening(db)
    admin = await client_of(app, "owner")
    page = await admin.get("/admin/rules", headers={"accept-language": "el"})
    assert "<h1>Κανόνες της λέσχης</h1>" in page.text
    assert "ενσωματωμένα πρότυπα</h2>" in page.text and "built-in presets" not in page.text
    assert ">Αντιγραφή</button>" in page.text and ">Clone<" not in page.text
    await admin.aclose()
