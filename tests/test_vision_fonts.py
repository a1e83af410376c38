"""The card fonts: the same typefaces on every machine that has them."""

from __future__ import annotations

import os

from vision import cardart, corner_index
from vision.fonts import CARD_FONT_FAMILIES, card_fonts, missing_card_font_packages, system_fonts


def test_card_fonts_are_of_the_card_families_only():
    fonts = card_fonts()
    assert fonts and set(fonts) <= set(system_fonts())
    if any(os.path.basename(f).startswith(CARD_FONT_FAMILIES) for f in system_fonts()):
        assert all(os.path.basename(f).startswith(CARD_FONT_FAMILIES) for f in fonts)
        # another font on the machine (e.g. the IPA fonts ./run installs for Japanese pages) is left out
        others = [f for f in system_fonts() if not os.path.basename(f).startswith(CARD_FONT_FAMILIES)]
        assert not set(others) & set(fonts)
    # one file per name (fonts-liberation and fonts-liberation2 share names)
    assert len({os.path.basename(f) for f in fonts}) == len(fonts)


def test_the_generator_and_the_reader_use_the_card_fonts():
    assert {s.rank_font for s in cardart.deck_styles()} <= set(card_fonts())
    # 16 rank labels (13 ranks, "0", "1", the foreign B), 2 squeezes, 7 variants per font (Д is weighed
    # only against a 10: corner_index.SHAPE_ONLY)
    assert len(corner_index.builtin_references().rank_labels) == 16 * 2 * 7 * len(card_fonts())


def test_a_machine_without_a_card_font_package_is_told_which():
    # bench/vision.py warns then: its scenes are not those docs/vision.md's figures were measured on
    every = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
             "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")
    assert missing_card_font_packages(every) == []
    assert missing_card_font_packages(every[:2]) == ["fonts-liberation"]
    assert missing_card_font_packages(()) == ["fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation"]
    # that ./run test installed them all, tests/test_parts.py checks
