"""``companion print``: page plans, the command line, and what the PDFs hold.

Page counts and text are read back with poppler (pdfinfo, pdftotext) when it is
installed; the raw page objects are counted either way.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from companion.cli import main
from companion.printing import plan
from companion.printing.paper import MARGIN, MAT_BORDER
from vision.geometry import MAT_H, MAT_W

POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdfinfo") is not None


def pages_of(path) -> int:
    n = len(re.findall(rb"/Type /Page\b", path.read_bytes()))
    if POPPLER:
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
        assert int(re.search(r"Pages:\s+(\d+)", info).group(1)) == n
    return n


def text_of(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize(("paper", "pages"), [("A2", 1), ("A3", 2), ("A4", 4), ("Letter", 6)])
def test_page_plan_counts_and_covers_the_mat(paper, pages):
    tiles = plan(MAT_W, MAT_H, paper)
    assert len(tiles) == pages
    if pages == 1:
        t = tiles[0]
        assert (t.page_w, t.page_h) == (MAT_W, MAT_H) and (t.x0, t.y0) == (0, 0)
        return
    # every point of the content box is printable on some page
    for x in range(int(MAT_BORDER), int(MAT_W - MAT_BORDER) + 1, 3):
        for y in range(int(MAT_BORDER), int(MAT_H - MAT_BORDER) + 1, 3):
            assert any(cx - 1e-6 <= x <= cx + cw + 1e-6 and cy - 1e-6 <= y <= cy + ch + 1e-6
                       for cx, cy, cw, ch in (t.clip for t in tiles)), (x, y)
    for t in tiles:
        cx, cy, cw, ch = t.clip
        assert abs(cx - t.x0 - MARGIN) < 1e-9 and abs(t.page_w - cw - 2 * MARGIN) < 1e-9
        assert abs(t.page_h - ch - 2 * MARGIN) < 1e-9


def test_overlap_costs_pages_and_is_honoured():
    tiles = plan(MAT_W, MAT_H, "A4", overlap=10)
    assert len(tiles) == 6
    a, b = sorted((t for t in tiles if t.row == 0), key=lambda t: t.col)[:2]
    assert a.clip[0] + a.clip[2] - b.clip[0] >= 10 - 1e-9
    with pytest.raises(ValueError):
        plan(MAT_W, MAT_H, "B5")


@pytest.mark.parametrize(("game", "seats", "variant", "paper", "pages"), [
    ("double-edge", 2, "azbar", "A2", 1),
    ("double-side-play", 4, None, "A3", 2),
    ("two-freakin-swords", 6, "free-for-all", "A4", 4),
    ("keener", 2, None, "Letter", 6),
    ("gun-and-gun", 2, "double-edge", "A4", 4),
])
def test_print_mat_writes_the_pages(tmp_path, capsys, game, seats, variant, paper, pages):
    out = tmp_path / "mat.pdf"
    argv = ["print", "mat", game, "--seats", str(seats), "--paper", paper, "--out", str(out)]
    argv += ["--variant", variant] if variant else []
    assert main(argv) == 0
    assert "wrote" in capsys.readouterr().out
    assert pages_of(out) == pages
    if POPPLER:
        text = text_of(out)
        assert "Table Companion" in text
        if pages > 1:
            assert "row 1 col 2" in text and "cut the dashed lines" in text


@pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext) is not installed")
def test_mat_labels_every_zone(tmp_path):
    from companion.printing.games import mat_layout

    out = tmp_path / "de.pdf"
    assert main(["print", "mat", "double-edge", "--seats", "2", "--out", str(out)]) == 0
    text = " ".join(text_of(out).split())
    for zone in mat_layout("double-edge", 2, None).zones:
        assert zone.label.split()[0] in text
    assert text.count("seat 1") >= 5 and text.count("seat 2") >= 5


@pytest.mark.parametrize("argv", [
    ["print", "mat", "keener", "--seats", "3"],
    ["print", "mat", "double-side-play", "--seats", "4", "--variant", "misère"],
    ["print", "mat", "chess", "--seats", "2"],
    ["print", "cards", "chess"],
    ["print", "cards", "keener", "--deck", "no-such-deck"],
    ["print", "cards", "two-freakin-swords", "--decks", "9"],
])
def test_bad_requests_write_nothing(tmp_path, capsys, argv):
    out = tmp_path / "x.pdf"
    assert main([*argv, "--out", str(out)]) == 2
    assert not out.exists()
    assert capsys.readouterr().err.startswith("companion print")


def test_illegal_keener_deck_lists_its_problems(tmp_path, capsys):
    deck = tmp_path / "deck.json"
    deck.write_text('{"cards": {"saga": 1, "ferra": 1, "bear-trap": 3}}', encoding="utf-8")
    assert main(["print", "cards", "keener", "--deck", str(deck), "--out", str(tmp_path / "k.pdf")]) == 2
    err = capsys.readouterr().err
    assert "KN-2.1" in err and "KN-2.2" in err and "KN-2.3" in err


@pytest.mark.parametrize("game", ["double-edge", "gun-and-gun"])
def test_games_with_real_cards_print_nothing_and_say_so(tmp_path, capsys, game):
    out = tmp_path / "c.pdf"
    assert main(["print", "cards", game, "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert not out.exists() and ("standard 52-card deck" in said or "own cards" in said)


@pytest.mark.parametrize(("argv", "pages", "words"), [
    (["double-side-play"], 6, ["astronaut", "alien", "red", "yellow", "R1", "Y12"]),
    (["two-freakin-swords", "--decks", "2"], 18, ["STRIKE", "PARRY", "STRIKING", "DEFENDING", "#80"]),
    (["keener"], 8, ["KEENER", "Saga, the Wise", "Bear Trap", "PV 6", "LP 7", "Cost: 2 Wood, 2 Stone, 2 Iron", "Cloak of Darkness"]),
    (["keener", "--deck", "ferra-sample", "--copy-set", "B", "--paper", "Letter"], 12, ["Ferra", "copy 3", "copy 4"]),
])
def test_print_cards(tmp_path, capsys, argv, pages, words):
    out = tmp_path / "cards.pdf"
    assert main(["print", "cards", *argv, "--out", str(out)]) == 0
    assert pages_of(out) == pages
    if POPPLER:
        text = text_of(out)
        for word in words:
            assert word in text, word
