"""Teaching a deck: photograph each card once, and its corner-index glyphs
become references that the reader prefers for that deck.  Either one card a
photo, the file named after it (``QH.jpg``, ``10s.png``, ``TD.jpg``), or one
suit a photo, the file named after the suit (``spades.jpg``, ``H.png``): its
13 cards laid apart in rows, ace first, A 2 3 ... 10 J Q K in reading order
(left to right, row under row), so that four photos teach a deck.  The
second way needs no renaming, and teaches a deck whose court letters the
built-in reader declines (a German B for the jack, a French R for the king):
the card's place says what it is.

References live in the user data directory (``platformdirs``), one folder per
deck name: ``<data>/decks/<NAME>/references.npz``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import platformdirs

from . import geometry as g
from . import glyph_model
from .corner_index import References, builtin_references, extract_glyphs, read_patch
from .glyphs import RANKS, RED_SUITS, SUITS, card_code, parse_card_code

APP = "table-companion"


def decks_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP)) / "decks"


def _deck_path(name: str, root: Path | None = None) -> Path:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
        raise ValueError(f"deck name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    return (root or decks_dir()) / name / "references.npz"


@dataclass
class TeachReport:
    learnt: list[str]
    failed: list[tuple[str, str]]  # (file, why)
    path: Path | None

    @property
    def missing(self) -> list[str]:
        from .glyphs import RANKS, SUITS

        return [card_code(r, s) for s in SUITS for r in RANKS if card_code(r, s) not in self.learnt]


def label_from_filename(path: str | Path) -> tuple[str, str] | None:
    """``QH.jpg`` / ``10s_2.png`` / ``td.jpeg`` -> (rank, suit)."""
    return parse_card_code(_stem(path))


#: what a photo of one suit's cards laid out may be named (any case, then
#: ``_2``, ``-left`` ... as a single card's name may)
SUIT_NAMES = {
    **{s: s for s in SUITS},
    **{s[:-1]: s for s in SUITS},
    "s": "spades",
    "h": "hearts",
    "d": "diamonds",
    "c": "clubs",
}
#: a card the built-in reader reads this surely as another card than its place
#: says: the layout is out of order there (two such cards: the photo is refused)
ORDER_CHECK_CONFIDENCE = 0.8
#: a row of a layout ends where the next card (by height in the photo) lies
#: this many card heights lower: rows 1.2 heights apart, each slanting by up
#: to 0.4 of one across seven cards (a phone held 8 degrees off), still split
ROW_GAP = 0.45


def suit_from_filename(path: str | Path) -> str | None:
    """``spades.jpg`` / ``H_2.png`` / ``Clubs-left.jpeg`` -> the suit whose 13
    cards the photo holds laid out A to K, or None."""
    return SUIT_NAMES.get(_stem(path).lower())


def _stem(path: str | Path) -> str:
    return Path(path).stem.split("_")[0].split("-")[0]


def reading_order(centres: np.ndarray, card_h: float) -> list[int]:
    """Indices of cards (``centres``: N x 2, image-aligned, y down) in reading
    order: rows top to bottom, each left to right.  A new row starts where the
    next card down lies ``ROW_GAP`` card heights (``card_h``, same units)
    below the one before, so a slanted row stays one row."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    by_y = list(np.argsort(centres[:, 1], kind="stable"))
    rows: list[list[int]] = []
    for i in by_y:
        if rows and centres[i, 1] - centres[rows[-1][-1], 1] < ROW_GAP * card_h:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return [i for row in rows for i in sorted(row, key=lambda k: centres[k, 0])]


def teach(images: list[str | Path], deck: str, root: Path | None = None) -> TeachReport:
    """Learn the index glyphs of ``deck`` from photos of one card each, or of
    one suit's 13 cards laid out A to K (see the module docstring), face up,
    any background.  Adds to what was taught before.  A layout photo is read
    by a pipeline of its own (its cards' scale says nothing of another
    photo's); one-card photos share one, as they always have (a fresh one
    for each taught 43 of a test deck's 52 cards against 52)."""
    from .pipeline import VisionPipeline, check_frame

    single = VisionPipeline(use_mat=False)
    refs = load_deck(deck, root) or References()
    learnt, failed = [], []
    builtin = builtin_references()
    for path in images:
        suit = suit_from_filename(path)
        label = label_from_filename(path)
        if label is None and suit is None:
            failed.append((str(path), "file name is neither a card nor a suit (name it like QH.jpg, 10S.png, or spades.jpg for the 13 spades laid out A to K)"))
            continue
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            failed.append((str(path), "not an image OpenCV can read"))
            continue
        try:
            check_frame(frame)
        except ValueError as exc:  # a 1x1 image reached OpenCV's resize and stopped the whole command
            failed.append((str(path), str(exc)))
            continue
        if suit is not None:
            for code, gl, why in _layout_glyphs(VisionPipeline(use_mat=False), frame, suit, builtin):
                if gl is None:
                    failed.append((f"{path} ({code})", why))
                    continue
                rank, s = parse_card_code(code)
                refs.add_rank(rank, gl.rank_ink)
                refs.add_suit(s, gl.suit_ink)
                learnt.append(code)
            continue
        best = _best_glyphs(single.corner_patches(frame), label, builtin)
        if best is None:
            failed.append((str(path), "no card corner with a rank over a suit was found"))
            continue
        refs.add_rank(label[0], best.rank_ink)
        refs.add_suit(label[1], best.suit_ink)
        learnt.append(card_code(*label))
    out = None
    if learnt:
        out = _deck_path(deck, root)
        out.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            out,
            rank_feats=np.array(refs.rank_feats),
            rank_labels=np.array(refs.rank_labels),
            rank_aspects=np.array(refs.rank_aspects),
            suit_feats=np.array(refs.suit_feats),
            suit_labels=np.array(refs.suit_labels),
            suit_aspects=np.array(refs.suit_aspects),
        )
    return TeachReport(learnt, failed, out)


def _best_glyphs(
    patches: list[tuple[float, np.ndarray]], label: tuple[str, str], builtin: References, suit_must_read: bool = False, reads: list | None = None
):
    """The glyphs of the patch most likely to hold ``label``'s index, of
    [(rank, patch)]: one the built-in reader reads as that card, then one of
    the suit's colour, then the highest ranked (the biggest card).
    ``suit_must_read``: only a patch whose suit glyph reads as ``label``'s
    suit, or that the reader reads as the card (a layout's card is taught
    whatever its rank looks like, and a patch of a pip and a picture's edge
    taught as a rank cost bellot half its cards read).  ``reads``: the
    built-in reader's reading of each patch, when the caller has them."""
    best = None
    for i, (size, patch) in enumerate(patches):
        gl = extract_glyphs(patch)
        if gl is None:
            continue
        r = reads[i] if reads is not None else read_patch(patch, builtin)
        agrees = r is not None and (r.rank, r.suit) == label
        if suit_must_read and not agrees and not _suit_reads(gl, label[1], builtin):
            continue
        key = (agrees, gl.red is not None and (label[1] in RED_SUITS) == gl.red, size)
        if best is None or key > best[0]:
            best = (key, gl)
    return None if best is None else best[1]


def _suit_reads(gl, suit: str, builtin: References) -> bool:
    """Whether a patch's suit glyph is ``suit``: the suit network's likeliest
    class (the templates', without the network's weights), in the ink's colour."""
    if gl.red is None or (suit in RED_SUITS) != gl.red:
        return False
    if glyph_model.available():
        p = glyph_model.suit_probs(gl.suit_ink, gl.suit_view)
        return p is not None and glyph_model.SUIT_CLASSES[int(np.argmax(p))] == suit
    return builtin.suit(gl.suit_ink, gl.red)[0] == suit


def _layout_glyphs(pipe, frame: np.ndarray, suit: str, builtin: References) -> list[tuple[str, object, str]]:
    """[(card code, glyphs or None, why not)] of a photo of ``suit``'s 13 cards
    laid out A to K: every card, or one entry (code "layout") saying why the
    photo teaches nothing: not 13 cards (VisionPipeline.card_corner_patches;
    two touching are one), or two cards that the built-in reader surely
    reads as other cards than their places say (the layout is out of order).
    One such card alone is not taught."""
    cards = pipe.card_corner_patches(frame)
    n = len(RANKS)
    if len(cards) != n:
        # two cards touching are one paper region: without a mat a tilted photo's
        # sizes vary too much for its size alone to tell
        return [("layout", None, f"found {len(cards)} cards, not {n}: lay the {n} {suit} apart (a finger's width between them, none touching), A 2 3 ... 10 J Q K in rows")]
    order = reading_order(np.array([c for c, _, _ in cards]), g.CARD_H)
    out, wrong = [], []
    for place, k in enumerate(order):
        rank = RANKS[place]
        code = card_code(rank, suit)
        patches = cards[k][2]
        reads = [read_patch(p, builtin) for p in patches]  # each patch read once: the order check, then the choice
        sure = [r for r in reads if r is not None and r.confidence >= ORDER_CHECK_CONFIDENCE]
        others = {card_code(r.rank, r.suit) for r in sure} - {code}
        if others and not any((r.rank, r.suit) == (rank, suit) for r in sure):
            wrong.append((place, code, sorted(others)[0]))
            out.append((code, None, f"the card in place {place + 1} reads as {sorted(others)[0]}, not {code}: not taught"))
            continue
        gl = _best_glyphs([(-j, p) for j, p in enumerate(patches)], (rank, suit), builtin, suit_must_read=True, reads=reads)
        out.append((code, gl, "" if gl is not None else f"no index (a rank over a {suit[:-1]}) found on the card in place {place + 1}"))
    if len(wrong) >= 2:
        where = ", ".join(f"place {p + 1} reads as {got}, not {want}" for p, want, got in wrong)
        return [("layout", None, f"the cards look out of order ({where}): lay them A 2 3 ... 10 J Q K in rows, left to right")]
    return out


def load_deck(name: str, root: Path | None = None) -> References | None:
    """The taught references of a deck, or None if it was never taught."""
    path = _deck_path(name, root)
    if not path.exists():
        return None
    data = np.load(path)
    refs = References()
    refs.rank_feats = list(data["rank_feats"])
    refs.rank_labels = [str(x) for x in data["rank_labels"]]
    refs.rank_aspects = [float(x) for x in data["rank_aspects"]]
    refs.suit_feats = list(data["suit_feats"])
    refs.suit_labels = [str(x) for x in data["suit_labels"]]
    refs.suit_aspects = [float(x) for x in data["suit_aspects"]]
    return refs
