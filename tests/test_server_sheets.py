"""Two Freakin' Swords character sheets at the table: a returning fighter picks their sheet up again by name,
and its points set their hit points (TFS-4.1) while no seat has played; the change is an ``options`` record
entry that replays (and restores after a restart) to the same state."""

from __future__ import annotations

from companion.config import TableSpec
from companion.record import parse_record, replay
from companion.tables import Table
from engines.two_freakin_swords import GAME
from tests.support.server import Phone, thread_server


def _seat(srv, table, seat: int) -> Phone:
    phone = Phone(srv.url)
    assert phone.call("join", {"table": table.id, "token": table.seats[seat].token})["ok"]
    return phone


def _hit_points(table) -> list[int]:
    return [f["hit_points"] for f in table.state.view(None)["fighters"]]


def test_a_sheets_points_become_hit_points_before_the_fight_and_replay(tmp_path):
    with thread_server(tmp_path) as srv:
        store = srv.server.store
        aki = store.player("Aki", "1234")
        blade = store.character_named(aki["id"], "Blade")
        store.add_points(blade["id"], 3)  # three fights won before tonight
        table = srv.server.create_table(TableSpec("two-freakin-swords", "duel", 2))
        a, b = _seat(srv, table, 0), _seat(srv, table, 1)
        try:
            assert _hit_points(table) == [5, 5]
            answer = a.call("profile", {"table": table.id, "name": "Aki", "pin": "1234", "character": "Blade"})
            assert answer["ok"] and answer["character"]["id"] == blade["id"]  # picked up again, not a new sheet
            assert answer["sheets"]["ok"], answer
            assert _hit_points(table) == [8, 5]
            seq = table.seq
            assert a.wait_seq(seq)["view"]["fighters"][0]["hit_points"] == 8  # the phones see it
            answer = b.call("profile", {"table": table.id, "name": "Ben", "character": "Storm"})
            assert answer["ok"] and answer["character"]["points"] == 0 and _hit_points(table) == [8, 5]
            options = [e for e in table.chain.entries if e["kind"] == "options"]
            assert len(options) == 1 and options[0]["data"]["options"]["points"] == [3, 0]

            # The record replays to the same state, and a restarted server restores it.
            replayed, steps = replay(parse_record(list(table.record().lines())), game=GAME)
            assert all(step.agrees for step in steps)
            assert replayed.to_json() == table.state.to_json()
            row = next(r for r in store.open_tables() if r["id"] == table.id)
            assert Table.restore(store, row, GAME).state.to_json() == table.state.to_json()

            # Once a fighter has played, a sheet changes nothing until the next fight.
            referee = srv.server.hub.referee(table.id)
            seat = min(table.state.to_act())
            move = table.state.legal_moves(seat)[0]
            assert referee.run(referee.play, seat, "phone", move.to_json())["ok"]
            before = table.state.to_json()
            store.add_points(blade["id"], 1)
            answer = a.call("profile", {"table": table.id, "name": "Aki", "pin": "1234", "character": "Blade"})
            assert answer["ok"] and not answer["sheets"]["ok"]
            assert answer["sheets"]["verdict"]["rule"] == "TC-OPTIONS"
            assert table.state.to_json() == before and _hit_points(table) == [8, 5]

            # Played to the end: every die and shuffle still verifies against the revealed seed.
            import random

            rng = random.Random(3)
            while not table.over:
                seat = min(table.state.to_act())
                assert referee.run(referee.play, seat, "phone", rng.choice(table.state.legal_moves(seat)).to_json())["ok"]
            from companion.fairness import verify_record

            assert table.revealed
            assert verify_record(parse_record(list(table.record().lines())), GAME) == []
        finally:
            a.close()
            b.close()


def test_a_destroyed_sheet_is_not_picked_up_again(tmp_path):
    with thread_server(tmp_path) as srv:
        store = srv.server.store
        aki = store.player("Aki", None)
        old = store.character_named(aki["id"], "Blade")
        store.add_points(old["id"], 2)
        store.destroy_character(old["id"])
        new = store.character_named(aki["id"], "Blade")
        assert new["id"] != old["id"] and new["points"] == 0 and not new["destroyed"]
