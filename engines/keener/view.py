"""What each seat may see (KN-11).

The table (seat None) sees the field, banks, Commanders' LP, discard and
removed piles, and only counts of hands, decks and face-down cards.  A seat
also sees its own hand and what its own face-down cards are.
"""

from __future__ import annotations

from typing import Any

from engines.keener.catalog import RESOURCES
from engines.keener.figures import commander_lp, lp, own_pv, pv
from engines.keener.hand import UNKNOWN
from engines.keener.ids import card_of
from engines.keener.snapshot import Piece, Side, Snap


def _merged(piece: Piece) -> list[dict[str, Any]]:
    return [{"id": m.id, "pv": own_pv(m), "gear": list(m.gear), "merged": _merged(m)} for m in piece.merged]


def _side(side: Side) -> dict[str, Any]:
    commander = card_of(side.commander)
    return {
        "deck": side.deck_name,
        "commander": {"id": side.commander, "name": commander.name, "lp": commander_lp(side), "lp_max": commander.lp},
        "bank": dict(zip(RESOURCES, side.bank, strict=True)),
        "generators": list(side.generators),
        "fighters": [{"id": f.id, "name": card_of(f.id).name, "pv": pv(side, f), "asleep": f.asleep,
                      "gear": list(f.gear), "merged": _merged(f)} for f in side.fighters],
        "defenses": [{"id": d.id, "name": card_of(d.id).name, "lp": lp(d), "gear": list(d.gear)}
                     for d in side.defenses],
        "face_down": [f.slot for f in side.face_down],
        "face_down_count": len(side.face_down),
        "hand_count": len(side.hand),
        "deck_count": len(side.deck),
        "discard": list(side.discard),
        "removed": list(side.removed),
    }


def view(s: Snap, seat: int | None) -> dict[str, Any]:
    c = s.combat
    data: dict[str, Any] = {
        "turn": s.turn,
        "active": s.active,
        "phase": s.phase,
        "sides": [_side(side) for side in s.sides],
        "combat": {"attackers": list(c.attackers), "blocks": [list(b) for b in c.blocks],
                   "resolving": c.current, "damage_to_assign": c.damage, "kill_budget": c.budget},
        "result": s.reason,
    }
    if seat is not None:
        side = s.sides[seat]
        data["hand"] = [{"id": h, "name": card_of(h).name} for h in side.hand if h != UNKNOWN]
        data["hand_unseen"] = side.hand.count(UNKNOWN)
        data["face_down_cards"] = {f.slot: f.card for f in side.face_down if f.card}
    return data


def hidden_from(s: Snap, seat: int | None) -> frozenset[str]:
    """Copy ids ``seat`` must not see: other seats' hands and face-down cards, and every deck (order unknown)."""
    secret: set[str] = set()
    for i, side in enumerate(s.sides):
        secret.update(side.deck)
        if i != seat:
            secret.update(side.hand)
            secret.update(f.card for f in side.face_down if f.card)
    secret.discard(UNKNOWN)
    return frozenset(secret)
