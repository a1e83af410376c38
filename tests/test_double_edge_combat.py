"""Double-Edge combat (DE-9), Supports (DE-10) and their rulings, on the pure fight function."""

from __future__ import annotations

from engines.double_edge.combat import Fighter, fight
from tests.double_edge.support import rules


def S(card: str, support: str | None = None, *middles: str, seat: int = 0) -> Fighter:
    return Fighter(seat, "striker", (card, *middles), support)


def B(card: str, support: str | None = None) -> Fighter:
    return Fighter(1, "base", (card,), support)


@rules("DE-9.1")
def test_same_parity_higher_wins_equal_is_stalemate():
    assert fight(S("9C"), B("5H")).winner == 0
    assert fight(S("4C"), B("QH")).winner == 1
    result = fight(S("8C"), B("8H"))
    assert result.winner is None and result.rule == "DE-9.1"


@rules("DE-9.2")
def test_opposite_parity_same_colour_even_wins():
    result = fight(S("2C"), B("KS"))
    assert result.winner == 0 and result.rule == "DE-9.2"
    assert fight(S("KH"), B("2D")).winner == 1


@rules("DE-9.3")
def test_opposite_parity_different_colours_odd_wins():
    result = fight(S("3C"), B("QH"))
    assert result.winner == 0 and result.rule == "DE-9.3"
    assert fight(S("QC"), B("3H")).winner == 1


@rules("DE-10.1", "DE-R4")
def test_clubs_add_seven_to_the_opponent_and_parity_follows():
    # 9C vs 6C: opposite parity, same colour: even (6C) wins ...
    assert fight(S("9C"), B("6C")).winner == 1
    # ... but clubs under 9C make 6C worth 13: same parity now, and 13 > 9
    result = fight(S("9C", "2C"), B("6C"))
    assert result.values == (9, 13) and result.winner == 1 and result.rule == "DE-9.1"
    # clubs under the Base: 4C becomes 11 against 5S -> same parity, 11 > 5, the striker wins
    result = fight(S("4C"), B("5S", "7C"))
    assert result.values == (11, 5) and result.winner == 0


@rules("DE-10.2", "DE-R4")
def test_hearts_double_the_opponent_which_makes_it_even():
    # 5C vs 8C: opposite parity, same colour: the even 8 wins; hearts under 8C: 5C -> 10, even, higher
    assert fight(S("5C"), B("8C")).winner == 1
    result = fight(S("5C"), B("8C", "2H"))
    assert result.values == (10, 8) and result.winner == 0


@rules("DE-10.3")
def test_diamonds_reverse_the_opposite_parity_rule():
    assert fight(S("2C"), B("KS")).winner == 0
    result = fight(S("2C", "9D"), B("KS"))
    assert result.winner == 1 and result.rule == "DE-10.3"
    assert fight(S("3C", "9D"), B("QH")).winner == 1  # different colours: even wins now
    # same parity is not touched
    assert fight(S("9C", "4D"), B("5H")).winner == 0


@rules("DE-10.4")
def test_standard_spades_lower_wins_under_same_parity():
    result = fight(S("9C", "4S"), B("5H"))
    assert result.winner == 1 and result.rule == "DE-10.4"
    assert fight(S("2C", "4S"), B("KH")).winner == 1  # opposite parity: spades do nothing


@rules("DE-R3")
def test_two_supports_each_change_the_other_side_and_pairs_cancel():
    # clubs under A, hearts under B: A doubled, B + 7
    result = fight(S("3C", "2C"), B("4H", "5H"))
    assert result.values == (6, 11)
    # two diamonds cancel: back to the printed rule (same colour, even wins)
    assert fight(S("2C", "9D"), B("KS", "4D")).winner == 0
    # two spades cancel: higher wins again
    assert fight(S("9C", "4S"), B("5H", "6S")).winner == 0


@rules("DE-13.3", "DE-R10")
def test_gambit_value_is_the_product_colour_of_the_striker():
    gambit = S("4H", "4C", "4D")  # 4H striker, 4D middle, 4C support
    assert gambit.value == 64 and gambit.red
    assert fight(gambit, B("KC")).values == (64, 20)  # its clubs Support still adds 7 to the opponent
    # the clubs made 7C worth 14: same parity, 64 wins
    assert fight(gambit, B("7C")).winner == 0
    # a red even Gambit with a diamonds Support vs 7C: opposite parity, different colours, reversed: even wins
    assert fight(S("4H", "4D", "4S"), B("7C")).rule == "DE-10.3"
    assert fight(S("4H", "4D", "4S"), B("7C")).winner == 0
    assert S("3S", "3C", "3D").value == 27


@rules("DE-13.4")
def test_azbar_spades_cancel_a_support_of_the_strikers_suit():
    # 9C with spades support; opponent Base 6C with a clubs Support (suit = my Striker's suit): cancelled
    result = fight(S("9C", "2S"), B("6D", "5C"), azbar=True)
    assert result.values == (9, 6)
    # no cancellation when suits differ: the hearts doubles 9C
    assert fight(S("9C", "2S"), B("6D", "5H"), azbar=True).values == (18, 6)
    # azbar spades never make the lower number win
    assert fight(S("9C", "4S"), B("5H"), azbar=True).winner == 0


@rules("DE-R14")
def test_azbar_spades_cancel_each_other_at_once():
    # both sides spade Supports whose suit matches the other's Striker: both cancelled
    result = fight(S("9S", "2S"), B("5S", "4S"), azbar=True)
    assert result.values == (9, 5) and result.winner == 0
    # a Base's suit is its top card's
    assert fight(S("9H", "3D"), B("6D", "2S"), azbar=True).values == (9, 6)
    assert fight(S("9H", "3H"), B("6D", "2S"), azbar=True).values == (9, 12)


@rules("DE-13.5", "DE-R11")
def test_gambit_spade_reaches_every_card_above_it():
    gambit = S("4H", "4S", "4D")  # striker 4H, middle 4D, spade support
    # the opponent's diamonds Support matches the middle card: cancelled
    assert fight(gambit, B("7C", "9D"), azbar=True).rule == "DE-9.3"
    # without the Gambit reading it would not be (striker is hearts)
    assert fight(S("4H", "4S"), B("7C", "9D"), azbar=True).rule == "DE-10.3"
