"""Reading a borderline index corner again from patches sampled with the
corner placed a little differently (test-time augmentation, #7).

At 720p an index's rank is 6-9 camera pixels tall and its suit 5-9, so one
patch is one noisy draw of what the corner finder's placement gives the
glyph networks.  A patch the reader declined by a near miss (a rank the
networks are sure of, the suit's likeliest class under its share) is sampled
again at 104 % and 96 % scale about the corner (the networks were trained
with the corner placed that wrong, vision.glyph_train), and read from the
three looks' averaged network probabilities, the base patch's templates
checking them as they always do; every look must cut glyphs of the same ink
colour and name the same card.  Any other patch reads exactly as read_patch
reads it.

Measured on index patches of seeds 0-299 (``python -m bench.tta_patches``):
shifts of 0.35 mm and turns of 2.5 degrees read more near misses but misread
more; the jittered looks of a confident misread agree with it (15 of 16
black-suit misreads: the spade's point is lost in the camera's own pixels,
which re-sampling the same frame cannot bring back), so a check that a black
suit's looks agree (``check_black``) dropped 27 right reads to catch 5.

Not used by the pipeline: in VisionPipeline._read_corner it read 10 more
cards of 300 generated scenes (seeds 0-299, where it was chosen) with no
misread, but on held-out seeds 500-559 4 more cards and 1 more misread (a
jack of clubs as spades) and on the third-party decks 2 more and 1 more
misread: near misses read this way are wrong about one time in four away
from the scenes it was chosen on, much worse than the reader's other reads.
Kept, with bench.tta_patches, for measuring other jitters and rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import glyph_model
from .cards import Plane, sample_patch
from .corner_index import (
    RANKS,
    SUITS,
    THRESHOLDS,
    Evidence,
    IndexReading,
    References,
    builtin_references,
    decide,
    evidence,
    extract_glyphs,
    likeliest_suit,
    read_patch_evidence,
)

#: (shift along the short edge mm, along the long edge mm, turn degrees, scale):
#: scale alone read the most near misses for the fewest misreads (bench.tta_patches)
JITTERS: tuple[tuple[float, float, float, float], ...] = (
    (0.0, 0.0, 0.0, 1.04),
    (0.0, 0.0, 0.0, 0.96),
)


@dataclass(frozen=True)
class JitterRule:
    #: a declined patch is looked at again when its likeliest rank holds this
    #: much (the reader's net_rank: 0.55 let a 5 read as a 6 through) and its
    #: likeliest suit this share (corner_index.suit_share)
    rank_low: float = 0.7
    suit_low: float = 0.6
    #: share of all looks (the base patch's included) whose likeliest rank and
    #: suit must be the reading
    agree: float = 1.0
    #: a reading of a black suit stands only if the looks agree on it (off:
    #: the looks agree with confident misreads too)
    check_black: bool = False
    jitters: tuple[tuple[float, float, float, float], ...] = JITTERS


JITTER = JitterRule()


def placement(point: np.ndarray, u: np.ndarray, v: np.ndarray, j: tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The corner ``point`` and its edge directions ``u``, ``v`` (plane mm)
    moved by jitter ``j``: shifted along the edges, turned about the
    corner, scaled."""
    du, dv, deg, sc = j
    a = np.radians(deg)
    c, s = float(np.cos(a)), float(np.sin(a))
    rot = np.array([[c, -s], [s, c]])
    return point + du * u + dv * v, sc * (rot @ u), sc * (rot @ v)


def near_miss(ev: Evidence | None, rule: JitterRule = JITTER) -> bool:
    """Whether a declined patch's evidence came close: a rank (not junk) the
    network gives ``rank_low`` or more, a suit of the ink's colour holding
    ``suit_low`` of the share, no junk above the reader's limit."""
    if ev is None or ev.glyphs.red is None or ev.rank_p is None or ev.suit_p is None:
        return False
    t = THRESHOLDS
    r = int(np.argmax(ev.rank_p))
    if glyph_model.RANK_CLASSES[r] not in RANKS or ev.rank_p[r] < rule.rank_low:
        return False
    if ev.rank_p[-1] > t.net_junk or ev.suit_p[-1] > t.net_junk:
        return False
    return likeliest_suit(ev.suit_p, ev.glyphs.red)[1] >= rule.suit_low


def _look(frame: np.ndarray, plane: Plane, placed, red: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The glyph networks' (rank, suit) probabilities for one jittered patch,
    or None when its glyphs are not cut or their ink is another colour."""
    gl = extract_glyphs(sample_patch(frame, plane, *placed))
    if gl is None or gl.red is not red:
        return None
    return glyph_model.rank_probs(gl.rank_ink, gl.rank_view), glyph_model.suit_probs(gl.suit_ink, gl.suit_view)


def _top(rank_p: np.ndarray, suit_p: np.ndarray, red: bool) -> tuple[str, str]:
    return glyph_model.RANK_CLASSES[int(np.argmax(rank_p))], SUITS[likeliest_suit(suit_p, red)[0]]


def combined(ev: Evidence, looks: list[tuple[np.ndarray, np.ndarray]]) -> Evidence:
    """``ev`` (complete) with its network probabilities averaged with the
    looks' (each look one vote); the templates stay the base patch's."""
    rank_p = np.mean([ev.rank_p, *(r for r, _ in looks)], axis=0)
    suit_p = np.mean([ev.suit_p, *(s for _, s in looks)], axis=0)
    return replace(ev, rank_p=rank_p, suit_p=suit_p)


def read_corner(
    frame: np.ndarray, plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray, refs: References | None = None, rule: JitterRule = JITTER
) -> tuple[IndexReading | None, np.ndarray]:
    """read_patch of the patch at corner ``point`` (edges ``u``, ``v``), looked
    at again from the jittered placements when it is borderline: a near miss
    may be read from all the looks together, a black suit's reading is
    dropped unless the looks agree.  Any other patch reads exactly as
    read_patch reads it.  Returns the reading and the base patch."""
    patch = sample_patch(frame, plane, point, u, v)
    return _reread(frame, plane, point, u, v, patch, refs or builtin_references(), rule), patch


def _reread(frame, plane: Plane, point, u, v, patch: np.ndarray, refs: References, rule: JitterRule) -> IndexReading | None:
    r, ev = read_patch_evidence(patch, refs)
    if ev is None or ev.glyphs.red is None or not rule.jitters:
        return r
    if r is None:
        if not near_miss(ev, rule):
            return None
    elif not (rule.check_black and r.suit in ("spades", "clubs")):
        return r
    red = ev.glyphs.red
    looks = [_look(frame, plane, placement(point, u, v, j), red) for j in rule.jitters]
    if any(x is None for x in looks) and rule.agree >= 1:
        return None
    got = [x for x in looks if x is not None]
    if not ev.complete or ev.suit_p is None:
        ev = evidence(ev.glyphs, refs, full=True)
    if ev.rank_p is None or ev.suit_p is None:
        return None
    c = decide(combined(ev, got), THRESHOLDS)
    if c is None:
        return None
    tops = [_top(ev.rank_p, ev.suit_p, red)] + [_top(rp, sp, red) for rp, sp in got]
    if sum(x == (c.rank, c.suit) for x in tops) < rule.agree * (1 + len(looks)) - 1e-9:
        return None
    if r is not None:
        return r if (c.rank, c.suit) == (r.rank, r.suit) else None
    return c
