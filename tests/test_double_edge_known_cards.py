"""DE-R19: cards taken into a hand face up stay public while they are held."""

from engines.double_edge.moves import PlayStriker, TakeDiscards
from tests.double_edge.support import rules, table
from tests.support.conformance import leaves


@rules("DE-R19")
def test_a_card_taken_from_a_discard_pile_is_public_while_held():
    state = table(hands=(("2H", "3H", "4H", "5H", "6H"), ("8C", "9C", "10C", "JC", "QC", "KC")),
                  discards=(("7D",), ("7S",)), deck=("2D", "3D"))
    moves = state.legal_moves(0)
    take = next(m for m in moves if isinstance(m, TakeDiscards))
    events = state.apply(take)
    assert any(e.to_json().get("card") in ("7D", "7S") for e in events)
    opponent = state.view(1)
    assert set(state.view(None)["known_in_hand"][0]) == {"7D", "7S"}
    assert not state.hidden_from(1) & {"7D", "7S"}
    assert "2H" in state.hidden_from(1) and "2H" not in set(leaves(opponent))


@rules("DE-R19")
def test_a_known_card_that_leaves_the_hand_is_forgotten():
    state = table(hands=(("7D", "3H", "4H", "5H", "6H"), ("8C", "9C", "10C", "JC", "QC", "KC")),
                  known=(("7D",), ()), deck=("2D", "3D"))
    assert state.view(1)["known_in_hand"][0] == ["7D"]
    assert "7D" not in state.hidden_from(1)
    state.apply(PlayStriker(0, "7D"))
    assert state.view(None)["known_in_hand"][0] == []
    assert "3H" in state.hidden_from(1)
