"""A Double Side Play game in progress: the rule steps on :class:`Snap` values.

Rule ids (``DSP-n.m``) and rulings (``DSP-Rn``) refer to
docs/rules/double-side-play.md.  Every function here is pure: it takes a
snapshot and returns a new one with the public events it caused, or raises
:class:`Reject`.
"""

from __future__ import annotations

from engines.core import (
    JSON,
    PHYSICAL,
    ChanceMove,
    ChanceRequest,
    Event,
    Move,
    Outcome,
    Reject,
    State,
    apply_shuffle,
    shuffle_ranges,
)
from engines.double_side_play import dice as dice_rules
from engines.double_side_play import tricks as trick_rules
from engines.double_side_play.cards import HALVES, Deck
from engines.double_side_play.janken import survivors
from engines.double_side_play.moves import (
    JANKEN_HANDS,
    CardPlayed,
    ChooseTrump,
    Dealt,
    Doubles,
    GameOver,
    HandsFlipped,
    Janken,
    JankenCalled,
    JankenChosen,
    JankenShown,
    LeadChosen,
    Play,
    RevokeDetected,
    Rolled,
    RoundScored,
    RoundVoided,
    TrickWon,
    TrumpChooserChosen,
    TrumpChosen,
)
from engines.double_side_play.snapshot import (
    DEAL,
    DICE,
    JANKEN,
    OVER,
    PLAY,
    TRUMP,
    RoundSummary,
    Snap,
    TrickRecord,
    VoidClaim,
    new_round,
    snap_from_json,
    snap_to_json,
)
from engines.double_side_play.snapshot import Revoke as RevokeRecord
from engines.double_side_play.snapshot import evolve as replace

HAND_SIZE = 12
TRICKS = 12
POINTS_TO_WIN = 2
REVOKE_RULINGS = ("no-point", "void-round", "note")
"""What a revoke detected in a physical deal costs (DSP-9.4, ruling DSP-R3)."""


class DoubleSidePlayState(State[Snap]):
    """One table.  ``deck`` (colour names) and ``revoke_ruling`` come from the options."""

    deck: Deck
    revoke_ruling: str

    @property
    def physical(self) -> bool:
        return self.deal == PHYSICAL

    @property
    def trumps(self) -> bool:
        return self.variant == "trump"

    # ---- whose turn ------------------------------------------------------
    def _to_act(self, s: Snap) -> frozenset[int]:
        if s.phase == PLAY:
            return frozenset((s.turn,))
        if s.phase == JANKEN:
            return frozenset(seat for seat, hand in zip(s.janken_seats, s.janken_hands, strict=True) if not hand)
        if s.phase == TRUMP:
            return frozenset((s.trump_chooser,))
        return frozenset()

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        if s.phase == DEAL:
            return ChanceRequest("shuffle", shuffle_ranges(48), label=f"shuffle and deal round {s.round}")
        if s.phase == DICE:
            seat = s.rolling
            again = f" again (doubles re-rolled: {s.rerolls})" if s.rerolls else ""
            return ChanceRequest("dice", (6, 6), seat=seat, label=f"seat {seat + 1} rolls two dice{again}")
        return None

    # ---- moves -------------------------------------------------------------
    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        events: list[Event] = []
        if isinstance(move, ChanceMove):
            s = self._deal(s, move, events) if s.phase == DEAL else self._roll(s, move, events)
        elif isinstance(move, Play):
            if s.phase != PLAY:
                raise Reject("DSP-7.2", f"no card is played now: {self._waiting_for(s)}",
                             "wait until the first lead player is known")
            s = self._play(s, move, events)
        elif isinstance(move, Janken):
            if s.phase != JANKEN:
                raise Reject("DSP-5.1", f"no rock-paper-scissors is being played now: {self._waiting_for(s)}")
            s = self._janken(s, move, events)
        elif isinstance(move, ChooseTrump):
            if s.phase != TRUMP:
                raise Reject("DSP-6.2", f"no trump colour is chosen now: {self._waiting_for(s)}")
            s = self._choose_trump(s, move, events)
        else:
            raise Reject("DSP-7.2", f"{move.type!r} is not a move of Double Side Play")
        return s, events

    def _waiting_for(self, s: Snap) -> str:
        if s.phase == JANKEN:
            return f"seats {', '.join(str(x + 1) for x in s.janken_seats)} play rock-paper-scissors"
        if s.phase == TRUMP:
            return f"seat {s.trump_chooser + 1} chooses the trump colour"
        return f"trick {s.trick} is being played"

    def _deal(self, s: Snap, move: ChanceMove, events: list[Event]) -> Snap:
        """DSP-2.1 / DSP-2.2: 12 cards each, the rest out of the round."""
        order = apply_shuffle(self.deck.ids, move.values)
        key = self.deck.sort_key
        hands = tuple(tuple(sorted(order[HAND_SIZE * i:HAND_SIZE * (i + 1)], key=key)) for i in range(self.seats))
        out = tuple(sorted(order[HAND_SIZE * self.seats:], key=key))
        counts = (HAND_SIZE,) * self.seats
        events.append(Dealt(s.round, counts, len(out)))
        return replace(s, phase=DICE, hands=hands, out=out, hand_counts=counts)

    def _roll(self, s: Snap, move: ChanceMove, events: list[Event]) -> Snap:
        """DSP-3.1 / DSP-3.2: two dice per seat, doubles rolled again."""
        seat = s.rolling
        a, b = move.values[0] + 1, move.values[1] + 1
        if a == b:
            events.append(Doubles(seat, (a, b)))
            return replace(s, rerolls=s.rerolls + 1)
        dice = tuple((a, b) if i == seat else d for i, d in enumerate(s.dice))
        events.append(Rolled(seat, (a, b), dice_rules.goals((a, b))))
        s = replace(s, dice=dice, rerolls=0)
        if s.rolling >= 0:
            return s
        seats, reason = dice_rules.lead_candidates(s.dice)
        if len(seats) > 1:
            events.append(JankenCalled("lead", seats))
            return replace(s, phase=JANKEN, janken_for="lead", janken_seats=seats,
                           janken_hands=("",) * len(seats), janken_replays=0)
        events.append(LeadChosen(seats[0], reason))
        return self._after_lead(replace(s, lead=seats[0]), events)

    def _after_lead(self, s: Snap, events: list[Event]) -> Snap:
        if not self.trumps:
            return self._start_play(s)
        seats, reason = dice_rules.trump_candidates(s.dice)
        if len(seats) > 1:
            events.append(JankenCalled("trump", seats))
            return replace(s, phase=JANKEN, janken_for="trump", janken_seats=seats,
                           janken_hands=("",) * len(seats), janken_replays=0)
        events.append(TrumpChooserChosen(seats[0], reason))
        return replace(s, phase=TRUMP, trump_chooser=seats[0])

    def _start_play(self, s: Snap) -> Snap:
        return replace(s, phase=PLAY, leader=s.lead, trick=1, plays=(), janken_for="", janken_seats=(),
                       janken_hands=())

    def _janken(self, s: Snap, move: Janken, events: list[Event]) -> Snap:
        """DSP-5.1 - DSP-5.3 and ruling DSP-R2."""
        if move.hand not in JANKEN_HANDS:
            raise Reject("DSP-5.1", f"{move.hand!r} is not a janken hand", "choose rock, paper or scissors")
        hands = tuple(move.hand if seat == move.seat else h
                      for seat, h in zip(s.janken_seats, s.janken_hands, strict=True))
        events.append(JankenChosen(move.seat))
        if not all(hands):
            return replace(s, janken_hands=hands)
        remaining = survivors(s.janken_seats, hands)
        events.append(JankenShown(s.janken_for, tuple(zip(s.janken_seats, hands, strict=True)), remaining))
        if len(remaining) > 1:
            return replace(s, janken_seats=remaining, janken_hands=("",) * len(remaining),
                           janken_replays=s.janken_replays + 1)
        seat = remaining[0]
        if s.janken_for == "lead":
            events.append(LeadChosen(seat, "janken"))
            return self._after_lead(replace(s, lead=seat, janken_for="", janken_seats=(), janken_hands=()), events)
        events.append(TrumpChooserChosen(seat, "janken"))
        return replace(s, phase=TRUMP, trump_chooser=seat, janken_for="", janken_seats=(), janken_hands=())

    def _choose_trump(self, s: Snap, move: ChooseTrump, events: list[Event]) -> Snap:
        """DSP-6.2: one of the table's four colours."""
        if move.colour not in self.deck.colours:
            raise Reject("DSP-6.2", f"{move.colour!r} is not a colour of this deck",
                         f"choose one of {', '.join(self.deck.colours)}")
        events.append(TrumpChosen(move.seat, move.colour))
        return self._start_play(replace(s, trump=move.colour))

    # ---- playing a card ------------------------------------------------------
    def _play(self, s: Snap, move: Play, events: list[Event]) -> Snap:
        deck, seat, card = self.deck, move.seat, move.card
        if not deck.is_card(card):
            raise Reject("DSP-1.1", f"{card!r} is not a card of this deck",
                         f"name a card by colour initial and astronaut number, e.g. {deck.ids[6]}")
        lead = deck.colour(s.plays[0][1]) if s.plays else None
        colour = deck.colour(card)
        hand = s.hands[seat]
        if self.physical or card not in hand:  # a card still in its hand was not seen before (DSP-10.1)
            self._conserve(s, seat, card)
        if not self.physical:
            if card in s.out:
                raise Reject("DSP-2.2", f"{card} is out of this round (set aside unseen at the deal)",
                             "play a card from your hand")
            if card not in hand:
                raise Reject("DSP-7.4", f"seat {seat + 1} does not hold {card}", "play a card from your hand")
            if lead is not None and colour != lead and any(deck.colour(c) == lead for c in hand):
                raise Reject("DSP-7.3", f"you must follow the lead colour, {lead}: you hold a {lead} card",
                             f"play a {lead} card")
            hands = tuple(tuple(c for c in h if c != card) if i == seat else h for i, h in enumerate(s.hands))
        else:
            hands = s.hands
        counts = tuple(n - 1 if i == seat else n for i, n in enumerate(s.hand_counts))
        voids = s.voids
        void: str | None = None
        if lead is not None and colour != lead:
            void = lead
            if not any(v.seat == seat and v.colour == lead for v in voids):
                voids = (*voids, VoidClaim(seat, lead, s.trick, s.plays[0][1], card))
        events.append(CardPlayed(seat, card, s.trick, deck.number(card, s.half), void))
        # DSP-9.3: a colour played after the seat showed it lacked it (only possible in a physical deal,
        # where the engine cannot see hands; in a seeded deal DSP-7.3 refused the false void already).
        claim = next((v for v in s.voids if v.seat == seat and v.colour == colour), None)
        revokes = s.revokes
        if claim is not None:
            revokes = (*revokes, RevokeRecord(seat, colour, claim.trick, claim.led, claim.card, s.trick, card))
            events.append(RevokeDetected(seat, colour, claim.trick, claim.card, claim.led, s.trick, card,
                                         self.revoke_ruling))
        plays = (*s.plays, (seat, card))
        s = replace(s, hands=hands, hand_counts=counts, voids=voids, revokes=revokes, plays=plays)
        if claim is not None and self.revoke_ruling == "void-round":
            events.append(RoundVoided(s.round, seat))
            return self._next_round(s, events, voided=True)
        if len(plays) < self.seats:
            return s
        return self._finish_trick(s, events)

    def _conserve(self, s: Snap, seat: int, card: str) -> None:
        """DSP-10.1: refuse a second sighting of ``card`` this round, naming both."""
        first = self._sighting(s, card)
        if first is not None:
            raise Reject("DSP-10.1",
                         f"{card} ({self.deck.describe(card)}) was already played this round by {first}; "
                         f"now seat {seat + 1} shows it in trick {s.trick}: one card cannot be in two places",
                         "check the card's identity; the camera may have misread it or it was put back")

    def _sighting(self, s: Snap, card: str) -> str | None:
        """Where ``card`` was already seen this round, in words (DSP-10.1)."""
        for record in s.tricks:
            for seat, c in record.plays:
                if c == card:
                    return f"seat {seat + 1} in trick {record.trick}"
        for seat, c in s.plays:
            if c == card:
                return f"seat {seat + 1} in trick {s.trick}"
        return None

    def _finish_trick(self, s: Snap, events: list[Event]) -> Snap:
        """DSP-7.5 / DSP-6.3: the winner takes the trick and leads the next."""
        seat, card, by_trump = trick_rules.winner(self.deck, s.plays, s.half, s.trump)
        events.append(TrickWon(s.trick, seat, card, s.plays, by_trump))
        won = tuple(n + 1 if i == seat else n for i, n in enumerate(s.tricks_won))
        record = TrickRecord(s.trick, s.leader, s.plays, seat)
        s = replace(s, tricks=(*s.tricks, record), tricks_won=won, plays=(), leader=seat, trick=s.trick + 1)
        if s.trick == 7:
            events.append(HandsFlipped())
        if s.trick <= TRICKS:
            return s
        return self._next_round(s, events, voided=False)

    # ---- end of a round ------------------------------------------------------
    def _next_round(self, s: Snap, events: list[Event], voided: bool) -> Snap:
        """DSP-8.1 - DSP-8.3 (or DSP-9.4 when the round is voided)."""
        offenders = tuple(sorted({r.seat for r in s.revokes}))
        forfeited: tuple[int, ...] = ()
        scored: tuple[int, ...] = ()
        points = s.points
        if not voided:
            forfeited = offenders if self.revoke_ruling == "no-point" else ()
            scored = tuple(seat for seat in range(self.seats)
                           if s.tricks_won[seat] in dice_rules.goals(s.dice[seat]) and seat not in forfeited)
            points = tuple(p + (1 if i in scored else 0) for i, p in enumerate(points))
            events.append(RoundScored(s.round, s.tricks_won, scored, forfeited, points))
        summary = RoundSummary(s.round, s.dice, s.tricks_won, scored, forfeited, offenders, voided)
        rounds = (*s.rounds, summary)
        winners = tuple(i for i, p in enumerate(points) if p >= POINTS_TO_WIN)
        if winners:
            events.append(GameOver(winners, points))
            return replace(s, phase=OVER, points=points, rounds=rounds, winners=winners, plays=())
        return self.fresh_round(s.round + 1, points, rounds, events)

    def fresh_round(self, round_no: int, points: tuple[int, ...], rounds: tuple[RoundSummary, ...],
                    events: list[Event] | None = None) -> Snap:
        """The snapshot before round ``round_no``: a shuffle to wait for, or (physical) the dice."""
        if not self.physical:
            return new_round(None, self.seats, round_no, points, rounds, DEAL)
        counts = (HAND_SIZE,) * self.seats
        if events is not None:
            events.append(Dealt(round_no, counts, 48 - HAND_SIZE * self.seats))
        return replace(new_round(None, self.seats, round_no, points, rounds, DICE), hand_counts=counts)

    # ---- what may be done ------------------------------------------------------
    def _legal_moves(self, s: Snap, seat: int) -> list[Move] | None:
        if s.phase == JANKEN:
            return [Janken(seat, h) for h in JANKEN_HANDS]
        if s.phase == TRUMP:
            return [ChooseTrump(seat, c) for c in self.deck.colours]
        if s.phase == PLAY:
            if self.physical:
                return None  # hands are unknown (DSP-9.1)
            lead = self.deck.colour(s.plays[0][1]) if s.plays else None
            return [Play(seat, c) for c in trick_rules.playable(self.deck, s.hands[seat], lead)]
        return []

    def playable(self, seat: int) -> list[str] | None:
        """Card ids ``seat`` may play now (seeded deal), None when unknown (physical), [] off turn."""
        moves = self.legal_moves(seat)
        if moves is None:
            return None
        return [m.card for m in moves if isinstance(m, Play)]

    # ---- what may be seen --------------------------------------------------------
    def _view(self, s: Snap, seat: int | None) -> JSON:
        deck = self.deck
        half = s.half

        def card_json(card: str) -> JSON:
            return {"card": card, "colour": deck.colour(card), "number": deck.number(card, half)}

        view: JSON = {
            "deal": "physical" if self.physical else "seeded",
            "seats": self.seats,
            "colours": list(deck.colours),
            "round": s.round,
            "phase": s.phase,
            "trick": min(s.trick, TRICKS),
            "half": HALVES[half],
            "dice": [list(d) if d else None for d in s.dice],
            "goals": [list(dice_rules.goals(d)) if d else None for d in s.dice],
            "rolling": s.rolling if s.phase == DICE else None,
            "lead": s.lead if s.lead >= 0 else None,
            "leader": s.leader if s.phase == PLAY else None,
            "turn": s.turn if s.phase == PLAY else None,
            "trump": s.trump or None,
            "trump_chooser": s.trump_chooser if s.trump_chooser >= 0 else None,
            "current_trick": [{"seat": p, **card_json(c)} for p, c in s.plays],
            # cards[i] is seat i's card: one list per trick keeps the view small (phones redraw it often)
            "tricks": [{"trick": r.trick, "leader": r.leader, "winner": r.winner,
                        "cards": [c for _, c in sorted(r.plays)]} for r in s.tricks],
            "tricks_won": list(s.tricks_won),
            "points": list(s.points),
            "hand_counts": list(s.hand_counts),
            "out_of_round": 48 - HAND_SIZE * self.seats,
            "voids": [{"seat": v.seat, "colour": v.colour, "trick": v.trick, "led": v.led, "card": v.card}
                      for v in s.voids],
            "revokes": [{"seat": r.seat, "colour": r.colour, "claimed_trick": r.claimed_trick,
                         "led_card": r.led_card, "claimed_card": r.claimed_card, "trick": r.trick, "card": r.card}
                        for r in s.revokes],
            "revoke_ruling": self.revoke_ruling,
            "janken": None if s.phase != JANKEN else {
                "for": s.janken_for, "seats": list(s.janken_seats),
                "chosen": [bool(h) for h in s.janken_hands], "replays": s.janken_replays},
            "rounds": [{"round": r.round, "dice": [list(d) for d in r.dice], "tricks_won": list(r.tricks_won),
                        "scored": list(r.scored), "forfeited": list(r.forfeited), "revokes": list(r.revokes),
                        "voided": r.voided} for r in s.rounds],
            "winners": list(s.winners),
        }
        if seat is not None:
            view["seat"] = seat
            view["hand_known"] = not self.physical
            hand = s.hands[seat]
            view["hand"] = None if self.physical else list(hand)
            view["hand_numbers"] = None if self.physical else [deck.number(c, half) for c in hand]
            playable = self._legal_moves(s, seat) if s.phase == PLAY and s.turn == seat else []
            view["playable"] = None if playable is None else [m.card for m in playable if isinstance(m, Play)]
            if s.phase == JANKEN and seat in s.janken_seats:
                view["my_janken"] = s.janken_hands[s.janken_seats.index(seat)] or None
        return view

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        """Cards in other seats' hands and the out-of-round cards (seeded deal only: physical hands are unknown)."""
        secret: set[str] = set(s.out)
        for i, hand in enumerate(s.hands):
            if i != seat:
                secret.update(hand)
        return frozenset(secret)

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.phase != OVER:
            return None
        shared = len(s.winners) > 1
        names = " and ".join(f"seat {w + 1}" for w in s.winners)
        reason = f"{names} share the victory with 2 points" if shared else f"{names} reached 2 points"
        return Outcome(s.winners, tuple(float(p) for p in s.points), tie=shared, reason=reason)

    def snapshot_to_json(self, s: Snap) -> JSON:
        return snap_to_json(s)

    def snapshot_from_json(self, data: JSON) -> Snap:
        return snap_from_json(data)
