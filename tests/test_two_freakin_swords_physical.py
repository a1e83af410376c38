"""Two Freakin' Swords with a physical deal (TFS-14): the fighters shuffle and draw their own printed cards.

The engine never knows a hand or a deck order; it checks each seal and each
card turned up for card conservation.  The camera's side (the table adapter)
is checked with the same mat model as tests/test_table_two_freakin_swords.py.
"""

from __future__ import annotations

import random

import pytest

from engines.core import IllegalMove
from engines.two_freakin_swords import GAME, Announce, Place, Reveal
from engines.two_freakin_swords.cards import KINDS, kind_of
from engines.two_freakin_swords.moves import Shuffled
from engines.two_freakin_swords.physical import UNSEEN
from engines.two_freakin_swords.table import ADAPTER, answer, manual_moves
from tests.test_table_two_freakin_swords import Mat, assert_refused, see
from tests.test_two_freakin_swords import reload


def physical(seats: int = 2, variant: str = "duel", **options):
    return GAME.new(seats, variant, deal="physical", options=options)


def refused(state, move, rule: str, *words: str):
    before = state.to_json()
    with pytest.raises(IllegalMove) as exc:
        state.apply(move)
    v = exc.value.verdict
    assert v.rule == rule and v.message, v
    for w in words:
        assert w in v.message, v.message
    assert state.to_json() == before
    return v


def test_the_first_turn_begins_at_once_with_unseen_hands():
    """TFS-14.1: no opening choice, no shuffle: four unseen cards in every hand, the rest in the decks."""
    duel = physical()
    s = duel.snapshot
    assert s.turn == 1 and s.phase == "place-1" and duel.pending_chance() is None
    assert s.hands == ((UNSEEN,) * 4,) * 2 and [len(d) for d in s.decks] == [36, 36]
    ffa = physical(5, "free-for-all", decks="community")
    assert [len(d) for d in ffa.snapshot.decks] == [80 - 20] and ffa.pending_chance() is None
    assert GAME.load(duel.to_json()).snapshot == s


def test_decks_are_reshuffled_at_the_table_never_as_chance():
    """TFS-14.1, TFS-2.4: a deck that runs out takes its discard pile back, unseen; no chance move is asked."""
    rng = random.Random(3)
    state = physical(points=[30, 30])
    reshuffled = 0
    while state.outcome is None and reshuffled < 2:
        assert state.pending_chance() is None
        seat = min(state.to_act())
        for event in state.apply(rng.choice(state.legal_moves(seat))):
            if isinstance(event, Shuffled):
                assert event.reshuffle
                reshuffled += 1
    assert reshuffled == 2
    assert all(set(d) <= {UNSEEN} for d in state.snapshot.decks)


def test_seals_name_a_printed_id_or_a_kind_and_stay_hidden():
    """TFS-14.2: a seal by id or by kind; others never see it; an empty arm only with an empty hand (TFS-R10)."""
    state = physical()
    state.apply(Place(0, "R", "strike#3"))
    state.apply(Place(1, "R", "parry"))
    s = state.snapshot
    assert s.placement("0R").card == "strike#3" and kind_of(s.placement("1R").card) == "parry"
    assert len(s.hands[0]) == len(s.hands[1]) == 3
    hidden = state.hidden_from(1)
    assert "strike#3" in hidden and "strike#3" not in str(state.view(1)) and "strike#3" not in str(state.view(None))
    assert state.view(0)["hand_unseen"] == 3 and state.view(0)["hand"] == []
    refused(state, Place(0, "L", "sword"), "TFS-14.2", "'sword' is not a card")
    refused(state, Place(0, "L", None), "TFS-R10")


def test_card_conservation_refuses_a_card_known_elsewhere_or_of_another_deck():
    """TFS-14.3: a seal must be of the fighter's own deck, known nowhere else; a kind needs an unaccounted card."""
    state = physical()
    v = refused(state, Place(0, "R", "strike#41"), "TFS-14.3", "seat 2's deck")
    assert v.fix
    state.apply(Place(0, "R", "strike#3"))
    refused(state, Place(1, "R", "strike#999"), "TFS-14.3", "no deck at this table")
    s = state.snapshot
    strikes = tuple(f"strike#{n}" for n in range(41, 51))
    emptied = reload(state, s.but(discards=((), strikes)))
    refused(emptied, Place(1, "R", "strike"), "TFS-14.3", "every strike of your deck")
    refused(emptied, Place(1, "R", "strike#44"), "TFS-14.3", "already on seat 2's discard pile")
    emptied.apply(Place(1, "R", "fake"))
    state.apply(Place(1, "R", "block#61"))
    state.apply(Place(0, "L", "block"))
    refused(state, Place(1, "L", "block#61"), "TFS-14.3", "already on seat 2's right arm")


def test_a_card_sealed_by_kind_gives_way_to_the_printed_card_named_later():
    """TFS-14.3: a seal by kind stands for some unaccounted card; naming that very id moves it to another."""
    state = physical()
    state.apply(Place(0, "R", "block"))
    state.apply(Place(1, "R", "fake"))
    stood = state.snapshot.placement("0R").card
    assert stood == "block#21" and stood in state.snapshot.provisional
    state.apply(Place(0, "L", "block#21"))
    s = state.snapshot
    assert s.placement("0L").card == "block#21" and kind_of(s.placement("0R").card) == "block"
    assert s.placement("0R").card != "block#21" and "block#21" not in s.provisional


def test_the_printed_copy_turned_up_becomes_the_card_on_the_arm():
    """TFS-14.4: the kind must match (TFS-7.6); the copy read is checked for conservation and then kept."""
    state = physical()
    for move in (Place(0, "R", "strike"), Place(1, "R", "fake#52"), Place(0, "L", "block#25"), Place(1, "L", "parry")):
        state.apply(move)
    assert state.snapshot.phase == "reveal-1"
    refused(state, Reveal(0, "R", "fake#12"), "TFS-7.6")
    refused(state, Reveal(0, "R", "strike#45"), "TFS-14.4", "seat 2's deck")
    state.apply(Reveal(0, "R", "strike#7"))
    assert state.snapshot.placement("0R").card == "strike#7" and "strike#7" not in state.snapshot.provisional
    state.apply(Reveal(1, "R", "fake"))
    assert state.snapshot.placement("1R").card == "fake#52"
    assert state.snapshot.phase == "reveal-2"
    held = state.snapshot.placement("1L").card
    assert held in state.snapshot.provisional
    refused(state, Reveal(1, "L", "strike#7"), "TFS-7.6")
    state.apply(Reveal(0, "L", "block"))
    state.apply(Reveal(1, "L", "parry#80"))
    assert "parry#80" in state.snapshot.in_play or "parry#80" in state.snapshot.discards[1]


def test_a_turned_card_already_known_elsewhere_is_refused():
    """TFS-14.4, TFS-14.3: a printed id on a discard pile cannot also be the card just turned up."""
    state = physical()
    for move in (Place(0, "R", "strike"), Place(1, "R", "fake"), Place(0, "L", "block"), Place(1, "L", "parry")):
        state.apply(move)
    s = state.snapshot
    moved = reload(state, s.but(discards=(("strike#9",), ())))
    refused(moved, Reveal(0, "R", "strike#9"), "TFS-14.4", "already on seat 1's discard pile")


def test_legal_moves_offer_the_kinds_an_unseen_hand_may_hold():
    """TFS-14.5: placing lists kinds (those with an unaccounted card); announcing and revealing as ever."""
    state = physical()
    assert {m.card for m in state.legal_moves(0)} == set(KINDS)
    assert manual_moves(state, 0) == state.legal_moves(0)
    s = state.snapshot
    no_strikes = reload(state, s.but(discards=(tuple(f"strike#{n}" for n in range(1, 11)), ())))
    assert {m.card for m in no_strikes.legal_moves(0)} == {"fake", "block", "parry"}
    # two coins on one arm side: the lunge is announced as with a seeded deal
    lunger = reload(state, s.but(coins=("0L", "0R"), phase="announce", waiting=()))
    assert Announce(0, "1L") in lunger.legal_moves(0) or Announce(0, "1R") in lunger.legal_moves(0)


def test_the_camera_side_of_a_physical_deal():
    """TFS-14.5 at the table: the seal question offers kinds; a face-up card is still TFS-T3; the printed id
    read when a card is turned up is revealed as is (TFS-14.4); answers become moves."""
    state = physical()
    mat_ = Mat()
    before = mat_.snapshot()
    mat_.lay("0R", "striking")
    result = see(state, before, mat_.snapshot())
    assert result.mismatch is None and result.moves == ()
    (question,) = result.questions
    assert question.seat == 0 and set(question.choices) == {"strike", "fake"}
    move = answer(state, 0, "fake")
    assert move == Place(0, "R", "fake")
    state.apply(move)
    laid = mat_.snapshot()
    face_up = Mat()
    face_up.spots.update({k: list(v) for k, v in mat_.spots.items()})
    face_up.face("1R", "strike#44")
    assert_refused(state, laid, face_up.snapshot(), "TFS-T3")
    assert "seat 2's hand" in " ".join(ADAPTER.differences(state, face_up.snapshot()))
    for m in (Place(1, "R", "strike"), Place(0, "L", "block"), Place(1, "L", "parry")):
        state.apply(m)
    mat_.lay("1R", "striking")
    mat_.lay("0L", "defending")
    mat_.lay("1L", "defending")
    before = mat_.snapshot()
    mat_.turn_up("0R", "fake#15")
    result = see(state, before, mat_.snapshot())
    assert result.mismatch is None and result.moves == (Reveal(0, "R", "fake#15"),)
    state.apply(result.moves[0])
    assert state.snapshot.placement("0R").card == "fake#15"
    assert answer(state, 1, "strike") == Reveal(1, "R", "strike") and answer(state, 0, "strike") is None


@pytest.mark.parametrize("seats, variant, options", [
    (2, "duel", {}),
    (3, "teams", {"teams": [[0], [1, 2]], "decks": "community"}),
    (5, "free-for-all", {"decks": "community"}),
])
def test_random_physical_fights_end_with_every_card_in_one_place_and_nothing_leaked(seats, variant, options):
    """TFS-14.1 to TFS-14.5 together: fights by the listed moves reach an outcome; every known card is in one
    place and in its pile; no view shows a card hidden from its reader; hand counts stay those of the table."""
    for seed in range(3):
        rng = random.Random(seed)
        state = physical(seats, variant, **options)
        f = state.fight
        while state.outcome is None:
            seat = rng.choice(sorted(state.to_act()))
            state.apply(rng.choice(state.legal_moves(seat)))
            s = state.snapshot
            known = [c for c in (*s.in_play, *(c for d in s.discards for c in d)) if c != UNSEEN]
            assert len(known) == len(set(known)), known
            assert all(c in f.pools[f.pile_of_card(c)] for c in known)
            assert {p.card for p in s.placements if p.card} <= set(s.in_play)
            total = sum(map(len, s.hands)) + sum(map(len, s.decks)) + sum(map(len, s.discards)) + len(s.in_play)
            everything = sum(map(len, f.pools))
            assert total == everything or (not f.community and s.eliminated and total < everything), total
            for reader in (None, *range(seats)):
                hidden = state.hidden_from(reader)
                assert UNSEEN not in hidden
                view = str(state.view(reader))
                assert not any(f"'{c}'" in view for c in hidden), reader
