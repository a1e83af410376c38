"""End to end: a full scripted Keener game seen by a rendered camera (companion/demo/keener.py).

The real server (thread, 127.0.0.1), two phones over real Socket.IO, decks
shuffled and dealt by hand (the server never knows a hand), and every card laid
on the printed Keener mat rendered by vision's scene generator and read by
vision's pipeline and stability filter into the referee: generators, Fighters,
Defenses, Equipment on its host, single-use cards, attackers moved into the
middle, blockers put facing them, Cloak of Darkness cards laid face down and
turned up.  The phones pass, confirm blocks, assign damage, and seal and open
the face-down cards.  Scripted illegal moves (a Defense in the Fighters zone, a
card the bank cannot pay, a blocker before the attack, a face-down card that is
not the one sealed) are flagged with rule, sentence and fix, put right, and the
game goes on until Saga falls.
"""

from __future__ import annotations

import pytest

from companion.config import TableSpec
from tests.support.server import thread_server

pytest.importorskip("vision.pipeline")

RULES = ("KN-T2", "KN-6.1", "KN-4.2", "KN-8.2")


def _seen(cards):
    """What a perfect camera reads off the script's mat (no vision: the script and the adapter alone)."""
    from companion.demo import keener
    from engines.core import FACE_DOWN, Sighting, TableSnapshot

    out = []
    for p in cards:
        art = keener.art(p.card)
        if art["kind"] == "back" and "marker_id" not in art:
            continue  # a deck's plain back
        card = FACE_DOWN if art["kind"] == "back" else f"printed:{art['marker_id'] - 100}"
        out.append(Sighting(card, p.zone, p.x or 0.0, p.y or 0.0))
    return TableSnapshot(tuple(out))


def test_the_script_plays_to_its_outcome_and_its_mat_reads_back_as_its_moves():
    """Fast (no vision, no server): each mat the script draws is read by the adapter as the move it makes,
    each illegal one is refused with its rule (the lie by the phone's seal), and Saga falls on turn 6."""
    import random

    from companion.camera import diff
    from companion.demo import keener
    from engines.keener import GAME, Uncloak
    from engines.keener.table import interpret

    script = keener.script()
    state = GAME.new(2, "standard", script.deal, script.options)
    rng = random.Random(1)
    seen = _seen(script.table_of(state))
    flagged, camera, questions = [], 0, 0
    while state.outcome is None:
        bad = script.illegal(state, script.table_of(state), rng)
        if bad is not None:
            wrong = _seen(bad.table)
            result = interpret(state, diff(seen, wrong), wrong)
            if result.mismatch is not None:
                flagged.append(result.mismatch.rule)
            else:
                verdict = state.check(Uncloak.from_json(bad.phone[1]))
                flagged.append(verdict.rule)
        move = script.choose(state, rng)
        after = script.camera(state, move, [])
        if after is not None:
            now = _seen(after)
            result = interpret(state, diff(seen, now), now)
            assert result.mismatch is None, (move, result)
            if result.questions:
                questions += 1  # sealed on the phone
            else:
                assert list(result.moves) == [move], (move, result)
                camera += 1
            seen = now
        state.apply(move)
        assert state.snapshot.turn <= 6
    assert sorted(flagged) == sorted(RULES)
    assert camera >= 20 and questions == 3
    assert state.outcome.winners == (1,)


@pytest.mark.timeout(300)
def test_a_full_keener_game_through_the_rendered_camera(tmp_path):
    from companion.demo import keener
    from companion.demo.driver import Demo

    script = keener.script()
    with thread_server(tmp_path, serial="sim") as srv:
        table = srv.server.create_table(TableSpec(script.game, script.variant, script.seats, deal=script.deal,
                                                  options=script.options))
        assert table.state.snapshot.physical  # the hands are unknown to the server
        demo = Demo(srv.server, table, script, srv.url, seed=5, frames=2)
        try:
            assert demo.play(), demo.tally
            t = demo.tally
            outcome = table.state.outcome
            assert outcome is not None and outcome.winners == (1,), outcome
            # The outcome reached every phone.
            for phone in demo.phones:
                over = phone.wait_for("over")
                assert over["outcome"]["winners"] == [1] and "Saga" in over["outcome"]["reason"]
            # Every scripted illegal move was flagged with its rule, a sentence and a fix.
            assert sorted(t.illegal_tried) == sorted(RULES), t
            assert sorted(v["rule"] for v in t.flagged) == sorted(RULES), t
            for verdict in t.flagged:
                assert verdict["message"] and verdict["fix"], verdict
            # The camera's ones were announced to the whole table.
            announced = {d["verdict"]["rule"] for d in demo.phones[1].received("illegal")}
            assert {"KN-T2", "KN-6.1", "KN-4.2"} <= announced <= set(RULES), announced
            lie = next(v for v in t.flagged if v["rule"] == "KN-8.2")
            assert "commitment" in lie["message"]  # the seal opened on the phone did not match the card turned up
            # The camera played the cards; the phones sealed and opened the cloaks and made the phone moves.
            assert t.entered_by_hand == 0 and t.stray == [], t
            assert t.camera_moves >= 20 and t.sealed == 3 and t.phone_moves >= 12, t
            # Resources are counted by the server and shown on each phone's private view.
            for seat, phone in enumerate(demo.phones):
                mine = [v for v in phone.received("view") if v.get("seat") == seat]
                assert "hand" in mine[-1]["view"], "a seat's own view"
                banks = [v["view"]["sides"][seat]["bank"] for v in mine]
                assert any(sum(b.values()) for b in banks), f"seat {seat + 1} never saw its bank fill"
                final = dict(zip(("wood", "stone", "iron", "gold"), table.state.snapshot.sides[seat].bank,
                                 strict=True))
                assert banks[-1] == final or list(banks[-1].values()) == list(final.values())
            print(f"\nKeener e2e: {t.camera_moves} camera moves, {t.sealed} camera moves sealed on a phone, "
                  f"{t.phone_moves} phone moves, {len(t.flagged)} illegal flagged ({', '.join(RULES)}), "
                  f"{t.entered_by_hand} entered on a phone, {t.frames} frames, outcome {outcome.reason}")
        finally:
            demo.close()
