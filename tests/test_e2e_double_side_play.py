"""End to end: a full 4-player Double Side Play game seen by a rendered camera.

The real server (thread, 127.0.0.1), four phones over real Socket.IO, simulated
LED boards for the dice, and every card laid on the mat rendered by vision's
scene generator and read by vision's pipeline and stability filter into the
referee.  Scripted illegal moves (a card not following the colour led, a card
out of turn) are announced to the whole table with the rule and the fix, the
card is taken back, and the game goes on to its final score.
"""

from __future__ import annotations

import pytest

from companion.config import TableSpec
from tests.support.server import thread_server

pytest.importorskip("vision.pipeline")


def test_a_full_four_player_game_through_the_rendered_camera(tmp_path):
    from companion.demo import double_side_play
    from companion.demo.driver import Demo

    script = double_side_play.script(seats=4)
    with thread_server(tmp_path, serial="sim") as srv:
        table = srv.server.create_table(TableSpec(script.game, script.variant, script.seats, deal=11))
        demo = Demo(srv.server, table, script, srv.url, seed=11, frames=2, max_illegal=4)
        try:
            assert demo.play(), demo.tally
            t = demo.tally
            outcome = table.state.outcome
            assert outcome is not None and outcome.winners
            # The final score reached every phone.
            for phone in demo.phones:
                over = phone.wait_for("over")
                assert over["outcome"]["scores"] == list(outcome.scores)
            # Every scripted illegal move was flagged with its rule and a fix and announced at the table, or,
            # at most once, left unread by the camera (a printed card's 20 px marker at 640x360: nothing is
            # played, and the seat to act is asked what its card is); none was refused for anything else: a refusal for
            # what the camera saw (DSP-T4, a corner marker decoded as a back id, cf7f56e) once failed this
            # test about 1 run in 15, and hid among legal plays too.
            assert t.illegal_tried and len(t.flagged) + t.unread_illegal == len(t.illegal_tried), t
            assert t.unread_illegal <= 1, t
            assert t.refused_otherwise == 0 and not t.stray, t
            for verdict in t.flagged:
                assert verdict["rule"] in ("DSP-7.3", "DSP-T1") and verdict["message"] and verdict["fix"]
            announced = [d["verdict"]["rule"] for d in demo.phones[-1].received("illegal")]
            assert all(v["rule"] in announced for v in t.flagged)
            # The camera, not the phones, played the cards (a card the camera missed is entered on the phone).
            # The game's length depends on the dice (the server's secret fairness seed), so the bar is a share
            # of the cards played (at least two rounds of 48 are needed to reach 2 points), not a count.
            assert t.camera_moves + t.entered_by_hand >= 96, t
            assert t.entered_by_hand <= t.camera_moves // 3, t
            print(f"\nDSP e2e: {t.camera_moves} camera moves, {t.phone_moves} phone moves, "
                  f"{t.entered_by_hand} entered on a phone, {len(t.flagged)} illegal flagged, {len(t.stray)} misreads refused, "
                  f"{t.frames} frames, outcome {outcome.reason}")
        finally:
            demo.close()
