"""The corner-index glyph classifier: a small convolutional network for the
rank and one for the suit, run in numpy.

Trained by :mod:`vision.glyph_train` on corner indices drawn in random deck
designs (many typefaces, index sizes and letterings) and photographed by a
simulated camera; the weights ship as ``glyph_model.npz`` next to this file,
networks trained apart whose probabilities are averaged.  It returns
probabilities, so the reader can refuse to read when the network is unsure
(never guess).

The input keeps the glyph's shape: its grey ink scaled, aspect kept, into a
24 x 24 canvas (a tiny spade and club differ in a few grey levels that a
stretch to a fixed box would smear), as two channels: the glyph's own ink
(other glyphs blanked, cut at the reader's threshold) and the grey view
around its box, with the faint edge a threshold cuts off; plus the box's
aspect ratio.  Two 3 x 3 convolution layers (each halving the size) see
strokes and lobes wherever the crop put them; one hidden layer decides."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .glyphs import RANKS, SUITS

MODEL_PATH = Path(__file__).with_name("glyph_model.npz")
#: the first, one-hidden-layer networks, averaged in (see _Mlp)
MLP_PATH = Path(__file__).with_name("glyph_mlp.npz")
#: "0" and "1" alone are half a "10": recognised so that they are not read;
#: "junk" is whatever a patch sampled sideways or upside down holds.
RANK_CLASSES = (*RANKS, "0", "1", "junk")
SUIT_CLASSES = (*SUITS, "junk")
CANVAS = 24  # network input, pixels a side
LAYERS = ("K1", "c1", "K2", "c2", "W1", "b1", "W2", "b2")
#: the zero an image gets appended for its neighbours beyond the edge (read only)
_ZERO = np.zeros(1, np.float32)


def glyph_canvas(ink: np.ndarray, out: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """A glyph's grey ink (cropped to its box) -> (CANVAS x CANVAS image, its
    largest side filling all but a pixel each side, centred, scaled to 0..1;
    the logarithm of the box's aspect ratio).  ``out``, when given, is a
    zeroed CANVAS x CANVAS float32 array to draw into."""
    ink = np.asarray(ink, np.float32)
    h, w = ink.shape
    s = min((CANVAS - 2) / max(h, 1), (CANVAS - 2) / max(w, 1))
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(ink, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    if out is None:
        out = np.zeros((CANVAS, CANVAS), np.float32)
    m = float(small.max())
    if m > 1e-6:
        small *= 1.0 / m
    y0, x0 = (CANVAS - nh) // 2, (CANVAS - nw) // 2
    out[y0 : y0 + nh, x0 : x0 + nw] = small
    return out, float(np.log(max(w, 1) / max(h, 1)))


@functools.cache
def _neighbours(c: int, h: int, w: int) -> np.ndarray:
    """Indices into a flattened C x H x W array with a zero appended: row
    (neighbour, channel), column pixel; outside the image -> the zero."""
    ch, y, x = np.meshgrid(np.arange(c), np.arange(h), np.arange(w), indexing="ij")
    rows = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            yy, xx = y + dy, x + dx
            inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
            rows.append(np.where(inside, (ch * h + yy.clip(0, h - 1)) * w + xx.clip(0, w - 1), c * h * w).reshape(c, h * w))
    return np.concatenate(rows).astype(np.intp)


def im2col(x: np.ndarray) -> np.ndarray:
    """C x H x W -> (9*C) x (H*W): every pixel's 3 x 3 neighbourhood (zero
    padded), neighbour by neighbour, each neighbour's channels together
    (the reference layers' gather, _Net.logits; the shipped path gathers
    pixels' rows, see pooled_neighbours)."""
    c, h, w = x.shape
    return np.concatenate((x.ravel(), _ZERO)).take(_neighbours(c, h, w))


def pooled_neighbours(h: int, w: int) -> np.ndarray:
    """The gather of a 3 x 3 convolution followed by 2 x 2 max pooling, on an
    image kept channels last as rows (pixel y * w + x, then one zero row for
    the neighbours beyond the edge): rows of the pixels pooling keeps
    ((h // 2 * 2) x (w // 2 * 2), odd sizes floor, as torch's), the four
    pixels of each 2 x 2 cell in four blocks (cell's top-left, top-right,
    bottom-left, bottom-right; cells row by row), x 9 neighbours (dy, dx).
    Taking these rows gathers a pixel's channels together in one copy (a
    C-th of the indices of an element gather), and pooling becomes the max
    of four contiguous blocks (pool_bias_relu)."""
    y, x = np.meshgrid(np.arange(h // 2), np.arange(w // 2), indexing="ij")
    cols = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            rows = []
            for qy, qx in ((0, 0), (0, 1), (1, 0), (1, 1)):
                yy, xx = (2 * y + qy + dy).ravel(), (2 * x + qx + dx).ravel()
                inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
                rows.append(np.where(inside, yy.clip(0, h - 1) * w + xx.clip(0, w - 1), h * w))
            cols.append(np.concatenate(rows))
    return np.stack(cols, axis=1).astype(np.intp)


def conv_rows(src: np.ndarray, rows: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A 3 x 3 convolution (no bias) of a channels-last image (``src``:
    pixels as rows, then a zero row) at the pixels ``rows``
    (pooled_neighbours) gives, in that order: one gather, one product.
    ``kernel``: (dy, dx, channel) x output channels, as glyph_train stores it."""
    return src.take(rows, axis=0).reshape(len(rows), -1) @ kernel


def pool_bias_relu(o: np.ndarray, bias: np.ndarray, out: np.ndarray) -> np.ndarray:
    """conv_rows' output (four blocks, see pooled_neighbours) -> its 2 x 2
    max pooling, plus ``bias``, ReLU, into ``out`` (cells x channels).
    Pooled before the bias and ReLU: a max of sums with one bias is that
    bias added to their max, and ReLU keeps the order (the same numbers as
    pooling after them), on a quarter of the values.  ``bias`` comes
    repeated for every cell (bias_rows): numpy adds a channel-long row
    broadcast over the cells a row at a time, a few times slower."""
    np.maximum.reduce(o.reshape(4, len(out), o.shape[1]), axis=0, out=out)
    out += bias
    return np.maximum(out, 0, out=out)


def bias_rows(bias: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """A layer's bias, one row for each cell its pooling (``rows``,
    pooled_neighbours) keeps: pool_bias_relu's ``bias``."""
    return np.ascontiguousarray(np.broadcast_to(bias, (len(rows) // 4, len(bias))))


def _pool(x: np.ndarray) -> np.ndarray:
    """2 x 2 max pooling of C x H x W."""
    return np.maximum(np.maximum(x[:, 0::2, 0::2], x[:, 1::2, 0::2]), np.maximum(x[:, 0::2, 1::2], x[:, 1::2, 1::2]))


def _biased_relu(x: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """max(x + bias, 0) of C x H x W (``bias``: C x 1), in place."""
    x += bias[:, :, None]
    return np.maximum(x, 0, out=x)


class _Net:
    """Weights as glyph_train stores them (channels last).  ``forward`` is
    the shipped path: the image kept channels last, each layer one row
    gather (a pixel's channels in one copy), one product and a pooling of
    contiguous blocks, about two thirds of the time of the channels-first
    layers, which are kept as ``logits``: the reference the tests hold it
    to (bench/vision_nets.py times both)."""

    def __init__(self, K1, c1, K2, c2, W1, b1, W2, b2) -> None:
        # the channels-first reference (logits)
        self.K1, self.c1 = np.ascontiguousarray(K1.T), c1[:, None]
        self.K2, self.c2 = np.ascontiguousarray(K2.T), c2[:, None]
        n_out = K2.shape[1]
        side = CANVAS // 4
        # fully connected rows: (y, x, channel) order -> (channel, y, x)
        conv = W1[: side * side * n_out].reshape(side, side, n_out, -1).transpose(2, 0, 1, 3).reshape(side * side * n_out, -1)
        self.W1, self.b1 = np.ascontiguousarray(np.vstack([conv, W1[side * side * n_out :]])), b1
        self.W2, self.b2 = W2, b2
        # the channels-last path (forward): the weights as stored, whose
        # fully connected rows, (y, x, channel), are the order its pooled output comes in
        self.rows = (pooled_neighbours(CANVAS, CANVAS), pooled_neighbours(CANVAS // 2, CANVAS // 2))
        self.kernels = ((np.ascontiguousarray(K1), bias_rows(c1, self.rows[0])), (np.ascontiguousarray(K2), bias_rows(c2, self.rows[1])))
        self.W1_yxc = np.ascontiguousarray(W1)

    def forward(self, src: np.ndarray, aspect: float) -> np.ndarray:
        """The logits of a channels-last canvas: ``src`` (CANVAS * CANVAS + 1)
        x 2, pixels as rows then a zero row (see _Ensemble.probs)."""
        (rows1, rows2), ((k1, c1), (k2, c2)) = self.rows, self.kernels
        # the first layer's cells as rows, then the zero row the next gather takes beyond the edge
        a1 = np.zeros((len(c1) + 1, c1.shape[1]), np.float32)
        pool_bias_relu(conv_rows(src, rows1, k1), c1, a1[:-1])
        f = np.empty(c2.size + 1, np.float32)
        pool_bias_relu(conv_rows(a1, rows2, k2), c2, f[:-1].reshape(c2.shape))
        f[-1] = aspect
        h = f @ self.W1_yxc
        h += self.b1
        np.maximum(h, 0, out=h)
        return h @ self.W2 + self.b2

    def logits(self, img: np.ndarray, aspect: float) -> np.ndarray:
        """The logits of a channels-first canvas (2 x CANVAS x CANVAS), layer
        by layer as the network is drawn: the reference for ``forward``."""
        n = img.shape[1]
        # each layer pooled before its bias and ReLU: a max of sums with one
        # bias is that bias added to their max, and ReLU keeps the order (the
        # same numbers as pooling after them), on a quarter of the values
        a1 = _biased_relu(_pool((self.K1 @ im2col(img)).reshape(-1, n, n)), self.c1)
        a2 = _biased_relu(_pool((self.K2 @ im2col(a1)).reshape(-1, n // 2, n // 2)), self.c2)
        f = np.concatenate((a2.ravel(), np.array([aspect], np.float32)))
        h = f @ self.W1
        h += self.b1
        np.maximum(h, 0, out=h)
        return h @ self.W2 + self.b2


class _Mlp:
    """The reader's first network (one hidden layer on the glyph's ink
    stretched to 16 x 20, members trained apart as one wider layer): kept
    beside the convolutional one, as it fails differently."""

    def __init__(self, members: list[tuple[np.ndarray, ...]]) -> None:
        self.W1 = np.concatenate([m[0] for m in members], axis=1)
        self.b1 = np.concatenate([m[1] for m in members])
        k = members[0][2].shape[1]
        self.W2 = np.zeros((self.W1.shape[1], k * len(members)), np.float32)
        row = 0
        for i, m in enumerate(members):
            self.W2[row : row + m[2].shape[0], i * k : (i + 1) * k] = m[2]
            row += m[2].shape[0]
        self.b2 = np.concatenate([m[3] for m in members])
        self.k, self.n = k, len(members)

    def probs(self, ink: np.ndarray) -> np.ndarray:
        x = stretched_features(ink)
        h = x @ self.W1
        h += self.b1
        np.maximum(h, 0, out=h)
        z = h @ self.W2
        z += self.b2
        z = z.reshape(self.n, self.k)
        # each member's softmax in place (ufunc reductions: ndarray.max and
        # .sum are Python wrappers around them)
        z -= np.maximum.reduce(z, axis=1, keepdims=True)
        np.exp(z, out=z)
        z /= np.add.reduce(z, axis=1, keepdims=True)
        # the members' mean as np.mean takes it (a sum over a count as np.intp), without its overhead
        p = np.add.reduce(z, axis=0)
        return np.true_divide(p, np.intp(self.n), out=p, casting="unsafe")


def stretched_features(ink: np.ndarray) -> np.ndarray:
    """The first network's input: the ink resized to 16 x 20, zero mean, unit
    length, and the logarithm of the box's aspect ratio."""
    ink = np.asarray(ink, np.float32)
    x = np.empty(16 * 20 + 1, np.float32)  # resized and scaled in place, no concatenation
    f = x[:-1]
    cv2.resize(ink, (16, 20), dst=f.reshape(20, 16), interpolation=cv2.INTER_AREA)
    f -= _mean(f)
    n = float(np.sqrt(np.dot(f, f)))
    if n > 1e-6:
        np.divide(f, n, out=f)
    x[-1] = np.log(max(ink.shape[1], 1) / max(ink.shape[0], 1))
    return x


def _mean(f: np.ndarray) -> np.float32:
    """``f.mean()`` of a float32 array, the same value (its sum over a count
    taken as np.intp, in float64, rounded back), without np.mean's overhead."""
    return np.float32(f.sum() / np.intp(f.size))


class _Ensemble:
    """Networks trained apart, their probabilities averaged: one network's
    confident mistakes are mostly not the other's, so the average is sure
    less often when wrong."""

    def __init__(self, nets: list[_Net], mlp: _Mlp | None) -> None:
        self.nets, self.mlp = nets, mlp

    def probs(self, ink: np.ndarray, view: np.ndarray, need: tuple[int, float, float] | None = None) -> np.ndarray | None:
        """Averaged probabilities; None, without running the convolutional
        networks, when the first network alone already shows that the
        average cannot give one of the first ``need[0]`` classes ``need[1]``
        or that junk (the last class) must exceed ``need[2]``."""
        total = self.mlp.probs(ink) if self.mlp is not None else 0.0
        n = len(self.nets) + (self.mlp is not None)
        if need is not None and self.mlp is not None:
            k, low, junk = need
            if (float(total[:k].max()) + n - 1) / n < low or float(total[-1]) / n > junk:
                return None
        # the canvas channels last, as _Net.forward takes it: pixels as rows, then a zero row
        src = np.zeros((CANVAS * CANVAS + 1, 2), np.float32)
        img = src[:-1].reshape(CANVAS, CANVAS, 2)
        aspect = glyph_canvas(ink, img[:, :, 0])[1]
        glyph_canvas(view, img[:, :, 1])
        for net in self.nets:
            z = net.forward(src, aspect)
            z = np.exp(z - z.max())
            total = total + z / z.sum()
        return total / n


def _members(d, kind: str, first: str) -> list[str]:
    """Key prefixes of one kind's ensemble members in a weights file ("" for the first)."""
    return sorted(k[: -len(f"{kind}_{first}")] for k in d.files if k.endswith(f"{kind}_{first}"))


@functools.cache
def _nets() -> tuple[_Ensemble, _Ensemble] | None:
    if not MODEL_PATH.exists():
        return None
    d = np.load(MODEL_PATH)
    mlp = np.load(MLP_PATH) if MLP_PATH.exists() else None
    out = []
    for kind in ("rank", "suit"):
        nets = [_Net(*(d[f"{m}{kind}_{k}"].astype(np.float32) for k in LAYERS)) for m in _members(d, kind, "K1")]
        old = _members(mlp, kind, "W1") if mlp is not None else []
        first = _Mlp([tuple(mlp[f"{m}{kind}_{k}"] for k in ("W1", "b1", "W2", "b2")) for m in old]) if old else None
        out.append(_Ensemble(nets, first))
    return tuple(out)


def available() -> bool:
    """True when the trained weights are present."""
    return _nets() is not None


def classify_rank(ink: np.ndarray, view: np.ndarray) -> tuple[str, float, float]:
    """(rank class, probability, probability of the runner-up)."""
    return _top(rank_probs(ink, view), RANK_CLASSES)


def classify_suit(ink: np.ndarray, view: np.ndarray, red: bool | None) -> tuple[str, float, float]:
    """(suit, probability, runner-up probability) among the suits of the ink's
    colour when it is known.  Not renormalised: a shape the network takes for
    the other colour keeps a low probability, and is not read."""
    p = suit_probs(ink, view)
    if red is not None:
        p = p * np.array([s == "junk" or (s in ("hearts", "diamonds")) == red for s in SUIT_CLASSES], np.float32)
    return _top(p, SUIT_CLASSES)


def rank_probs(ink: np.ndarray, view: np.ndarray, low: float = 0.0, junk: float = 1.0) -> np.ndarray | None:
    """The network's probability of every class in RANK_CLASSES, from the
    rank's own ink and the view around it (see Glyphs); None when no rank can
    reach ``low`` or junk must exceed ``junk`` (cheaper: the convolutional
    network is then not run)."""
    return _nets()[0].probs(ink, view, (len(RANKS), low, junk))


def suit_probs(ink: np.ndarray, view: np.ndarray, junk: float = 1.0) -> np.ndarray | None:
    """The network's probability of every class in SUIT_CLASSES (None when
    junk must exceed ``junk``)."""
    return _nets()[1].probs(ink, view, (len(SUITS), 0.0, junk))


def _top(p: np.ndarray, names) -> tuple[str, float, float]:
    order = np.argsort(-p)
    return names[order[0]], float(p[order[0]]), float(p[order[1]])
