"""Double-Edge setup (DE-2), Base construction (DE-3) and rounds (DE-5)."""

from __future__ import annotations

from engines.core import ChanceMove
from engines.double_edge import GAME
from engines.double_edge.cards import ACES, DECK
from engines.double_edge.moves import BuildBase, Draw, EndTurn, Indicate, PlayStriker
from engines.double_edge.patterns import base_orders
from tests.double_edge.support import play, rejects, rules, table, types


def dealt(seed: int = 3, variant: str = "standard"):
    state = GAME.new(2, variant, deal=seed)
    request = state.pending_chance()
    assert request is not None and request.kind == "shuffle" and request.ranges == tuple(range(48, 1, -1))
    state.apply(ChanceMove(tuple(0 for _ in request.ranges)))
    return state


@rules("DE-2.1", "DE-2.2", "DE-2.3", "DE-R2")
def test_aces_out_seven_dealt_alternately_rest_is_the_deck():
    state = dealt()
    s = state.snapshot
    assert all(len(h) == 7 for h in s.hands) and len(s.deck) == 34
    assert not any(c.startswith("A") for h in s.hands for c in h)
    assert sorted([*s.hands[0], *s.hands[1], *s.deck]) == sorted(DECK)
    assert ACES == (("AH", "AS"), ("AD", "AC"))
    assert state.view(0)["aces"] == ["AH", "AS"] and state.view(1)["aces"] == ["AD", "AC"]
    # alternate dealing from the top of the shuffled deck (all-zero Fisher-Yates values)
    from engines.core import apply_shuffle
    order = apply_shuffle(DECK, [0] * 47)
    assert s.hands[0] == order[0:14:2] and s.hands[1] == order[1:14:2]


@rules("DE-2.1")
def test_only_your_own_aces():
    state = table(phase="indicate", hands=(("5C",), ("6C",)))
    rejects(state, Indicate(0, "AD"), "DE-2.1")


@rules("DE-2.3")
def test_hand_limit_of_seven_excludes_aces():
    hand = ("2C", "3C", "4C", "5C", "6C", "7C", "8C")
    state = table(hands=(hand, ()), deck=("9C",), strikers=("KC", None))
    rejects(state, Draw(0), "DE-7.5")
    assert state.legal_moves(0)[-1] == EndTurn(0)


@rules("DE-2.4")
def test_aces_only_as_indicators():
    state = table(hands=(("5C",), ()))
    rejects(state, PlayStriker(0, "AH"), "DE-2.4")
    state = dealt()
    hand = state.snapshot.hands[0]
    rejects(state, BuildBase(0, ("AH", hand[0], hand[1])), "DE-2.4")


@rules("DE-3.1", "DE-3.2", "DE-3.3", "DE-R17")
def test_bases_are_sealed_then_revealed_together_with_three_cards_drawn():
    state = dealt(5)
    s = state.snapshot
    assert state.to_act() == {0, 1}
    base1 = base_orders(s.hands[1])[0]
    top_of_deck = s.deck[:3]
    events = play(state, BuildBase(1, base1))
    assert types(events) == ["base-sealed", "drew"]
    # seat 2 sealed first and drew first (DE-R17)
    assert set(top_of_deck) <= set(state.snapshot.hands[1]) and len(state.snapshot.hands[1]) == 7
    assert state.to_act() == {0}
    # sealed: the opponent and the table do not see it
    assert set(base1) <= state.hidden_from(0) and set(base1) <= state.hidden_from(None)
    assert state.view(0)["base_sealed"] == [False, True] and state.view(0)["bases"] == [[], []]
    assert state.view(1)["my_sealed_base"] == list(base1)
    base0 = base_orders(state.snapshot.hands[0])[-1]
    events = play(state, BuildBase(0, base0))
    assert types(events)[-1] == "bases-revealed"
    assert state.snapshot.bases == (base0, base1)
    assert state.pending_chance().kind == "coin"


@rules("DE-3.1", "DE-4.1")
def test_base_must_be_three_of_your_cards_in_a_pattern():
    state = dealt(5)
    hand = state.snapshot.hands[0]
    rejects(state, BuildBase(0, hand[:2]), "DE-3.1")
    rejects(state, BuildBase(0, (hand[0], hand[0], hand[1])), "DE-3.1")
    other = state.snapshot.hands[1][0]
    good = base_orders(hand)[0]
    rejects(state, BuildBase(0, (other, good[1], good[2])), "DE-6.5")
    bad = next(p for p in __import__("itertools").permutations(hand, 3) if p not in base_orders(hand))
    rejects(state, BuildBase(0, bad), "DE-4.1")
    rejects(state, BuildBase(0, ("ZZ", good[1], good[2])), "DE-3.1")


@rules("DE-R1", "DE-5.1", "DE-5.2")
def test_coin_picks_round_one_first_then_first_alternates():
    state = dealt(5)
    play(state, BuildBase(0, base_orders(state.snapshot.hands[0])[0]),
         BuildBase(1, base_orders(state.snapshot.hands[1])[0]))
    request = state.pending_chance()
    assert request.kind == "coin" and request.ranges == (2,)
    events = state.apply(ChanceMove((1,)))
    assert types(events) == ["first-player"] and state.snapshot.first == 1
    assert state.to_act() == {1}
    # first player's turn, then the second player's, then the action turn
    play(state, Draw(1) if len(state.snapshot.hands[1]) < 7 else EndTurn(1))
    assert state.to_act() == {0}
    play(state, EndTurn(0))
    assert state.snapshot.phase == "indicate" and state.to_act() == {0, 1}
    play(state, Indicate(0, "AH"), Indicate(1, "AD"))
    assert state.snapshot.round == 2 and state.snapshot.first == 0 and state.to_act() == {0}
