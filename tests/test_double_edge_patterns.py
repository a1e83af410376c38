"""Double-Edge cards (DE-1) and Base patterns (DE-3.4, DE-4)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from engines.double_edge.cards import ACES, DECK, group, is_red, props, value
from engines.double_edge.patterns import can_form_base, is_anti, is_straight, pattern_of, valid_base
from tests.double_edge.support import rules


@rules("DE-1.1")
def test_card_ids_are_rank_and_suit_letter():
    assert len(DECK) == 48 and len(set(DECK)) == 48
    assert {"2C", "10S", "JD", "QH", "KC"} <= set(DECK)
    assert not any(c.startswith("A") for c in DECK)
    assert sorted(a for pair in ACES for a in pair) == ["AC", "AD", "AH", "AS"]


@rules("DE-1.2")
def test_values():
    assert [value(c) for c in ("2C", "9D", "10H", "JS", "QC", "KD", "AH")] == [2, 9, 10, 11, 12, 13, 1]


@rules("DE-1.3")
def test_properties_colour_parity_size():
    assert is_red("7H") and is_red("7D") and not is_red("7C") and not is_red("7S")
    assert props("7H") == (1, 1, 0)  # red, odd, small
    assert props("8S") == (0, 0, 1)  # black, even, big (8 is big: greater than seven)
    assert props("KD") == (1, 1, 1)
    assert props("2C") == (0, 0, 0)


def g(*cards: str) -> list[int]:
    return [group(c) for c in cards]


@rules("DE-4.2")
def test_straight_shares_the_same_two_properties():
    assert is_straight(g("2C", "4S", "6C"))  # black, even, small: all three
    assert is_straight(g("2C", "4S", "10C"))  # black and even; sizes differ
    assert not is_straight(g("2C", "4S", "9S"))  # only black is common to all
    assert is_straight(g("2C", "4S", "3S"))  # black and small
    # two pairs share two properties, but not the same two: not a Straight
    assert not is_straight(g("2C", "4C", "4H", "5H"))


@rules("DE-4.3")
def test_three_shared_properties_keep_the_choice_open():
    base = g("2C", "4S")  # share all three
    # either pair of properties may still be chosen by the next card
    assert is_straight(base + g("10C"))  # colour+parity
    assert is_straight(base + g("3S"))  # colour+size
    assert is_straight(base + g("6H"))  # parity+size
    # once fixed by a card, the others must follow the same two
    assert not is_straight(base + g("10C", "3S"))


@rules("DE-4.4")
def test_anti_adjacent_pairs_share_exactly_one_property():
    # 2C (black even small) - 3H (red odd small): share size; 3H - 10H: share colour
    assert is_anti(g("2C", "3H", "10H")) and pattern_of(g("2C", "3H", "10H")) == "anti"
    assert not is_anti(g("2C", "4C", "3H"))  # first pair shares three
    assert not is_anti(g("2C", "9H", "4S"))  # first pair shares nothing
    # top and bottom are not adjacent: 2C and 4S may share everything
    assert is_anti(g("2C", "3H", "4S"))


@rules("DE-4.1", "DE-4.5")
def test_every_base_keeps_a_pattern_and_one_card_fits_both():
    assert valid_base(("2C", "3H", "10H")) and valid_base(("2C", "4S", "6C"))
    assert not valid_base(("2C", "9H", "4S"))
    assert pattern_of(g("KD")) == "any"
    # a Straight cut down to one card may grow as an Anti
    assert valid_base(("10H", "3H")) and pattern_of(g("10H", "3H")) == "anti"


@rules("DE-3.4")
def test_every_seven_card_hand_can_build_a_base():
    """Exhaustive over multisets of the eight colour/parity/size groups (six cards in each)."""
    per_group = Counter(group(c) for c in DECK)
    assert sorted(per_group.values()) == [6] * 8
    hands = 0
    for combo in combinations_with_replacement(range(8), 7):
        counts = Counter(combo)
        if any(n > per_group[k] for k, n in counts.items()):
            continue
        hands += 1
        # Distinct group triples are enough: which of two same-group cards is used never matters.
        assert can_form_base(_reduced(counts)), combo
    assert hands == 3424


def _reduced(counts: Counter) -> list[int]:
    """At most three cards of a group matter for a three-card Base."""
    return [k for k, n in counts.items() for _ in range(min(n, 3))]
