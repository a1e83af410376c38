"""The server's thin link to the LED boards, over the devices package's simulated boards
(real framed protocol over ptys): fair values are shown on a board when one can, else on screen."""

from __future__ import annotations

import time

import pytest

from engines.core import ChanceRequest

pytest.importorskip("devices.manager")

from companion.devices_link import DeviceLink  # noqa: E402


def test_dice_and_coin_go_to_the_seat_board_and_the_rest_to_the_screen():
    events = []
    link = DeviceLink.open("sim", on_event=events.append)
    assert link is not None
    try:
        deadline = time.monotonic() + 20
        while not (link._has("dice", 0) and link._has("coin-toss", 0)):
            assert time.monotonic() < deadline, f"simulated boards did not come up: {link.status()}"
            time.sleep(0.05)
        assert link.show(ChanceRequest("dice", (6, 6), seat=0), [1, 5]) is True
        assert link.manager.leds.dice[0] == (2, 6)
        assert link.show(ChanceRequest("coin", (2,), seat=0), [1]) is True
        # One die, a shuffle, or nobody's roll: the page shows it.
        assert link.show(ChanceRequest("die", (6,), seat=0), [3]) is False
        assert link.show(ChanceRequest("shuffle", (3, 2)), [0, 1]) is False
        assert link.show(ChanceRequest("dice", (6, 6), seat=None), [0, 0]) is False
    finally:
        link.close()


def test_no_boards_means_the_screen():
    assert DeviceLink.open("none") is None
