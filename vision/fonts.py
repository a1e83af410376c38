"""Real fonts found on this machine, for the scene generator and the reader's
built-in glyph references (several typefaces, so no single design is learnt)."""

from __future__ import annotations

import functools
import glob
import os

_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"), "/Library/Fonts", "C:/Windows/Fonts")
_SKIP = ("Math", "ExtraLight", "Light", "Oblique", "Italic", "Emoji", "Symbol")

#: The typefaces card faces are drawn in (scene generator) and the reader's
#: built-in templates are made from: Debian's fonts-dejavu-core,
#: fonts-dejavu-extra and fonts-liberation, which ``./run`` installs.  Any
#: other font a machine happens to have is left out, so that a seed draws the
#: same scenes and the reader holds the same templates on every machine.  With
#: every font, a machine with the Japanese IPA fonts (``./run`` installs them
#: for the ガンナガン pages where no Japanese font is present) drew a quarter of
#: its decks in IPA Gothic and Mincho, and the same 300 scenes measured 1135
#: cards found instead of 1244: figures of two machines did not compare.
CARD_FONT_FAMILIES = ("DejaVu", "Liberation")


@functools.cache
def system_fonts() -> tuple[str, ...]:
    """Upright TrueType/OpenType fonts with Latin digits, sorted by path."""
    found: list[str] = []
    for d in _DIRS:
        for ext in ("ttf", "otf", "TTF"):
            found.extend(glob.glob(os.path.join(d, "**", f"*.{ext}"), recursive=True))
    return tuple(sorted({f for f in found if not any(s in os.path.basename(f) for s in _SKIP)}))


@functools.cache
def card_fonts() -> tuple[str, ...]:
    """The system fonts of :data:`CARD_FONT_FAMILIES`, sorted by path, one
    file per name (fonts-liberation2 installs the same names as
    fonts-liberation in another folder: the first path wins); every system
    font on a machine that has none of them (not Debian-like), so that the
    generator and the reader still work there."""
    fonts = system_fonts()
    seen: set[str] = set()
    out = []
    for f in fonts:
        name = os.path.basename(f)
        if name.startswith(CARD_FONT_FAMILIES) and name not in seen:
            seen.add(name)
            out.append(f)
    return tuple(out) or fonts


#: one file of each Debian package the card fonts come from (as ``./run`` checks them)
CARD_FONT_PACKAGES = {
    "fonts-dejavu-core": "DejaVuSans.ttf",
    "fonts-dejavu-extra": "DejaVuSansCondensed.ttf",
    "fonts-liberation": "LiberationSans-Regular.ttf",
}


def missing_card_font_packages(fonts: tuple[str, ...] | None = None) -> list[str]:
    """The packages of :data:`CARD_FONT_PACKAGES` whose fonts this machine
    lacks (``fonts``: the system fonts, by default this machine's).  A
    benchmark run without one draws other scenes than the figures in
    docs/vision.md were measured on: a machine without fonts-liberation
    found 1569 of 720p seeds 0-299's cards, 1579 with it."""
    names = {os.path.basename(f) for f in (system_fonts() if fonts is None else fonts)}
    return [pkg for pkg, name in CARD_FONT_PACKAGES.items() if name not in names]


@functools.cache
def suit_glyph_fonts() -> tuple[str, ...]:
    """Fonts known to carry the four suit glyphs (U+2660..U+2667)."""
    return tuple(f for f in system_fonts() if "DejaVu" in os.path.basename(f))
