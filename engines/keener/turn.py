"""Setup (KN-3), the turn's Economy and Spending phases (KN-4 to KN-6), draws and the end of a turn."""

from __future__ import annotations

from dataclasses import replace

from engines.core import ChanceMove, Event, Move, Reject, apply_shuffle
from engines.keener import events as E
from engines.keener.catalog import RESOURCES
from engines.keener.field import damage_commander, end_game, enter_fighter, gain, pay, wake, with_side
from engines.keener.figures import find_defense, find_fighter, pv
from engines.keener.hand import find_in_hand, remove_from_hand
from engines.keener.ids import card_of
from engines.keener.moves import Deploy, Pass, PlayGenerator
from engines.keener.snapshot import Combat, Piece, Snap

OPENING_HAND = 10


# ---- setup ------------------------------------------------------------------

def setup_chance(s: Snap, move: ChanceMove, ev: list[Event]) -> Snap:
    """KN-3.1: each deck is shuffled by a chance move; KN-3.3: a coin breaks a tie for first player."""
    if s.phase in ("shuffle-1", "shuffle-2"):
        seat = 0 if s.phase == "shuffle-1" else 1
        side = s.sides[seat]
        s = with_side(s, seat, replace(side, deck=apply_shuffle(side.deck, move.values)))
        ev.append(E.Shuffled(seat))
        if seat == 0:
            return replace(s, phase="shuffle-2")
        return after_shuffles(s, ev)
    # coin: 0 = seat 1, 1 = seat 2
    return begin(s, move.values[0], "a coin toss", ev)


def after_shuffles(s: Snap, ev: list[Event]) -> Snap:
    """Both decks are shuffled: decide who goes first, by a coin when needed."""
    first = first_player(s)
    if first is None:
        return replace(s, phase="coin")
    return begin(s, first, "the Commander with less LP goes first" if s.first_rule == "least-lp"
                 else f"the table chose seat {first + 1}", ev)


def first_player(s: Snap) -> int | None:
    """Who goes first without a coin, or None when a coin decides (KN-3.3, ruling KN-R1)."""
    if s.first_rule == "seat-1":
        return 0
    if s.first_rule == "seat-2":
        return 1
    if s.first_rule == "coin":
        return None
    lps = [card_of(side.commander).lp for side in s.sides]
    if lps[0] == lps[1]:
        return None
    return 0 if lps[0] < lps[1] else 1


def begin(s: Snap, first: int, reason: str, ev: list[Event]) -> Snap:
    """KN-3.2: both draw ten (Saga's ability does not apply: ruling KN-R2), then the first turn starts."""
    ev.append(E.FirstPlayer(first, reason))
    sides = tuple(replace(side, hand=side.deck[:OPENING_HAND], deck=side.deck[OPENING_HAND:]) for side in s.sides)
    for seat in (0, 1):
        ev.append(E.Drew(seat, OPENING_HAND))
    s = replace(s, sides=sides, active=first, turn=0)
    return start_turn(s, ev)


# ---- drawing and turns --------------------------------------------------------

def draws_per_draw(s: Snap, seat: int) -> int:
    """Saga's controller draws three cards whenever they would draw one (KN-9.1)."""
    return 3 if card_of(s.sides[seat].commander).ability == "saga-draws-three" else 1


def draw(s: Snap, seat: int, ev: list[Event]) -> Snap:
    """Draw one card (three with Saga).  Drawing from an empty deck loses the game (ruling KN-R6)."""
    side = s.sides[seat]
    n = draws_per_draw(s, seat)
    got = side.deck[:n]
    s = with_side(s, seat, replace(side, deck=side.deck[n:], hand=side.hand + got))
    if got:
        ev.append(E.Drew(seat, len(got)))
    if len(got) < n:
        return end_game(s, 1 - seat, f"seat {seat + 1} had to draw from an empty deck", ev)
    return s


def start_turn(s: Snap, ev: list[Event]) -> Snap:
    turn = s.turn + 1
    if s.turn_limit is not None and turn > s.turn_limit:
        return end_game(s, None, f"the turn limit of {s.turn_limit} was reached", ev)
    s = replace(s, turn=turn, phase="economy", combat=Combat())
    ev.append(E.PhaseBegan(s.active, "economy", turn))
    return draw(s, s.active, ev)


def end_turn(s: Snap, ev: list[Event]) -> Snap:
    """After the Attack phase the other player begins their turn (KN-4.1)."""
    return start_turn(replace(s, active=1 - s.active), ev)


# ---- economy -----------------------------------------------------------------

def produce(s: Snap, seat: int, ev: list[Event]) -> Snap:
    """KN-5.3: every Resource Generator adds its resource; chips carry over."""
    amounts = [0, 0, 0, 0]
    for g in s.sides[seat].generators:
        card = card_of(g)
        amounts[RESOURCES.index(card.params["resource"])] += 1
    s = gain(s, seat, tuple(amounts), ev)  # type: ignore[arg-type]
    ev.append(E.PhaseBegan(seat, "spending", s.turn))
    return replace(s, phase="spending")


def economy(s: Snap, move: Move, ev: list[Event]) -> Snap:
    seat = s.active
    if isinstance(move, Pass):
        return produce(s, seat, ev)
    if not isinstance(move, PlayGenerator):
        raise Reject("KN-5.2", f"in the Economy phase you may only play a Resource Generator or pass, not {move.type}",
                     "play a generator or pass to the Spending phase")
    side = s.sides[seat]
    copy = find_in_hand(side, move.card, s.physical, "KN-5.2")
    if card_of(copy).type != "generator":
        raise Reject("KN-5.2", f"{card_of(copy).name} is not a Resource Generator",
                     "play it in the Spending phase")
    side = remove_from_hand(side, copy, s.physical)
    s = with_side(s, seat, replace(side, generators=(*side.generators, copy)))
    ev.append(E.Played(seat, copy, "generators"))
    return produce(s, seat, ev)


# ---- spending ----------------------------------------------------------------

def equipment_target_problem(s: Snap, seat: int, card: str, target: str) -> str | None:
    """Why ``target`` cannot take this Equipment (None when it can): ruling KN-R15."""
    side = s.sides[seat]
    if card_of(card).ability == "equip-pv":
        if find_fighter(side, target) is None:
            return f"{card_of(card).name} goes on one of your face-up Fighters; {target or 'nothing'} is not one"
    elif find_defense(side, target) is None:
        return f"{card_of(card).name} goes on one of your Defenses; {target or 'nothing'} is not one"
    return None


def deploy(s: Snap, move: Deploy, ev: list[Event]) -> Snap:
    """KN-6: pay the cost and play a Fighter, Defense, Equipment or Single-use card."""
    seat = s.active
    copy = find_in_hand(s.sides[seat], move.card, s.physical, "KN-6.1")
    card = card_of(copy)
    if card.type == "generator":
        raise Reject("KN-5.2", "Resource Generators are played in the Economy phase", "play it next turn")
    if card.type == "equipment":
        problem = equipment_target_problem(s, seat, copy, move.target)
        if problem:
            raise Reject("KN-6.3", problem, "name one of your cards in play as the target")
    elif move.target:
        raise Reject("KN-6.1", f"{card.name} takes no target", "leave the target empty")
    s = pay(s, seat, card.cost, "KN-6.1", card.name, ev)
    s = with_side(s, seat, remove_from_hand(s.sides[seat], copy, s.physical))
    if card.type == "fighter":
        ev.append(E.Played(seat, copy, "fighters"))
        return enter_fighter(s, seat, Piece(copy), ev)
    if card.type == "defense":
        ev.append(E.Played(seat, copy, "defenses"))
        side = s.sides[seat]
        return with_side(s, seat, replace(side, defenses=(*side.defenses, Piece(copy))))
    if card.type == "equipment":
        ev.append(E.Played(seat, copy, "gear", move.target))
        side = s.sides[seat]
        group = "fighters" if card.ability == "equip-pv" else "defenses"
        pieces = tuple(replace(p, gear=(*p.gear, copy)) if p.id == move.target else p
                       for p in getattr(side, group))
        s = with_side(s, seat, replace(side, **{group: pieces}))
        return wake(s, ev)
    # single-use: its effect, then the discard pile
    ev.append(E.Played(seat, copy, "discard"))
    side = s.sides[seat]
    s = with_side(s, seat, replace(side, discard=(*side.discard, copy)))
    if card.ability == "gain":
        amounts = [0, 0, 0, 0]
        amounts[RESOURCES.index(card.params["resource"])] = card.params["amount"]
        return gain(s, seat, tuple(amounts), ev)  # type: ignore[arg-type]
    if card.ability == "strike-commander":
        return damage_commander(s, 1 - seat, card.params["amount"], ev)
    if card.ability == "lullaby":
        return lullaby(s, ev)
    raise Reject("KN-6.4", f"{card.name} has no effect the engine knows")  # unreachable: the catalog checks


def lullaby(s: Snap, ev: list[Event]) -> Snap:
    """KN-9.5: every awake Fighter on the field with the highest PV falls asleep (ruling KN-R13)."""
    awake = [(pv(side, f), f.id) for side in s.sides for f in side.fighters if not f.asleep]
    if not awake:
        return s
    best = max(p for p, _ in awake)
    sleepers = {fid for p, fid in awake if p == best}
    sides = tuple(replace(side, fighters=tuple(replace(f, asleep=True) if f.id in sleepers else f
                                               for f in side.fighters)) for side in s.sides)
    ev.extend(E.Slept(fid) for _, fid in awake if fid in sleepers)
    return replace(s, sides=sides)


def spending(s: Snap, move: Move, ev: list[Event]) -> Snap:
    if isinstance(move, Pass):
        ev.append(E.PhaseBegan(s.active, "attack", s.turn))
        return replace(s, phase="declare")
    if isinstance(move, Deploy):
        return deploy(s, move, ev)
    if isinstance(move, PlayGenerator):
        raise Reject("KN-5.2", "Resource Generators are played only in the Economy phase, one per turn",
                     "play it in your next Economy phase")
    raise Reject("KN-6.1", f"in the Spending phase you play cards (deploy, cloak) or pass, not {move.type}",
                 "deploy a card, play one face down, or pass to the Attack phase")
