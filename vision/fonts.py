"""Real fonts found on this machine, for the scene generator and the reader's
built-in glyph references (several typefaces, so no single design is learnt)."""

from __future__ import annotations

import functools
import glob
import os

_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.fonts"), "/Library/Fonts", "C:/Windows/Fonts")
_SKIP = ("Math", "ExtraLight", "Light", "Oblique", "Italic", "Emoji", "Symbol")


@functools.cache
def system_fonts() -> tuple[str, ...]:
    """Upright TrueType/OpenType fonts with Latin digits, sorted by path."""
    found: list[str] = []
    for d in _DIRS:
        for ext in ("ttf", "otf", "TTF"):
            found.extend(glob.glob(os.path.join(d, "**", f"*.{ext}"), recursive=True))
    return tuple(sorted({f for f in found if not any(s in os.path.basename(f) for s in _SKIP)}))


@functools.cache
def suit_glyph_fonts() -> tuple[str, ...]:
    """Fonts known to carry the four suit glyphs (U+2660..U+2667)."""
    return tuple(f for f in system_fonts() if "DejaVu" in os.path.basename(f))
