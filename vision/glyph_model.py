"""The corner-index glyph classifier: a small neural network (one hidden
layer) for the rank and one for the suit, run in numpy.

Trained by :mod:`vision.glyph_train` on corner indices drawn in random deck
designs and photographed by a simulated camera; the weights ship as
``glyph_model.npz`` next to this file, two networks of each kind whose
probabilities are averaged.  It returns probabilities, so the
reader can refuse to read when the network is unsure (never guess)."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .glyphs import RANKS, SUITS

MODEL_PATH = Path(__file__).with_name("glyph_model.npz")
#: "0" and "1" alone are half a "10": recognised so that they are not read;
#: "junk" is whatever a patch sampled sideways or upside down holds.
RANK_CLASSES = (*RANKS, "0", "1", "junk")
SUIT_CLASSES = (*SUITS, "junk")
FEAT_W, FEAT_H = 16, 20


def glyph_features(ink: np.ndarray) -> np.ndarray:
    """A glyph's grey ink, cropped to its box -> features: the ink resized to
    16 x 20, zero mean, unit length (so contrast does not matter), and the
    logarithm of the box's aspect ratio (which the resize throws away)."""
    ink = ink.astype(np.float32)
    f = cv2.resize(ink, (FEAT_W, FEAT_H), interpolation=cv2.INTER_AREA).ravel()
    f -= f.mean()
    n = float(np.sqrt(np.dot(f, f)))
    f = f / n if n > 1e-6 else f
    aspect = np.log(max(ink.shape[1], 1) / max(ink.shape[0], 1))
    return np.append(f, np.float32(aspect)).astype(np.float32)


class _Net:
    def __init__(self, W1, b1, W2, b2) -> None:
        self.W1, self.b1, self.W2, self.b2 = W1, b1, W2, b2

    def probs(self, x: np.ndarray) -> np.ndarray:
        # einsum, not BLAS: a threaded BLAS on a busy machine is far slower here
        h = np.maximum(np.einsum("i,ij->j", x, self.W1) + self.b1, 0)
        z = np.einsum("i,ij->j", h, self.W2) + self.b2
        z = np.exp(z - z.max())
        return z / z.sum()


class _Ensemble:
    """Networks trained apart, their probabilities averaged: one network's
    confident mistakes are mostly not the other's, so the average is sure
    less often when wrong."""

    def __init__(self, nets: list[_Net]) -> None:
        self.nets = nets
        # all members as one wider layer and one block-diagonal output layer:
        # two small products instead of two per member (this is on the hot path)
        self.W1 = np.concatenate([n.W1 for n in nets], axis=1)
        self.b1 = np.concatenate([n.b1 for n in nets])
        k = nets[0].W2.shape[1]
        self.W2 = np.zeros((self.W1.shape[1], k * len(nets)), np.float32)
        row = 0
        for i, n in enumerate(nets):
            self.W2[row : row + n.W2.shape[0], i * k : (i + 1) * k] = n.W2
            row += n.W2.shape[0]
        self.b2 = np.concatenate([n.b2 for n in nets])
        self.k = k

    def probs(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(np.einsum("i,ij->j", x, self.W1) + self.b1, 0)
        z = (np.einsum("i,ij->j", h, self.W2) + self.b2).reshape(len(self.nets), self.k)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return (z / z.sum(axis=1, keepdims=True)).mean(axis=0)


def _members(d) -> list[str]:
    """Key prefixes of the ensemble members in a weights file ("" for the first)."""
    return sorted(k[: -len("rank_W1")] for k in d.files if k.endswith("rank_W1"))


@functools.cache
def _nets() -> tuple[_Ensemble, _Ensemble] | None:
    if not MODEL_PATH.exists():
        return None
    d = np.load(MODEL_PATH)
    return tuple(
        _Ensemble([_Net(*(d[f"{m}{kind}_{k}"] for k in ("W1", "b1", "W2", "b2"))) for m in _members(d)])
        for kind in ("rank", "suit")
    )


def available() -> bool:
    """True when the trained weights are present."""
    return _nets() is not None


def classify_rank(ink: np.ndarray) -> tuple[str, float, float]:
    """(rank class, probability, probability of the runner-up)."""
    return _top(rank_probs(ink), RANK_CLASSES)


def classify_suit(ink: np.ndarray, red: bool | None) -> tuple[str, float, float]:
    """(suit, probability, runner-up probability) among the suits of the ink's
    colour when it is known.  Not renormalised: a shape the network takes for
    the other colour keeps a low probability, and is not read."""
    p = suit_probs(ink)
    if red is not None:
        p = p * np.array([s == "junk" or (s in ("hearts", "diamonds")) == red for s in SUIT_CLASSES], np.float32)
    return _top(p, SUIT_CLASSES)


def rank_probs(ink: np.ndarray) -> np.ndarray:
    """The network's probability of every class in RANK_CLASSES."""
    return _nets()[0].probs(glyph_features(ink))


def suit_probs(ink: np.ndarray) -> np.ndarray:
    """The network's probability of every class in SUIT_CLASSES."""
    return _nets()[1].probs(glyph_features(ink))


def _top(p: np.ndarray, names) -> tuple[str, float, float]:
    order = np.argsort(-p)
    return names[order[0]], float(p[order[0]]), float(p[order[1]])
