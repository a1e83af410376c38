"""The lamp's colour and a dim exposure, taken out of a frame before anything looks for paper.

Card paper is found as *unsaturated* and bright (:func:`vision.cards.paper_mask`),
and ink is told red or black by its hue.  Under a warm lamp, the usual light
at a card table in the evening, a camera that does not fully correct it shows
white paper as cream or orange (``python -m bench.vision_lamp --without``,
100 generated scenes: 454 cards found under white light, 309 with blue at
0.75 of red and green at 0.9, 2 under an uncorrected bulb; balanced, 455
and 435).  So the frame is
balanced first, as a camera's white balance would: the brightest surfaces
in view are taken to be white (cards, the mat's paper), their colour is the
lamp's, and each channel is scaled so that they come out grey.  A webcam
in a dim room gives paper at half its level with the ink's contrast halved
too; there white is brought up to :data:`WHITE_LEVEL` (``python -m
bench.vision_lamp --lamps dim --without``, 100 scenes at 0.45 of the light
before the camera's noise: found 237 -> 371, misread 2 -> 11, about the
rate of well-lit scenes, 14 of 454).

Which pixels are white: those that stand out brighter than the table
around them, as paper must to be found at all, and of those the brightest
(a face's pictures stand out too, but are darker than its paper), and of
those only the ones near the brightest level: where the cards are few, a
red plaid cloth's bright squares stand out from its dark ones and fill the
brightest share in one consistent red, which was taken for the lamp and
turned the cards cyan.  On a
card table the cards are the whitest things; taking the brightest pixels of
the whole frame instead would take a wooden table's highlights for the
lamp whenever the cards cover little of the frame.  Only when too few
pixels stand out (a close-up, paper everywhere) are the brightest of the
whole frame taken.  What guards against a coloured thing being taken for
the lamp: the sample must be consistent (one colour, not a mix), the
correction is bounded to what lamps do (:data:`MAX_GAIN`), and a frame
whose white is already about grey (:data:`DEADBAND`) and bright
(:data:`DIM_BELOW`) is left exactly as it is, so a well-set camera changes
nothing.  A frame with no bright sample (an empty dark table), or whose
brightest pixels are not one colour (paper among a plaid cloth's bright
squares), is not touched either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: the frame is judged on a copy this many pixels wide (averaged, so noise is gone)
THUMB_WIDTH = 320
#: a pixel stands out from the table when its brightest channel exceeds the
#: median around it (a tenth of the frame wide) by this much, as paper must
#: for :func:`vision.cards.paper_mask`
STANDS_OUT = 28
#: of the pixels that stand out, the brightest share is taken as white (a
#: face's pictures and pips stand out too, but are darker than its paper)
BRIGHTEST_OUT = 0.3
#: with too few pixels standing out (a close-up: paper everywhere), the
#: brightest share of the whole frame is taken instead
BRIGHTEST = 0.02
#: ... and only if they could be paper under a lamp: their weakest channel
#: at least this share of their strongest (a tungsten bulb's white is about
#: 0.6; an orange table, a wooden one, skin are less), so that an empty
#: table is not taken for white
FALLBACK_MIN_RATIO = 0.55
#: fewer sample pixels than this say nothing
MIN_SAMPLE = 100
#: of that share, only pixels at least this share of its brightest (its 95th
#: percentile of summed channels) are taken: where the cards cover little of
#: the frame, a plaid cloth's bright squares stand out too and fill the share,
#: but paper is brighter than they are under any lamp
NEAR_BRIGHTEST = 0.8
#: a channel at or above this is clipped: its ratio is not the lamp's
CLIPPED = 250
#: white under a lamp is at least this bright (brightest channel)
MIN_LEVEL = 90
#: no channel is scaled by more than this, or less than its inverse
MAX_GAIN = 2.0
#: a cast that leaves white's weakest channel at this share of its
#: strongest or more is left alone: paper must only stay under
#: :func:`vision.cards.paper_mask`'s saturation (75 of 255, a share of 0.71),
#: and redrawing a frame for a slight cast (a camera's own, ±8 %) changed as
#: many readings for the worse as for the better (300 scenes, bench/vision.py's)
DEADBAND = 0.85
#: white (its brightest channel, after the colour gains) dimmer than this
#: is brought up to WHITE_LEVEL, by at most MAX_EXPOSURE
DIM_BELOW = 160
WHITE_LEVEL = 220
MAX_EXPOSURE = 2.5
#: ... and no further than puts the frame's 99th percentile at this level
CLIP_LEVEL = 250
#: the sample's colours must agree: the spread (median absolute deviation of
#: log ratio) above which they are taken for a mix, not one lamp
MAX_SPREAD = 0.08


@dataclass(frozen=True)
class Balance:
    """Per-channel gains (blue, green, red) that turn the lamp's white grey
    and bring a dim white up."""

    gains: tuple[float, float, float]

    def apply(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` (BGR uint8) with the gains applied, saturating at 255."""
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * np.float32(self.gains), 0, 255)
        lut = (lut + 0.5).astype(np.uint8).reshape(256, 1, 3)
        return cv2.LUT(frame, lut)


def estimate(frame: np.ndarray) -> Balance | None:
    """The balance that makes ``frame``'s brightest surfaces grey and bright,
    or None when they already are, or when no bright surface is seen."""
    h, w = frame.shape[:2]
    tw = min(w, THUMB_WIDTH)
    th = max(1, round(h * tw / w))
    if w > 4 * tw:  # a photo: every few pixels first, then averaged
        frame = cv2.resize(frame, (4 * tw, 4 * th), interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA)
    grey = small.max(axis=2)
    k = max(3, (tw // 10) | 1)
    table = cv2.medianBlur(grey, k).astype(np.int16).ravel()
    px = small.reshape(-1, 3).astype(np.int16)
    top, low = grey.ravel().astype(np.int16), px.min(axis=1)
    level = px.sum(axis=1)
    # the two channels a warm or cool lamp does not push up must not be clipped
    valid = (level - top - low < CLIPPED) & (top >= MIN_LEVEL)
    out = np.flatnonzero(valid & (top >= table + STANDS_OUT))
    fallback = len(out) < MIN_SAMPLE / BRIGHTEST_OUT
    if fallback:
        pool, n = np.flatnonzero(valid), int(len(px) * BRIGHTEST)
    else:
        pool, n = out, int(len(out) * BRIGHTEST_OUT)
    if n < MIN_SAMPLE or len(pool) < n:
        return None
    pick = pool[np.argpartition(level[pool], len(pool) - n)[-n:]]
    near = pick[level[pick] >= NEAR_BRIGHTEST * np.percentile(level[pick], 95)]
    if len(near) >= MIN_SAMPLE:
        pick = near
    if fallback and float(np.median(low[pick] / np.maximum(top[pick], 1))) < FALLBACK_MIN_RATIO:
        return None
    bright = px[pick].astype(np.float32) + 1.0
    lb = np.log(bright[:, 0] / bright[:, 1])
    lr = np.log(bright[:, 2] / bright[:, 1])
    mb, mr = float(np.median(lb)), float(np.median(lr))
    spread = max(float(np.median(np.abs(lb - mb))), float(np.median(np.abs(lr - mr))))
    if spread > MAX_SPREAD:
        return None  # a mix (paper and a bright table cloth's squares, say): no one white to go by
    gains = [1.0, 1.0, 1.0]
    if math.exp(min(mb, mr, 0.0) - max(mb, mr, 0.0)) < DEADBAND:
        lim = math.log(MAX_GAIN)
        gains = [math.exp(min(lim, max(-lim, -mb))), 1.0, math.exp(min(lim, max(-lim, -mr)))]
    # a dim frame (a webcam in an evening room): white is brought up to WHITE_LEVEL,
    # but no further than keeps all but 1 % of the frame off 255 (a bright table
    # pushed into clipping meets the paper there)
    white = float(np.median((bright * np.float32(gains)).max(axis=1)))
    if white < DIM_BELOW:
        brightest = float(np.percentile((px.astype(np.float32) * np.float32(gains)).max(axis=1), 99))
        k = min(MAX_EXPOSURE, WHITE_LEVEL / white, CLIP_LEVEL / max(brightest, 1.0))
        if k > 1.0:
            gains = [gain * k for gain in gains]
    if gains == [1.0, 1.0, 1.0]:
        return None
    return Balance(tuple(gains))
