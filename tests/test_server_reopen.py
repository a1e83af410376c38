"""After the end: a rollback once the seed is revealed commits to a new seed (and the record still
verifies), and a finished table comes back read-only after a restart."""

from __future__ import annotations

import urllib.request

from companion.config import TableSpec
from companion.fairness import check_record
from companion.record import parse_record, replay
from tests.support.server import PIN, Phone, thread_server
from tests.support.toy_game import GAME


def play_to_the_end(table, phones) -> None:
    while not table.over:
        for seat in sorted(table.state.to_act()):
            card = table.state.view(seat)["hand"][0]
            assert phones[seat].call("play", {"table": table.id, "move": {"type": "pick", "card": card}})["ok"]


def test_rollback_after_the_reveal_commits_to_a_new_seed_and_verifies(tmp_path):
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=3)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phones = [Phone(srv.url) for _ in range(3)]
        try:
            for seat in (0, 1):
                assert phones[seat].call("join", {"table": table.id, "token": table.seats[seat].token})["ok"]
            play_to_the_end(table, phones)
            first_commitment = table.commitment
            assert table.revealed and len(srv.server.store.matches()) == 2  # one match, two seats
            # Back to just after round 1's die: every die after it will be drawn again.
            round_one_die = [e["seq"] for e in table.chain.entries if (e["move"] or {}).get("type") == "chance"][1]
            host = phones[2]
            assert host.call("host_auth", {"table": table.id, "pin": PIN})["ok"]
            ack = host.call("host", {"table": table.id, "action": "rollback", "to": round_one_die})
            assert ack["ok"], ack
            entry = table.chain.entries[-1]
            assert entry["kind"] == "rollback" and entry["data"]["seed_commitment"] != first_commitment
            assert not table.over and not table.revealed and table.commitment == entry["data"]["seed_commitment"]
            assert srv.server.store.matches() == [] and srv.server.store.status(table.id) == "open"
            play_to_the_end(table, phones)
            over = phones[0].wait_for(lambda e, d: e == "over" and d["seq"] > entry["seq"])[1]
            assert over["seed_commitment"] == entry["data"]["seed_commitment"]
            assert len(srv.server.store.matches()) == 2
            record = parse_record(list(table.record().lines()))
            assert [e["kind"] for e in record.entries].count("reveal") == 2
            report = check_record(record, GAME)
            assert report.ok, report.mismatches
            after = [c for c in report.checks if c.seq > entry["seq"]]
            assert after and all(c.ok for c in after)
            state, steps = replay(record, game=GAME)
            assert state.to_json() == table.state.to_json() and all(s.agrees for s in steps)
            # A draw after the rollback claimed under the old (public) seed would not verify.
            forged = parse_record(list(table.record().lines()))
            forged.entries[:] = [e for e in forged.entries if e["kind"] != "reveal" or e["seq"] < entry["seq"]]
            assert not check_record(forged, GAME).ok
        finally:
            for p in phones:
                p.close()


def test_a_finished_table_reopens_read_only_after_a_restart(tmp_path):
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=3)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        table_id, tokens, key = table.id, [s.token for s in table.seats], table.display_key
        phones = [Phone(srv.url) for _ in range(2)]
        try:
            for seat in (0, 1):
                phones[seat].call("join", {"table": table_id, "token": tokens[seat]})
            play_to_the_end(table, phones)
            final = [table.state.view(s) for s in (0, 1, None)]
            outcome = table.state.outcome.to_json()
            record_text = "\n".join(table.record().lines())
        finally:
            for p in phones:
                p.close()
    with thread_server(tmp_path) as srv:
        assert srv.server.hub.tables == {}  # not replayed at start: reopened when asked for
        phone, spectator, host = Phone(srv.url), Phone(srv.url), Phone(srv.url)
        try:
            ack = phone.call("join", {"table": table_id, "token": tokens[1]})
            assert ack["ok"] and ack["seat"] == 1 and ack["view"] == final[1]
            assert ack["info"]["over"] and ack["info"]["readonly"]
            watched = spectator.call("watch", {"table": table_id})
            assert watched["view"] == final[2]
            table = srv.server.hub.table(table_id)
            assert table.state.outcome.to_json() == outcome and table.readonly
            # The dispute viewer and the record still work; nothing changes the table.
            step = phone.call("record", {"table": table_id, "seq": 2})
            assert step["ok"] and step["last"] == table.seq
            seq = table.seq
            refused = phone.call("play", {"table": table_id, "move": {"type": "pick", "card": 1}})
            assert not refused["ok"] and refused["verdict"]["rule"] == "TC-FINISHED"
            assert phone.call("challenge", {"table": table_id, "reason": "x"})["verdict"]["rule"] == "TC-FINISHED"
            host.call("host_auth", {"table": table_id, "pin": PIN})
            ack = host.call("host", {"table": table_id, "action": "rollback", "to": 1})
            assert not ack["ok"] and ack["verdict"]["rule"] == "TC-FINISHED"
            assert table.seq == seq
            with urllib.request.urlopen(f"{srv.url}/t/{table_id}/record.jsonl?key={key}", timeout=10) as resp:
                assert resp.read().decode().strip() == record_text
            # A seat link of the finished game opens its phone page (the link reopens the table too).
            with urllib.request.urlopen(f"{srv.url}/j/{tokens[0]}", timeout=10) as resp:
                assert resp.status == 200
        finally:
            for p in (phone, spectator, host):
                p.close()
