"""The rules as pure functions: one snapshot and a move in, a new snapshot and events out.

Every function here takes the table's :class:`Fight` and a :class:`Snap` and
never mutates either; a broken rule raises :class:`Reject` naming its id in
docs/rules/two-freakin-swords.md.  Steps that need no decision (drawing,
resolving the grid, ending the turn) run on by themselves until a fighter or
chance must act.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from engines.core import ChanceMove, ChanceRequest, Event, Move, Reject, apply_shuffle, shuffle_ranges
from engines.two_freakin_swords import physical
from engines.two_freakin_swords.cards import HAND_SIZE, KINDS, count_kinds, is_card, kind_of, side_of
from engines.two_freakin_swords.grid import Grid
from engines.two_freakin_swords.moves import (
    Announce,
    Announced,
    ChooseOpening,
    CoinsMoved,
    Defeated,
    Drew,
    Eliminated,
    Engaged,
    FightOver,
    OpeningChosen,
    Place,
    Placed,
    Reveal,
    Revealed,
    Shuffled,
    TurnBegan,
)
from engines.two_freakin_swords.seating import pairs, partners, seat_of
from engines.two_freakin_swords.snapshot import Engagement, Fall, Fight, Placement, Snap

PLACE_PHASES = ("place-1", "place-2")
REVEAL_PHASES = ("reveal-1", "reveal-2")


def _set(seq: tuple, index: int, value) -> tuple:
    return (*seq[:index], value, *seq[index + 1:])


# --------------------------------------------------------------------------
# Who acts, what chance is awaited


def eligible(f: Fight, s: Snap) -> dict[int, tuple[list[str], list[str]]]:
    """Seats that may announce this turn -> (lunge targets, arms whose teammate coin they may pass)."""
    out: dict[int, tuple[list[str], list[str]]] = {}
    partner = partners(s.circle)
    coins = set(s.coins)
    for p in s.circle:
        right, left = f"{p}R", f"{p}L"
        targets: list[str] = []
        if right in coins and left in coins:
            for a in (right, left):
                b = partner.get(a)
                if b and f.hostile(p, seat_of(b)) and b not in targets:
                    targets.append(b)
        passable = [a[-1] for a in (right, left)
                    if a in coins and a in partner and not f.hostile(p, seat_of(partner[a]))]
        if targets or passable:
            out[p] = (targets, passable)
    return out


def to_act(f: Fight, s: Snap) -> frozenset[int]:
    if s.phase == "opening":
        return frozenset(p for p in range(f.seats) if p not in s.chosen)
    if s.phase == "announce":
        return frozenset(p for p in eligible(f, s) if p not in s.announced)
    if s.phase in PLACE_PHASES or s.phase in REVEAL_PHASES:
        return frozenset(int(a[:-1]) for a in s.waiting)  # seat_of, inlined: this runs on every move
    return frozenset()


def pending_chance(f: Fight, s: Snap) -> ChanceRequest | None:
    if s.to_shuffle:
        pile = s.to_shuffle[0]
        who = "the community deck" if f.community else f"seat {pile + 1}'s deck"
        return ChanceRequest("shuffle", shuffle_ranges(len(s.decks[pile])), None if f.community else pile,
                             f"shuffle {who}")
    if s.reshuffle is not None:
        pile = s.reshuffle
        who = "the community deck" if f.community else f"seat {pile + 1}'s deck"
        return ChanceRequest("shuffle", shuffle_ranges(len(s.discards[pile])), None if f.community else pile,
                             f"{who} ran out: reshuffle the {len(s.discards[pile])} cards out of hand and play")
    return None


def legal_moves(f: Fight, s: Snap, seat: int) -> list[Move]:
    if s.phase == "opening":
        have = count_kinds(s.decks[seat])
        out: list[Move] = []
        for combo in itertools.combinations_with_replacement(KINDS, HAND_SIZE):
            need = count_kinds(list(combo))
            if all(need[k] <= have[k] for k in KINDS):
                out.append(ChooseOpening(seat, combo))
        return out
    if s.phase == "announce":
        targets, passable = eligible(f, s)[seat]
        return [Announce(seat, t, p) for t in (None, *targets) for p in (None, *passable)]
    mine = [a for a in s.waiting if seat_of(a) == seat]
    if s.phase in PLACE_PHASES:
        hand = s.hands[seat]
        if f.physical and hand:  # TFS-14.5: the kinds the unseen hand may hold
            hand = tuple(physical.possible_kinds(f, s, seat))
        targets = {t for _, t in s.lunges}
        moves: list[Move] = []
        for a in mine:
            for card in hand or (None,):
                counters = ("R", "L") if a in targets and card is not None else (None,)
                moves.extend(Place(seat, a[-1], card, c) for c in counters)  # type: ignore[arg-type]
        return moves
    if s.phase in REVEAL_PHASES:
        return [Reveal(seat, a[-1], s.placement(a).card) for a in mine]  # type: ignore[arg-type, union-attr]
    return []


# --------------------------------------------------------------------------
# Applying a move


def step(f: Fight, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
    events: list[Event] = []
    if isinstance(move, ChanceMove):
        s = _chance(f, s, move, events)
    elif isinstance(move, ChooseOpening):
        s = _choose_opening(f, s, move, events)
    elif isinstance(move, Announce):
        s = _announce(f, s, move, events)
    elif isinstance(move, Place):
        s = _place(f, s, move, events)
    elif isinstance(move, Reveal):
        s = _reveal(f, s, move, events)
    else:
        raise Reject("TFS-7.1", f"{move.type!r} is not a move of Two Freakin' Swords")
    return s, events


def describe(s: Snap) -> str:
    return {
        "opening": "fighters are choosing their opening hands",
        "shuffle": "a deck is being shuffled",
        "draw": "cards are being drawn",
        "announce": "lunges and coin passes are being announced",
        "place-1": "aggressors are placing cards",
        "place-2": "defenders are placing cards",
        "reveal-1": "aggressors are revealing",
        "reveal-2": "defenders are revealing",
        "over": "the fight is over",
    }.get(s.phase, s.phase)


def _chance(f: Fight, s: Snap, move: ChanceMove, events: list[Event]) -> Snap:
    if s.to_shuffle:
        pile = s.to_shuffle[0]
        deck = apply_shuffle(s.decks[pile], move.values)
        s = s.but(decks=_set(s.decks, pile, deck), to_shuffle=s.to_shuffle[1:])
        events.append(Shuffled(pile, len(deck), False))
        if s.to_shuffle:
            return s
        if f.community:
            order = f.clockwise_from_youngest(list(range(f.seats)))
            return _run_draws(f, s.but(phase="draw", draws=tuple((p, HAND_SIZE) for p in order), then="turn"),
                              events)
        return _begin_turn(f, s, events)
    pile = s.reshuffle
    assert pile is not None
    deck = apply_shuffle(s.discards[pile], move.values)
    s = s.but(decks=_set(s.decks, pile, s.decks[pile] + deck), discards=_set(s.discards, pile, ()),
                reshuffle=None)
    events.append(Shuffled(pile, len(deck), True))
    return _run_draws(f, s, events)


def _choose_opening(f: Fight, s: Snap, move: ChooseOpening, events: list[Event]) -> Snap:
    if s.phase != "opening":
        raise Reject("TFS-3.2", f"opening hands are chosen before the first turn; now {describe(s)}")
    cards = tuple(move.cards)
    if len(cards) != HAND_SIZE:
        raise Reject("TFS-3.2", f"an opening hand has {HAND_SIZE} cards, not {len(cards)}",
                     "choose exactly 4 of strike, fake, block, parry")
    bad = [c for c in cards if c not in KINDS]
    if bad:
        raise Reject("TFS-3.2", f"{bad[0]!r} is not a card", "choose from strike, fake, block, parry")
    deck = list(s.decks[move.seat])
    hand = []
    for kind in cards:
        found = next((c for c in deck if kind_of(c) == kind), None)
        if found is None:
            raise Reject("TFS-3.2", f"your deck has no more {kind} cards for this opening hand",
                         "choose cards your deck holds")
        deck.remove(found)
        hand.append(found)
    s = s.but(hands=_set(s.hands, move.seat, tuple(hand)), decks=_set(s.decks, move.seat, tuple(deck)),
                chosen=(*s.chosen, move.seat))
    events.append(OpeningChosen(move.seat))
    if len(s.chosen) == f.seats:
        # Ruling TFS-R8: the rest of each deck is shuffled once the opening hand is out.
        s = s.but(phase="shuffle", to_shuffle=tuple(range(f.seats)))
    return s


# --------------------------------------------------------------------------
# Drawing


def _run_draws(f: Fight, s: Snap, events: list[Event]) -> Snap:
    """Work through the draw queue; stop for a reshuffle (chance), then go on to ``s.then``."""
    draws = list(s.draws)
    hands, decks, discards = list(s.hands), list(s.decks), list(s.discards)
    while draws:
        seat, n = draws[0]
        pile = f.pile(seat)
        if n > 0 and not decks[pile] and f.physical and discards[pile]:
            # TFS-14.1: the pile is reshuffled at the table; its cards are unseen again.
            decks[pile], discards[pile] = physical.unseen(len(discards[pile])), ()
            s = s.but(discards=tuple(discards))
            s = s.but(provisional=tuple(c for c in s.provisional if physical.locate(f, s, c) is not None))
            events.append(Shuffled(pile, len(decks[pile]), True))
        if n > 0 and not decks[pile]:
            if len(discards[pile]) >= 2:  # TFS-2.4
                return s.but(phase="draw", draws=tuple(draws), hands=tuple(hands), decks=tuple(decks),
                               discards=tuple(discards), reshuffle=pile)
            decks[pile], discards[pile] = discards[pile], ()
        take = min(n, len(decks[pile]))
        if take:
            hands[seat] = hands[seat] + decks[pile][:take]
            decks[pile] = decks[pile][take:]
            events.append(Drew(seat, take))
        if take == n or not decks[pile]:
            draws.pop(0)  # TFS-2.5: with nothing left anywhere, a fighter draws what there is
        else:
            draws[0] = (seat, n - take)
    s = s.but(draws=(), hands=tuple(hands), decks=tuple(decks), discards=tuple(discards))
    if s.then == "round":
        return _start_round(f, s, events)
    return _begin_turn(f, s, events)


# --------------------------------------------------------------------------
# A turn: announce, place, reveal, resolve


def start_turn(f: Fight, s: Snap) -> tuple[Snap, list[Event]]:
    """Begin the next turn from a snapshot at a turn boundary (cards in play go to the discard pile).

    For restoring a table set up by hand between turns, and for tests that set
    up hands, hits and coins before a turn."""
    events: list[Event] = []
    return _begin_turn(f, s, events), events


def _begin_turn(f: Fight, s: Snap, events: list[Event]) -> Snap:
    discards = list(s.discards)
    for card in s.in_play:
        pile = f.pile_of_card(card)
        discards[pile] = discards[pile] + (card,)
    s = s.but(turn=s.turn + 1, discards=tuple(discards), in_play=(), announced=(), lunges=(), passes=(),
                engagements=(), cursor=0, placements=(), fell=(), coin_passes=(), round1=(), round2=(), waiting=())
    events.append(TurnBegan(s.turn, s.coins))
    if eligible(f, s):
        return s.but(phase="announce")
    return _plan_turn(f, s, events)


def _announce(f: Fight, s: Snap, move: Announce, events: list[Event]) -> Snap:
    if s.phase != "announce":
        raise Reject("TFS-7.1", f"lunges and coin passes are announced before any card is placed; now {describe(s)}")
    targets, passable = eligible(f, s)[move.seat]
    if move.lunge_at is not None and move.lunge_at not in targets:
        if not any(t for t in targets):
            raise Reject("TFS-10.1", "you may lunge only with an aggression coin on both arms",
                         "announce without a lunge")
        raise Reject("TFS-10.1", f"you can lunge only at an arm you normally engage, not {move.lunge_at!r}",
                     f"lunge at one of {', '.join(targets)}")
    if move.pass_arm is not None and move.pass_arm not in passable:
        raise Reject("TFS-12.1", "you can pass only a coin held on the arm that faces your teammate",
                     f"pass the coin on arm {' or '.join(passable)}" if passable else "announce without a pass")
    s = s.but(announced=(*s.announced, move.seat))
    if move.lunge_at is not None:
        s = s.but(lunges=(*s.lunges, (move.seat, move.lunge_at)))
    if move.pass_arm is not None:
        s = s.but(passes=(*s.passes, f"{move.seat}{move.pass_arm}"))
    events.append(Announced(move.seat, move.lunge_at, move.pass_arm))
    if all(p in s.announced for p in eligible(f, s)):
        return _plan_turn(f, s, events)
    return s


def _plan_turn(f: Fight, s: Snap, events: list[Event]) -> Snap:
    """Which arms place first and second, and the order engagements resolve in (TFS-R9)."""
    partner = partners(s.circle)
    coins = set(s.coins)
    lunging: set[str] = set()
    stage1: list[str] = []
    stage2: list[str] = []
    lunge_engs: list[Engagement] = []
    free_engs: list[Engagement] = []
    for p, target in sorted(s.lunges):
        right, left = f"{p}R", f"{p}L"
        lunging.update((right, left))
        stage1 += [right, left]
        stage2.append(target)
        lunge_engs.append(Engagement("lunge", (target, right, left)))
        for a in (right, left):
            b = partner.get(a)
            if b and b != target and f.hostile(p, seat_of(b)):  # ruling TFS-R7: the free arm attacks
                stage2.append(b)
                free_engs.append(Engagement("free", (b, a)))
    pair_engs: list[Engagement] = []
    for a in sorted(coins, key=lambda k: (int(k[:-1]), k[-1] == "L")):
        b = partner.get(a)
        if a in lunging or b is None or not f.hostile(seat_of(a), seat_of(b)):
            continue
        stage1.append(a)
        stage2.append(b)
        pair_engs.append(Engagement("pair", (a, b)))
    s = s.but(engagements=(*lunge_engs, *free_engs, *pair_engs), cursor=0, round1=tuple(stage1),
                round2=tuple(stage2))
    return _start_round(f, s, events)


def _start_round(f: Fight, s: Snap, events: list[Event]) -> Snap:
    return _advance(f, s.but(phase="place-1", waiting=s.round1), events)


def _advance(f: Fight, s: Snap, events: list[Event]) -> Snap:
    """Move through place-1, place-2, reveal-1, reveal-2 as each finishes, then resolve."""
    while not s.waiting:
        if s.phase == "place-1":
            s = s.but(phase="place-2", waiting=s.round2)
        elif s.phase == "place-2":
            s = s.but(phase="reveal-1", waiting=_with_card(s, s.round1))
        elif s.phase == "reveal-1":
            s = s.but(phase="reveal-2", waiting=_with_card(s, s.round2))
        else:
            return _resolve(f, s, events)
    return s


def _with_card(s: Snap, arms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(a for a in arms if (p := s.placement(a)) is not None and p.card is not None)


def _place(f: Fight, s: Snap, move: Place, events: list[Event]) -> Snap:
    key = f"{move.seat}{move.arm}"
    if s.phase not in PLACE_PHASES:
        raise Reject("TFS-7.2", f"cards are placed at the start of a turn or of a replay; now {describe(s)}")
    if key not in s.waiting:
        if s.phase == "place-1" and key in s.round2:
            raise Reject("TFS-7.3", "defending arms place their cards after every aggressor card is down",
                         "wait for the aggressors")
        mine = [a for a in s.waiting if seat_of(a) == move.seat]
        raise Reject("TFS-7.2", f"your {'right' if move.arm == 'R' else 'left'} arm places no card now",
                     f"place on your {' and '.join('right' if a[-1] == 'R' else 'left' for a in mine)} arm"
                     if mine else None)
    hand = s.hands[move.seat]
    card = move.card
    if card is None:
        if hand:
            raise Reject("TFS-R10", "you still hold cards: an arm goes empty only when you have none",
                         "place one of your cards")
    elif f.physical:
        if not hand:
            raise Reject("TFS-R10", "you hold no card: your arm goes empty", "place the arm without a card")
        card, s = physical.seal(f, s, move.seat, card)  # TFS-14.2, TFS-14.3
        hand = hand[1:]  # one unseen card leaves the hand
    elif card not in hand:
        raise Reject("TFS-7.2", f"{move.card!r} is not in your hand", "place a card you hold")
    else:
        hand = tuple(c for c in hand if c != card)
    move = replace(move, card=card)
    if move.back is not None and move.card is not None and move.back != side_of(move.card):
        raise Reject("TFS-1.1", f"the back of a {kind_of(move.card)} shows {side_of(move.card)}, not {move.back}",
                     "place the card you committed on your phone")
    targeted = any(t == key for _, t in s.lunges)
    if targeted and move.card is not None and move.counters not in ("R", "L"):
        raise Reject("TFS-10.2", "your arm is under a lunge: say which attacking arm your card counters",
                     "send counters R or L (the lunger's right or left arm)")
    if move.counters is not None and not (targeted and move.card is not None):
        raise Reject("TFS-10.2", "only an arm under a lunge names which attacking card it counters",
                     "send the card without counters")
    placements = tuple(p for p in s.placements if p.arm != key) + (Placement(key, move.card, move.counters),)
    s = s.but(placements=placements, waiting=tuple(a for a in s.waiting if a != key),
                hands=_set(s.hands, move.seat, hand),
                in_play=s.in_play + ((move.card,) if move.card else ()))
    events.append(Placed(move.seat, key, side_of(move.card) if move.card else None, move.counters))
    return _advance(f, s, events)


def _reveal(f: Fight, s: Snap, move: Reveal, events: list[Event]) -> Snap:
    key = f"{move.seat}{move.arm}"
    if s.phase not in REVEAL_PHASES:
        raise Reject("TFS-7.4", f"cards are revealed once every arm has a card down; now {describe(s)}")
    if key not in s.waiting:
        if s.phase == "reveal-1" and key in s.round2:
            raise Reject("TFS-7.5", "defenders reveal after every aggressor has revealed", "wait for the aggressors")
        raise Reject("TFS-7.4", f"your {'right' if move.arm == 'R' else 'left'} arm has nothing to reveal now")
    sealed: str = s.placement(key).card  # type: ignore[union-attr, assignment]  # waiting arms have a card
    copy = f.physical and is_card(move.card) and kind_of(move.card) == kind_of(sealed)  # ruling TFS-R14
    if move.card not in (sealed, kind_of(sealed)) and not copy:
        shown = kind_of(move.card) if isinstance(move.card, str) else move.card
        if shown in KINDS and side_of(shown) != side_of(sealed):
            raise Reject("TFS-7.6", f"the card turned up is a {shown}, but its back showed {side_of(sealed)}",
                         f"turn up the {side_of(sealed)} card you placed")
        raise Reject("TFS-7.6", f"that is not the card you sealed on your {'right' if move.arm == 'R' else 'left'} "
                     "arm", "turn up the card you placed")
    if f.physical:
        s = physical.turned_up(f, s, move.seat, sealed, move.card)  # TFS-14.4
        sealed = s.placement(key).card  # type: ignore[union-attr, assignment]
    placements = tuple(replace(p, revealed=True) if p.arm == key else p for p in s.placements)
    s = s.but(placements=placements, waiting=tuple(a for a in s.waiting if a != key))
    events.append(Revealed(move.seat, key, kind_of(sealed)))
    return _advance(f, s, events)


# --------------------------------------------------------------------------
# Resolution


def engage(grid: Grid, aggressor: str | None, defender: str | None) -> tuple[bool, bool, bool, bool]:
    """(aggressor hits, defender hits, replay, coin passes) for two kinds; None is an empty arm.

    An empty (undefended) arm is hit only by a Strike (TFS-10.3), and is never replayed.
    """
    if aggressor is None or defender is None:
        a_hits = aggressor == "strike"
        d_hits = defender == "strike"
        return a_hits, d_hits, False, a_hits and not d_hits
    cell = grid.cell(aggressor, defender)
    return cell.aggressor_hits, cell.defender_hits, cell.replay, cell.coin_passes()


def _kind(s: Snap, arm: str) -> str | None:
    p = s.placement(arm)
    return kind_of(p.card) if p is not None and p.card is not None else None


def _hit(s: Snap, victim: int, by: int, events: list[Event]) -> Snap:
    before = s.hits[victim]
    s = s.but(hits=_set(s.hits, victim, before + 1))
    if before < s.hp[victim] <= before + 1:  # TFS-4.2 / ruling TFS-R3
        s = s.but(fell=(*s.fell, Fall(victim, by)))
        events.append(Defeated(victim, by))
    return s


def _resolve(f: Fight, s: Snap, events: list[Event]) -> Snap:
    while s.cursor < len(s.engagements):
        e = s.engagements[s.cursor]
        hits: list[tuple[int, int]] = []
        if e.kind == "pair":
            a, d = e.arms
            ka, kd = _kind(s, a), _kind(s, d)
            a_hits, d_hits, replay, coin = engage(f.grid, ka, kd)
            if a_hits:
                hits.append((seat_of(d), seat_of(a)))
            if d_hits:
                hits.append((seat_of(a), seat_of(d)))
            events.append(Engaged("pair", e.arms, (ka, kd), tuple(hits), replay))
            for victim, by in hits:
                s = _hit(s, victim, by, events)
            if replay:
                return _start_replay(f, s, a, d, events)
            if coin:
                s = s.but(coin_passes=(*s.coin_passes, a))
        elif e.kind == "lunge":
            target, right, left = e.arms
            victim, lunger = seat_of(target), seat_of(right)
            tp = s.placement(target)
            first = f"{lunger}{tp.counters}" if tp is not None and tp.counters else right
            second = left if first == right else right
            kt, k1, k2 = _kind(s, target), _kind(s, first), _kind(s, second)
            a_hits, d_hits, _, _ = engage(f.grid, k1, kt)  # TFS-10.3: never replayed
            if a_hits:
                hits.append((victim, lunger))
            if d_hits:
                hits.append((lunger, victim))
            if k2 == "strike":  # the other attacking card meets no defence
                hits.append((victim, lunger))
            events.append(Engaged("lunge", (target, first, second), (kt, k1, k2), tuple(hits), False))
            for v, by in hits:
                s = _hit(s, v, by, events)
        else:
            free, lunging_arm = e.arms
            kf = _kind(s, free)
            if kf == "strike":  # ruling TFS-R7
                hits.append((seat_of(lunging_arm), seat_of(free)))
            events.append(Engaged("free", e.arms, (kf, None), tuple(hits), False))
            for v, by in hits:
                s = _hit(s, v, by, events)
        s = s.but(cursor=s.cursor + 1)
    return _end_turn(f, s, events)


def _start_replay(f: Fight, s: Snap, a: str, d: str, events: list[Event]) -> Snap:
    """Replay this arm (TFS-7.7): no draw, unless a hand is empty (both: both draw 4; one: ruling TFS-R5)."""
    sa, sd = seat_of(a), seat_of(d)
    draws = tuple((p, HAND_SIZE) for p in (sa, sd) if not s.hands[p])
    s = s.but(placements=tuple(p for p in s.placements if p.arm not in (a, d)), round1=(a,), round2=(d,),
                draws=draws, then="round")
    return _run_draws(f, s, events)


def _end_turn(f: Fight, s: Snap, events: list[Event]) -> Snap:
    partner = partners(s.circle)
    coins = set(s.coins)
    if s.lunges:  # TFS-10.5: after a lunge every coin goes back to a right arm
        coins = {a for a, _ in pairs(s.circle)}
    else:  # TFS-8
        for a in s.coin_passes:
            coins.discard(a)
            coins.add(partner[a])
    for a in s.passes:  # TFS-12.2, ruling TFS-R12: the promised pass happens whatever else moved
        coins.discard(a)
        coins.discard(partner[a])
        coins.add(partner[a])
    if s.coin_passes or s.lunges or s.passes:
        events.append(CoinsMoved(tuple(sorted(coins)), bool(s.lunges)))
    circle = list(s.circle)
    hands, discards = list(s.hands), list(s.discards)
    eliminated = list(s.eliminated)
    for fall in s.fell:  # TFS-11, in the order the fighters fell
        if fall.seat not in circle:
            continue
        circle, coins, coin = eliminate(circle, coins, fall.seat, fall.by)
        eliminated.append(fall.seat)
        if f.community:  # ruling TFS-R13
            discards[0] = discards[0] + hands[fall.seat]
        hands[fall.seat] = ()
        events.append(Eliminated(fall.seat, fall.by, coin))
    s = s.but(circle=tuple(circle), coins=tuple(sorted(coins)), hands=tuple(hands), discards=tuple(discards),
                eliminated=tuple(eliminated))
    if len({f.teams[p] for p in circle}) <= 1:  # TFS-13.1
        winners = tuple(circle)
        reason = "the last fighters eliminated each other" if not winners else (
            "last fighter standing" if len(winners) == 1 else "last team standing")
        events.append(FightOver(winners, reason))
        return s.but(phase="over")
    order = f.clockwise_from_youngest(circle)
    draws = tuple((p, HAND_SIZE - len(s.hands[p])) for p in order if len(s.hands[p]) < HAND_SIZE)  # TFS-3.4
    return _run_draws(f, s.but(phase="draw", draws=draws, then="turn"), events)


def eliminate(circle: list[int], coins: set[str], victim: int, finisher: int) -> tuple[list[int], set[str], str | None]:
    """Close the circle around ``victim`` (TFS-11.1); return (circle, coins, arm given the kept coin).

    Of the two coins the victim dealt with, one leaves the table and the other
    goes to the finisher's arm in the new pair: if both neighbours held coins,
    the one who did not make the final hit loses theirs.  When the finisher is
    out too, the coin goes to the new pair's right arm (ruling TFS-R11).
    """
    i = circle.index(victim)
    right, left = circle[i - 1], circle[(i + 1) % len(circle)]
    rest = [p for p in circle if p != victim]
    coins = {c for c in coins if seat_of(c) != victim}
    if len(rest) < 2:
        return rest, set(), None
    coins -= {f"{left}R", f"{right}L"}
    kept = f"{right}L" if finisher == right else f"{left}R"
    coins.add(kept)
    return rest, coins, kept
