"""The minimal pages in headless Chromium: a phone joins by the QR's URL and sees its own
hand; the table page shows the seat QR codes and the public view (issue 10 builds the full pages)."""

from __future__ import annotations

import shutil

import pytest

from companion.config import TableSpec
from tests.support.server import thread_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")]


def test_phone_joins_by_link_and_table_page_shows_qr_codes(tmp_path):
    from playwright.sync_api import sync_playwright

    from companion.app import templates_dir

    if not (templates_dir() / "static" / "vendor" / "socket.io.min.js").exists():
        pytest.skip("run scripts/fetch_assets.py first (the socket.io browser client)")
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=5)]) as srv, sync_playwright() as pw:
        table = next(iter(srv.server.hub.tables.values()))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            phone = browser.new_page(viewport={"width": 360, "height": 740})
            phone.goto(f"{srv.url}/j/{table.seats[0].token}")
            phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 1'", timeout=15000)
            hand = table.state.view(0)["hand"]
            phone.wait_for_function(f"document.getElementById('view').textContent.includes('{hand[0]}')",
                                    timeout=15000)
            other = set(table.state.view(1)["hand"])
            assert not other & set(phone.evaluate("JSON.parse(document.getElementById('view').textContent).hand"))
            # Reload: the cookie rejoins the same seat.
            phone.reload()
            phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 1'", timeout=15000)
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.goto(f"{srv.url}/t/{table.id}?key={table.display_key}")
            page.wait_for_function("document.getElementById('view').textContent.includes('hand_counts')",
                                   timeout=15000)
            assert page.locator(".seat img").count() == 2
            assert page.evaluate("document.querySelector('.seat img').naturalWidth") > 0
        finally:
            browser.close()
