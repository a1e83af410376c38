"""The last line of defence on the encoded path: a view is encoded once per room, and a hidden
string an engine leaks into it is still found in that text and redacted before it is sent."""

from __future__ import annotations

import json

from companion.messages import Encoded
from companion.referee import Referee, room_public, room_seat
from companion.sockets import TextPacket
from companion.store import Store
from companion.tables import Table
from tests.support.toy_game import GAME


class Capture:
    def __init__(self):
        self.sent: list[tuple[str, object, object]] = []

    def emit(self, event, data, to):
        self.sent.append((event, data, to))


def test_a_leaked_card_is_redacted_in_the_encoded_view(tmp_path):
    store = Store(tmp_path / "guard.sqlite3")
    table = Table.create(store, GAME, 2, deal=3)
    capture = Capture()
    referee = Referee(table, capture)
    try:
        referee.run(referee.serve_chance)  # the deal
        secret = sorted(table.state.hidden_from(0))[0]  # a card in seat 2's hand
        honest_view = type(table.state).view

        def leaky_view(state, seat):  # an engine bug: every reader is shown seat 2's first card
            return {**honest_view(state, seat), "oops": secret}

        type(table.state).view = leaky_view
        try:
            referee.run(referee.publish)
        finally:
            type(table.state).view = honest_view
        views = {to: data for event, data, to in capture.sent if event == "view"}
        mine, theirs, public = views[room_seat(table.id, 0)], views[room_seat(table.id, 1)], views[room_public(table.id)]
        assert all(type(v) is Encoded for v in (mine, theirs, public))
        assert json.loads(mine)["view"]["oops"] == "hidden" and json.loads(public)["view"]["oops"] == "hidden"
        assert json.loads(theirs)["view"]["oops"] == secret  # its own card: not hidden from seat 2
        assert referee.redactions == 2
    finally:
        referee.stop()
        store.close()


def test_an_encoded_message_is_spliced_into_the_socketio_frame_as_is():
    text = Encoded('{"table":"t","view":{"hand":["7♣"]}}')
    frame = TextPacket(data=["view", text]).encode()
    assert frame == '2["view",' + text + "]"
    assert json.loads(frame[1:]) == ["view", json.loads(text)]
    assert TextPacket(data=["view", {"a": 1}]).encode() == '2["view",{"a":1}]'  # a dict is encoded as before
