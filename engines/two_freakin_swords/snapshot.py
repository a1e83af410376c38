"""The immutable snapshot of one fight, and the fixed facts of its table.

A snapshot is everything that changes; :class:`Fight` is what was settled when
the table sat down (teams, deck mode, grid, who is youngest).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.two_freakin_swords.cards import number_of
from engines.two_freakin_swords.grid import Grid


@dataclass(frozen=True)
class Fight:
    seats: int
    teams: tuple[int, ...]
    """Team number per seat (every seat its own team in a duel or free-for-all)."""
    community: bool
    youngest: int
    grid: Grid
    deck_size: int = 40

    def pile(self, seat: int) -> int:
        """Which draw pile a seat uses: its own deck, or the one community deck."""
        return 0 if self.community else seat

    def pile_of_card(self, card: str) -> int:
        return 0 if self.community else (number_of(card) - 1) // self.deck_size

    def hostile(self, a: int, b: int) -> bool:
        return self.teams[a] != self.teams[b]

    def clockwise_from_youngest(self, seats: tuple[int, ...] | list[int]) -> list[int]:
        return sorted(seats, key=lambda s: (s - self.youngest) % self.seats)


@dataclass(frozen=True)
class Placement:
    """A card down by one arm this round; ``card`` None: the fighter had no card (TFS-R10)."""

    arm: str
    card: str | None
    counters: str | None = None
    revealed: bool = False


@dataclass(frozen=True)
class Engagement:
    """What is resolved on the grid, in order (ruling TFS-R9).

    ``pair``: (aggressor arm, defender arm); ``lunge``: (target arm, lunger's
    right arm, lunger's left arm); ``free``: (free arm, the lunging arm it faced).
    """

    kind: str
    arms: tuple[str, ...]


@dataclass(frozen=True)
class Fall:
    """A fighter whose hits reached their hit points this turn, and who made that hit."""

    seat: int
    by: int


@dataclass(frozen=True)
class Snap:
    phase: str
    """opening | shuffle | draw | announce | place-1 | place-2 | reveal-1 | reveal-2 | over"""
    turn: int
    circle: tuple[int, ...]
    hp: tuple[int, ...]
    hits: tuple[int, ...]
    coins: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    decks: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[str, ...], ...]
    chosen: tuple[int, ...] = ()
    to_shuffle: tuple[int, ...] = ()
    reshuffle: int | None = None
    draws: tuple[tuple[int, int], ...] = ()
    then: str = "turn"
    announced: tuple[int, ...] = ()
    lunges: tuple[tuple[int, str], ...] = ()
    passes: tuple[str, ...] = ()
    engagements: tuple[Engagement, ...] = ()
    cursor: int = 0
    round1: tuple[str, ...] = ()
    round2: tuple[str, ...] = ()
    waiting: tuple[str, ...] = ()
    placements: tuple[Placement, ...] = ()
    in_play: tuple[str, ...] = ()
    fell: tuple[Fall, ...] = ()
    coin_passes: tuple[str, ...] = ()
    eliminated: tuple[int, ...] = ()

    def placement(self, arm: str) -> Placement | None:
        for p in self.placements:
            if p.arm == arm:
                return p
        return None
