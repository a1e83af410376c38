"""The Two Freakin' Swords game: formats (variants), table options, and the first snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import PHYSICAL, Deal, Game
from engines.two_freakin_swords.cards import DECK_SIZE, HAND_SIZE, STANDARD, build_deck, validate_deck
from engines.two_freakin_swords.grid import DEFAULT_GRID, Grid, GridError, parse_grid
from engines.two_freakin_swords.moves import MOVE_TYPES
from engines.two_freakin_swords.physical import unseen
from engines.two_freakin_swords.rules import start_turn
from engines.two_freakin_swords.seating import default_teams, parse_teams, team_index
from engines.two_freakin_swords.sheets import BASE_HIT_POINTS
from engines.two_freakin_swords.snapshot import Fight, Snap
from engines.two_freakin_swords.state import TFSState

OPTIONS = ("decks", "deck_lists", "teams", "points", "youngest", "grid")
"""``decks``: "own" (default) or "community"; ``deck_lists``: per seat null (standard) or
{"strike": n, ...}; ``teams``: lists of seats (variant teams); ``points``: each seat's
character-sheet points; ``youngest``: the seat that draws first from a community deck;
``grid``: a replacement engagement grid (the JSON of grid.json)."""


class TwoFreakinSwords(Game):
    id = "two-freakin-swords"
    title = "Two Freakin' Swords"
    players = (2, 3, 4, 5, 6, 7, 8)
    variants = ("duel", "free-for-all", "teams")
    move_types = MOVE_TYPES
    rules_doc = "docs/rules/two-freakin-swords.md"
    character_sheets = True  # TFS-4.1: a fighter's sheet points set their hit points

    def validate_setup(self, seats: int, variant: str, deal: Any) -> None:
        super().validate_setup(seats, variant, deal)
        if variant == "duel" and seats != 2:
            raise ValueError(f"a duel is for 2 fighters, not {seats}; use free-for-all or teams (TFS-5.2)")
        if variant != "duel" and seats < 3:
            raise ValueError(f"{variant} needs 3 or more fighters; two fighters play a duel (TFS-5.3)")

    def setups(self) -> list[tuple[int, str, dict[str, Any]]]:
        return [
            (2, "duel", {}),
            (5, "free-for-all", {"decks": "community"}),
            (4, "teams", {"teams": [[0, 2], [1, 3]]}),
            (3, "teams", {"teams": [[0], [1, 2]], "decks": "community"}),
        ]

    def fight(self, seats: int, variant: str, options: Mapping[str, Any], physical: bool = False) -> Fight:
        """The fixed facts of a table from its options; ValueError names the bad option."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
        mode = options.get("decks", "own")
        if mode not in ("own", "community"):
            raise ValueError(f"decks must be \"own\" or \"community\", not {mode!r} (TFS-2.3)")
        if "teams" in options and variant != "teams":
            raise ValueError(f"teams are set only in the teams variant, not {variant} (TFS-5.4)")
        teams = parse_teams(options["teams"], seats) if "teams" in options else default_teams(variant, seats)
        youngest = options.get("youngest", 0)
        if isinstance(youngest, bool) or not isinstance(youngest, int) or not 0 <= youngest < seats:
            raise ValueError(f"youngest must be a seat from 0 to {seats - 1}, not {youngest!r} (TFS-3.3)")
        grid: Grid = DEFAULT_GRID
        if "grid" in options:
            try:
                grid = parse_grid(options["grid"], "option grid")
            except GridError as exc:
                raise ValueError(str(exc)) from None
        if mode == "community":
            pools: tuple[tuple[str, ...], ...] = (build_deck(STANDARD, 1) + build_deck(STANDARD, DECK_SIZE + 1),)
        else:
            lists = options.get("deck_lists", [None] * seats)
            if not isinstance(lists, list | tuple) or len(lists) != seats:
                raise ValueError(f"deck_lists must have one entry per seat ({seats}), null for a standard deck")
            pools = tuple(build_deck(STANDARD if dl is None else validate_deck(dl, f"seat {i + 1}'s deck"),
                                     i * DECK_SIZE + 1) for i, dl in enumerate(lists))
        return Fight(seats, team_index(teams, seats), mode == "community", youngest, grid, DECK_SIZE,
                     physical, pools)

    def new(self, seats: int, variant: str | None = None, deal: Deal = 0,
            options: Mapping[str, Any] | None = None) -> TFSState:
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        options = dict(options or {})
        fight = self.fight(seats, variant, options, physical=deal == PHYSICAL)
        points = options.get("points", [0] * seats)
        if not isinstance(points, list | tuple) or len(points) != seats or any(
                isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points):
            raise ValueError(f"points must list {seats} whole numbers of 0 or more, one per seat (TFS-4.1)")
        hp = tuple(BASE_HIT_POINTS + p for p in points)
        circle = tuple(range(seats))
        coins = tuple(sorted(f"{p}R" for p in circle))  # TFS-6.1
        empty: tuple[tuple[str, ...], ...] = ((),) * seats
        if fight.community and "deck_lists" in options:
            raise ValueError("deck_lists are for fighters with their own decks, not a community deck (TFS-2.3)")
        if fight.physical:
            # TFS-14.1: hands were chosen or drawn at the table, unseen; the first turn begins at once.
            hands = (unseen(HAND_SIZE),) * seats
            left = [len(pool) for pool in fight.pools]
            for seat in range(seats):
                left[fight.pile(seat)] -= HAND_SIZE
            snap = Snap("draw", 0, circle, hp, (0,) * seats, coins, hands, tuple(unseen(n) for n in left),
                        ((),) * len(fight.pools))
            snap, _ = start_turn(fight, snap)
        elif fight.community:
            snap = Snap("shuffle", 0, circle, hp, (0,) * seats, coins, empty, fight.pools, ((),), to_shuffle=(0,))
        else:
            snap = Snap("opening", 0, circle, hp, (0,) * seats, coins, empty, fight.pools, empty)
        state = TFSState(self, seats, variant, deal, snap, options)
        state.fight = fight
        return state


GAME = TwoFreakinSwords()
