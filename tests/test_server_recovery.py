"""Crash recovery: ``companion serve`` killed with SIGKILL mid-game comes back, on the
same database, with exactly the same state, seats and record; and the demo command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request

from companion.record import parse_record, replay
from tests.support.server import ROOT, Phone, ProcessServer, free_port
from tests.support.toy_game import GAME


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.read().decode()
    except urllib.error.HTTPError as exc:
        raise AssertionError(f"GET {url}: {exc.code} {exc.read()[:500]!r}") from None


def test_sigkill_mid_game_restores_the_same_state_and_seats(tmp_path):
    db = tmp_path / "table.sqlite3"
    first = ProcessServer(db, seats=2)
    phones = []
    try:
        (info,) = first.tables()
        table_id = info["table"]
        tokens = first.seat_tokens()
        key = re.search(r"table page:\s+\S+\?key=(\S+)", "".join(first.output)).group(1)
        phones = [Phone(first.url) for _ in tokens]
        hands = [p.call("join", {"table": table_id, "token": t})["view"]["hand"] for p, t in zip(phones, tokens, strict=True)]
        # Round 1 complete (the die is rolled by the server), then seat 1 picks in round 2.
        assert phones[0].call("play", {"table": table_id, "move": {"type": "pick", "card": hands[0][0]}})["ok"]
        assert phones[1].call("play", {"table": table_id, "move": {"type": "pick", "card": hands[1][0]}})["ok"]
        assert phones[0].call("play", {"table": table_id, "move": {"type": "pick", "card": hands[0][1]}})["ok"]
        views = [p.call("join", {"table": table_id, "token": t})["view"] for p, t in zip(phones, tokens, strict=True)]
        record_before = fetch(f"{first.url}/t/{table_id}/record.jsonl?key={key}")
    finally:
        for p in phones:
            p.close()
        first.kill()  # SIGKILL: no handler runs, nothing is flushed on the way out
    assert first.proc.returncode == -9

    second = ProcessServer(db, port=free_port(), game=None)
    phones = []
    try:
        (info,) = second.tables()
        assert info["table"] == table_id and info["seq"] == len(record_before.splitlines()) - 1
        assert fetch(f"{second.url}/t/{table_id}/record.jsonl?key={key}") == record_before
        phones = [Phone(second.url) for _ in tokens]
        again = [p.call("join", {"table": table_id, "token": t}) for p, t in zip(phones, tokens, strict=True)]
        assert [a["seat"] for a in again] == [0, 1]
        assert [a["view"] for a in again] == views
        # The game goes on where it stopped, with the same fairness commitment, to its end.
        assert again[0]["info"]["seed_commitment"] == json.loads(record_before.splitlines()[0])["seed_commitment"]
        for seat in (1, 0, 1):
            hand = phones[seat].call("join", {"table": table_id, "token": tokens[seat]})["view"]["hand"]
            assert phones[seat].call("play", {"table": table_id, "move": {"type": "pick", "card": hand[0]}})["ok"]
        over = phones[0].wait_for(lambda e, d: e == "over")[1]
        record = parse_record(fetch(f"{second.url}/t/{table_id}/record.jsonl").splitlines())
        state, steps = replay(record, game=GAME)
        assert state.outcome.to_json() == over["outcome"] and all(s.agrees for s in steps)
        from companion.fairness import verify_record

        assert verify_record(record, GAME) == []
    finally:
        for p in phones:
            p.close()
        second.stop()


def test_demo_once_plays_a_labelled_game_to_the_end(tmp_path):
    cmd = [sys.executable, "-m", "companion.cli", "demo", "--once", "--pace", "0", "--seed", "4",
           "--extra-game", "tests.support.toy_game", "--game", "toy", "--seats", "3", "--serial", "none",
           "--host", "127.0.0.1", "--port", str(free_port()), "--db", str(tmp_path / "demo.sqlite3"), "--quiet"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "=== DEMO ===" in out and "game over" in out
    assert "table page:" in out and out.count("/j/") == 3 and "host PIN:" in out
