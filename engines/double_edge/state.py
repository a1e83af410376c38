"""The Double-Edge state: phases, moves and the action turn (docs/rules/double-edge.md).

``DoubleEdgeState`` is the standard game.  The variants (variants.py) are
subclasses that override a few hooks, as python-chess does for its variants:
``gambits`` (may Gambits be played), ``azbar_spades`` (which spade effect
combat uses) and ``extra_turn_due`` (does the first player get an extra turn).
"""

from __future__ import annotations

from itertools import permutations

from engines.core import (
    FACE_DOWN,
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
from engines.double_edge import moves as m
from engines.double_edge.cards import ACES, DECK, is_ace, is_card, owner_of_ace, value
from engines.double_edge.combat import Fighter, fight
from engines.double_edge.conservation import claim_unseen, locate
from engines.double_edge.patterns import base_orders, valid_base
from engines.double_edge.snapshot import Snap, Table, snap_from_json, snap_to_json

HAND_LIMIT = 7  # DE-2.3
OPENING_HAND = 7  # DE-2.2
BASE_SIZE = 3  # DE-3.1
WIN_SIZE = 6  # DE-12.2
DEFAULT_MAX_ROUNDS = 100  # DE-R8


def _seat(n: int) -> str:
    return f"seat {n + 1}"


class DoubleEdgeState(State[Snap]):
    """Standard Double-Edge (no Gambits, standard spades, no extra turn)."""

    gambits = False
    azbar_spades = False

    def extra_turn_due(self, t: Table) -> bool:
        """Does the first player take an extra turn now (DE-14.1)?  Never in the standard game."""
        return False

    @property
    def physical(self) -> bool:
        return self.deal == PHYSICAL

    @property
    def max_rounds(self) -> int:
        return int(self.options.get("max_rounds", DEFAULT_MAX_ROUNDS))

    # =============================================================== contract
    def _to_act(self, s: Snap) -> frozenset[int]:
        if s.phase == "build":
            return frozenset(i for i in (0, 1) if not s.sealed_bases[i] and not s.bases[i])
        if s.phase == "reveal":
            return frozenset(seat for seat, _ in s.pending)
        if s.phase == "turn":
            return frozenset((s.first if s.stage in (1, 3) else 1 - s.first,))
        if s.phase == "indicate":
            return frozenset(i for i in (0, 1) if s.indicators[i] is None)
        if s.phase == "claim":
            return frozenset((s.claim_seat,))
        return frozenset()

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        if s.phase == "shuffle":
            return ChanceRequest("shuffle", shuffle_ranges(len(DECK)), label="shuffle the 48 cards (DE-2.2)")
        if s.phase == "coin":
            return ChanceRequest("coin", (2,), label="toss a coin: who goes first in round 1 (DE-R1)")
        return None

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.phase != "over":
            return None
        scores = tuple(0.5 if s.tie else (1.0 if i in s.winners else 0.0) for i in (0, 1))
        return Outcome(s.winners, scores, s.tie, s.reason)

    def snapshot_to_json(self, s: Snap) -> JSON:
        return snap_to_json(s)

    def snapshot_from_json(self, data: JSON) -> Snap:
        return snap_from_json(data)

    # =============================================================== stepping
    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        t = Table(s)
        events: list[Event] = []
        if isinstance(move, ChanceMove):
            if s.phase == "shuffle":
                self._deal(t, move, events)
            else:
                self._coin(t, move.values[0], events)
            return t.freeze(), events
        handler = _HANDLERS.get((s.phase, type(move)))
        if handler is None:
            raise Reject(*self._out_of_phase(s, move))
        handler(self, t, move, events)
        return t.freeze(), events

    def _out_of_phase(self, s: Snap, move: Move) -> tuple[str, str, str]:
        """Rule, sentence and fix for a move of the wrong phase."""
        where = {
            "build": ("DE-3.1", "build your Base first", "seal three cards of your hand as your Base"),
            "reveal": ("DE-15.4", "the table waits for sealed cards to be revealed", "turn the sealed cards face up"),
            "turn": ("DE-6.1", "this is a player's turn", "play Striker/Support actions or end the turn"),
            "indicate": ("DE-8.1", "this is the action turn", "commit an indicator card face down"),
            "claim": ("DE-11.3", "the winner decides whether to add the Support to the Base",
                      "answer the claim (take or leave)"),
        }
        rule, sentence, fix = where.get(s.phase, ("DE-12.4", "the game is over", ""))
        if isinstance(move, m.PlayGambit) and not self.gambits:
            return "DE-13.1", "Gambits are played only in the Azbar ruleset", "play a single Striker"
        return rule, f"{move.type} is not allowed now: {sentence}", fix

    # ---- setup ----------------------------------------------------------
    def _deal(self, t: Table, move: ChanceMove, events: list[Event]) -> None:
        """DE-2.2: shuffle the 48 cards, deal seven each, alternately from the top."""
        deck = list(apply_shuffle(DECK, move.values))
        t.hands = [deck[0:2 * OPENING_HAND:2], deck[1:2 * OPENING_HAND:2]]
        t.deck = deck[2 * OPENING_HAND:]
        t.phase = "build"
        events.append(m.Dealt(OPENING_HAND, len(t.deck)))

    def _build(self, t: Table, move: m.BuildBase, events: list[Event]) -> None:
        """DE-3.1..3.3: seal a Base of three cards in a pattern, draw three; reveal when both are built."""
        seat, cards = move.seat, tuple(move.cards)
        if len(cards) != BASE_SIZE or len(set(cards)) != BASE_SIZE:
            raise Reject("DE-3.1", f"a Base is {BASE_SIZE} different cards, not {len(cards)}",
                         "choose three cards of your hand, top first")
        for card in cards:
            self._check_card(card, "DE-3.1")
            if is_ace(card):
                raise Reject("DE-2.4", "aces are played only as indicators", "build the Base from other cards")
        if not valid_base(cards):
            raise Reject("DE-4.1", f"{'-'.join(cards)} is neither a Straight nor an Anti pattern",
                         "stack cards sharing the same two properties, or adjacent cards sharing exactly one")
        for card in cards:
            self._take_from_hand(t, seat, card, "Base")
        t.sealed_bases[seat] = list(cards)
        self._draw(t, seat, BASE_SIZE)
        events += [m.BaseSealed(seat), m.Drew(seat, BASE_SIZE)]
        if all(t.sealed_bases):
            if self.physical:
                t.phase = "reveal"
                t.pending = [(0, "base"), (1, "base")]
            else:
                self._reveal_bases(t, events)

    def _reveal_bases(self, t: Table, events: list[Event]) -> None:
        t.bases = [list(b) for b in t.sealed_bases]
        t.sealed_bases = [[], []]
        t.phase = "coin"
        events.append(m.BasesRevealed(tuple(tuple(b) for b in t.bases)))

    def _coin(self, t: Table, first: int, events: list[Event]) -> None:
        """DE-R1: the coin decides who goes first in round 1."""
        t.first = first
        self._start_round(t, 1, events)

    def _start_round(self, t: Table, number: int, events: list[Event]) -> None:
        t.round = number
        t.stage = 1
        t.first_acted = False
        t.phase = "turn"
        events.append(m.FirstPlayer(t.first, number))

    # ---- physical reveals -------------------------------------------------
    def _reveal(self, t: Table, move: m.Reveal, events: list[Event]) -> None:
        """DE-15.4: a sealed commitment turned face up must be the card that was sealed."""
        key = (move.seat, move.what)
        if key not in t.pending:
            raise Reject("DE-15.4", f"no sealed {move.what} of {_seat(move.seat)} waits to be revealed",
                         "reveal what the table is waiting for")
        sealed = {"base": t.sealed_bases[move.seat], "indicator": [t.indicators[move.seat]],
                  "support": [t.supports[move.seat]]}[move.what]
        seen = list(move.cards)
        if seen != list(sealed):
            raise Reject("DE-15.4", f"the camera saw {'-'.join(seen) or 'nothing'} as {_seat(move.seat)}'s "
                         f"{move.what}, which is not the card sealed on the phone",
                         "turn over exactly the sealed cards, or call the referee")
        t.pending.remove(key)
        if move.what == "support":
            t.support_up[move.seat] = True
            events.append(m.SupportRevealed(move.seat, seen[0]))
        if t.pending:
            return
        if move.what == "base":
            self._reveal_bases(t, events)
        elif move.what == "indicator":
            self._indicators_revealed(t, events)
        else:
            self._resolve(t, events)

    # ---- player turn actions ------------------------------------------------
    def _check_card(self, card: object, rule: str) -> None:
        if not is_card(card):
            raise Reject(rule, f"{card!r} is not a card id", "name a card like 7H, 10S or QD")

    def _take_from_hand(self, t: Table, seat: int, card: str, destination: str) -> None:
        """DE-6.5: the card leaves the hand (the unseen part of it in a physical deal, DE-15.2)."""
        self._check_card(card, "DE-6.5")
        if card in t.hands[seat]:
            t.hands[seat].remove(card)
        elif self.physical:
            claim_unseen(t, card, seat, destination)
        else:
            raise Reject("DE-6.5", f"{card} is not in your hand", "play a card you hold")

    def _turn_action(self, t: Table, seat: int, support_action: bool) -> None:
        if t.stage == 3 and not support_action:
            raise Reject("DE-14.2", "in the extra turn only the two Support actions are allowed",
                         "add or remove a Support, or end the extra turn")
        if t.stage == 1:
            t.first_acted = True

    def _no_ace(self, card: str) -> None:
        if is_ace(card):
            raise Reject("DE-2.4", "aces are played only as indicators in the action turn",
                         "play another card")

    def _play_striker(self, t: Table, move: m.PlayStriker, events: list[Event]) -> None:
        """DE-6.2: a Striker face up, only when you have none."""
        seat = move.seat
        self._turn_action(t, seat, False)
        if t.strikers[seat] is not None:
            raise Reject("DE-6.2", f"you already have a Striker ({t.strikers[seat]})",
                         "a new Striker comes only after the old one is defeated")
        self._check_card(move.card, "DE-6.5")
        self._no_ace(move.card)
        self._take_from_hand(t, seat, move.card, "Striker")
        t.strikers[seat] = move.card
        events.append(m.StrikerPlayed(seat, move.card))

    def _discard_support(self, t: Table, move: m.DiscardSupport, events: list[Event]) -> None:
        """DE-6.3: discard a card from hand, then the Support goes to the discard pile (on top, DE-R15)."""
        seat = move.seat
        self._turn_action(t, seat, True)
        if t.supports[seat] is None:
            raise Reject("DE-6.3", "you have no Support to remove", "play a Support first")
        if t.middles[seat]:
            raise Reject("DE-R12", "a Gambit's cards stay as they are until the action turn ends",
                         "play a new Gambit or Striker only after this one leaves")
        self._check_card(move.card, "DE-6.5")
        self._no_ace(move.card)
        support = self._support_leaving(t, seat, move.seen)
        self._take_from_hand(t, seat, move.card, "discard")
        t.discards[seat] += [move.card, support]
        t.supports[seat] = None
        t.support_up[seat] = False
        events.append(m.Discarded(seat, (move.card, support), "support removed"))

    def _support_leaving(self, t: Table, seat: int, seen: str | None) -> str:
        """The Support about to land face up in the discard pile, checked against its seal (DE-15.4)."""
        support = t.supports[seat]
        assert support is not None
        if seen is not None and seen != support:
            raise Reject("DE-15.4", f"the camera saw {seen} leave as the Support, but {support} was sealed",
                         "discard exactly the sealed Support, or call the referee")
        if self.physical and seen is None and not t.support_up[seat]:
            raise Reject("DE-15.4", "say which card the face-down Support turned out to be",
                         "send the card the camera saw land in the discard pile")
        return support

    def _play_support(self, t: Table, move: m.PlaySupport, events: list[Event]) -> None:
        """DE-6.4: a card face down under a Striker that has no Support."""
        seat = move.seat
        self._turn_action(t, seat, True)
        if t.strikers[seat] is None:
            raise Reject("DE-6.4", "a Support goes under a Striker, and you have none", "play a Striker first")
        if t.supports[seat] is not None:
            raise Reject("DE-6.4", "your Striker already has a Support", "remove it first (discard a card)")
        self._check_card(move.card, "DE-6.5")
        self._no_ace(move.card)
        self._take_from_hand(t, seat, move.card, "Support")
        t.supports[seat] = move.card
        t.support_up[seat] = False
        events.append(m.SupportPlayed(seat))

    def _play_gambit(self, t: Table, move: m.PlayGambit, events: list[Event]) -> None:
        """DE-13.1/13.2 (azbar): three or four cards of one value, face up, old Striker discarded."""
        if not self.gambits:
            raise Reject("DE-13.1", "Gambits are played only in the Azbar ruleset", "play a single Striker")
        seat, cards = move.seat, tuple(move.cards)
        self._turn_action(t, seat, False)
        if len(cards) < 3 or len(set(cards)) != len(cards):
            raise Reject("DE-13.1", "a Gambit is three or more different cards of one value",
                         "play three or four cards of the same value")
        for card in cards:
            self._check_card(card, "DE-13.1")
            self._no_ace(card)
        if len({value(c) for c in cards}) != 1:
            raise Reject("DE-13.1", f"{'-'.join(cards)} are not all of one value",
                         "play three or four cards of the same value")
        if t.strikers[seat] is not None:
            if t.supports[seat] is not None:
                self._support_leaving(t, seat, move.seen)
            self._clear_striker(t, seat, events, "made room for a Gambit")
        for card in cards:
            self._take_from_hand(t, seat, card, "Gambit")
        t.strikers[seat] = cards[0]
        t.middles[seat] = list(cards[1:-1])
        t.supports[seat] = cards[-1]
        t.support_up[seat] = True
        events.append(m.GambitPlayed(seat, cards))

    def _clear_striker(self, t: Table, seat: int, events: list[Event], why: str) -> None:
        """The Striker area goes to the discard pile: Support first, then the middle cards, Striker last (DE-11.2)."""
        pile = []
        if t.supports[seat] is not None:
            pile.append(t.supports[seat])
        pile += reversed(t.middles[seat])
        if t.strikers[seat] is not None:
            pile.append(t.strikers[seat])
        t.discards[seat] += pile
        t.strikers[seat] = t.supports[seat] = None
        t.support_up[seat] = False
        t.middles[seat] = []
        events.append(m.Discarded(seat, tuple(pile), why))

    # ---- ending a turn -------------------------------------------------------
    def end_options(self, t: Table | Snap, seat: int) -> list[Move]:
        """The ways ``seat`` may end this turn (DE-7.1..7.5); EndTurn only when nothing can be taken."""
        if t.stage == 3:
            return [m.EndTurn(seat)]
        h, own, opp = len(t.hands[seat]) + t.hand_unknown[seat], t.discards[seat], t.discards[1 - seat]
        one_pile = [p for p, cards in ((seat, own), (1 - seat, opp)) if cards]
        out: list[Move] = []
        if len(t.deck) + t.deck_unknown > 0:
            if h < HAND_LIMIT:
                out.append(m.Draw(seat))
            if h < HAND_LIMIT - 1 and own and opp:
                out.append(m.TakeDiscards(seat))
            if h < HAND_LIMIT and len(one_pile) == 1:
                out.append(m.TakeDiscard(seat, one_pile[0]))
        elif h < HAND_LIMIT - 1 and own and opp:
            out.append(m.TakeDiscards(seat))
        elif h == HAND_LIMIT - 1 and own and opp:
            out.append(m.TakeDiscard(seat, seat))
        elif h < HAND_LIMIT and len(one_pile) == 1:
            out.append(m.TakeDiscard(seat, one_pile[0]))
        return out or [m.EndTurn(seat)]

    def _end_refusal(self, t: Table, move: Move) -> Reject:
        seat = move.actor
        assert seat is not None
        h = t.hand_size(seat)
        if t.stage == 3:
            return Reject("DE-14.3", "no drawing or taking at the end of the extra turn", "end the extra turn")
        if isinstance(move, m.EndTurn):
            return Reject("DE-7.6", "you must draw or take a card before ending your turn",
                          "draw from the deck or take from a discard pile")
        if h >= HAND_LIMIT:
            return Reject("DE-7.5", "your hand is full (7 cards)", "confirm the end of your turn")
        if isinstance(move, m.Draw):
            return Reject("DE-7.4", "the shared deck is empty", "take from the discard piles")
        if isinstance(move, m.TakeDiscards):
            if h >= HAND_LIMIT - 1:
                return Reject("DE-7.2", "you may take from both discard piles only with fewer than six cards",
                              "draw one card or take one from a pile")
            return Reject("DE-7.2", "both discard piles must have cards to take from both", "draw or take one")
        if isinstance(move, m.TakeDiscard):
            if move.pile not in (0, 1) or not t.discards[move.pile]:
                return Reject("DE-7.3", "that discard pile is empty", "take from a pile with cards")
            if t.deck_size() == 0 and h == HAND_LIMIT - 1:
                return Reject("DE-7.4", "with the deck empty and six cards, take one card from your own pile",
                              "take the top card of your own discard pile")
            return Reject("DE-7.3", "one card from a single pile only when the other pile is empty",
                          "draw, or take the top card of both piles")
        return Reject("DE-7.6", "that is not a way to end the turn", "draw or take a card")

    def _end_turn(self, t: Table, move: Move, events: list[Event]) -> None:
        seat = move.actor
        assert seat is not None
        if move not in self.end_options(t, seat):
            raise self._end_refusal(t, move)
        if isinstance(move, m.Draw):
            self._draw(t, seat, 1)
            events.append(m.Drew(seat, 1))
        elif isinstance(move, m.TakeDiscards):
            for pile in (seat, 1 - seat):
                self._take_top(t, seat, pile, events)
        elif isinstance(move, m.TakeDiscard):
            self._take_top(t, seat, move.pile, events)
        events.append(m.TurnEnded(seat, t.stage == 3))
        if t.stage == 1:
            t.stage = 2
        elif t.stage == 2 and self.extra_turn_due(t):
            t.stage = 3
        else:
            self._start_action_turn(t)

    def _draw(self, t: Table, seat: int, n: int) -> None:
        for _ in range(n):
            if t.deck:
                t.hands[seat].append(t.deck.pop(0))
            else:
                t.deck_unknown -= 1
                t.hand_unknown[seat] += 1

    def _take_top(self, t: Table, seat: int, pile: int, events: list[Event]) -> None:
        card = t.discards[pile].pop()
        t.hands[seat].append(card)
        t.took_face_up(seat, card)
        events.append(m.TookDiscard(seat, pile, card))

    # ---- the action turn -------------------------------------------------
    def _start_action_turn(self, t: Table) -> None:
        t.phase = "indicate"
        t.stage = 0
        t.indicators = [None, None]
        t.indicators_up = False
        t.had_striker = [s is not None for s in t.strikers]

    def _indicate(self, t: Table, move: m.Indicate, events: list[Event]) -> None:
        """DE-8.1: an ace you hold or a card from your hand, face down; revealed when both are in."""
        seat, card = move.seat, move.card
        self._check_card(card, "DE-8.1")
        if is_ace(card):
            if owner_of_ace(card) != seat:
                raise Reject("DE-2.1", f"{card} is {_seat(1 - seat)}'s ace", f"use your own aces {', '.join(ACES[seat])}")
        else:
            self._take_from_hand(t, seat, card, "indicator")
        t.indicators[seat] = card
        events.append(m.IndicatorCommitted(seat))
        if None in t.indicators:
            return
        if self.physical:
            t.phase = "reveal"
            t.pending = [(0, "indicator"), (1, "indicator")]
        else:
            self._indicators_revealed(t, events)

    def kind(self, t: Table, seat: int) -> str:
        card = t.indicators[seat]
        if card == ACES[seat][0]:
            return "red"
        if card == ACES[seat][1]:
            return "black"
        return "other"

    def _indicators_revealed(self, t: Table, events: list[Event]) -> None:
        """DE-8.2 and DE-8.8: indicators face up, then every Support drawn into an attack."""
        t.indicators_up = True
        t.phase = "reveal"
        events.append(m.IndicatorsRevealed(tuple(c for c in t.indicators if c is not None)))
        flips = [seat for seat in (0, 1) if self._support_involved(t, seat) and not t.support_up[seat]]
        if self.physical and flips:
            t.pending = [(seat, "support") for seat in flips]
            return
        for seat in flips:
            t.support_up[seat] = True
            events.append(m.SupportRevealed(seat, t.supports[seat]))  # type: ignore[arg-type]
        self._resolve(t, events)

    def _support_involved(self, t: Table, seat: int) -> bool:
        """DE-8.8: a Striker attacking or attacked turns its Support face up (a fizzled attack is none, DE-R5)."""
        if t.strikers[seat] is None or t.supports[seat] is None:
            return False
        mine, theirs = self.kind(t, seat), self.kind(t, 1 - seat)
        attacks = mine == "black" or (mine == "red" and t.strikers[1 - seat] is not None)
        return attacks or theirs == "red"

    def _fighter(self, t: Table, seat: int, kind: str, base_support: str | None = None) -> Fighter:
        if kind == "striker":
            return Fighter(seat, "striker", (t.strikers[seat], *t.middles[seat]), t.supports[seat])  # type: ignore[arg-type]
        return Fighter(seat, "base", (t.bases[seat][0],), base_support)

    def _attacker(self, t: Table, seat: int) -> Fighter:
        """DE-8.6: without a Striker, the Base's top card attacks, with no Support."""
        return self._fighter(t, seat, "striker" if t.had_striker[seat] else "base")

    def _defending_base(self, t: Table, seat: int) -> Fighter:
        """DE-8.5: a non-ace indicator supports its owner's attacked Base."""
        support = t.indicators[seat] if self.kind(t, seat) == "other" else None
        return self._fighter(t, seat, "base", support)

    def _fight(self, a: Fighter, b: Fighter):
        return fight(a, b, azbar=self.azbar_spades)

    def _combat(self, t: Table, a: Fighter, b: Fighter, events: list[Event]) -> Fighter | None:
        """Fight once and report; returns the loser (None: stalemate, DE-9.1)."""
        result = self._fight(a, b)
        winner = None if result.winner is None else (a, b)[result.winner]
        events.append(m.Combat((a.kind, b.kind), (a.seat, b.seat), result.values,
                               None if winner is None else winner.seat, result.rule))
        if winner is None:
            return None
        return b if winner is a else a

    def _defeat(self, t: Table, loser: Fighter, events: list[Event]) -> None:
        """DE-11.1 / DE-11.2: a defeated Base gives up its top card, a defeated Striker is discarded."""
        seat = loser.seat
        if loser.kind == "striker":
            self._clear_striker(t, seat, events, "defeated")
            return
        card = t.bases[seat].pop(0)
        if t.hand_size(seat) < HAND_LIMIT:
            t.hands[seat].append(card)
            t.took_face_up(seat, card)
            events.append(m.BaseLost(seat, card, "hand"))
        else:
            t.discards[seat].append(card)
            events.append(m.BaseLost(seat, card, "discard"))

    def _resolve(self, t: Table, events: list[Event]) -> None:
        """DE-8.7: attacks on Strikers first, then attacks on Bases; the game may end after each step (DE-R6)."""
        t.pending = []
        kinds = [self.kind(t, 0), self.kind(t, 1)]
        # Step 1: red aces against Strikers.
        claim: tuple[int, list[str]] | None = None
        reds = []
        for seat in (0, 1):
            if kinds[seat] != "red":
                continue
            if t.strikers[1 - seat] is None:
                events.append(m.Fizzled(seat, "DE-R5"))
            else:
                reds.append(seat)
        if reds:
            seat = reds[0]
            # Two Strikers attacking each other fight once (DE-R9).
            attacker, defender = self._attacker(t, seat), self._fighter(t, 1 - seat, "striker")
            loser = self._combat(t, attacker, defender, events)
            if loser is not None:
                winner = defender if loser is attacker else attacker
                if winner.kind == "striker" and loser.kind == "striker" and kinds[winner.seat] == "red":
                    cards = [*t.middles[winner.seat], *([t.supports[winner.seat]] if t.supports[winner.seat] else [])]
                    if cards and valid_base([*t.bases[winner.seat], *cards]):
                        claim = (winner.seat, cards)  # type: ignore[assignment]
                self._defeat(t, loser, events)
            if self._ended(t, events):
                return
        # Step 2: black aces against Bases, both at once (DE-R6).
        fights = []
        for seat in (0, 1):
            if kinds[seat] != "black" or (t.had_striker[seat] and t.strikers[seat] is None):
                continue  # a Striker defeated in step 1 makes no attack (DE-8.7)
            fights.append((self._attacker(t, seat), self._defending_base(t, 1 - seat)))
        if len(fights) == 2 and fights[0][0].kind == fights[1][0].kind == "base":
            fights = fights[:1]  # the two Base tops attack each other: one combat (DE-R9)
        losers = []
        for a, b in fights:
            loser = self._combat(t, a, b, events)
            if loser is not None and (loser.seat, loser.kind) not in [(x.seat, x.kind) for x in losers]:
                losers.append(loser)  # a card is defeated once however many combats it loses (DE-R6)
        for loser in losers:
            self._defeat(t, loser, events)
        if self._ended(t, events):
            return
        if claim is not None:
            t.phase = "claim"
            t.claim_seat, t.claim_cards = claim[0], claim[1]
            return
        self._finish_action_turn(t, events)

    def _claim(self, t: Table, move: m.Claim, events: list[Event]) -> None:
        """DE-11.3 / DE-13.6: the red-ace winner adds its Support (Gambit: all cards under the Striker)."""
        if not isinstance(move.take, bool):
            raise Reject("DE-11.3", "answer the claim with take true or false")
        seat = move.seat
        if move.take:
            cards = list(t.claim_cards)
            t.bases[seat] += cards
            t.middles[seat] = []
            t.supports[seat] = None
            t.support_up[seat] = False
            events.append(m.AddedToBase(seat, tuple(cards)))
        t.claim_seat, t.claim_cards = -1, []
        if self._ended(t, events):
            return
        self._finish_action_turn(t, events)

    def _finish_action_turn(self, t: Table, events: list[Event]) -> None:
        """DE-13.7, DE-11.4: Gambit middles and non-ace indicators to the discard piles; next round."""
        for seat in (0, 1):
            if t.middles[seat] and t.strikers[seat] is not None:
                cards = list(reversed(t.middles[seat]))
                t.discards[seat] += cards
                t.middles[seat] = []
                events.append(m.Discarded(seat, tuple(cards), "Gambit middle (DE-13.7)"))
        for seat in (0, 1):
            card = t.indicators[seat]
            if card is not None and not is_ace(card):
                t.discards[seat].append(card)
                events.append(m.Discarded(seat, (card,), "indicator"))
        t.indicators = [None, None]
        t.indicators_up = False
        t.had_striker = [False, False]
        if t.deck_size() == 0 and not t.discards[0] and not t.discards[1]:
            self._compare_bases(t, events, "the deck and both discard piles are empty (DE-R7)")
            return
        if t.round >= self.max_rounds:
            self._compare_bases(t, events, f"the round limit of {self.max_rounds} was reached (DE-R8)")
            return
        t.first = 1 - t.first
        self._start_round(t, t.round + 1, events)

    # ---- the end ---------------------------------------------------------
    def _ended(self, t: Table, events: list[Event]) -> bool:
        """DE-12.1..12.3: an empty Base loses, six or more wins; both at once is a tie."""
        loses = [not b for b in t.bases]
        wins = [len(b) >= WIN_SIZE for b in t.bases]
        good = [wins[i] or loses[1 - i] for i in (0, 1)]
        if not any(good):
            return False
        winners = tuple(i for i in (0, 1) if good[i])
        tie = len(winners) == 2
        reasons = [f"{_seat(i)}'s Base is empty" for i in (0, 1) if loses[i]]
        reasons += [f"{_seat(i)}'s Base holds {len(t.bases[i])} cards" for i in (0, 1) if wins[i]]
        self._over(t, () if tie else winners, tie, "; ".join(reasons), events)
        return True

    def _compare_bases(self, t: Table, events: list[Event], why: str) -> None:
        a, b = len(t.bases[0]), len(t.bases[1])
        winners = () if a == b else ((0,) if a > b else (1,))
        self._over(t, winners, a == b, f"{why}: Bases {a} and {b}", events)

    def _over(self, t: Table, winners: tuple[int, ...], tie: bool, reason: str, events: list[Event]) -> None:
        t.phase = "over"
        t.winners, t.tie, t.reason = winners, tie, reason
        events.append(m.GameOver(winners, tie, reason))

    # =============================================================== legal moves
    def _legal_moves(self, s: Snap, seat: int) -> list[Move] | None:
        if self.physical:
            return None  # hidden cards are unknown: the moves cannot be listed (DE-15.1)
        if s.phase == "build":
            return [m.BuildBase(seat, order) for order in base_orders(s.hands[seat], BASE_SIZE)]
        if s.phase == "indicate":
            return [m.Indicate(seat, c) for c in (*ACES[seat], *s.hands[seat])]
        if s.phase == "claim":
            return [m.Claim(seat, True), m.Claim(seat, False)]
        if s.phase == "turn":
            return self._turn_moves(s, seat)
        return []

    def _turn_moves(self, s: Snap, seat: int) -> list[Move]:
        hand = s.hands[seat]
        out: list[Move] = []
        striker, support, gambit = s.strikers[seat], s.supports[seat], bool(s.middles[seat])
        if s.stage != 3 and striker is None:
            out += [m.PlayStriker(seat, c) for c in hand]
        if support is not None and not gambit:
            out += [m.DiscardSupport(seat, c) for c in hand]
        if striker is not None and support is None:
            out += [m.PlaySupport(seat, c) for c in hand]
        if self.gambits and s.stage != 3:
            out += self._gambit_moves(seat, hand)
        out += self.end_options(s, seat)
        return out

    @staticmethod
    def _gambit_moves(seat: int, hand: tuple[str, ...]) -> list[Move]:
        by_value: dict[int, list[str]] = {}
        for c in hand:
            by_value.setdefault(value(c), []).append(c)
        out: list[Move] = []
        for cards in by_value.values():
            for size in range(3, len(cards) + 1):
                out += [m.PlayGambit(seat, p) for p in permutations(cards, size)]
        return out

    # =============================================================== views
    def _view(self, s: Snap, seat: int | None) -> JSON:
        def support_shown(i: int) -> str | None:
            card = s.supports[i]
            if card is None:
                return None
            return card if s.support_up[i] or i == seat else FACE_DOWN

        def indicator_shown(i: int) -> str | None:
            card = s.indicators[i]
            if card is None:
                return None
            return card if s.indicators_up or i == seat else FACE_DOWN

        view: JSON = {
            "phase": s.phase,
            "round": s.round,
            "first": s.first if s.first >= 0 else None,
            "turn": (s.first if s.stage in (1, 3) else 1 - s.first) if s.phase == "turn" else None,
            "extra_turn": s.phase == "turn" and s.stage == 3,
            "deck": len(s.deck) + s.deck_unknown,
            "hand_counts": [len(s.hands[i]) + s.hand_unknown[i] for i in (0, 1)],
            "bases": [list(b) for b in s.bases],
            "base_sealed": [bool(b) for b in s.sealed_bases],
            "strikers": list(s.strikers),
            "gambit_middles": [list(x) for x in s.middles],
            "supports": [support_shown(i) for i in (0, 1)],
            "indicators": [indicator_shown(i) for i in (0, 1)],
            "discards": [list(d) for d in s.discards],
            "known_in_hand": [[c for c in s.known[i] if c in s.hands[i]] for i in (0, 1)],
            "pending_reveals": [{"seat": i, "what": w} for i, w in s.pending],
            "claim": {"seat": s.claim_seat, "cards": list(s.claim_cards)} if s.phase == "claim" else None,
        }
        if seat is not None:
            view["seat"] = seat
            view["hand"] = list(s.hands[seat])
            view["hand_unseen"] = s.hand_unknown[seat]
            view["aces"] = [a for a in ACES[seat] if a != s.indicators[seat]]
            view["my_sealed_base"] = list(s.sealed_bases[seat])
        return view

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        secret: set[str] = set()
        for i in (0, 1):
            if i == seat:
                continue
            public = s.known[i]
            secret.update(c for c in s.hands[i] if c not in public)
            secret.update(s.sealed_bases[i])
            if s.supports[i] is not None and not s.support_up[i]:
                secret.add(s.supports[i])  # type: ignore[arg-type]
            if s.indicators[i] is not None and not s.indicators_up:
                secret.add(s.indicators[i])  # type: ignore[arg-type]
        return frozenset(secret)

    # ---- helpers for callers -----------------------------------------------
    def where_is(self, card: str) -> str | None:
        """The known place of a card ("seat 2's discard pile"), None when unseen (physical deal)."""
        return locate(Table(self.snapshot), card)


_HANDLERS = {
    ("build", m.BuildBase): DoubleEdgeState._build,
    ("reveal", m.Reveal): DoubleEdgeState._reveal,
    ("turn", m.PlayStriker): DoubleEdgeState._play_striker,
    ("turn", m.DiscardSupport): DoubleEdgeState._discard_support,
    ("turn", m.PlaySupport): DoubleEdgeState._play_support,
    ("turn", m.PlayGambit): DoubleEdgeState._play_gambit,
    ("turn", m.Draw): DoubleEdgeState._end_turn,
    ("turn", m.TakeDiscards): DoubleEdgeState._end_turn,
    ("turn", m.TakeDiscard): DoubleEdgeState._end_turn,
    ("turn", m.EndTurn): DoubleEdgeState._end_turn,
    ("indicate", m.Indicate): DoubleEdgeState._indicate,
    ("claim", m.Claim): DoubleEdgeState._claim,
}
"""(phase, move class) -> the method that handles it; anything else is out of phase."""
