"""``companion verify`` on real records: passes a fair game, names a tampered die, exit codes."""

import json

import pytest

from companion.cli import main
from companion.fairness import FairRandom
from companion.record import canonical, digest
from tests.test_fairness import play_fair_toy_game

TOY = ["--game-module", "tests.support.toy_game"]


def _rechain(path, edit):
    """Edit entries, then recompute the hash chain, as a cheat who knows the format would."""
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    header, entries = lines[0], lines[1:]
    edit(entries)
    prev = digest(canonical(header))
    for entry in entries:
        entry["prev_hash"] = prev
        entry.pop("hash")
        entry["hash"] = prev = digest(canonical(entry))
    path.write_text("\n".join(canonical(x) for x in [header, *entries]) + "\n", encoding="utf-8")


def test_a_fair_record_verifies(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(table_id="kitchen"))
    assert main(["verify", str(path), *TOY]) == 0
    out = capsys.readouterr().out
    assert out.count("-> ok") == 4 and "shuffle: 12 cards" in out and "die: " in out
    assert "verified: every die and coin" in out


def test_a_tampered_die_fails_and_is_named(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(table_id="kitchen"))
    seqs = []

    def bump_second_die(entries):
        dice = [e for e in entries if e["move"] and e["move"]["type"] == "chance" and len(e["move"]["values"]) == 1]
        dice[1]["move"]["values"] = [(dice[1]["move"]["values"][0] + 1) % 6]
        seqs.append(dice[1]["seq"])

    _rechain(path, bump_second_die)
    assert main(["verify", str(path), *TOY]) == 1
    out = capsys.readouterr().out
    bad = [line for line in out.splitlines() if "MISMATCH" in line]
    assert len(bad) == 1 and bad[0].lstrip().startswith(str(seqs[0])) and "the seed gives" in bad[0]
    assert "NOT verified" in out


def test_no_reveal_fails(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom(), reveal=False)
    assert main(["verify", str(path), *TOY]) == 1
    assert "no reveal entry" in capsys.readouterr().out


def test_a_die_edited_in_place_breaks_the_chain(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom())
    lines = path.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[4])
    assert entry["move"]["type"] == "chance"
    entry["move"]["values"] = [(entry["move"]["values"][0] + 1) % 6]
    lines[4] = canonical(entry)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["verify", str(path), *TOY]) == 1
    assert "seq 4: the line was altered" in capsys.readouterr().out


def test_an_unreadable_record_fails(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("{", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert main(["verify", str(tmp_path / "missing.jsonl")]) == 2
    assert "companion verify:" in capsys.readouterr().out


def test_an_unknown_game_cannot_prove_anything(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_fair_toy_game(path, FairRandom())
    assert main(["verify", str(path)]) == 1  # "toy" is not in the registry
    assert "could not be rebuilt" in capsys.readouterr().out


def _registered_games():
    from engines import registry

    return registry.available()


@pytest.mark.parametrize("game_id", _registered_games())
def test_every_registered_game_verifies_through_the_cli(tmp_path, capsys, game_id):
    """Each real game, its chance drawn fairly and the rest played at random, passes verify."""
    import random

    from companion.record import RecordWriter, make_header
    from engines import registry
    from engines.core import Verdict

    game = registry.get(game_id)
    seats, variant = min(game.players), game.variants[0]
    state = game.new(seats, variant, deal=1)
    fair, rng = FairRandom(table_id="t"), random.Random(1)
    path = tmp_path / "game.jsonl"
    with RecordWriter(path, make_header(game_id, variant, seats, 1, seed_commitment=fair.commitment,
                                        table_id="t")) as writer:
        for _ in range(400):
            if state.outcome is not None:
                break
            request = state.pending_chance()
            if request is not None:
                values, proof = fair.draw(request.ranges, client_seed="p")
                move = {"type": "chance", "values": list(values)}
                writer.append(seat=None, source="device", move=move, verdict=Verdict.accept(), data=proof)
            else:
                seat = rng.choice(sorted(state.to_act()))
                move = rng.choice(state.legal_moves(seat)).to_json()
                writer.append(seat=seat, source="simulator", move=move, verdict=Verdict.accept())
            state.apply(move)
        writer.append(seat=None, source="host", kind="reveal", data={"seed": fair.reveal()})
    assert main(["verify", str(path), "--quiet"]) == 0, capsys.readouterr().out
