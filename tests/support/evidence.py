"""Made-up reader evidence for tests of the rules that weigh it (pips, jittered reads)."""

from __future__ import annotations

import numpy as np

from vision.corner_index import Evidence, Glyphs
from vision.glyph_model import RANK_CLASSES, SUIT_CLASSES


def probs(classes, **p) -> np.ndarray:
    """Probabilities over ``classes`` with the given ones set (the rest small), summing to 1."""
    out = np.full(len(classes), 1e-3)
    for k, v in p.items():
        out[classes.index(k)] = v
    return out / out.sum()


def evidence(rank: dict, suit: dict, red: bool | None = False, complete: bool = True) -> Evidence:
    """Evidence whose glyph networks say ``rank`` and ``suit`` (class -> probability)."""
    gl = Glyphs(np.ones((8, 6), np.float32), np.ones((6, 6), np.float32), red, (2, 2, 6, 8), (2, 12, 6, 6))
    return Evidence(gl, probs(RANK_CLASSES, **rank), probs(SUIT_CLASSES, **suit), complete=complete)
