"""Build a Keener position by hand: for tests, rule examples and the table adapter's tests.

``position(fighters=(["fighting-monk"], ["pikeman"]), phase="declare")``
gives a state in seat 1's Attack phase with those cards in play; copy ids are
numbered per seat in the order fighters, defenses, face-down cards, hand,
generators, deck (``"1:fighting-monk#1"``).
A card may be a dict for more detail: ``{"card": "stone-wall", "wounds": 1,
"gear": ["shore-up"], "asleep": True}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engines.keener.catalog import CARDS
from engines.keener.ids import commander_id, slot_id
from engines.keener.snapshot import Combat, FaceDown, Piece, Side, Snap, snap_to_json
from engines.keener.state import GAME, KeenerState

Cards = Sequence[Any]


def position(*, phase: str = "spending", active: int = 0, turn: int = 3,
             commanders: tuple[str, str] = ("saga", "ferra"),
             wounds: tuple[int, int] = (0, 0),
             decks: tuple[Cards, Cards] = (("fighting-monk",) * 10, ("fighting-monk",) * 10),
             hands: tuple[Cards, Cards] = ((), ()),
             banks: tuple[Sequence[int], Sequence[int]] = ((0, 0, 0, 0), (0, 0, 0, 0)),
             generators: tuple[Cards, Cards] = ((), ()),
             fighters: tuple[Cards, Cards] = ((), ()),
             defenses: tuple[Cards, Cards] = ((), ()),
             face_down: tuple[Cards, Cards] = ((), ()),
             attackers: Sequence[str] = (),
             blocks: Sequence[tuple[str, str]] = (),
             options: dict[str, Any] | None = None) -> KeenerState:
    sides = []
    for seat in (0, 1):
        seen: Counter[str] = Counter()

        def copy(card: str, seat: int = seat, seen: Counter[str] = seen) -> str:
            if card not in CARDS:
                raise KeyError(f"no card {card!r}")
            seen[card] += 1
            return f"{seat + 1}:{card}#{seen[card]}"

        def piece(spec: Any, copy=copy) -> Piece:
            if isinstance(spec, str):
                return Piece(copy(spec))
            return Piece(copy(spec["card"]), tuple(copy(g) for g in spec.get("gear", ())), spec.get("wounds", 0),
                         spec.get("asleep", False), tuple(piece(m) for m in spec.get("merged", ())))

        fs = tuple(piece(f) for f in fighters[seat])
        ds = tuple(piece(d) for d in defenses[seat])
        fd = tuple(FaceDown(slot_id(seat, i + 1), copy(c)) for i, c in enumerate(face_down[seat]))
        hand = tuple(copy(c) for c in hands[seat])
        gens = tuple(copy(c) for c in generators[seat])
        deck = tuple(copy(c) for c in decks[seat])
        sides.append(Side(f"{commanders[seat]} test deck", commander_id(seat, commanders[seat]), wounds[seat], deck,
                          hand, tuple(banks[seat]), gens, fs, ds, fd, (), (), len(fd)))  # type: ignore[arg-type]
    combat = Combat(tuple(attackers), tuple(blocks))
    snap = Snap(phase, active, turn, (sides[0], sides[1]), combat)
    return GAME.load({"seats": 2, "variant": "standard", "deal": 0, "options": options or {},
                      "snapshot": snap_to_json(snap)})
