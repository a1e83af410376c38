"""The reader's networks as shipped (vision.patch_model, vision.glyph_model:
channels last, one row gather per layer, computed only where pooling looks)
give the probabilities of a plain reference, the layers written out as the
networks are drawn (torch's order: convolution, ReLU, 2 x 2 max pooling with
odd sizes floored), in float64, on drawn corner indices as the reader cuts
them."""

import cv2
import numpy as np
import pytest

from vision import glyph_model, patch_model
from vision.corner_index import extract_glyphs
from vision.glyph_train import _corner_tile, _photograph, _random_style, training_fonts
from vision.glyphs import RANKS, SUITS

#: float32 against float64: a few units in the 7th digit
TOL = 1e-5


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3 x 3 convolution, zero padded: C x H x W, weights O x C x 3 x 3 -> O x H x W."""
    c, h, wd = x.shape
    xp = np.zeros((c, h + 2, wd + 2))
    xp[:, 1:-1, 1:-1] = x
    out = np.zeros((len(w), h, wd)) + b[:, None, None]
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("oc,chw->ohw", w[:, :, dy, dx], xp[:, dy : dy + h, dx : dx + wd])
    return out


def _relu_pool(x: np.ndarray) -> np.ndarray:
    c, h, w = x.shape
    x = np.maximum(x, 0)[:, : h // 2 * 2, : w // 2 * 2]
    return x.reshape(c, h // 2, 2, w // 2, 2).max(axis=(2, 4))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max())
    return z / z.sum()


def _patch_plain(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One patch_inputs input (2 x H x W) -> (rank, suit) probabilities: the
    shipped networks' (the second beside the first, when present): their
    geometric mean, the second weighted patch_model.SECOND_WEIGHT, renormalised."""
    out = []
    for path in (patch_model.MODEL_PATH, patch_model.SECOND_MODEL_PATH):
        if not path.exists():
            continue
        d = np.load(path)
        P = {k: d[k].astype(np.float64) for k in d.files}
        a = x.astype(np.float64)
        for k in patch_model.CONVS:
            a = _relu_pool(_conv(a, P[f"{k}_w"], P[f"{k}_b"]))
        h = np.maximum(P["fc_w"] @ a.ravel() + P["fc_b"], 0)  # torch flattens (C, H, W)
        out.append((_softmax(P["rank_w"] @ h + P["rank_b"]), _softmax(P["suit_w"] @ h + P["suit_b"])))
    return _geometric_mean([r for r, _ in out]), _geometric_mean([s for _, s in out])


def _geometric_mean(probs: list[np.ndarray]) -> np.ndarray:
    """The first network's probabilities, or both networks' weighted geometric mean."""
    if len(probs) == 1:
        return probs[0]
    w = patch_model.SECOND_WEIGHT
    z = probs[0] ** (1 - w) * probs[1] ** w
    return z / z.sum()


def _glyph_plain(kind: str, ink: np.ndarray, view: np.ndarray) -> np.ndarray:
    """glyph_model.rank_probs / suit_probs (no early exit): the convolutional
    networks and the first, one-hidden-layer one (its members' mean), their
    probabilities averaged."""
    first = []
    mlp = np.load(glyph_model.MLP_PATH)
    x = glyph_model.stretched_features(ink).astype(np.float64)
    for m in glyph_model._members(mlp, kind, "W1"):
        W1, b1, W2, b2 = (mlp[f"{m}{kind}_{k}"].astype(np.float64) for k in ("W1", "b1", "W2", "b2"))
        first.append(_softmax(np.maximum(x @ W1 + b1, 0) @ W2 + b2))
    probs = [np.mean(first, axis=0)]
    d = np.load(glyph_model.MODEL_PATH)
    own, aspect = glyph_model.glyph_canvas(ink)
    img = np.stack([own, glyph_model.glyph_canvas(view)[0]]).astype(np.float64)
    for m in glyph_model._members(d, kind, "K1"):
        P = {k: d[f"{m}{kind}_{k}"].astype(np.float64) for k in glyph_model.LAYERS}
        a = img
        for K, c in (("K1", "c1"), ("K2", "c2")):
            # glyph_train's kernels: rows (dy, dx, channel), columns out
            w = P[K].reshape(3, 3, len(a), -1).transpose(3, 2, 0, 1)
            a = _relu_pool(_conv(a, w, P[c]))
        f = np.concatenate([a.transpose(1, 2, 0).ravel(), [aspect]])  # glyph_train flattens (y, x, channel)
        probs.append(_softmax(np.maximum(f @ P["W1"] + P["b1"], 0) @ P["W2"] + P["b2"]))
    return np.mean(probs, axis=0)


def _corners(seed: int, n: int) -> list[np.ndarray]:
    """Corner index patches of random deck designs, photographed as the reader gets them."""
    rng = np.random.default_rng(seed)
    fonts = training_fonts()
    return [_photograph(rng, _corner_tile(rng, str(rng.choice(RANKS)), str(rng.choice(SUITS)), _random_style(rng, fonts)), "upright", (12.0, 20.0)) for _ in range(n)]


@pytest.mark.skipif(not patch_model.available(), reason="no patch model weights")
def test_the_patch_network_gives_the_plain_layers_probabilities():
    patches = _corners(8_100_001, 8)
    x = patch_model.patch_inputs(np.stack(patches + [np.full_like(patches[0], 230)]))
    pr, ps = patch_model.input_probs(x)
    for i, xi in enumerate(x):
        r, s = _patch_plain(xi)
        assert np.abs(pr[i] - r).max() < TOL and np.abs(ps[i] - s).max() < TOL, i
        # one at a time (the reader's call) as in a batch
        one = patch_model.input_probs(xi[None])
        assert np.array_equal(one[0][0], pr[i]) and np.array_equal(one[1][0], ps[i])


@pytest.mark.skipif(not glyph_model.available(), reason="no glyph model weights")
def test_the_glyph_networks_give_the_plain_layers_probabilities():
    cut = [gl for gl in map(extract_glyphs, _corners(8_100_002, 12)) if gl is not None]
    assert len(cut) >= 6
    rng = np.random.default_rng(8_100_003)
    noise = rng.random((17, 11)).astype(np.float32) * 200  # no glyph at all
    for gl in cut:
        for kind, ink, view, probs in (
            ("rank", gl.rank_ink, gl.rank_view, glyph_model.rank_probs),
            ("suit", gl.suit_ink, gl.suit_view, glyph_model.suit_probs),
            ("rank", noise, noise + 20, glyph_model.rank_probs),
        ):
            assert np.abs(probs(ink, view) - _glyph_plain(kind, ink, view)).max() < TOL


def test_the_first_glyph_network_s_features_are_the_plain_ones():
    """stretched_features resizes into its own buffer (cv2.resize's dst):
    the numbers of a resize, centring, scaling and concatenation."""
    rng = np.random.default_rng(8_100_005)
    for shape in ((17, 11), (2, 3), (40, 9), (6, 30)):
        ink = rng.random(shape).astype(np.float32) * 200
        f = cv2.resize(ink, (16, 20), interpolation=cv2.INTER_AREA).ravel()
        f = f - f.mean()
        f = f / np.sqrt(np.dot(f, f))
        want = np.concatenate([f, [np.log(shape[1] / shape[0])]]).astype(np.float32)
        assert np.array_equal(glyph_model.stretched_features(ink), want)
    assert np.array_equal(glyph_model.stretched_features(np.zeros((9, 9), np.float32)), np.zeros(321, np.float32))


@pytest.mark.skipif(not glyph_model.available(), reason="no glyph model weights")
def test_the_glyph_network_s_channels_last_path_is_its_reference_layers():
    """_Net.forward (shipped) against _Net.logits (the channels-first layers
    the speed test holds to the plain order, bit for bit)."""
    rng = np.random.default_rng(8_100_004)
    c = glyph_model.CANVAS
    for net in [net for ens in glyph_model._nets() for net in ens.nets]:
        for _ in range(10):
            ink = rng.random((int(rng.integers(1, 40)), int(rng.integers(1, 40)))).astype(np.float32)
            img = np.zeros((2, c, c), np.float32)
            aspect = glyph_model.glyph_canvas(ink, img[0])[1]
            glyph_model.glyph_canvas(ink + rng.random(ink.shape).astype(np.float32), img[1])
            src = np.zeros((c * c + 1, 2), np.float32)
            src[:-1] = img.reshape(2, -1).T
            assert np.abs(_softmax(net.forward(src, aspect)) - _softmax(net.logits(img, aspect))).max() < TOL
