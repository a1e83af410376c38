"""Combat between two fighters (DE-9) with their Supports (DE-10, DE-13.4).

A fighter is a Striker (possibly a Gambit) or the top card of a Base.  The
variant decides what a spade Support does; everything else is shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from engines.double_edge.cards import is_red, suit, value


@dataclass(frozen=True)
class Fighter:
    """One side of a combat.

    ``cards``: the Striker or Base top first, then a Gambit's middle cards;
    ``support``: the Support card in effect (a Gambit's bottom card, a Base's
    non-ace indicator), or None.
    """

    seat: int
    kind: str  # "striker" | "base"
    cards: tuple[str, ...]
    support: str | None = None

    @property
    def top(self) -> str:
        return self.cards[0]

    @property
    def value(self) -> int:
        """Printed value; a Gambit's is the product of all its cards, Support included (DE-13.3)."""
        cards = self.cards + ((self.support,) if self.support and len(self.cards) > 1 else ())
        return prod(value(c) for c in cards) if len(cards) > 1 else value(self.top)

    @property
    def red(self) -> bool:
        """Colour is the printed colour of the top card (DE-R4, Gambits: DE-R10)."""
        return is_red(self.top)

    @property
    def match_suits(self) -> frozenset[str]:
        """Suits an Azbar spade of this side compares with: the Striker/Base top, and in a
        Gambit every card above the Support (DE-R11)."""
        return frozenset(suit(c) for c in self.cards)


@dataclass(frozen=True)
class Result:
    winner: int | None  # 0: first fighter, 1: second, None: stalemate
    values: tuple[int, int]
    rule: str  # the rule that decided it


def effective_supports(a: Fighter, b: Fighter, azbar: bool) -> tuple[str | None, str | None]:
    """Supports still in effect.  Azbar (DE-13.4): a spade cancels the opposing Support when
    that Support's suit matches this side's Striker/Base; both are judged on the printed
    Supports at once, so a cancelled spade still cancels (DE-R14)."""
    sa, sb = a.support, b.support
    if not azbar:
        return sa, sb
    kill_b = sa is not None and suit(sa) == "S" and sb is not None and suit(sb) in a.match_suits
    kill_a = sb is not None and suit(sb) == "S" and sa is not None and suit(sa) in b.match_suits
    return (None if kill_a else sa), (None if kill_b else sb)


def _modify(v: int, opposing_support: str | None) -> int:
    """Clubs +7 (DE-10.1), hearts x2 (DE-10.2); a value never gets both, but +7 would come first (DE-R3)."""
    if opposing_support is None:
        return v
    s = suit(opposing_support)
    if s == "C":
        return v + 7
    if s == "H":
        return v * 2
    return v


def fight(a: Fighter, b: Fighter, azbar: bool = False) -> Result:
    """Who wins between ``a`` and ``b``.

    Parity is read from the modified values (DE-R4); two diamonds or two spades
    cancel each other, as each reverses the rule in turn (DE-R3).
    """
    sa, sb = effective_supports(a, b, azbar)
    va, vb = _modify(a.value, sb), _modify(b.value, sa)
    suits = [suit(s) for s in (sa, sb) if s is not None]
    reverse = suits.count("D") % 2 == 1
    lower = not azbar and suits.count("S") % 2 == 1
    pa, pb = va % 2, vb % 2
    if pa == pb:
        if va == vb:
            return Result(None, (va, vb), "DE-9.1")
        a_wins = (va < vb) if lower else (va > vb)
        return Result(0 if a_wins else 1, (va, vb), "DE-10.4" if lower else "DE-9.1")
    same_colour = a.red == b.red
    even_wins = same_colour != reverse
    a_wins = (pa == 0) == even_wins
    rule = "DE-10.3" if reverse else ("DE-9.2" if same_colour else "DE-9.3")
    return Result(0 if a_wins else 1, (va, vb), rule)
