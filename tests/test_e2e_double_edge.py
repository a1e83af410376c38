"""End to end: a full Double-Edge game seen by a rendered camera.

The real server (thread, 127.0.0.1), both phones over real Socket.IO,
simulated LED boards for the coin, and the mat rendered by vision's scene
generator (a standard deck on the printed zones) and read by vision's pipeline
and stability filter into the referee.  The phones seal the Bases and Supports,
commit indicators, draw and end turns; the camera takes the Strikers, the
discards and the cards taken from the piles (a move the camera is unsure of is
asked, and the player enters it on the phone).  Scripted illegal moves (a
Striker out of turn, a second Striker) are announced with the rule and the
fix, the card is taken back, and the game goes on to its final score.
"""

from __future__ import annotations

import pytest

from companion.config import TableSpec
from tests.support.server import thread_server

pytest.importorskip("vision.pipeline")


def test_a_full_game_through_the_rendered_camera(tmp_path):
    from companion.demo import double_edge
    from companion.demo.driver import Demo

    script = double_edge.script(max_rounds=1)
    with thread_server(tmp_path, serial="sim") as srv:
        table = srv.server.create_table(TableSpec(script.game, script.variant, script.seats, deal=4,
                                                  options=script.options))
        demo = Demo(srv.server, table, script, srv.url, seed=4, frames=1, max_illegal=2)
        try:
            assert demo.play(), demo.tally
            t = demo.tally
            outcome = table.state.outcome
            assert outcome is not None
            for phone in demo.phones:
                over = phone.wait_for("over")
                assert over["outcome"]["scores"] == list(outcome.scores)
            assert t.illegal_tried and len(t.flagged) == len(t.illegal_tried), t
            for verdict in t.flagged:
                assert verdict["rule"] in ("DE-T1", "DE-6.2", "DE-14.2") and verdict["message"] and verdict["fix"]
            announced = [d["verdict"]["rule"] for d in demo.phones[-1].received("illegal")]
            assert all(v["rule"] in announced for v in t.flagged)
            assert t.camera_moves + t.entered_by_hand >= 2 and t.phone_moves >= 4, t
            print(f"\nDE e2e: {t.camera_moves} camera moves, {t.entered_by_hand} asked and entered on a phone, "
                  f"{t.phone_moves} phone moves, {len(t.flagged)} illegal flagged, {len(t.stray)} misreads refused, "
                  f"{t.frames} frames, outcome {outcome.reason}")
        finally:
            demo.close()
