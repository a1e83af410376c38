"""Provably fair chance: HMAC draws, rejection sampling, and verifying a real record."""

import json
from collections import Counter

import pytest

from companion.fairness import FairRandom, check_record, values_for, verify_record
from companion.record import RecordWriter, make_header, read_record
from engines.core import Verdict
from tests.support.toy_game import GAME, Pick


def play_fair_toy_game(path, fair: FairRandom, *, reveal=True, client_seed="phone-1"):
    """Referee a whole toy game with fair chance, as the server does, writing a real record."""
    state = GAME.new(2, deal=7)
    header = make_header("toy", "standard", 2, 7, seed_commitment=fair.commitment, table_id=fair.table_id)
    with RecordWriter(path, header) as writer:
        while state.outcome is None:
            request = state.pending_chance()
            if request is not None:
                values, proof = fair.draw(request.ranges, client_seed)
                move = {"type": "chance", "values": list(values)}
                state.apply(move)
                writer.append(seat=None, source="device", move=move, verdict=Verdict.accept(), data=proof)
                continue
            for seat in sorted(state.to_act()):
                move = Pick(seat, state.view(seat)["hand"][0]).to_json()
                state.apply(move)
                writer.append(seat=seat, source="phone", move=move, verdict=Verdict.accept())
        if reveal:
            writer.append(seat=None, source="host", kind="reveal", data={"seed": fair.reveal()})
    return state


def test_same_inputs_same_values_and_each_input_matters():
    seed = bytes(range(32))
    base = values_for(seed, "t1", "c", 4, (6, 6, 2))
    assert base == values_for(seed, "t1", "c", 4, (6, 6, 2))
    assert all(0 <= v < r for v, r in zip(base, (6, 6, 2), strict=True))
    variants = [values_for(seed, "t2", "c", 4, (6,) * 8), values_for(seed, "t1", "d", 4, (6,) * 8),
                values_for(seed, "t1", "c", 5, (6,) * 8), values_for(b"x" + seed, "t1", "c", 4, (6,) * 8)]
    assert len({values_for(seed, "t1", "c", 4, (6,) * 8), *variants}) == 5


def test_draw_advances_the_nonce_and_resumes_after_a_restart():
    fair = FairRandom(b"secret", "table-9")
    first = [fair.draw((6, 6)) for _ in range(3)]
    assert [p["nonce"] for _, p in first] == [0, 1, 2] and fair.nonce == 3
    resumed = FairRandom(fair.seed, fair.table_id, nonce=1)
    assert resumed.draw((6, 6))[0] == first[1][0]
    stored = json.loads(json.dumps(fair.to_json()))
    assert FairRandom.from_json(stored).draw((6, 6)) == fair.draw((6, 6))
    assert FairRandom().seed != FairRandom().seed and len(FairRandom().seed) == 32
    assert "secret" not in repr(fair) and fair.reveal() == b"secret".hex()


def test_rejection_sampling_has_no_modulo_bias():
    # Range 3 * 2**30 makes plain modulo favour the lowest third two to one.
    r = 3 << 30
    counts = Counter(values_for(b"k", "", "", n, (r,))[0] // (1 << 30) for n in range(3000))
    assert min(counts.values()) > 850, counts


def test_dice_are_uniform_enough():
    counts = Counter(v for n in range(6000) for v in values_for(b"k", "t", "", n, (6,)))
    assert set(counts) == set(range(6))
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 25  # p < 1e-4 for 5 degrees of freedom


@pytest.mark.parametrize("bad", [(0,), (-1,), (1 << 33,), (2.0,), (True,)])
def test_bad_ranges_are_refused(bad):
    with pytest.raises(ValueError, match="range"):
        FairRandom(b"s").draw(bad)


def test_a_recorded_game_verifies(tmp_path):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(table_id="kitchen"))
    report = check_record(read_record(path), game=GAME)
    assert report.ok, report.mismatches
    assert [c.kind for c in report.checks] == ["shuffle", "die", "die", "die"]
    assert all(c.expected == c.recorded for c in report.checks)


def test_a_tampered_die_is_named(tmp_path):
    path = tmp_path / "game.jsonl"
    fair = FairRandom(table_id="kitchen")
    play_fair_toy_game(path, fair)
    record = read_record(path)
    die = next(e for e in record.entries if e["move"] and e["move"]["type"] == "chance" and len(e["move"]["values"]) == 1)
    die["move"]["values"] = [(die["move"]["values"][0] + 1) % 6]
    mismatches = verify_record(record, game=GAME)
    assert [m.seq for m in mismatches] == [die["seq"]]
    assert "the seed gives" in str(mismatches[0])


def test_a_wrong_seed_or_no_reveal_fails(tmp_path):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(table_id="x"), reveal=False)
    assert any("no reveal" in str(m) for m in verify_record(read_record(path), game=GAME))
    record = read_record(path)
    record.entries.append({"seq": len(record.entries) + 1, "kind": "reveal", "data": {"seed": "00" * 32}})
    assert any("does not match the header" in str(m) for m in verify_record(record, game=GAME))


def test_a_reused_nonce_and_a_missing_proof_are_named(tmp_path):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(b"s", "x"))
    record = read_record(path)
    chance = [e for e in record.entries if e["move"] and e["move"]["type"] == "chance"]
    chance[2]["data"] = dict(chance[1]["data"])
    chance[3].pop("data")
    messages = [str(m) for m in verify_record(record, game=GAME)]
    assert any("no proof" in m for m in messages)
    assert any(f"seq {chance[2]['seq']}" in m for m in messages)


def test_the_record_keeps_the_proof_in_canonical_json(tmp_path):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(b"s", "x"), client_seed="ph\u00f6ne")
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["table_id"] == "x" and lines[0]["seed_commitment"]
    assert lines[1]["data"] == {"nonce": 0, "client_seed": "ph\u00f6ne"}
    assert lines[-1]["kind"] == "reveal" and lines[-1]["data"]["seed"] == b"s".hex()


def test_a_rejected_chance_move_is_not_held_against_the_record(tmp_path):
    from companion.record import Chain, parse_record

    fair = FairRandom(b"k", "t")
    chain = Chain(make_header("toy", "standard", 2, 1, seed_commitment=fair.commitment, table_id="t"))
    chain.append(seat=None, source="device", move={"type": "chance", "values": [99]},
                 verdict=Verdict.reject("CORE-3", "out of range"))
    values, proof = fair.draw((12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2))
    chain.append(seat=None, source="device", move={"type": "chance", "values": list(values)},
                 verdict=Verdict.accept(), data=proof)
    chain.append(seat=None, source="host", kind="reveal", data={"seed": fair.reveal()})
    report = check_record(parse_record([json.dumps(chain.header)] + [json.dumps(e) for e in chain.entries]), game=GAME)
    assert report.ok and len(report.checks) == 1 and "rejected chance move" in report.notes[0]
