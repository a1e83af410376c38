"""The camera link: vision's rendered scene (real OpenCV pipeline) -> stable zone changes with
the evidence frame stored by hash; and how consecutive snapshots become changes."""

from __future__ import annotations

import threading

import pytest

from companion.camera import CameraLink, diff
from companion.store import Store
from engines.core import FACE_DOWN, Sighting, TableSnapshot, ZoneChange


def snap(*cards):
    return TableSnapshot(tuple(Sighting(card, zone, 0.0, 0.0) for card, zone in cards))


def test_diff_names_placed_removed_moved_and_flipped():
    before = snap(("7C", "hand"), (FACE_DOWN, "base"), ("QH", "pile"))
    after = snap(("7C", "field"), ("KS", "base"), ("2D", "pile"))
    assert sorted(diff(before, after), key=lambda c: c.kind) == [
        ZoneChange("flipped", "KS", "base"),
        ZoneChange("moved", "7C", "field", from_zone="hand"),
        ZoneChange("placed", "2D", "pile"),
        ZoneChange("removed", "QH", "pile"),
    ]
    assert diff(after, after) == []


def test_no_camera_means_manual_entry(tmp_path):
    assert CameraLink.open("none", lambda *a: None, None) is None
    assert CameraLink.open(str(tmp_path / "no-such-video.mp4"), lambda *a: None, None) is None


def test_rendered_scene_gives_stable_changes_with_evidence(tmp_path):
    pytest.importorskip("vision.pipeline")
    store = Store(tmp_path / "store.sqlite3")
    got = []
    arrived = threading.Event()

    def feed(changes, snapshot, evidence):
        got.append((changes, snapshot, evidence))
        arrived.set()

    link = CameraLink.open("sim", feed, store)
    assert link is not None
    try:
        assert arrived.wait(120), "no stable table from the rendered scene"
    finally:
        link.close()
    changes, snapshot, evidence = got[0]
    assert changes and all(c.kind == "placed" for c in changes)
    assert {c.card for c in changes} <= {s.card for s in snapshot.sightings}
    data, mime = store.evidence(evidence)
    assert mime == "image/jpeg" and data[:2] == b"\xff\xd8"
    # The evidence is the mat alone, straightened (594 x 420 mm): nothing beyond its edge, where hands are.
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert abs(image.shape[1] / image.shape[0] - 594 / 420) < 0.01, image.shape
    store.close()


def test_no_video_device_means_manual_entry():
    from companion.camera import find_camera

    def never(path):
        raise OSError(f"{path} gives no frames")

    assert find_camera(never) is None


def test_the_camera_watches_a_table_opened_later_and_stays_with_a_game_in_progress(tmp_path):
    pytest.importorskip("vision.pipeline")
    from companion.config import TableSpec
    from tests.support.server import thread_server

    with thread_server(tmp_path, camera="sim") as srv:
        server = srv.server
        assert server.camera is None  # no table yet: nothing to watch
        first = server.create_table(TableSpec("double-side-play", seats=4, deal=3))
        assert server.camera is not None and server.cameras[first.id] is server.camera
        second = server.create_table(TableSpec("double-side-play", seats=4, deal=4))
        assert server.watching == first.id and second.id not in server.cameras  # the first game goes on
