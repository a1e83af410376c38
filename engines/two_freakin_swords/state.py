"""The engine-contract State of one fight: views, hidden cards, legal moves, outcome."""

from __future__ import annotations

from engines.core import JSON, ChanceRequest, Event, Move, Outcome, State
from engines.two_freakin_swords import rules
from engines.two_freakin_swords.cards import count_kinds, kind_of, side_of
from engines.two_freakin_swords.physical import UNSEEN
from engines.two_freakin_swords.seating import pairs, seat_of
from engines.two_freakin_swords.sheets import Result
from engines.two_freakin_swords.snapshot import Fight, Snap


class TFSState(State[Snap]):
    fight: Fight

    def _to_act(self, s: Snap) -> frozenset[int]:
        return rules.to_act(self.fight, s)

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        return rules.pending_chance(self.fight, s)

    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        return rules.step(self.fight, s, move)

    def _legal_moves(self, s: Snap, seat: int) -> list[Move]:
        return rules.legal_moves(self.fight, s, seat)

    # ---- what each seat may see ----------------------------------------
    def _view(self, s: Snap, seat: int | None) -> JSON:
        f = self.fight
        alive = set(s.circle)
        placements = []
        for p in s.placements:
            shown = p.revealed or (seat is not None and seat_of(p.arm) == seat)
            placements.append({
                "arm": p.arm,
                "back": side_of(p.card) if p.card else None,
                "card": kind_of(p.card) if p.card and shown else None,
                "revealed": p.revealed,
                "counters": p.counters,
            })
        view: JSON = {
            "turn": s.turn,
            "phase": s.phase,
            "doing": rules.describe(s),
            "deck_mode": "community" if f.community else "own",
            "circle": list(s.circle),
            "fighters": [{
                "seat": p,
                "team": f.teams[p],
                "hit_points": s.hp[p],
                "hits": s.hits[p],
                "alive": p in alive,
                "hand_count": len(s.hands[p]),
            } for p in range(f.seats)],
            "pairs": [{"arms": [a, b], "friendly": not f.hostile(seat_of(a), seat_of(b))} for a, b in pairs(s.circle)],
            "coins": list(s.coins),
            "lunges": [{"seat": p, "at": t} for p, t in s.lunges],
            "passes": list(s.passes),
            "waiting": list(s.waiting),
            "placements": placements,
            "deck_counts": [len(d) for d in s.decks],
            "discards": [count_kinds([c for c in d if c != UNSEEN]) for d in s.discards],
            "deal": "physical" if f.physical else "seeded",
            "eliminated": list(s.eliminated),
            "fell_this_turn": [{"seat": x.seat, "by": x.by} for x in s.fell],
        }
        if s.phase == "over":
            view["result"] = self.result().to_json()  # type: ignore[union-attr]
        if seat is not None:
            view["seat"] = seat
            view["hand"] = [c for c in s.hands[seat] if c != UNSEEN]
            if f.physical:  # TFS-14.5: the hand is at the table; the kinds it may hold are the legal moves
                view["hand_unseen"] = len(s.hands[seat])
            if s.phase == "opening":
                view["my_deck"] = count_kinds(s.decks[seat])  # what the opening hand is chosen from
            view["my_placements"] = {p.arm: p.card for p in s.placements if seat_of(p.arm) == seat}
        return view

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        secret: set[str] = set()
        for deck in s.decks:
            secret.update(deck)  # nobody knows the order of a deck
        for p, hand in enumerate(s.hands):
            if p != seat:
                secret.update(hand)
        for pl in s.placements:
            if pl.card and not pl.revealed and seat_of(pl.arm) != seat:
                secret.add(pl.card)
        secret.discard(UNSEEN)  # a physical deal's placeholder names no card
        return frozenset(secret)

    # ---- the end ---------------------------------------------------------
    def result(self) -> Result | None:
        """Points to award and sheets to destroy (TFS-13.1), once the fight is over."""
        s = self._s
        if s.phase != "over":
            return None
        winners = set(s.circle)
        return Result(tuple(1 if p in winners else 0 for p in range(self.seats)),
                      tuple(p in s.eliminated for p in range(self.seats)))

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.phase != "over":
            return None
        winners = tuple(s.circle)
        scores = tuple(1.0 if p in winners else 0.0 for p in range(self.seats))
        if not winners:
            return Outcome((), scores, tie=True, reason="the last fighters eliminated each other (TFS-13.1)")
        reason = "last fighter standing" if len(winners) == 1 else "last team standing"
        return Outcome(winners, scores, tie=False, reason=reason)

    def snapshot_to_json(self, s: Snap) -> JSON:
        return s.to_json()

    def snapshot_from_json(self, data: JSON) -> Snap:
        return Snap.from_json(data)
