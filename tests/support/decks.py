"""An installed third-party deck for a test, or the test skipped: a failure
instead under ``./run test`` (``TC_REQUIRE_PARTS=1``), which must install it."""

from __future__ import annotations

import os

import pytest

from vision import decks as decklib


def installed_deck(name: str) -> decklib.Deck:
    found = [d for d in decklib.decks() if d.name == name]
    if not found:
        why = f"{name} is not installed (apt-get install {' '.join(decklib.APT_PACKAGES)})"
        if os.environ.get("TC_REQUIRE_PARTS"):
            pytest.fail(why + ": ./run test must install it")
        pytest.skip(why)
    return found[0]
