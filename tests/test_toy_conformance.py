"""The conformance harness itself, run on the reference toy game."""

import pytest

from engines.core import IllegalMove
from tests.support.conformance import check_game
from tests.support.toy_game import GAME, Pick


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(20))
def test_toy_game_conforms(seats, seed):
    state = check_game(GAME, seats, "standard", {}, seed)
    assert state.outcome is not None


def test_bad_input_is_rejected_with_a_rule_and_changes_nothing():
    state = GAME.new(2, deal=1)
    before = state.to_json()
    for bad in [None, 5, "x", {}, {"type": "nope"}, {"type": "pick"}, {"type": "pick", "seat": "0", "card": 1},
                {"type": "chance", "values": [99]}, {"type": "chance", "values": "abc"}]:
        verdict = state.check(bad)
        assert not verdict.ok and verdict.rule, bad
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_json() == before
    state.apply({"type": "chance", "values": [0] * 11})
    with pytest.raises(IllegalMove) as exc:
        state.apply(Pick(7, "1"))
    assert exc.value.rule == "CORE-5"
