"""The 48 two-numbered cards (DSP-1.x) and the table's colour names.

A card id is the colour's initial and the card's astronaut (black) number:
``"R7"`` is the red card with astronaut 7 and alien 1.  Ids are short, stable
strings so they can travel in views, records and ``hidden_from`` sets; the
colour names are an option of the table (DSP-1.3), the ids follow them.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")
"""The four planet colours of the printed deck (DSP-1.3)."""

NUMBERS = range(1, 13)
HALVES = ("astronaut", "alien")
"""Tricks 1-6 read the astronaut (black) number, tricks 7-12 the alien (white) one (DSP-7.1)."""


def alien_of(astronaut: int) -> int:
    """The white number printed opposite ``astronaut``: they always differ by 6 (DSP-1.2)."""
    return astronaut + 6 if astronaut <= 6 else astronaut - 6


class Deck:
    """The deck of one table: colour names, card ids and their numbers.

    Built once per game from the options (never mutated afterwards); every
    lookup is a dict access because trick resolution runs millions of times in
    simulations.
    """

    def __init__(self, colours: Sequence[str] = DEFAULT_COLOURS):
        colours = tuple(colours)
        if len(colours) != 4:
            raise ValueError(f"Double Side Play needs exactly 4 colour names, got {len(colours)}")
        if any(not isinstance(c, str) or not c.strip() for c in colours):
            raise ValueError("every colour name must be a non-empty text")
        initials = tuple(c.strip()[0].upper() for c in colours)
        if len(set(initials)) != 4:
            raise ValueError(f"colour names must start with four different letters (card ids use them): {list(colours)}")
        if any(c.strip()[1:].isdigit() for c in colours):
            raise ValueError(f"a colour name may not look like a card id: {list(colours)}")
        self.colours: tuple[str, ...] = colours
        self.initials: tuple[str, ...] = initials
        self.ids: tuple[str, ...] = tuple(f"{i}{n}" for i in initials for n in NUMBERS)
        self._colour = {f"{i}{n}": colours[k] for k, i in enumerate(initials) for n in NUMBERS}
        self._number = {f"{i}{n}": (n, alien_of(n)) for i in initials for n in NUMBERS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and other.colours == self.colours

    def __hash__(self) -> int:
        return hash(self.colours)

    @classmethod
    def from_option(cls, value: Sequence[str] | None) -> Deck:
        if value is None:
            return cls(DEFAULT_COLOURS)
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ValueError("option 'colours' must be a list of 4 colour names")
        return cls(tuple(value))

    def is_card(self, card: object) -> bool:
        return isinstance(card, str) and card in self._colour

    def colour(self, card: str) -> str:
        return self._colour[card]

    def number(self, card: str, half: int) -> int:
        """The number that counts in ``half`` (0 = astronaut, 1 = alien)."""
        return self._number[card][half]

    def astronaut(self, card: str) -> int:
        return self._number[card][0]

    def alien(self, card: str) -> int:
        return self._number[card][1]

    def card(self, colour: str, astronaut: int) -> str:
        return f"{self.initials[self.colours.index(colour)]}{astronaut}"

    def sort_key(self, card: str) -> tuple[int, int]:
        return (self.colours.index(self.colour(card)), self.astronaut(card))

    def describe(self, card: str, half: int | None = None) -> str:
        """``"red 7 (astronaut 7 / alien 1)"`` or, for one half, ``"red 7"``."""
        if half is None:
            return f"{self.colour(card)} {self.astronaut(card)} (astronaut {self.astronaut(card)} / alien {self.alien(card)})"
        return f"{self.colour(card)} {self.number(card, half)}"
