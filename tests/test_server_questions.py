"""A question the camera asks a seat stays open for that seat until it is answered or the game moves on.

The table adapter asks (here: ガンナガン asks whether to declare ダブルエッジ on a card the camera saw
played, GG-T6); the seat's phone gets a ``question`` event, and a phone that reloads or reconnects
gets the same question again in its join answer (``send_view``).  Other seats never get it.
"""

from companion.config import TableSpec
from engines.core import Sighting, TableSnapshot, ZoneChange
from engines.gun_and_gun.table import sighting_of
from tests.support.server import Phone, thread_server


def _join(phone, table, seat):
    ack = phone.call("join", {"table": table.id, "token": table.seats[seat].token})
    assert ack["ok"], ack
    return ack


def test_an_open_question_is_asked_again_on_rejoin_until_answered(tmp_path):
    with thread_server(tmp_path, [TableSpec("gun-and-gun", "double-edge", seats=2, deal="physical")]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        referee = srv.server.hub.referee(table.id)
        phones = [Phone(srv.url), Phone(srv.url)]
        try:
            acks = [_join(p, table, i) for i, p in enumerate(phones)]
            assert all("question" not in a for a in acks)
            state = table.state
            seat = state.snapshot.active
            card = next(c for c in state.snapshot.players[seat].unseen if state.table.card(c).key == "resupply")
            name = sighting_of(state, card)
            snap = TableSnapshot((Sighting(name, f"s{seat}.action", 60.0, 260.0),))
            referee.run(referee.physical, [ZoneChange("placed", name, f"s{seat}.action")], snap, None)
            _, asked = phones[seat].wait_for(lambda e, d: e == "question")
            assert asked["choices"][0].startswith("declare:play-action:")

            # The phone reloads: a new socket, the same seat, the same question in the join answer.
            phones[seat].close()
            phones[seat] = Phone(srv.url)
            again = _join(phones[seat], table, seat)
            assert again["question"]["prompt"] == asked["prompt"]
            assert again["question"]["choices"] == asked["choices"]
            # The other seat is not asked, neither live nor on rejoin.
            other = 1 - seat
            assert not any(e == "question" for e, _ in phones[other].messages)
            assert "question" not in _join(phones[other], table, other)

            # A wrong answer is refused and leaves the question open.
            refused = phones[seat].call("answer", {"table": table.id, "choice": "declare:play-action:nothing"})
            assert not refused["ok"]
            assert _join(phones[seat], table, seat)["question"]["choices"] == asked["choices"]

            before = table.seq
            answer = phones[seat].call("answer", {"table": table.id, "choice": asked["choices"][1]})
            assert answer["ok"], answer
            assert table.seq > before
            assert "question" not in _join(phones[seat], table, seat)
        finally:
            for p in phones:
                p.close()
