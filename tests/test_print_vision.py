"""The printed PDFs, rendered by poppler, read by vision's own detector.

The strongest check of ``companion print``: the mat's four markers are found
where vision's geometry says they are (also after the A4 tiles are put back
together), and every printed card shows its marker three times (centre and two
corners) with the id the printed-card convention gives it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.printing import plan, write_cards, write_mat
from companion.printing.cards import keener_indices
from vision import geometry as g
from vision.markers import MARKER_RANGES, detect_markers, make_detector
from vision.mat import calibrate

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="poppler-utils (pdftoppm) is not installed: apt-get install poppler-utils")


def render(pdf, dpi: int) -> list[np.ndarray]:
    """Every page of ``pdf`` as a grey image."""
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf), str(prefix)], check=True)
    pages = sorted(pdf.parent.glob(prefix.name + "-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in pages]


def first(name: str) -> int:
    return next(r.first for r in MARKER_RANGES if r.name == name)


def test_a2_mat_markers_are_where_vision_expects(tmp_path):
    pdf = tmp_path / "mat.pdf"
    write_mat(pdf, "double-edge", 2, None, "A2")
    dpi = 50
    (page,) = render(pdf, dpi)
    px = dpi / 25.4
    assert abs(page.shape[1] - g.MAT_W * px) < 2 and abs(page.shape[0] - g.MAT_H * px) < 2
    found = detect_markers(make_detector(), page)
    assert sorted(m.marker_id for m in found) == [0, 1, 2, 3]
    corners = g.mat_marker_corners()
    for m in found:
        assert np.abs(m.corners / px - np.float32(corners[m.marker_id])).max() < 1.0  # mm
    cal = calibrate(found)
    assert cal is not None and cal.markers_seen == 4 and cal.error_px < 0.5


def test_a4_tiles_put_together_calibrate_like_one_sheet(tmp_path):
    pdf = tmp_path / "mat.pdf"
    assert write_mat(pdf, "keener", 2, None, "A4") == 4
    dpi = 50
    px = dpi / 25.4
    pages = render(pdf, dpi)
    mat = np.full((round(g.MAT_H * px), round(g.MAT_W * px)), 255, np.uint8)
    seen: Counter[int] = Counter()
    detector = make_detector()
    for tile, page in zip(plan(g.MAT_W, g.MAT_H, "A4"), pages, strict=True):
        seen.update(m.marker_id for m in detect_markers(detector, page))
        # cut the printable box out of the page and lay it where it belongs on the mat
        cx, cy, cw, ch = tile.clip
        sx, sy = round((cx - tile.x0) * px), round((cy - tile.y0) * px)
        dx, dy = round(cx * px), round(cy * px)
        w, h = min(round(cw * px), mat.shape[1] - dx), min(round(ch * px), mat.shape[0] - dy)
        mat[dy:dy + h, dx:dx + w] = page[sy:sy + h, sx:sx + w]
    assert seen == {0: 1, 1: 1, 2: 1, 3: 1}, "each corner marker is whole on exactly one page"
    found = detect_markers(detector, mat)
    assert sorted(m.marker_id for m in found) == [0, 1, 2, 3]
    cal = calibrate(found)
    assert cal is not None and cal.error_px < 1.0
    assert abs(cal.px_per_mm() - px) < 0.02


@pytest.mark.parametrize("seats", [3, 8])
def test_tfs_mat_markers_read(tmp_path, seats):
    pdf = tmp_path / "tfs.pdf"
    write_mat(pdf, "two-freakin-swords", seats, "free-for-all", "A2", light=seats == 8)
    (page,) = render(pdf, 40)
    assert sorted(m.marker_id for m in detect_markers(make_detector(), page)) == [0, 1, 2, 3]


def _ids_per_page(pdf, dpi=72) -> list[Counter[int]]:
    detector = make_detector()
    return [Counter(m.marker_id for m in detect_markers(detector, page)) for page in render(pdf, dpi)]


def test_double_side_play_cards_read_with_their_ids(tmp_path):
    pdf = tmp_path / "dsp.pdf"
    write_cards(pdf, "double-side-play")
    pages = _ids_per_page(pdf)
    assert len(pages) == 6
    base = first("double-side-play")
    for sheet, ids in enumerate(pages):
        expected = range(base + 9 * sheet, base + min(48, 9 * sheet + 9))
        assert ids == {i: 3 for i in expected}, (sheet, ids)


def test_two_freakin_swords_faces_and_duplex_backs(tmp_path):
    pdf = tmp_path / "tfs.pdf"
    write_cards(pdf, "two-freakin-swords")
    pages = _ids_per_page(pdf)
    assert len(pages) == 10
    base = first("two-freakin-swords")
    faces, backs = pages[0::2], pages[1::2]
    assert sum(faces, Counter()) == {base + i: 3 for i in range(40)}
    # cards 1-20 are Strikes and Fakes (striking back, marker 4), 21-40 Blocks and Parries (5)
    assert sum(backs, Counter()) == {4: 20, 5: 20}
    assert backs[2] == {4: 2, 5: 7}  # sheet 3: fake#19, fake#20, then block#21...


def test_duplex_back_lies_behind_its_face(tmp_path):
    pdf = tmp_path / "tfs.pdf"
    write_cards(pdf, "two-freakin-swords")
    pages = render(pdf, 60)
    detector = make_detector()
    face = {m.marker_id: m.corners.mean(axis=0) for m in detect_markers(detector, pages[4])
            if m.marker_id >= first("two-freakin-swords") and np.ptp(m.corners[:, 0]) > 50}
    back = detect_markers(detector, pages[5])
    width = pages[5].shape[1]
    # flipping on the long edge mirrors x: the back of the face at x lies at width - x
    for marker_id, centre in face.items():
        index = marker_id - first("two-freakin-swords")
        side = 4 if index < 20 else 5
        mirrored = np.float32([width - centre[0], centre[1]])
        assert any(m.marker_id == side and np.linalg.norm(m.corners.mean(axis=0) - mirrored) < 5 for m in back)


def test_keener_deck_cards_read(tmp_path):
    pdf = tmp_path / "kn.pdf"
    write_cards(pdf, "keener", deck="saga-sample", paper="Letter")
    pages = _ids_per_page(pdf)
    expected = Counter({first("keener") + i: 3 for i in keener_indices("saga-sample", "A")})
    faces, backs = pages[0::2], pages[1::2]  # each face sheet is followed by its duplex back sheet
    assert len(faces) == 6 and sum(faces, Counter()) == expected
    # Every back says only "a Keener card lies here" (marker 6), never which card: nine backs per full sheet.
    assert all(set(b) == {6} for b in backs) and sum(b[6] for b in backs) == len(expected)


def test_printed_cards_on_the_printed_mat_land_in_their_zones(tmp_path):
    """The rendered Keener mat with four rendered Keener cards laid in four zones, read by
    vision's pipeline: every card is found by its marker, and its centre in mat
    millimetres falls in the zone it was laid in."""
    from companion.printing.games import mat_layout
    from companion.printing.paper import paper_size
    from companion.printing.sheets import CARD_H, CARD_W, COLS, ROWS
    from engines.keener.printed import from_sighting
    from vision.pipeline import VisionPipeline

    dpi = 60
    px = dpi / 25.4
    mat_pdf, cards_pdf = tmp_path / "mat.pdf", tmp_path / "cards.pdf"
    write_mat(mat_pdf, "keener", 2, None, "A2")
    write_cards(cards_pdf, "keener")
    (mat,) = render(mat_pdf, dpi)
    sheet = render(cards_pdf, dpi)[0]
    pw, ph = paper_size("A4")
    gx, gy = (pw - COLS * CARD_W) / 2, (ph - ROWS * CARD_H) / 2
    layout = mat_layout("keener", 2, None)
    placed = {"s0.commander": 0, "s0.fighters": 5, "s1.defenses": 8, "attack": 7}  # zone -> card on sheet 1
    frame = cv2.cvtColor(mat, cv2.COLOR_GRAY2BGR)
    for zone_id, k in placed.items():
        r, c = divmod(k, COLS)
        x, y = round((gx + c * CARD_W) * px), round((gy + r * CARD_H) * px)
        w, h = round(CARD_W * px), round(CARD_H * px)
        card = cv2.cvtColor(sheet[y:y + h, x:x + w], cv2.COLOR_GRAY2BGR)
        zone = layout.zone(zone_id)
        tx, ty = round((zone.x + zone.w / 2) * px - w / 2), round((zone.y + zone.h / 2) * px - h / 2)
        frame[ty:ty + h, tx:tx + w] = card
    result = VisionPipeline(full_marker_scan=True).process(frame)
    assert result.mat_seen
    markers = {s.marker_id: s for s in result.sightings if s.kind == "marker"}
    expected = {first("keener") + keener_indices(None, "A")[k]: zone_id for zone_id, k in placed.items()}
    assert set(markers) == set(expected)
    for marker_id, zone_id in expected.items():
        x, y = markers[marker_id].centre_mm
        assert layout.zone_at(x, y).id == zone_id
        assert from_sighting(f"printed:{marker_id - first('keener')}") is not None
