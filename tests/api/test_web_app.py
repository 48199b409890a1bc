"""Salon as an installable web app, as the server serves it: the manifest (named after the
club), the service worker at the site's root with a shell that leaves out the API and the
socket, and the offline page. The browser's side is in tests/e2e/test_web_app.py."""

from __future__ import annotations

import json
import re

import httpx

from app.db.session import Database
from app.web.pwa import NEVER_CACHED, build_version
from tests.helpers import found_club

BUILD = re.compile(r"^const BUILD = (\{.*\});$", re.MULTILINE)


async def test_the_manifest_names_the_club_and_its_icons(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    answer = await client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == manifest["short_name"] == "Test Club"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        image = await client.get(icon["src"])
        assert image.status_code == 200, icon
        assert image.headers["content-type"] == "image/png"


async def test_the_worker_is_served_from_the_root_as_a_script(client: httpx.AsyncClient) -> None:
    answer = await client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    # Always revalidated: a release must reach the browsers that installed the last one.
    assert answer.headers["cache-control"] == "no-cache"
    found = BUILD.search(answer.text)
    assert found, "the worker is told its build"
    build = json.loads(found.group(1))
    assert build["cache"] == f"salon-shell-{build_version()}"
    assert "/offline" in build["shell"]
    assert any(url.startswith("/static/css/salon.css?v=") for url in build["shell"])
    # Nothing live in the shell; the API and the socket are named as never stored.
    assert not [url for url in build["shell"] if url.startswith(NEVER_CACHED)]
    assert set(build["never"]) == {"/api/", "/ws/"}


async def test_the_offline_page_says_the_club_is_unreachable(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    answer = await client.get("/offline")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "The club is unreachable." in answer.text
    assert "Salon will reconnect when the club's server answers again." in answer.text
    assert "Test Club" in answer.text


async def test_every_page_links_the_manifest_and_registers_the_worker(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    page = (await client.get("/login")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<script type="module" src="/static/js/pwa\.js\?v=\w+"></script>', page)
    assert re.search(r'<link rel="apple-touch-icon" href="/static/icons/[\w-]+\.png\?v=', page)


# The worker's pattern for the words file the offline page names (templates/sw.js).
WORKER_WORDS = re.compile(r"/(<meta name=\"salon-words\".*?)/\.exec")


async def test_the_offline_page_keeps_its_script_s_words_in_its_language(
    client: httpx.AsyncClient, db: Database
) -> None:
    await found_club(db)
    worker = (await client.get("/sw.js")).text
    found = BUILD.search(worker)
    assert found
    build = json.loads(found.group(1))
    # The language script is stored on install, and the words files are answered from the
    # cache with the server away.
    assert any(url.startswith("/static/js/i18n.js?v=") for url in build["shell"])
    assert build["words"] == "/i18n/"
    script = (await client.get("/static/js/offline.js")).text
    assert 'from "./i18n.js"' in script

    # The French offline page names its words file, which the worker finds in it and stores.
    page = (await client.get("/offline", headers={"accept-language": "fr"})).text
    pattern = WORKER_WORDS.search(worker)
    assert pattern, "the worker looks for the words file in the offline page"
    named = re.search(pattern.group(1), page)
    assert named, "the worker finds the words file the page names"
    url = named.group(1)
    assert url.startswith(build["words"] + "fr.json?v=")
    words = await client.get(url)
    assert words.status_code == 200
    # Cacheable for good under that address: the stored copy stays right.
    assert "immutable" in words.headers["cache-control"]
    messages = json.loads(words.content)["messages"]
    assert messages["Trying…"] == "Nouvel essai…"
    forms = messages["Still unreachable. Trying again every {n} second."]
    assert forms[2] == "Toujours injoignable. Nouvel essai toutes les {n} secondes."

    # English, the scripts' own language, needs no words file.
    english = (await client.get("/offline", headers={"accept-language": "en"})).text
    assert not re.search(pattern.group(1), english)
