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
some third-party decks, photographed by a simulated camera, and on patches
cut from generated frames; the weights ship as ``patch_model.npz`` next to
this file.  A second network of the same shape, trained apart on frames'
patches alone (``patch_model_frames.npz``), reads with it (ensemble).
Torch is needed for training only."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .geometry import INDEX_BOX_H, INDEX_BOX_W
from .glyph_model import bias_rows, conv_rows, pool_bias_relu, pooled_neighbours
from .glyphs import RANKS, SUITS

MODEL_PATH = Path(__file__).with_name("patch_model.npz")
#: a second network of the same shape, trained apart on patches cut from
#: generated frames alone: it reads with the first (ensemble)
SECOND_MODEL_PATH = Path(__file__).with_name("patch_model_frames.npz")
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


class PatchNet:
    """The network with its weights (torch layout: conv O x C x 3 x 3, linear
    O x I), kept here for one patch at a time (the reader's call; a batch
    runs patch by patch, faster per patch than the channels-first batch
    layers were) with the channels last: each convolution one row gather,
    one product and a pooling of contiguous blocks, computed only at the
    pixels pooling keeps (vision.glyph_model.pooled_neighbours); about 0.6
    of the time of channels-first layers (bench/vision_nets.py)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.layers = []
        h, w = IN_H, IN_W
        for k in CONVS:
            cw = weights[f"{k}_w"]
            # conv O x C x dy x dx -> (dy, dx, C) x O
            kernel = np.ascontiguousarray(cw.transpose(2, 3, 1, 0).reshape(-1, len(cw)))
            rows = pooled_neighbours(h, w)
            self.layers.append((rows, kernel, bias_rows(weights[f"{k}_b"], rows)))
            h, w = h // 2, w // 2
        # torch flattens (C, H, W); the last pooled layer comes (H, W, C)
        fc, c = weights["fc_w"], len(weights[f"{CONVS[-1]}_w"])
        self.fc = (np.ascontiguousarray(fc.reshape(len(fc), c, h, w).transpose(2, 3, 1, 0).reshape(h * w * c, -1)), weights["fc_b"])
        # both heads in one product
        self.heads = (np.ascontiguousarray(np.vstack([weights["rank_w"], weights["suit_w"]]).T), np.concatenate([weights["rank_b"], weights["suit_b"]]))
        self.n_rank = len(weights["rank_b"])

    def probs(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Network input (patch_inputs) -> (rank probabilities N x 14, suit N x 4)."""
        if len(x) == 1:  # the reader's call (np.stack costs a few microseconds)
            r, s = self._one(x[0])
            return r[None], s[None]
        out = [self._one(p) for p in x]
        return np.stack([r for r, _ in out]), np.stack([s for _, s in out])

    def _one(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """probs of one input (C x H x W)."""
        c = len(x)
        a = np.empty((x[0].size + 1, c), np.float32)  # pixels as rows, then the zero row
        a[:-1] = x.reshape(c, -1).T
        a[-1] = 0
        for rows, kernel, bias in self.layers:
            o = conv_rows(a, rows, kernel)
            a = np.empty((len(bias) + 1, bias.shape[1]), np.float32)
            a[-1] = 0  # the next gather's zero row
            pool_bias_relu(o, bias, a[:-1])
        hid = a[:-1].reshape(-1) @ self.fc[0]
        hid += self.fc[1]
        np.maximum(hid, 0, out=hid)
        z = hid @ self.heads[0]
        z += self.heads[1]
        return _softmax(z[: self.n_rank]), _softmax(z[self.n_rank :])


def _softmax(z: np.ndarray) -> np.ndarray:
    """Probabilities of one head's logits (a vector)."""
    z = np.exp(z - z.max())
    z /= z.sum()
    return z


def load(path: Path) -> PatchNet:
    """A network from its weights file (patch_train.export's layout)."""
    d = np.load(path)
    return PatchNet({k: d[k].astype(np.float32) for k in d.files})


@functools.cache
def _nets() -> tuple[PatchNet, ...]:
    """The shipped networks: none without the main weights; the second
    (SECOND_MODEL_PATH) only beside them."""
    if not MODEL_PATH.exists():
        return ()
    return tuple(load(p) for p in (MODEL_PATH, SECOND_MODEL_PATH) if p.exists())


def available() -> bool:
    """True when the trained weights are present."""
    return bool(_nets())


def patch_probs(patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (RANK_CLASSES) and suit (SUIT_CLASSES) probabilities of upright
    index patches (N x PATCH_H x PATCH_W x 3 BGR, or one patch)."""
    return input_probs(patch_inputs(patches))


def input_probs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """patch_probs of the network input ``x`` (patch_inputs), for a caller
    that looks at the input too.  With the second network present, the
    two networks' geometric mean (ensemble)."""
    nets = _nets()
    if len(nets) == 1:
        return nets[0].probs(x)
    (r1, s1), (r2, s2) = (net.probs(x) for net in nets)
    return ensemble(r1, r2), ensemble(s1, s2)


#: the second network's share of the geometric mean: a third, since it was
#: trained on the generator's frames alone.  At half, 720p seeds 0-999 found
#: 13 fewer cards and misread 6 fewer, and bench/vision_decks.py's held-out
#: third-party decks found 1610 of 2519 cards (the first network alone 1619;
#: at a third 1620).
SECOND_WEIGHT = 1 / 3


def ensemble(first: np.ndarray, second: np.ndarray, weight: float = SECOND_WEIGHT) -> np.ndarray:
    """Two networks' probabilities (each N x classes) -> their geometric
    mean, ``second`` weighted ``weight``, renormalised per row.  Geometric,
    not arithmetic: sure only where both lean the same way (the arithmetic
    mean was less sure everywhere and found fewer cards)."""
    a, b = (np.log(np.maximum(p, 1e-12)) for p in (first, second))
    z = np.exp((1 - weight) * a + weight * b)
    return (z / z.sum(axis=1, keepdims=True)).astype(np.float32)
