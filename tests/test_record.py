"""Game records: hash chain, tamper detection, replay (docs/record.md)."""

import json
import random

import pytest

from companion.record import Chain, RecordError, RecordWriter, make_header, parse_record, read_record, replay
from engines.core import Verdict
from engines.playout import random_steps
from tests.support.toy_game import GAME, Pick


def _record(tmp_path, seed=3):
    path = tmp_path / "game.jsonl"
    state = GAME.new(2, deal=seed)
    with RecordWriter(path, make_header("toy", "standard", 2, seed)) as writer:
        for step in random_steps(state, random.Random(seed), 100):
            writer.append(seat=step.move.actor, source="simulator", move=step.move.to_json(), verdict=Verdict.accept())
    return path, state


def test_replay_reproduces_the_final_state(tmp_path):
    path, state = _record(tmp_path)
    replayed, steps = replay(read_record(path), game=GAME)
    assert replayed.to_json() == state.to_json()
    assert all(s.agrees for s in steps)


def test_replay_at_a_seq_stops_there(tmp_path):
    path, _ = _record(tmp_path)
    replayed, steps = replay(read_record(path), at=2, game=GAME)
    assert len(steps) == 2 and replayed.ply == 2


def test_an_altered_line_is_named(tmp_path):
    path, _ = _record(tmp_path)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[3])
    entry["seat"] = 1 - (entry["seat"] or 0)
    lines[3] = json.dumps(entry)
    with pytest.raises(RecordError, match="seq 3: the line was altered"):
        parse_record(lines)


def test_a_removed_line_breaks_the_sequence(tmp_path):
    path, _ = _record(tmp_path)
    lines = path.read_text().splitlines()
    del lines[2]
    with pytest.raises(RecordError, match="expected seq 2"):
        parse_record(lines)


def test_not_a_record(tmp_path):
    with pytest.raises(RecordError, match="not a table-companion-record header"):
        parse_record(['{"hello": 1}'])
    with pytest.raises(RecordError, match="not JSON"):
        parse_record(["{"])


def test_rejected_moves_are_recorded_and_checked_again():
    chain = Chain(make_header("toy", "standard", 2, 5))
    state = GAME.new(2, deal=5)
    shuffle = {"type": "chance", "values": [0] * 11}
    chain.append(seat=None, source="device", move=shuffle, verdict=state.check(shuffle))
    state.apply(shuffle)
    bad = Pick(0, "99").to_json()
    chain.append(seat=0, source="phone", move=bad, verdict=state.check(bad))
    record = parse_record(_lines(chain))
    _, steps = replay(record, game=GAME)
    assert steps[1].verdict.rule == "TOY-2" and steps[1].agrees


def test_rollback_returns_to_the_named_seq():
    chain = Chain(make_header("toy", "standard", 2, 5))
    state = GAME.new(2, deal=5)
    for move in [{"type": "chance", "values": [0] * 11}]:
        chain.append(seat=None, source="device", move=move, verdict=Verdict.accept())
        state.apply(move)
    hand = state.view(0)["hand"]
    chain.append(seat=0, source="phone", move=Pick(0, hand[0]).to_json(), verdict=Verdict.accept())
    chain.append(seat=None, source="host", kind="rollback", data={"to": 1})
    replayed, _ = replay(parse_record(_lines(chain)), game=GAME)
    assert replayed.to_json()["snapshot"] == state.to_json()["snapshot"]


@pytest.mark.parametrize("data", [{}, {"to": "1"}, {"to": None}, {"to": True}])
def test_a_rollback_that_names_no_entry_is_named_not_taken_as_a_return_to_the_start(data):
    chain = Chain(make_header("toy", "standard", 2, 5))
    chain.append(seat=None, source="device", move={"type": "chance", "values": [0] * 11}, verdict=Verdict.accept())
    chain.append(seat=None, source="host", kind="rollback", data=data)
    with pytest.raises(RecordError, match="seq 2: a rollback must name the entry to return to"):
        replay(parse_record(_lines(chain)), game=GAME)


def _lines(chain):
    from companion.record import canonical

    return [canonical(chain.header), *(canonical(e) for e in chain.entries)]
