"""Teaching a deck: photograph each card once (file named after it, e.g.
``QH.jpg``, ``10s.png``, ``TD.jpg``), and its corner-index glyphs become
references that the reader prefers for that deck.

References live in the user data directory (``platformdirs``), one folder per
deck name: ``<data>/decks/<NAME>/references.npz``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import platformdirs

from .corner_index import References, builtin_references, extract_glyphs, read_patch
from .glyphs import card_code, parse_card_code

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
    stem = Path(path).stem.split("_")[0].split("-")[0]
    return parse_card_code(stem)


def teach(images: list[str | Path], deck: str, root: Path | None = None) -> TeachReport:
    """Learn the index glyphs of ``deck`` from one photo per card (one card per
    photo, face up, any background).  Adds to what was taught before."""
    from .pipeline import VisionPipeline

    pipe = VisionPipeline(use_mat=False)
    refs = load_deck(deck, root) or References()
    learnt, failed = [], []
    builtin = builtin_references()
    for path in images:
        label = label_from_filename(path)
        if label is None:
            failed.append((str(path), "file name is not a card (name it like QH.jpg, 10S.png, TD.jpg)"))
            continue
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            failed.append((str(path), "not an image OpenCV can read"))
            continue
        best = None
        for area, patch in pipe.corner_patches(frame):
            gl = extract_glyphs(patch)
            if gl is None:
                continue
            # prefer a corner the built-in reader agrees with, then the biggest card
            agrees = (r := read_patch(patch, builtin)) is not None and (r.rank, r.suit) == label
            key = (agrees, gl.red is not None and (label[1] in ("hearts", "diamonds")) == gl.red, area)
            if best is None or key > best[0]:
                best = (key, gl)
        if best is None:
            failed.append((str(path), "no card corner with a rank over a suit was found"))
            continue
        gl = best[1]
        refs.add_rank(label[0], gl.rank_ink)
        refs.add_suit(label[1], gl.suit_ink)
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
