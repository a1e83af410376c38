"""A whole corner-index network: rank and suit read from the upright index
patch at once, run in numpy.

The glyph networks (:mod:`vision.glyph_model`) need the reader to cut the
rank and the suit out first, and at 720p (rank glyphs 6-9 pixels tall) blur
often runs them together, or thins a stroke until a glyph falls apart: then
nothing is read.  This network sees the patch as it is, shrunk to
``IN_PPM`` pixels per millimetre (about what a 720p camera gives, so little
is lost), and never depends on a cut.

Input: two channels, white-balanced on the paper (the patch's brightest
tenth per colour channel): ink (dark or coloured on paper, scaled by the
patch's own contrast) and redness (red ink minus the stronger of blue and
green).  Three 3 x 3 convolution layers, each followed by 2 x 2 max pooling,
a hidden layer, then two heads: the rank (13 ranks and "junk": a patch
sampled sideways, upside down, off the card, or holding no index) and the
suit.  Trained by :mod:`vision.patch_train` on random deck designs and on
some third-party decks, photographed by a simulated camera; the weights ship
as ``patch_model.npz`` next to this file.  Torch is needed for training
only."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .geometry import INDEX_BOX_H, INDEX_BOX_W
from .glyph_model import im2col
from .glyphs import RANKS, SUITS

MODEL_PATH = Path(__file__).with_name("patch_model.npz")
RANK_CLASSES = (*RANKS, "junk")
SUIT_CLASSES = SUITS
IN_PPM = 2.0
IN_W, IN_H = int(INDEX_BOX_W * IN_PPM), int(INDEX_BOX_H * IN_PPM)
#: convolution layers' weight names in the weights file (then fc, rank, suit)
CONVS = ("conv1", "conv2", "conv3")


def patch_inputs(patches: np.ndarray) -> np.ndarray:
    """Upright index patches (N x H x W x 3 BGR uint8, or one H x W x 3) ->
    network input N x 2 x IN_H x IN_W float32 (ink, redness)."""
    patches = np.asarray(patches)
    if patches.ndim == 3:
        patches = patches[None]
    n = len(patches)
    small = np.empty((n, IN_H, IN_W, 3), np.float32)
    for i, p in enumerate(patches):
        small[i] = cv2.resize(p, (IN_W, IN_H), interpolation=cv2.INTER_AREA)
    flat = small.reshape(n, -1, 3)
    k = int(flat.shape[1] * 0.9)
    # white balance on the paper: each channel's brightest tenth
    paper = np.partition(flat, k, axis=1)[:, k][:, None, None, :] + 8.0
    x = np.minimum(small / paper, 1.0)
    ink = 1.0 - x.min(axis=3)
    red = x[..., 2] - np.maximum(x[..., 0], x[..., 1])
    # scaled by the patch's own contrast: its strongest fiftieth of ink
    top = np.partition(ink.reshape(n, -1), k, axis=1)[:, -max(flat.shape[1] // 50, 1)]
    scale = 1.0 / np.maximum(top, 0.15)[:, None, None]
    out = np.empty((n, 2, IN_H, IN_W), np.float32)
    out[:, 0] = ink * scale
    out[:, 1] = red * scale
    return out


def _im2col(x: np.ndarray) -> np.ndarray:
    """C x N x H x W -> (9*C) x (N*H*W): zero padded 3 x 3 neighbourhoods,
    neighbour by neighbour (dy, dx), each neighbour's channels together."""
    c, n, h, w = x.shape
    if n == 1:
        # one patch (the reader's usual call): one gather, a third of the time of the stack below
        return im2col(x[:, 0])
    xp = np.zeros((c, n, h + 2, w + 2), x.dtype)
    xp[:, :, 1:-1, 1:-1] = x
    return np.stack([xp[:, :, dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)]).reshape(9 * c, n * h * w)


def _pool(x: np.ndarray) -> np.ndarray:
    """2 x 2 max pooling of C x N x H x W (odd sizes floor, as torch's)."""
    h, w = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    return np.maximum(
        np.maximum(x[:, :, 0:h:2, 0:w:2], x[:, :, 1:h:2, 0:w:2]),
        np.maximum(x[:, :, 0:h:2, 1:w:2], x[:, :, 1:h:2, 1:w:2]),
    )


class PatchNet:
    """The network with its weights (torch layout: conv O x C x 3 x 3, linear
    O x I), kept here so that each layer is one matrix product on channels
    first, the batch inside (C x N x H x W)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        # conv O x C x dy x dx -> O x (dy, dx, C)
        self.convs = [(np.ascontiguousarray(weights[f"{k}_w"].transpose(0, 2, 3, 1).reshape(len(weights[f"{k}_w"]), -1)), weights[f"{k}_b"][:, None]) for k in CONVS]
        self.fc = (np.ascontiguousarray(weights["fc_w"].T), weights["fc_b"])
        self.rank = (np.ascontiguousarray(weights["rank_w"].T), weights["rank_b"])
        self.suit = (np.ascontiguousarray(weights["suit_w"].T), weights["suit_b"])

    def probs(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Network input (patch_inputs) -> (rank probabilities N x 14, suit N x 4)."""
        n = len(x)
        a = np.ascontiguousarray(x.transpose(1, 0, 2, 3))  # C x N x H x W
        for w, b in self.convs:
            h, wd = a.shape[2:]
            a = _pool(np.maximum(w @ _im2col(a) + b, 0).reshape(-1, n, h, wd))
        f = a.transpose(1, 0, 2, 3).reshape(n, -1)  # torch flattens (C, H, W)
        hid = np.maximum(f @ self.fc[0] + self.fc[1], 0)
        return _softmax(hid @ self.rank[0] + self.rank[1]), _softmax(hid @ self.suit[0] + self.suit[1])


def _softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


@functools.cache
def _net() -> PatchNet | None:
    if not MODEL_PATH.exists():
        return None
    d = np.load(MODEL_PATH)
    return PatchNet({k: d[k].astype(np.float32) for k in d.files})


def available() -> bool:
    """True when the trained weights are present."""
    return _net() is not None


def patch_probs(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (RANK_CLASSES) and suit (SUIT_CLASSES) probabilities of upright
    index patches (N x PATCH_H x PATCH_W x 3 BGR, or one patch)."""
    return input_probs(patch_inputs(patches))


def input_probs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """patch_probs of the network input ``x`` (patch_inputs), for a caller
    that looks at the input too."""
    return _net().probs(x)
