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


def test_the_card_fonts_are_installed():
    """The scene generator draws, and the reader's templates come from, these
    typefaces alone (vision/fonts.py): without them the tests' scenes are
    other scenes."""
    from vision.fonts import CARD_FONT_FAMILIES, card_fonts, missing_card_font_packages

    names = [Path(f).name for f in card_fonts()]
    for family in CARD_FONT_FAMILIES:
        assert any(n.startswith(family) for n in names), f"no {family} font: ./run installs fonts-dejavu-core, fonts-dejavu-extra, fonts-liberation"
    missing = missing_card_font_packages(tuple(card_fonts()))
    assert missing == [], f"no {', '.join(missing)}: ./run installs it"
