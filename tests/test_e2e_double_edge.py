"""End to end: a full Double-Edge game from a real (physical) deal, seen by a rendered camera.

The real server (thread, 127.0.0.1), both phones over real Socket.IO,
simulated LED boards for the coin, and the mat rendered by vision's scene
generator (a standard deck on the printed zones) and read by vision's pipeline
and stability filter into the referee.  The deal is physical (DE-15): the
engine knows no hidden card, so the camera carries what a camera sees at a
real table: the Bases turned face up after they were sealed (checked against
the seal), the Strikers, a card discarded under the Support, the indicators and
attacked Supports turned over, the cards taken from the discard piles, a
claimed Support laid under the Base.  The phones seal the Base, Supports and
indicators, draw from the face-down deck and confirm the end of a turn.  A
move the camera cannot read for sure is asked of the player (a Question on the
phone) and answered there.  Scripted illegal moves are announced with the rule
and the fix, the card is taken back, and the game goes on until a Base falls
(DE-12), the game's own end, not a round limit.
"""

from __future__ import annotations

import pytest

from companion.config import TableSpec
from engines.core import PHYSICAL
from tests.support.server import thread_server

pytest.importorskip("vision.pipeline")

SEED = 101
"""The players' deck, their choices and the camera pose: a game of three rounds whichever way the coin falls."""


def test_a_full_physical_game_through_the_rendered_camera(tmp_path):
    from companion.demo import double_edge
    from companion.demo.driver import Demo

    script = double_edge.script(seed=SEED)
    with thread_server(tmp_path, serial="sim") as srv:
        table = srv.server.create_table(TableSpec(script.game, script.variant, script.seats, deal=PHYSICAL,
                                                  options=script.options))
        demo = Demo(srv.server, table, script, srv.url, seed=SEED, frames=1, max_illegal=4)
        try:
            assert demo.play(), demo.tally
            t = demo.tally
            outcome = table.state.outcome
            assert outcome is not None and "Base" in outcome.reason and "limit" not in outcome.reason, outcome
            for phone in demo.phones:
                over = phone.wait_for("over")
                assert over["outcome"]["scores"] == list(outcome.scores)
            assert t.illegal_tried and len(t.flagged) == len(t.illegal_tried), t
            for verdict in t.flagged:
                assert verdict["rule"] and verdict["message"] and verdict["fix"]
            assert len({v["rule"] for v in t.flagged}) >= 2, t.flagged
            announced = [d["verdict"]["rule"] for d in demo.phones[-1].received("illegal")]
            assert all(v["rule"] in announced for v in t.flagged)
            assert t.restored == len(t.illegal_tried), t  # each card taken back, the table as before
            # The camera carried the face-up side of the game (a question answered on the phone counts: the
            # camera saw the move and asked only what it could not read); the phones only sealed and confirmed.
            seen = t.camera_moves + t.answered
            assert seen >= 10 and t.entered_by_hand <= seen // 4, t
            print(f"\nDE e2e: {t.camera_moves} camera moves, {t.answered} asked by the camera and answered on a phone, "
                  f"{t.entered_by_hand} entered on a phone, {t.phone_moves} phone moves, {len(t.flagged)} illegal "
                  f"flagged ({', '.join(sorted({v['rule'] for v in t.flagged}))}), {len(t.stray)} misreads refused, "
                  f"{t.frames} frames, outcome {outcome.reason}")
        finally:
            demo.close()
