"""End to end: ガンナガン with ダブルエッジ, the players' own cards taught to the camera.

The real server (thread, 127.0.0.1), two phones and a table page over real
Socket.IO, the simulated LED boards (the coin-toss board's arrow and button),
and every card laid on the mat rendered (stand-in faces, taught first from one
rendered photo each, as `companion vision teach` does) and read by vision's
pipeline, feature matching and stability filter into the referee.  The game
runs to its outcome; one declaration is made with the board's button, the
others are answered on the phone; a declaration on a bullet and a second one
in a turn are refused with their rule ids; after every toss the table page
says who resolved the effect and how many times, as the board's arrow showed.
"""

from __future__ import annotations

import pytest

from companion.config import TableSpec
from tests.support.server import Phone, thread_server

pytest.importorskip("vision.pipeline")


def test_a_game_of_gun_and_gun_with_double_edge_through_the_rendered_camera(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    from companion.demo import gun_and_gun as gg
    from companion.demo.driver import Demo

    taught = gg.teach()  # into the user data directory, where the camera looks (here under tmp_path)
    assert taught is not None and len(taught) == 14
    script = gg.script(life=15)
    with thread_server(tmp_path, serial="sim") as srv:
        table = srv.server.create_table(TableSpec(script.game, script.variant, 2, deal=5, options=script.options))
        demo = Demo(srv.server, table, script, srv.url, seed=5, frames=1, say=print)
        watcher = Phone(srv.url)
        try:
            assert demo.reader.taught is not None and len(demo.reader.taught) == 14  # FrameReader loaded them
            assert watcher.call("watch", {"table": table.id})["ok"]
            board = srv.server.devices.manager.simulator.board("sim-toss")
            report = gg.run(demo, board, watcher)
            t = demo.tally
            outcome = table.state.outcome
            assert outcome is not None and outcome.winners, (t, report)
            # The outcome reached every phone and the table page.
            for phone in demo.phones:
                assert phone.wait_for("over")["outcome"]["winners"] == list(outcome.winners)
            watcher.wait_for(lambda e, d: e == "over")
            # Declarations: one by the board's button, the rest answered on the phone.
            assert report.declared_by_button == 1, report
            assert len(report.tosses) == report.declared_by_button + report.declared_by_phone, report
            for toss in report.tosses:
                engine, page, arrow = toss["engine"], toss["page"], toss["arrow"]
                assert arrow is not None and arrow["seat"] == toss["declarer"], toss
                faces_declarer = arrow["face"] == "player"
                assert page["coin"] == ("declarer" if faces_declarer else "opponent"), toss
                assert page["resolver"] == (toss["declarer"] if faces_declarer else 1 - toss["declarer"]), toss
                assert page["times"] == (2 if faces_declarer else 1), toss
                assert page["declarer"] == engine.declarer and page["times"] == engine.times
            # Declarations the rules forbid were refused with their rule ids.
            rules = [v.get("rule") for v in report.refused]
            assert "GG-DE-9.1" in rules, report.refused
            assert report.button_refusals and report.button_refusals[0]["verdict"]["rule"] == "GG-DE-2", report
            assert all(r == "GG-DE-2" for r in rules if r != "GG-DE-9.1"), report.refused
            # Illegal physical plays were flagged with the rule and a fix.
            assert len(t.flagged) == len(t.illegal_tried), t
            for verdict in t.flagged:
                assert verdict["rule"] in ("GG-T2", "GG-T4") and verdict["message"] and verdict["fix"]
            # The camera read the plays; only a few were entered on the phone instead.  The game's length
            # follows the shuffles (the server's secret fairness seed), so the bar is a share, not a count.
            assert report.questions and t.camera_moves >= 5 and t.entered_by_hand <= t.camera_moves // 3, t
            print(f"\nガンナガン e2e: {t.camera_moves} camera moves, {t.phone_moves} phone moves, "
                  f"{t.entered_by_hand} entered on a phone, {report.questions} questions, "
                  f"{report.declared_by_button} declared by the button, {report.declared_by_phone} on the phone, "
                  f"{report.declined} declined, refused {rules} and by the button "
                  f"{[r['verdict']['rule'] for r in report.button_refusals]}, {len(t.flagged)} illegal flagged, "
                  f"{len(t.stray)} misreads refused, {t.frames} frames, outcome {outcome.reason}")
        finally:
            watcher.close()
            demo.close()
