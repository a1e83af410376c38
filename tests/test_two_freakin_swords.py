"""Two Freakin' Swords: turns, the engagement grid, lunges, eliminations (docs/rules/two-freakin-swords.md).

Fights are set up through the public engine: opening hands chosen by kind,
shuffles given as chance moves that keep the deck order, and
:func:`arrange` to put chosen hands, hits and coins on the table between two
turns.  Each test names the rule or ruling it checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from engines.core import ChanceMove, ChanceRequest, IllegalMove
from engines.two_freakin_swords import GAME, Announce, Place, Reveal, TFSState
from engines.two_freakin_swords.cards import KINDS, kind_of
from engines.two_freakin_swords.moves import ChooseOpening, Defeated, Engaged, Placed
from engines.two_freakin_swords.rules import start_turn
from engines.two_freakin_swords.seating import seat_of

DEFAULT_HAND = ("strike", "fake", "block", "parry")


# --------------------------------------------------------------------------
# helpers (imported by the other test_two_freakin_swords_* files)


def keep_order(request: ChanceRequest) -> ChanceMove:
    """The shuffle that leaves a pile in its order (Fisher-Yates swapping every card with itself)."""
    return ChanceMove(tuple(r - 1 for r in request.ranges))


def settle_chance(state: TFSState) -> None:
    while (request := state.pending_chance()) is not None:
        state.apply(keep_order(request))


def new_fight(seats: int = 2, variant: str = "duel", hands: Mapping[int, Sequence[str]] | None = None,
              **options) -> TFSState:
    """A fight at its first turn; own decks get these opening hands (default one card of each kind)."""
    state = GAME.new(seats, variant, deal=0, options=options)
    settle_chance(state)
    if state.snapshot.phase == "opening":
        for seat in range(seats):
            state.apply(ChooseOpening(seat, tuple((hands or {}).get(seat, DEFAULT_HAND))))
        settle_chance(state)
    return state


def reload(state: TFSState, snap) -> TFSState:
    data = state.to_json()
    data["snapshot"] = snap.to_json()
    return GAME.load(data)


def arrange(state: TFSState, hands: Mapping[int, Sequence[str]] | None = None, **changes) -> TFSState:
    """Restart the current turn with these hands (by kind, taken from the seat's draw pile) and changes."""
    s = state.snapshot
    f = state.fight
    decks = [list(d) for d in s.decks]
    new_hands = [list(h) for h in s.hands]
    for seat, kinds in (hands or {}).items():
        pile = f.pile(seat)
        decks[pile].extend(new_hands[seat])
        new_hands[seat] = []
        for kind in kinds:
            card = next(c for c in decks[pile] if kind_of(c) == kind)
            decks[pile].remove(card)
            new_hands[seat].append(card)
    fields = {"hands": tuple(tuple(h) for h in new_hands), "decks": tuple(tuple(d) for d in decks),
              "placements": (), "in_play": ()}
    fields.update(changes)
    s = s.but(**fields)
    s, _ = start_turn(f, s)
    return reload(state, s)


def run_turn(state: TFSState, plan: Mapping[str, str | Sequence[str | None] | None],
             counters: Mapping[str, str] | None = None,
             announce: Mapping[int, tuple[str | None, str | None]] | None = None) -> list:
    """Play one whole turn: ``plan`` gives each arm's card kind(s), in order of play (replays)."""
    queue = {arm: list(k) if isinstance(k, list | tuple) else [k] for arm, k in plan.items()}
    counters = counters or {}
    announce = announce or {}
    turn = state.snapshot.turn
    events: list = []
    while state.outcome is None and state.snapshot.turn == turn:
        s = state.snapshot
        request = state.pending_chance()
        if request is not None:
            events += state.apply(keep_order(request))
            continue
        if s.phase == "announce":
            seat = min(state.to_act())
            lunge, give = announce.get(seat, (None, None))
            events += state.apply(Announce(seat, lunge, give))
            continue
        arm = s.waiting[0]
        seat = seat_of(arm)
        if s.phase.startswith("place"):
            if not queue.get(arm):
                raise AssertionError(f"the plan has no card for {arm} (phase {s.phase})")
            kind = queue[arm].pop(0)
            card = None if kind is None else next(c for c in s.hands[seat] if kind_of(c) == kind)
            events += state.apply(Place(seat, arm[-1], card, counters.get(arm) if card else None))
        else:
            events += state.apply(Reveal(seat, arm[-1], s.placement(arm).card))
    return events


def engaged(events: list) -> list[Engaged]:
    return [e for e in events if isinstance(e, Engaged)]


# --------------------------------------------------------------------------
# TFS-9 / TFS-R2: every cell of the default grid

# (aggressor, defender) -> (aggressor hits, defender hits, replay), as ruling TFS-R2 words it
R2 = {
    ("strike", "strike"): (True, True, False),
    ("strike", "fake"): (True, False, False),
    ("strike", "block"): (False, False, False),
    ("strike", "parry"): (False, True, False),
    ("fake", "parry"): (True, False, False),
    ("fake", "fake"): (False, False, True),
    ("fake", "block"): (False, False, True),
    ("block", "block"): (False, False, True),
    ("block", "parry"): (False, False, True),
    ("parry", "parry"): (False, False, True),
}


def expected_cell(a: str, d: str) -> tuple[bool, bool, bool]:
    """TFS-R2 is the same whichever card the aggressor played: look the pair up either way round."""
    if (a, d) in R2:
        return R2[(a, d)]
    a_hits, d_hits, replay = R2[(d, a)]
    return d_hits, a_hits, replay


@pytest.mark.parametrize("aggressor", KINDS)
@pytest.mark.parametrize("defender", KINDS)
def test_every_grid_cell_in_play(aggressor, defender):
    """TFS-9.1, TFS-R2, TFS-8, TFS-R1, TFS-7.7: each cell's hits, replay and coin, played in a duel."""
    state = new_fight(hands={0: (aggressor, "strike", "strike", "fake"), 1: (defender, "block", "block", "parry")})
    assert state.snapshot.coins == ("0R", "1R")
    a_hits, d_hits, replay = expected_cell(aggressor, defender)
    # 0R attacks 1L with the card under test; 1R's Block meets 0L's Strike (nothing); a replay is Strike v Block.
    events = run_turn(state, {"0R": [aggressor, "strike"], "1L": [defender, "block"], "1R": "block", "0L": "strike"})
    first = engaged(events)[0]
    assert first.arms == ("0R", "1L") and first.cards == (aggressor, defender)
    assert first.replay is replay
    assert ((1, 0) in first.hits, (0, 1) in first.hits) == (a_hits, d_hits)
    assert state.snapshot.hits == (int(d_hits), int(a_hits))
    if replay:
        again = engaged(events)[1]
        assert again.arms == ("0R", "1L") and again.cards == ("strike", "block") and not again.hits
    # TFS-R1: the coin passes to the defending arm only when the aggressor alone hits.
    coin_passes = a_hits and not d_hits
    assert ("1L" in state.snapshot.coins) is coin_passes
    assert ("0R" in state.snapshot.coins) is not coin_passes
    assert "1R" in state.snapshot.coins  # the other pair had no hit: its coin stays


def test_default_grid_is_symmetric_in_the_two_cards():
    """TFS-R2: swapping the aggressor's and defender's cards swaps who is hit."""
    from engines.two_freakin_swords import DEFAULT_GRID

    for a in KINDS:
        for d in KINDS:
            one, other = DEFAULT_GRID.cell(a, d), DEFAULT_GRID.cell(d, a)
            assert (one.aggressor_hits, one.defender_hits, one.replay) == (
                other.defender_hits, other.aggressor_hits, other.replay)


# --------------------------------------------------------------------------
# TFS-7: the turn, sealed placement, reveal order


def test_turn_order_and_sealed_cards():
    """TFS-7.2, TFS-7.3, TFS-7.4, TFS-7.5, TFS-1.1: aggressors place, then defenders; reveals in that order;
    the table sees only the backs of sealed cards."""
    state = new_fight()
    s = state.snapshot
    assert s.phase == "place-1" and set(s.waiting) == {"0R", "1R"}
    strike = next(c for c in s.hands[0] if kind_of(c) == "strike")
    block1 = next(c for c in s.hands[1] if kind_of(c) == "block")
    # TFS-7.3: a defending arm may not place before every aggressor card is down
    verdict = state.check(Place(0, "L", strike))
    assert not verdict.ok and verdict.rule == "TFS-7.3"
    events = state.apply(Place(0, "R", strike))
    assert events == [Placed(0, "0R", "striking", None)]
    public = state.view(None)
    assert strike not in str(public) and {"arm": "0R", "back": "striking", "card": None, "revealed": False,
                                          "counters": None} in public["placements"]
    assert strike in state.hidden_from(1) and strike in state.hidden_from(None)
    assert strike not in state.hidden_from(0) and state.view(0)["my_placements"] == {"0R": strike}
    state.apply(Place(1, "R", block1))
    assert state.snapshot.phase == "place-2"
    # TFS-7.4: nothing is turned up before every arm has a card down
    assert state.check(Reveal(0, "R", strike)).rule == "TFS-7.4"
    fake0 = next(c for c in state.snapshot.hands[0] if kind_of(c) == "fake")
    parry1 = next(c for c in state.snapshot.hands[1] if kind_of(c) == "parry")
    state.apply(Place(0, "L", fake0))
    state.apply(Place(1, "L", parry1))
    assert state.snapshot.phase == "reveal-1"
    # TFS-7.5: defenders turn up after the aggressors
    assert state.check(Reveal(0, "L", fake0)).rule == "TFS-7.5"
    # TFS-7.6: the card turned up must be the sealed one, and match its back
    bad = state.check(Reveal(0, "R", "parry"))
    assert bad.rule == "TFS-7.6" and "back showed striking" in bad.message
    other_strike = next(c for c in state.snapshot.decks[0] if kind_of(c) == "strike")
    assert state.check(Reveal(0, "R", other_strike)).rule == "TFS-7.6"
    state.apply(Reveal(0, "R", strike))
    state.apply(Reveal(1, "R", block1))
    state.apply(Reveal(0, "L", fake0))
    events = state.apply(Reveal(1, "L", parry1))
    assert [e.cards for e in engaged(events)] == [("strike", "parry"), ("block", "fake")]
    # Strike v Parry: the Parry hits (coin stays); Block v Fake: replay this arm (TFS-7.7)
    assert state.snapshot.hits == (1, 0)
    assert state.snapshot.phase == "place-1" and state.snapshot.waiting == ("1R",)


def test_reveal_by_kind_as_the_camera_sees_it():
    """TFS-R14: a card may be turned up by its kind; TFS-1.1: a placement whose reported back is wrong is refused."""
    state = new_fight()
    s = state.snapshot
    strike = next(c for c in s.hands[0] if kind_of(c) == "strike")
    assert state.check(Place(0, "R", strike, back="defending")).rule == "TFS-1.1"
    state.apply(Place(0, "R", strike, back="striking"))
    run_rest = {"1R": "block", "0L": "fake", "1L": "parry"}
    for arm, kind in run_rest.items():
        seat = seat_of(arm)
        state.apply(Place(seat, arm[-1], next(c for c in state.snapshot.hands[seat] if kind_of(c) == kind)))
    state.apply(Reveal(0, "R", "strike"))
    assert state.snapshot.placement("0R").revealed


def test_place_rejections_name_rules_and_change_nothing():
    """TFS-7.2, TFS-R10, TFS-10.2, TFS-7.1: a card not in hand, an arm that places nothing now, an empty arm
    while holding cards, counters without a lunge, an announcement outside its time."""
    state = new_fight()
    before = state.to_json()
    not_mine = state.snapshot.hands[1][0]
    assert state.check(Place(0, "R", not_mine)).rule == "TFS-7.2"
    assert state.check(Place(0, "R", None)).rule == "TFS-R10"
    card = state.snapshot.hands[0][0]
    assert state.check(Place(0, "R", card, counters="L")).rule == "TFS-10.2"
    assert state.check(Announce(0)).rule == "TFS-7.1"
    with pytest.raises(IllegalMove):
        state.apply(Place(0, "R", not_mine))
    assert state.to_json() == before


# --------------------------------------------------------------------------
# replays and drawing


def test_replay_does_not_draw_while_cards_are_left():
    """TFS-7.7: a replayed arm plays from the cards left in hand, without drawing."""
    state = new_fight(hands={0: ("fake", "fake", "strike", "block"), 1: ("fake", "block", "block", "parry")})
    events = run_turn(state, {"0R": ["fake", "fake"], "1L": ["fake", "parry"], "1R": "block", "0L": "strike"})
    cards = [e.cards for e in engaged(events)]
    assert cards == [("fake", "fake"), ("fake", "parry"), ("block", "strike")]
    assert not any(e.type == "drew" for e in events[:events.index(engaged(events)[-1])])
    assert state.snapshot.hits == (0, 1)


def test_replay_with_both_hands_empty_draws_four_each():
    """TFS-7.7: both hands empty: both fighters draw 4 and play the arm out."""
    state = new_fight(hands={0: ("fake", "strike", "fake", "fake"), 1: ("fake", "block", "block", "block")})
    plan = {"0R": ["fake", "fake", "fake", "strike"], "1L": ["fake", "block", "block", "strike"],
            "1R": "block", "0L": "strike"}
    # 0R: Fake v Fake, Fake v Block, Fake v Block (replays), then both hands are empty: each draws 4
    # (kept deck order: Strikes come first) and Strike v Strike ends it.
    events = run_turn(state, plan)
    drew = [(e.seat, e.count) for e in events if e.type == "drew"]
    assert drew[:2] == [(0, 4), (1, 4)]
    assert engaged(events)[3].cards == ("strike", "strike")


def test_replay_with_one_empty_hand_draws_for_that_fighter_only():
    """TFS-R5: when only one hand is empty, only that fighter draws 4."""
    state = new_fight(hands={0: ("fake", "strike", "fake", "strike"), 1: ("fake", "block", "fake", "block")})
    state = arrange(state, hands={0: ("fake", "strike"), 1: ("fake", "block", "fake", "parry")})
    plan = {"0R": ["fake", "strike"], "1L": ["fake", "fake"], "1R": "block", "0L": "strike"}
    events = run_turn(state, plan)
    drew = [(e.seat, e.count) for e in events if e.type == "drew"]
    assert drew[0] == (0, 4)
    assert engaged(events)[1].cards == ("strike", "fake")


def test_refill_to_four_after_every_turn():
    """TFS-3.4, TFS-7.8: after the turn (hits, coins, then refill) everyone standing holds 4 cards again."""
    state = new_fight()
    run_turn(state, {"0R": "strike", "1L": "block", "1R": "strike", "0L": "block"})
    assert [len(h) for h in state.snapshot.hands] == [4, 4]


def test_reshuffle_leaves_out_cards_in_play():
    """TFS-2.4: an empty deck is rebuilt from the discard pile by a shuffle (a chance move);
    cards in play this turn stay out of it."""
    state = new_fight()
    discard = state.snapshot.decks[0][:30]
    state = arrange(state, decks=((), state.snapshot.decks[1]), discards=(discard, ()))
    played = {c for c in state.snapshot.hands[0] if kind_of(c) in ("strike", "fake")}
    events = run_turn(state, {"0R": "strike", "1L": "block", "1R": "strike", "0L": "fake"})
    shuffles = [e for e in events if e.type == "shuffled"]
    assert [(e.pile, e.cards, e.reshuffle) for e in shuffles] == [(0, 30, True)]
    s = state.snapshot
    assert len(s.hands[0]) == 4 and len(s.decks[0]) == 28
    assert set(s.discards[0]) == played  # the turn's cards reached the discard pile after the reshuffle


def test_nothing_left_to_draw_means_an_empty_arm():
    """TFS-2.5 and TFS-R10: with no card anywhere a fighter draws nothing and places an empty arm,
    which only a Strike hits."""
    state = new_fight()
    state = arrange(state, hands={0: (), 1: ("strike", "strike", "block", "block")},
                    decks=((), state.snapshot.decks[1]), discards=((), ()))
    assert state.legal_moves(0) == [Place(0, "R", None)]
    events = run_turn(state, {"0R": None, "1L": "strike", "1R": "strike", "0L": None})
    assert [e.cards for e in engaged(events)] == [(None, "strike"), ("strike", None)]
    assert state.snapshot.hits == (2, 0)
    assert state.snapshot.hands[0] == ()


# --------------------------------------------------------------------------
# TFS-4, TFS-7.9: defeat, going down swinging, mutual elimination


def test_defeated_when_hits_reach_hit_points():
    """TFS-4.1, TFS-4.2, TFS-R3: hit points are 5 plus points; a fighter falls on the hit that reaches them."""
    state = new_fight(points=[0, 2])
    assert state.snapshot.hp == (5, 7)
    hands = {0: ("strike", "strike", "block", "block"), 1: ("fake", "block", "block", "block")}
    state = arrange(state, hands=hands, hits=(0, 5))
    run_turn(state, {"0R": "strike", "1L": "fake", "1R": "block", "0L": "strike"})
    assert state.snapshot.hits == (0, 6) and state.outcome is None
    state = arrange(state, hands=hands)
    events = run_turn(state, {"0R": "strike", "1L": "fake", "1R": "block", "0L": "strike"})
    assert Defeated(1, 0) in events
    assert state.outcome.winners == (0,) and state.outcome.scores == (1.0, 0.0)


def test_go_down_swinging():
    """TFS-7.9: a fighter defeated in the first pair still plays out the other arm, and can still hit."""
    state = new_fight()
    state = arrange(state, hands={0: ("strike", "fake", "block", "block"), 1: ("fake", "strike", "block", "block")},
                    hits=(0, 4))
    events = run_turn(state, {"0R": "strike", "1L": "fake", "1R": "strike", "0L": "fake"})
    kinds = [e.type for e in events]
    assert kinds.index("defeated") < [i for i, e in enumerate(events) if e.type == "engaged"][1]
    assert state.snapshot.hits == (1, 5)
    assert state.outcome.winners == (0,)


def test_mutual_elimination():
    """TFS-4.3, TFS-R4, TFS-13.1: two fighters who defeat each other in one turn are both out; nobody wins."""
    state = new_fight()
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("strike", "block", "block", "block")},
                    hits=(4, 4))
    events = run_turn(state, {"0R": "strike", "1L": "strike", "1R": "block", "0L": "strike"})
    assert Defeated(1, 0) in events and Defeated(0, 1) in events
    out = state.outcome
    assert out.winners == () and out.tie and "eliminated each other" in out.reason
    assert state.result().destroyed == (True, True) and state.result().award == (0, 0)
    assert not state.to_act() and state.pending_chance() is None


# --------------------------------------------------------------------------
# TFS-10: lunges

LUNGE_HITS = {
    # counters R: the Fake (0R) meets the defence, the Strike (0L) is undefended
    ("R", "strike"): (1, 1), ("R", "fake"): (0, 1), ("R", "block"): (0, 1), ("R", "parry"): (0, 2),
    # counters L: the Strike (0L) meets the defence, the Fake (0R) is undefended and cannot hit
    ("L", "strike"): (1, 1), ("L", "fake"): (0, 1), ("L", "block"): (0, 0), ("L", "parry"): (1, 0),
}


@pytest.mark.parametrize("countered", ["R", "L"])
@pytest.mark.parametrize("defence", KINDS)
def test_lunge_against_each_defence(defence, countered):
    """TFS-10.1, TFS-10.2, TFS-10.3, TFS-10.5, TFS-R15: a lunge with Fake (right) and Strike (left) at 1L."""
    state = new_fight()
    state = arrange(state, hands={0: ("fake", "strike", "block", "block"), 1: (defence, "block", "fake", "fake")},
                    coins=("0L", "0R"))
    assert state.snapshot.phase == "announce" and state.to_act() == {0}
    events = run_turn(state, {"0R": "fake", "0L": "strike", "1L": defence, "1R": "block"},
                      counters={"1L": countered}, announce={0: ("1L", None)})
    placed = [e for e in events if isinstance(e, Placed) and e.arm == "1L"]
    assert placed[0].counters == countered  # TFS-R15: said with the card, before anything is turned up
    lunge = engaged(events)[0]
    assert lunge.kind == "lunge" and lunge.arms[1] == f"0{countered}" and not lunge.replay
    assert state.snapshot.hits == LUNGE_HITS[(countered, defence)]
    assert state.snapshot.coins == ("0R", "1R")  # TFS-10.5: every coin back to a right arm


def test_free_arm_strikes_the_lunging_fighter():
    """TFS-10.4, TFS-R7: the arm that faced the lunger's other arm attacks it undefended: a Strike hits."""
    state = new_fight()
    state = arrange(state, hands={0: ("block", "block", "fake", "fake"), 1: ("block", "strike", "fake", "fake")},
                    coins=("0L", "0R"))
    events = run_turn(state, {"0R": "block", "0L": "block", "1L": "block", "1R": "strike"},
                      counters={"1L": "R"}, announce={0: ("1L", None)})
    free = [e for e in engaged(events) if e.kind == "free"]
    assert free and free[0].arms == ("1R", "0L") and free[0].hits == ((0, 1),)
    assert state.snapshot.hits == (1, 0)


def test_lunge_rejections():
    """TFS-10.1, TFS-10.2: a lunge only at an arm normally engaged; the arm under a lunge must say what it counters."""
    state = new_fight(seats=4, variant="free-for-all")
    state = arrange(state, hands={p: DEFAULT_HAND for p in range(4)}, coins=("0L", "0R", "2L", "2R"))
    assert state.to_act() == {0, 2}
    verdict = state.check(Announce(0, "2L"))  # across the table
    assert verdict.rule == "TFS-10.1" and "3L" in verdict.fix and "1R" in verdict.fix
    # several fighters may lunge at once: 0 at 3L and 2 at 1L
    state.apply(Announce(0, "3L"))
    state.apply(Announce(2, "1L"))
    assert set(state.snapshot.round1) == {"0R", "0L", "2R", "2L"}
    assert set(state.snapshot.round2) == {"3L", "1L", "1R", "3R"}  # two targets, two free arms
    for arm in ("0R", "0L", "2R", "2L"):
        seat = seat_of(arm)
        state.apply(Place(seat, arm[-1], state.snapshot.hands[seat][0]))
    card = state.snapshot.hands[3][0]
    assert state.check(Place(3, "L", card)).rule == "TFS-10.2"
    assert state.check(Place(3, "R", card, counters="R")).rule == "TFS-10.2"
    assert state.check(Place(3, "L", card, counters="L")).ok


def test_only_fighters_who_can_lunge_or_pass_announce():
    """TFS-7.1, TFS-R16: nobody is asked to announce when nobody can lunge or pass; "nothing" is an announcement."""
    state = new_fight()
    assert state.snapshot.phase == "place-1"
    state = arrange(state, hands={0: DEFAULT_HAND, 1: DEFAULT_HAND}, coins=("0L", "0R"))
    assert state.legal_moves(0) == [Announce(0), Announce(0, "1L"), Announce(0, "1R")]
    assert state.legal_moves(1) == []
    state.apply(Announce(0))
    assert state.snapshot.phase == "place-1" and state.snapshot.waiting == ("0R", "0L")
    no_coins = arrange(state, hands={0: DEFAULT_HAND, 1: DEFAULT_HAND}, coins=("0R", "1R"))
    assert no_coins.check(Announce(0, "1L")).rule == "TFS-7.1"


# --------------------------------------------------------------------------
# TFS-11: eliminations in a circle


@pytest.mark.parametrize("finisher", [0, 2])
def test_elimination_in_a_circle_of_four_with_both_neighbours_holding_coins(finisher):
    """TFS-11.1, TFS-5.3, TFS-5.1: seat 1 falls; both neighbours held coins against it; the one who made the
    final hit keeps theirs, now facing the other neighbour, and the other coin leaves the table."""
    state = new_fight(seats=4, variant="free-for-all")
    # pairs: (0R,3L) (1R,0L) (2R,1L) (3R,2L); the coins by 0L and 2R point at seat 1
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("fake", "fake", "block", "block"),
                                  2: ("strike", "block", "block", "block"), 3: ("strike", "block", "block", "block")},
                    coins=("0L", "0R", "2R", "3R"), hits=(0, 4, 0, 0))
    plan = {"0R": "strike", "3L": "block", "3R": "strike", "2L": "block", "0L": "strike", "2R": "strike",
            "1R": "fake" if finisher == 0 else "block", "1L": "fake" if finisher == 2 else "block"}
    events = run_turn(state, plan, announce={0: (None, None)})
    assert Defeated(1, finisher) in events
    elimination = next(e for e in events if e.type == "eliminated")
    assert elimination.seat == 1 and elimination.by == finisher
    assert state.snapshot.circle == (0, 2, 3)
    kept, lost = ("0L", "2R") if finisher == 0 else ("2R", "0L")
    assert elimination.coin == kept
    assert kept in state.snapshot.coins and lost not in state.snapshot.coins
    assert sorted(state.snapshot.coins) == sorted(["0R", "3R", kept])  # one coin per pair of the closed circle
    assert {tuple(p["arms"]) for p in state.view(None)["pairs"]} == {("0R", "3L"), ("2R", "0L"), ("3R", "2L")}


def test_elimination_when_the_fallen_fighter_held_both_coins():
    """TFS-11.1: the remaining coin goes to the finisher's arm that now faces the other neighbour."""
    from engines.two_freakin_swords.rules import eliminate

    circle, coins, kept = eliminate([0, 1, 2, 3], {"0R", "1R", "1L", "3R"}, 1, 0)
    assert circle == [0, 2, 3] and kept == "0L" and coins == {"0R", "0L", "3R"}


def test_finisher_out_too_gives_the_coin_to_the_right_arm():
    """TFS-R11: when the finisher already left the circle, the new pair's coin goes to its right arm."""
    from engines.two_freakin_swords.rules import eliminate

    # circle 0,2,3: pairs (0R,3L) (2R,0L) (3R,2L); seat 2 falls to seat 1's hit, seat 1 already gone
    circle, coins, kept = eliminate([0, 2, 3], {"3L", "0L", "2L"}, 2, 1)
    assert circle == [0, 3] and kept == "3R" and coins == {"3L", "3R"}


def test_first_hit_in_resolution_order_is_the_final_hit():
    """TFS-R9: both neighbours hit a fighter on its last hit point; the earlier pair in resolution order made
    the final hit (seat 0's pair resolves before seat 2's)."""
    state = new_fight(seats=3, variant="free-for-all")
    # circle 0,1,2: pairs (0R,2L) (1R,0L) (2R,1L); coins 0L and 2R attack seat 1
    state = arrange(state, hands={0: ("strike", "block", "block", "block"), 1: ("fake", "fake", "block", "block"),
                                  2: ("strike", "block", "block", "block")},
                    coins=("0L", "0R", "2R"), hits=(0, 4, 0))
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("fake", "fake", "block", "block"),
                                  2: ("strike", "block", "block", "block")})
    events = run_turn(state, {"0L": "strike", "1R": "fake", "2R": "strike", "1L": "fake", "0R": "strike",
                              "2L": "block"},
                      announce={0: (None, None)})
    assert Defeated(1, 0) in events
    assert next(e for e in events if e.type == "eliminated").coin == "0L"


def test_community_hand_of_the_fallen_goes_to_the_discard_pile():
    """TFS-R13: with a community deck a defeated fighter's hand is discarded; with own decks it leaves."""
    state = new_fight(seats=3, variant="free-for-all", decks="community")
    # circle 0,1,2: pairs (0R,2L) (1R,0L) (2R,1L), coins on the right arms
    state = arrange(state, hands={0: ("strike", "block", "fake", "fake"), 1: ("strike", "fake", "parry", "parry"),
                                  2: ("strike", "block", "fake", "fake")}, hits=(0, 4, 0))
    before = len(state.snapshot.discards[0])
    run_turn(state, {"0R": "strike", "2L": "block", "1R": "strike", "0L": "block", "2R": "strike", "1L": "fake"})
    assert 1 not in state.snapshot.circle and state.snapshot.hands[1] == ()
    # the 2 cards left in the fallen hand, then the 6 cards played this turn
    assert len(state.snapshot.discards[0]) == before + 2 + 6
    own = new_fight(seats=3, variant="free-for-all")
    own = arrange(own, hands={0: ("strike", "block", "fake", "fake"), 1: ("strike", "fake", "parry", "parry"),
                              2: ("strike", "block", "fake", "fake")}, hits=(0, 4, 0))
    run_turn(own, {"0R": "strike", "2L": "block", "1R": "strike", "0L": "block", "2R": "strike", "1L": "fake"})
    assert own.snapshot.hands[1] == () and len(own.snapshot.discards[1]) == 2  # only what seat 1 played
