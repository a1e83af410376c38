"""The real parts the suite runs on are really there when ``./run test`` installed them.

Browser, Redis and PDF tests skip on a machine that lacks their part (a quick
``pytest`` on a laptop); under ``./run test`` (and so in CI), which installs
them all, ``TC_REQUIRE_PARTS=1`` makes a missing part a failure instead of a
quiet skip.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not os.environ.get("TC_REQUIRE_PARTS"), reason="not run by ./run test")


@pytest.mark.parametrize("part", ["/usr/bin/chromium", "redis-server", "pdftoppm"])
def test_the_part_is_installed(part):
    assert shutil.which(part) or Path(part).exists(), f"{part} is missing: the tests that need it would skip"


def test_the_socket_io_browser_client_was_fetched():
    assert (ROOT / "templates" / "static" / "vendor" / "socket.io.min.js").stat().st_size > 10_000


def test_playwright_is_importable():
    import playwright.sync_api  # noqa: F401
