"""Every registered game passes the engine-contract conformance test (see tests/support/conformance.py)."""

import pytest

from engines import registry
from tests.support.conformance import check_game

SEEDS = range(12)


def _cases():
    for game_id in registry.available():
        game = registry.get(game_id)
        for seats, variant, options in game.setups():
            for seed in SEEDS:
                label = ",".join(f"{k}={v}" for k, v in options.items())
                yield pytest.param(game, seats, variant, options, seed,
                                   id=f"{game_id}-{seats}p-{variant}{'-' + label if label else ''}-s{seed}")


CASES = list(_cases())


@pytest.mark.parametrize("game,seats,variant,options,seed", CASES)
def test_game_conforms(game, seats, variant, options, seed):
    check_game(game, seats, variant, options, seed)


def test_every_game_id_is_registered_once():
    assert len(set(registry.GAMES.values())) == len(registry.GAMES)


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        registry.get("chess")
