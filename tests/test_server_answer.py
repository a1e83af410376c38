"""Answering a question the table asked (``answer {table, choice}``) over real sockets.

The table adapter asks a seat when the camera cannot decide (which card was
loaded face down, whether to declare ダブルエッジ); the answer becomes the
move it stands for and is checked by the engine like any phone move.
"""

from companion.config import TableSpec
from tests.support.server import Phone, thread_server


def _seat(phone, table, seat):
    ack = phone.call("join", {"table": table.id, "token": table.seats[seat].token})
    assert ack["ok"], ack
    return ack


def test_an_answer_becomes_the_move_it_stands_for(tmp_path):
    with thread_server(tmp_path, [TableSpec("gun-and-gun", "double-edge", seats=2, deal=3)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phones = [Phone(srv.url), Phone(srv.url)]
        try:
            acks = [_seat(p, table, i) for i, p in enumerate(phones)]
            seat = next(i for i, a in enumerate(acks) if any(m["type"] == "load" for m in a["moves"] or []))
            load = next(m for m in acks[seat]["moves"] if m["type"] == "load")
            before = table.seq
            answer = phones[seat].call("answer", {"table": table.id, "choice": f"load:{load['gun']}:{load['card']}"})
            assert answer["ok"], answer
            assert table.seq == before + 1
            entry = table.record().entries[-1]
            assert entry["source"] == "phone" and entry["move"] == load

            other = 1 - seat
            refused = phones[other].call("answer", {"table": table.id, "choice": "load:0:no-such-card"})
            assert not refused["ok"] and refused["verdict"]["rule"] == "TC-ANSWER"
            assert table.seq == before + 2 and table.chain.entries[-1]["kind"] == "note"  # recorded, nothing played
            phones[other].wait_for(lambda e, d: e == "rejected" and d["verdict"]["rule"] == "TC-ANSWER")
            assert not any(e == "rejected" for e, _ in phones[seat].messages)
        finally:
            for p in phones:
                p.close()


def test_a_game_without_questions_refuses_answers(tmp_path):
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=3)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phone = Phone(srv.url)
        try:
            _seat(phone, table, 0)
            before, state = table.seq, table.state.to_json()
            answer = phone.call("answer", {"table": table.id, "choice": "anything"})
            assert not answer["ok"] and answer["verdict"]["rule"] == "TC-ANSWER"
            # Nothing changed but the record, which keeps the refused input (every input is recorded).
            assert table.state.to_json() == state and table.seq == before + 1
            note = table.chain.entries[-1]
            assert note["kind"] == "note" and note["data"]["input"] == "answer"
            assert note["data"]["verdict"]["rule"] == "TC-ANSWER" and note["seat"] == 0
            bad = phone.call("answer", {"table": table.id, "choice": ""})
            assert bad is None or not bad.get("ok", False)
        finally:
            phone.close()
