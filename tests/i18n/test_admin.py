"""The admin dashboard in the admin's language, and the club's default language as the
admins set it (the dashboard's form, the REST API)."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.db.models import MemberStatus
from app.db.session import Database
from tests.api.test_admin_pages import admin_client, page_tokens
from tests.helpers import add_member, csrf_headers, found_club, snapshot
from tests.i18n.test_language_pages import html_language

# A browser asking only for what Salon does not speak.
GERMAN = {"accept-language": "de-DE,de;q=0.9"}


def settings_form(token: str, **changes: str) -> dict[str, str]:
    return {
        "csrf_token": token,
        "name": "Test Club",
        "chip_unit": "chips",
        "default_turn_seconds": "30",
        **changes,
    }


async def visitors_login_page(app: FastAPI) -> httpx.Response:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as visitor:
        return await visitor.get("/login", headers=GERMAN)


async def test_the_settings_form_sets_the_clubs_default_language(
    app: FastAPI, db: Database
) -> None:
    await found_club(db)
    admin = await admin_client(app)
    page = await admin.get("/admin")
    # Each language by its own name; English (none) chosen until one is set.
    menu = page.text[page.text.index('data-testid="default-language"') :]
    menu = menu[: menu.index("</select>")]
    assert '<option value="" lang="en" dir="ltr" selected>English</option>' in menu
    for code, name in (("fr", "Français"), ("ru", "Русский"), ("fa", "فارسی")):
        assert f'<option value="{code}" lang="{code}"' in menu and f">{name}</option>" in menu
    assert 'value="en"' not in menu
    assert html_language(await visitors_login_page(app)) == ("en", "ltr")

    token, _ = await page_tokens(admin)
    saved = await admin.post("/admin/club", data=settings_form(token, default_language="ru"))
    assert saved.status_code == 200 and "selected>Русский</option>" in saved.text
    # The admin's own page follows the admin's browser (English here), not the default.
    assert "Club settings saved." in saved.text
    login = await visitors_login_page(app)
    assert html_language(login) == ("ru", "ltr") and "<h1>Войти</h1>" in login.text

    before = await snapshot(db)
    unknown = await admin.post("/admin/club", data=settings_form(token, default_language="xx"))
    assert unknown.status_code == 422 and 'data-code="unknown_language"' in unknown.text
    assert await snapshot(db) == before
    # The other settings saved alone keep it; "" (English) takes it away.
    await admin.post("/admin/club", data=settings_form(token, default_language="ru", name="B"))
    assert html_language(await visitors_login_page(app)) == ("ru", "ltr")
    await admin.post("/admin/club", data=settings_form(token, default_language=""))
    assert html_language(await visitors_login_page(app)) == ("en", "ltr")
    await admin.aclose()


async def test_the_api_sets_the_clubs_default_language(app: FastAPI, db: Database) -> None:
    await found_club(db)
    admin = await admin_client(app)
    assert "default_language" not in (await admin.get("/api/admin/club")).json()
    changed = await admin.patch(
        "/api/admin/club", json={"default_language": "AR"}, headers=csrf_headers(admin)
    )
    assert changed.status_code == 200 and changed.json()["default_language"] == "ar"
    login = await visitors_login_page(app)
    assert html_language(login) == ("ar", "rtl")
    # Whoever asks for a language Salon speaks still gets it.
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as visitor:
        assert html_language(await visitor.get("/login", headers={"accept-language": "el"})) == (
            "el",
            "ltr",
        )

    for bad in ("xx", "klingon", "de"):
        refused = await admin.patch(
            "/api/admin/club", json={"default_language": bad}, headers=csrf_headers(admin)
        )
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "unknown_language"
    assert (await admin.get("/api/admin/club")).json()["default_language"] == "ar"
    # The change is in the audit log, before and after.
    log = await admin.get("/api/admin/log", params={"action": "club.settings"})
    assert any(
        row["before"] == {"default_language": None} and row["after"] == {"default_language": "ar"}
        for row in log.json()["entries"]
    ), log.text
    cleared = await admin.patch(
        "/api/admin/club", json={"default_language": ""}, headers=csrf_headers(admin)
    )
    assert "default_language" not in cleared.json()
    assert html_language(await visitors_login_page(app)) == ("en", "ltr")
    await admin.aclose()


async def test_the_dashboard_speaks_the_admins_language(app: FastAPI, db: Database) -> None:
    await found_club(db)
    pending = await add_member(db, "paul", status=MemberStatus.PENDING)
    admin = await admin_client(app)
    russian = {"accept-language": "ru"}
    page = await admin.get("/admin", headers=russian)
    assert html_language(page) == ("ru", "ltr")
    assert "<h1>Управление клубом</h1>" in page.text and "Club admin" not in page.text
    # A plural the Russian way, the count kept in its own element.
    assert '<span data-testid="pending-count">1</span> заявка на вступление' in page.text
    assert "принять</button>" in page.text and ">approve<" not in page.text
    token, _ = await page_tokens(admin)
    done = await admin.post(
        f"/admin/members/{pending}/approve", data={"csrf_token": token}, headers=russian
    )
    # The notice, the member's status in words (the code stays in the data).
    assert "paul: активен." in done.text
    persian = await admin.get("/admin", headers={"accept-language": "fa"})
    assert html_language(persian) == ("fa", "rtl") and "<h1>مدیریت باشگاه</h1>" in persian.text
    # The audit log: its plural count in Greek, the notice's approval in it.
    log = await admin.get("/admin/log", headers={"accept-language": "el"})
    assert "<h1>Αρχείο ενεργειών</h1>" in log.text and "Every admin" not in log.text
    assert '<span data-testid="log-total">1</span> ενέργεια' in log.text
    await admin.aclose()
