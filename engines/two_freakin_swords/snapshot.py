"""The immutable snapshot of one fight, and the fixed facts of its table.

A snapshot is everything that changes; :class:`Fight` is what was settled when
the table sat down (teams, deck mode, grid, who is youngest).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

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
    physical: bool = False
    """A physical deal (TFS-14): decks and hands are unseen, shuffled and drawn at the table."""
    pools: tuple[tuple[str, ...], ...] = ()
    """The card ids each draw pile holds (a seat's own deck, or the community deck): what card
    conservation in a physical deal counts against (TFS-14.3)."""

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
    provisional: tuple[str, ...] = ()
    """Physical deal: card ids standing for a card sealed by its kind only, not yet read by the camera
    (the printed copy is unknown; TFS-14.3)."""

    def to_json(self) -> dict[str, Any]:
        """Hand-written (not core.to_plain): snapshots are written at every step, so speed matters."""
        return {
            "phase": self.phase, "turn": self.turn, "circle": list(self.circle), "hp": list(self.hp),
            "hits": list(self.hits), "coins": list(self.coins),
            "hands": [list(h) for h in self.hands], "decks": [list(d) for d in self.decks],
            "discards": [list(d) for d in self.discards], "chosen": list(self.chosen),
            "to_shuffle": list(self.to_shuffle), "reshuffle": self.reshuffle,
            "draws": [list(d) for d in self.draws], "then": self.then, "announced": list(self.announced),
            "lunges": [list(x) for x in self.lunges], "passes": list(self.passes),
            "engagements": [[e.kind, list(e.arms)] for e in self.engagements], "cursor": self.cursor,
            "round1": list(self.round1), "round2": list(self.round2), "waiting": list(self.waiting),
            "placements": [[p.arm, p.card, p.counters, p.revealed] for p in self.placements],
            "in_play": list(self.in_play), "fell": [[x.seat, x.by] for x in self.fell],
            "coin_passes": list(self.coin_passes), "eliminated": list(self.eliminated),
            "provisional": list(self.provisional),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Snap:
        t = tuple
        return cls(
            d["phase"], d["turn"], t(d["circle"]), t(d["hp"]), t(d["hits"]), t(d["coins"]),
            t(t(h) for h in d["hands"]), t(t(x) for x in d["decks"]), t(t(x) for x in d["discards"]),
            t(d["chosen"]), t(d["to_shuffle"]), d["reshuffle"], t((a, b) for a, b in d["draws"]), d["then"],
            t(d["announced"]), t((a, b) for a, b in d["lunges"]), t(d["passes"]),
            t(Engagement(k, t(arms)) for k, arms in d["engagements"]), d["cursor"],
            t(d["round1"]), t(d["round2"]), t(d["waiting"]),
            t(Placement(a, c, k, r) for a, c, k, r in d["placements"]),
            t(d["in_play"]), t(Fall(a, b) for a, b in d["fell"]), t(d["coin_passes"]), t(d["eliminated"]),
            t(d.get("provisional", ())),
        )

    def but(self, **changes: Any) -> Snap:
        """A copy with some fields changed: ``dataclasses.replace`` without re-running ``__init__``,
        which made it the slowest line of a random playout (the fields are all immutable)."""
        if not changes.keys() <= _SNAP_FIELDS:
            raise TypeError(f"Snap has no field {sorted(changes.keys() - _SNAP_FIELDS)}")
        new = object.__new__(Snap)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def placement(self, arm: str) -> Placement | None:
        for p in self.placements:
            if p.arm == arm:
                return p
        return None


_SNAP_FIELDS = frozenset(f.name for f in dataclasses.fields(Snap))
