"""Teach mode for commercial cards (vision/feature_cards.py): one photo per card,
recognition by feature matching with a homography check, "unknown" for cards
never taught, a whole table frame searched at once, and a registry that
survives a save and load as plain PNG + JSON."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.feature_cards import (
    FACE_H,
    FACE_W,
    FeatureCards,
    Match,
    find_card_outline,
    load_taught,
    normalise_type,
    teach_photo,
    type_label,
)
from vision.feature_scene import CARD_PX, card_face, card_spec, card_view, registration_photo, table_scene

TAUGHT = range(6)
UNTAUGHT = (200, 201, 202)


@pytest.fixture(scope="module")
def faces() -> dict[int, np.ndarray]:
    return {s: card_face(s) for s in [*TAUGHT, *UNTAUGHT]}


@pytest.fixture(scope="module")
def registry(faces) -> FeatureCards:
    reg = FeatureCards()
    for s in TAUGHT:
        spec = card_spec(s)
        reg.add(spec.name, spec.type, registration_photo(faces[s], seed=77 + s))
    return reg


def _centre_error(outline, quad) -> float:
    return float(np.linalg.norm(np.float32(outline).mean(0) - np.float32(quad).mean(0)))


def test_teaching_photo_is_cropped_to_the_card(faces):
    photo = registration_photo(faces[0], seed=3)
    quad = find_card_outline(photo)
    assert quad is not None
    reg = FeatureCards()
    card = reg.add("x", "行動", photo)
    assert card.face.shape[:2] == (FACE_H, FACE_W)
    # the rectified face looks like the drawn face (up to the half turn a photo may take)
    ref = cv2.cvtColor(cv2.resize(faces[0], (FACE_W, FACE_H)), cv2.COLOR_BGR2GRAY).astype(np.float32)
    got = cv2.cvtColor(card.face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    corr = max(np.corrcoef(ref.ravel(), g.ravel())[0, 1] for g in (got, got[::-1, ::-1]))
    assert corr > 0.6


def test_an_image_with_card_proportions_is_taken_as_the_card_itself(faces):
    assert abs(CARD_PX[0] / CARD_PX[1] - 63 / 88) < 0.01
    reg = FeatureCards()
    card = reg.add("scan", "機能", faces[1])
    ref = cv2.resize(faces[1], (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    assert np.abs(card.face.astype(int) - ref.astype(int)).mean() < 3


def test_types_are_entered_in_japanese_or_english():
    assert normalise_type("行動") == "action"
    assert normalise_type(" 銃弾 ") == "bullet"
    assert normalise_type("Response") == "response"
    assert normalise_type("機能") == "function"
    assert normalise_type("スキル") == "スキル"  # other ガンナガン types are kept as written
    assert type_label("action") == "行動 (action)"
    with pytest.raises(ValueError, match="type"):
        normalise_type("  ")


def test_each_taught_card_is_recognised_in_camera_views(registry, faces):
    for s in TAUGHT:
        spec = card_spec(s)
        for v in range(2):
            img, quad = card_view(faces[s], seed=s * 100 + v)
            m = registry.match(img)
            assert isinstance(m, Match), (s, v)
            assert (m.name, m.type) == (spec.name, normalise_type(spec.type))
            assert m.inliers >= 12 and 0 < m.confidence <= 1
            assert _centre_error(m.outline, quad) < 25


def test_untaught_cards_are_unknown(registry, faces):
    for s in UNTAUGHT:
        img, _ = card_view(faces[s], seed=s)
        assert registry.match(img) is None
    table = np.full((400, 400, 3), 90, np.uint8)
    assert registry.match(table) is None
    assert FeatureCards().match(card_view(faces[0], seed=1)[0]) is None  # nothing taught yet


def test_bad_input_is_refused_and_changes_nothing(registry, faces):
    before = registry.names()
    with pytest.raises(ValueError, match="name"):
        registry.add("", "行動", faces[0])
    with pytest.raises(ValueError, match="type"):
        registry.add("blank type", "", faces[0])
    with pytest.raises(ValueError, match="detail"):
        registry.add("blank", "行動", np.full((880, 630, 3), 200, np.uint8))
    with pytest.raises(ValueError, match="not an image"):
        registry.add("none", "行動", None)
    with pytest.raises(ValueError, match="method"):
        FeatureCards("surf")
    assert registry.names() == before


def test_a_table_frame_yields_every_taught_card(registry, faces):
    pool = {s: faces[s] for s in [0, 1, 2, 200]}
    pool[1000] = faces[0]  # a second copy of card 0
    img, placed = table_scene(pool, seed=11, n=5)
    found = registry.find_all(img)
    want = sorted(card_spec(p.seed % 1000).name for p in placed if p.seed % 1000 in TAUGHT)
    assert sorted(m.name for m in found) == want
    for p in placed:
        if p.seed % 1000 in TAUGHT:
            assert min(_centre_error(m.outline, p.quad) for m in found if m.name == card_spec(p.seed % 1000).name) < 25


def test_save_and_load_keep_names_types_and_recognition(registry, faces, tmp_path: Path):
    path = registry.save(tmp_path / "gun-and-gun")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["name"] for c in data["cards"]] == registry.names()
    assert all((path.parent / c["image"]).exists() for c in data["cards"])
    assert {p.suffix for p in path.parent.iterdir()} == {".json", ".png"}
    back = FeatureCards.load(path.parent)
    assert back.names() == registry.names()
    img, _ = card_view(faces[3], seed=5)
    m = back.match(img)
    assert m is not None and m.name == card_spec(3).name == registry.match(img).name
    # teaching a name again replaces it; saving drops the old file
    back.add(card_spec(3).name, "対応", faces[3])
    back.remove(card_spec(4).name)
    back.save(path.parent)
    again = FeatureCards.load(path.parent)
    assert len(again) == len(TAUGHT) - 1 and card_spec(4).name not in again
    assert len(list(path.parent.glob("*.png"))) == len(TAUGHT) - 1
    assert FeatureCards.load(tmp_path / "never-taught").names() == []


def test_vision_teach_modules_import_no_engines_or_companion():
    for name in ("feature_cards.py", "feature_scene.py"):
        tree = ast.parse((Path(__file__).parents[1] / "vision" / name).read_text(encoding="utf-8"))
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(m.split(".")[0] in ("engines", "companion", "devices") for m in mods), mods


def test_teach_photo_saves_and_load_taught_reads_back(faces, tmp_path: Path):
    photo = tmp_path / "計略.jpg"
    cv2.imwrite(str(photo), registration_photo(faces[2], seed=9))
    root = tmp_path / "taught"
    assert load_taught("gun-and-gun", root=root) is None
    t = teach_photo("gun-and-gun", "計略", "行動", photo, root=root)
    assert (t.name, t.type, t.outline_found, t.replaced) == ("計略", "action", True, False)
    assert teach_photo("gun-and-gun", "計略", "行動", photo, root=root).replaced
    with pytest.raises(ValueError, match="cannot read"):
        teach_photo("gun-and-gun", "x", "行動", tmp_path / "missing.jpg", root=root)
    with pytest.raises(ValueError, match="game name"):
        teach_photo("../etc", "x", "行動", photo)
    reg = load_taught("gun-and-gun", root=root)
    assert reg is not None and reg.names() == ["計略"]
    found = reg.find_all(card_view(faces[2], seed=4)[0])
    assert [(m.name, m.to_json()["type_label"]) for m in found] == [("計略", "行動 (action)")]


def test_a_card_partly_under_another_is_still_found(registry, faces):
    img, placed = table_scene({s: faces[s] for s in (3, 4)}, seed=21, n=2, overlap=True)
    assert len(placed) == 2
    a, b = (np.float32(p.quad) for p in placed)
    inter, _ = cv2.intersectConvexConvex(a, b)
    assert inter > 0.1 * abs(cv2.contourArea(a))  # the second card really covers part of the first
    assert sorted(m.name for m in registry.find_all(img)) == sorted(card_spec(p.seed).name for p in placed)


def test_taught_cards_replace_what_the_pipeline_saw_there_and_reach_the_referee_by_name():
    """camera.FrameReader adds find_all's matches to the pipeline's frame (vision.feature_cards.with_taught):
    a full-bleed face the pipeline took for an unknown card or a back is the taught card; camera.to_core
    turns it into Sighting(card="taught:<name>") in its mat zone."""
    from companion.camera import to_core
    from engines.gun_and_gun import mat
    from vision.feature_cards import Match, TaughtSighting, with_taught
    from vision.results import FrameResult
    from vision.results import Sighting as VisionSighting

    layout = mat.layout(2, "double-edge")
    zone = layout.zone("s0.action")
    x0, y0 = zone.x + 14, zone.y + 2
    outline = ((x0, y0), (x0 + 63, y0), (x0 + 63, y0 + 88), (x0, y0 + 88))  # px = mm here (to_mat identity)
    unknown = VisionSighting(0, "unknown", 0.6, outline, outline)
    elsewhere = VisionSighting(1, "face_down", 0.6, ((500, 5), (560, 5), (560, 90), (500, 90)))
    frame = FrameResult([unknown, elsewhere], (640, 480), np.eye(3))
    merged = with_taught(frame, [Match("計略", "action", 40, 0.9, outline, 0.8)])
    kinds = sorted(s.kind for s in merged.sightings)
    assert kinds == ["face_down", "taught"]
    taught = next(s for s in merged.sightings if isinstance(s, TaughtSighting))
    assert taught.label == "taught:計略" and taught.outline_mm is not None
    assert with_taught(frame, []) is frame
    core = to_core(merged.sightings, layout, "gun-and-gun")
    assert [(s.card, s.zone) for s in core.sightings if s.card.startswith("taught:")] == [("taught:計略", "s0.action")]
