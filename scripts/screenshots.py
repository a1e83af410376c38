"""Screenshots of the phone and table pages at phone (360x740) and tablet (1024x768) size.

    .venv/bin/python scripts/screenshots.py            # docs/screenshots/, a Double-Edge table
    .venv/bin/python scripts/screenshots.py --out DIR --game double-side-play --seats 4 --lang ja

A real server (companion.app.create_app on a free port, a throwaway database)
opens one table; headless Chromium (Debian's ``chromium``, driven by Playwright)
joins seat 1 by its link, then captures both pages.  tests/test_pages.py uses
:func:`capture` for its artifacts.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


PHONE_READY = ("document.getElementById('conn').dataset.state === 'connected' && "
               "document.getElementById('mine').children.length > 0")
TABLE_READY = ("document.getElementById('conn').dataset.state === 'connected' && "
               "document.getElementById('score').children.length > 0")


def capture(browser: Any, phone_url: str, table_url: str, out: Path, prefix: str, locale: str = "en-US",
            color_scheme: str = "light", act: Callable[[Any, str], None] | None = None) -> list[Path]:
    """At each size: join by the phone link (the phone stays connected, so its seat's QR code is gone
    from the table page), ``act(phone_page, size_name)`` if given, then write both pages' PNGs."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for size_name, size in (("phone", PHONE), ("tablet", TABLET)):
        context = browser.new_context(viewport=size, locale=locale, color_scheme=color_scheme,
                                      device_scale_factor=1, is_mobile=size is PHONE, has_touch=size is PHONE)
        try:
            phone = context.new_page()
            phone.goto(phone_url)
            phone.wait_for_function(PHONE_READY, timeout=20000)
            if act is not None:
                act(phone, size_name)
            table = context.new_page()
            table.goto(table_url)
            table.wait_for_function(TABLE_READY, timeout=20000)
            table.wait_for_timeout(300)  # let the QR images and the status poll land
            for name, page in (("phone", phone), ("table", table)):
                path = out / f"{prefix}{name}-{size_name}-{size['width']}x{size['height']}.png"
                page.bring_to_front()
                page.screenshot(path=str(path))
                written.append(path)
        finally:
            context.close()
    return written


def seal_in_order(phone: Any, size_name: str) -> None:
    """A base being built: on the phone-size shot two cards are tapped (numbered, not sent); on the
    tablet-size shot three are tapped and sealed, so the table's log shows it."""
    picks = phone.locator("#choices .card-pick")
    if picks.count() < 3:
        return
    if size_name == "phone":
        picks.nth(0).click()
        picks.nth(2).click()
        return
    for i in range(3):
        picks.nth(i).click()
    phone.click("#confirm")
    phone.wait_for_function("!document.body.classList.contains('my-turn')", timeout=15000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--game", default="double-edge")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--deal", type=int, default=3)
    parser.add_argument("--lang", default="en", help="en or ja (the browser's language)")
    parser.add_argument("--dark", action="store_true", help="prefers-color-scheme: dark")
    args = parser.parse_args(argv)
    exe = chromium()
    if exe is None:
        print("chromium is not installed", file=sys.stderr)
        return 1
    sys.path.insert(0, str(ROOT))
    import logging

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    from companion import qr
    from companion.app import create_app, server_of
    from companion.config import Config, TableSpec

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(host="127.0.0.1", port=port, db=Path(tmp) / "shots.sqlite3", pin="4321",
                        tables=[TableSpec(args.game, seats=args.seats, deal=args.deal)], restore=False)
        app = create_app(config)
        server = server_of(app)
        http = make_server("127.0.0.1", port, app, threaded=True)
        thread = threading.Thread(target=http.serve_forever, daemon=True)
        thread.start()
        try:
            table = next(iter(server.hub.tables.values()))
            base = f"http://127.0.0.1:{port}"
            locale = "ja-JP" if args.lang == "ja" else "en-US"
            prefix = f"{args.game}-" + ("ja-" if args.lang == "ja" else "") + ("dark-" if args.dark else "")
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
                try:
                    paths = capture(browser, qr.join_url(base, table.seat(0).token),
                                    qr.table_url(base, table.id, table.display_key), args.out, prefix, locale,
                                    "dark" if args.dark else "light", seal_in_order)
                finally:
                    browser.close()
        finally:
            http.shutdown()
            server.close()
    for path in paths:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
