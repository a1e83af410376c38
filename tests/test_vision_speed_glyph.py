"""vision.glyph_model's network, pooled before its biases and ReLUs (for
speed), against the plain order of the layers: the very same numbers."""

import numpy as np
import pytest

from vision import glyph_model


def _logits_plain(net, img: np.ndarray, aspect: float) -> np.ndarray:
    """glyph_model._Net.logits as it was before the rewrite (commit 43298ad)."""
    n = img.shape[1]
    a1 = np.maximum(net.K1 @ glyph_model.im2col(img) + net.c1, 0).reshape(-1, n, n)
    a2 = np.maximum(net.K2 @ glyph_model.im2col(glyph_model._pool(a1)) + net.c2, 0).reshape(-1, n // 2, n // 2)
    f = np.concatenate((glyph_model._pool(a2).ravel(), np.array([aspect], np.float32)))
    h = np.maximum(f @ net.W1 + net.b1, 0)
    return h @ net.W2 + net.b2


@pytest.mark.skipif(not glyph_model.available(), reason="no glyph model weights")
def test_pooled_first_logits_are_the_plain_ones():
    rng = np.random.default_rng(3)
    nets = [net for ens in glyph_model._nets() for net in ens.nets]
    c = glyph_model.CANVAS
    for trial in range(40):
        img = np.zeros((2, c, c), np.float32)
        if trial % 4:
            ink = rng.random((int(rng.integers(1, 40)), int(rng.integers(1, 40)))).astype(np.float32)
            glyph_model.glyph_canvas(ink, img[0])
            glyph_model.glyph_canvas(ink + rng.random(ink.shape).astype(np.float32), img[1])
        aspect = float(rng.normal())
        for net in nets:
            assert np.array_equal(net.logits(img, aspect), _logits_plain(net, img, aspect)), trial
