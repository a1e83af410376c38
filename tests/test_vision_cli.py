"""`companion vision read / teach / watch` end to end, in a subprocess-free way
(the real argument parser and commands, real files)."""

import json

import cv2
import numpy as np

from companion.cli import main
from vision import cardart
from vision.scene import render_scene
from vision.teach import load_deck, teach


def test_read_json_on_a_plain_photo(tmp_path, capsys):
    img, truth = render_scene(1600, 1200, 3, seed=51, mat=False, occluders=0, stagger=False, kinds=("face",), max_tilt=10)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), img)
    assert main(["vision", "read", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mat"] is False and data["image"] == str(path)
    want = sorted((c.rank, c.suit) for c in truth.cards)
    got = sorted((c["rank"], c["suit"]) for c in data["cards"] if "rank" in c)
    assert set(got) <= set(want) and len(got) >= 2
    for c in data["cards"]:
        assert len(c["outline_px"]) == 4 and "outline_mm" not in c and 0 <= c["confidence"] <= 1


def test_read_text_with_mat_and_a_bad_file(tmp_path, capsys):
    img, _ = render_scene(1920, 1080, 4, seed=52, mat=True, occluders=0)
    path = tmp_path / "mat.png"
    cv2.imwrite(str(path), img)
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    assert main(["vision", "read", str(path), str(bad)]) == 2
    out = capsys.readouterr()
    assert "mat seen" in out.out and "mm (" in out.out
    assert "cannot read image" in out.err


def test_read_says_an_image_is_too_small_and_reads_the_rest(tmp_path, capsys):
    img, _ = render_scene(1280, 720, 4, seed=53, mat=True, occluders=0)
    good, tiny = tmp_path / "table.png", tmp_path / "tiny.png"
    cv2.imwrite(str(good), img)
    cv2.imwrite(str(tiny), np.zeros((3, 3, 3), np.uint8))
    assert main(["vision", "read", str(tiny), str(good)]) == 2
    out = capsys.readouterr()
    assert "tiny.png" in out.err and "too small" in out.err and "Traceback" not in out.err
    assert "table.png: 1280x720" in out.out


def _card_photo(rank, suit, style, rng):
    """A phone photo of one card on a wooden-ish table."""
    art = cardart.card_face(rank, suit, style)
    h, w = 900, 700
    img = np.zeros((h, w, 3), np.float32) + np.array([40, 80, 140], np.float32)
    c, s_ = np.cos(0.2), np.sin(0.2)
    A = np.array([[c, -s_, 230], [s_, c, 150], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(art, A, (w, h))
    a = warped[..., 3:4] / 255
    img = img * (1 - a) + warped[..., :3] * a
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_teach_stores_references_and_read_uses_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    style = cardart.deck_styles()[3]
    rng = np.random.default_rng(0)
    photos = tmp_path / "photos"
    photos.mkdir()
    for code, (rank, suit) in {"QH": ("Q", "hearts"), "10S": ("10", "spades"), "7c": ("7", "clubs")}.items():
        cv2.imwrite(str(photos / f"{code}.jpg"), _card_photo(rank, suit, style, rng))
    (photos / "holiday.jpg").write_bytes(cv2.imencode(".jpg", np.zeros((50, 50, 3), np.uint8))[1].tobytes())
    assert main(["vision", "teach", "--deck", "blue-bicycle", str(photos)]) == 0
    out = capsys.readouterr().out
    assert "learnt 3 card(s)" in out and "holiday.jpg" in out and "not yet taught" in out
    refs = load_deck("blue-bicycle")
    assert sorted(set(refs.rank_labels)) == ["10", "7", "Q"]
    assert main(["vision", "read", "--deck", "blue-bicycle", "--json", str(photos / "QH.jpg")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["rank"], c["suit"]) for c in data["cards"] if "rank" in c] == [("Q", "hearts")]
    try:
        main(["vision", "read", "--deck", "nope", str(photos / "QH.jpg")])
    except SystemExit as exc:
        assert "no taught deck" in str(exc)
    else:
        raise AssertionError("an unknown deck was accepted")


def test_teach_refuses_bad_deck_names(tmp_path):
    try:
        teach([], "../escape", root=tmp_path)
    except ValueError as exc:
        assert "deck name" in str(exc)
    else:
        raise AssertionError("a path-like deck name was accepted")


def test_watch_writes_an_annotated_video(tmp_path, capsys):
    out = tmp_path / "watch.avi"
    assert main(["vision", "watch", "sim:7", "--out", str(out), "--frames", "12", "--stable", "3", "--events"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert lines and lines[0]["added"]
    cap = cv2.VideoCapture(str(out))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 12


def test_watch_says_when_the_source_gives_frames_too_small(tmp_path, capsys):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), np.zeros((8, 8, 3), np.uint8))
    assert main(["vision", "watch", str(folder), "--out", str(tmp_path / "w.avi"), "--frames", "3"]) == 2
    err = capsys.readouterr().err
    assert "frame 1" in err and "too small" in err and "Traceback" not in err
