"""The conformance test every registered game must pass (engines/core.py contract).

Random playouts from many seeds, checking at every step that:
- every move ``legal_moves`` lists is accepted by ``check`` and ``apply``;
- ``check`` agrees with ``apply`` on moves that are not legal now, and a
  rejected ``apply`` leaves the state unchanged, with a rule id;
- ``to_json``/``load`` round-trips and the loaded state lists the same moves;
- no ``view(seat)`` contains a string of ``hidden_from(seat)``, and no event
  (events are public) a string of ``hidden_from(None)``;
- ``undo`` restores the previous state;
- the game record, replayed, reproduces the same final state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from companion.record import Chain, make_header, parse_record, replay
from engines.core import ChanceMove, Game, IllegalMove, Move, State, Verdict
from engines.playout import sample_chance


def leaves(data: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield str(k)
            yield from leaves(v)
    elif isinstance(data, list | tuple):
        for v in data:
            yield from leaves(v)


def assert_hidden(state: State) -> None:
    for seat in [None, *range(state.seats)]:
        view = state.view(seat)
        json.dumps(view)
        secret = state.hidden_from(seat)
        leaked = secret.intersection(leaves(view))
        assert not leaked, f"view({seat}) leaks {sorted(leaked)}"


def _moves_to_probe(state: State, earlier: list[Move], rng: random.Random) -> list[Move]:
    """Candidates that are often illegal now: old moves and moves of seats not to act."""
    probes = rng.sample(earlier, min(3, len(earlier)))
    probes.append(ChanceMove((0,)))
    return probes


def check_game(game: Game, seats: int, variant: str, options: dict, seed: int, max_moves: int = 3000) -> State:
    rng = random.Random(seed)
    state = game.new(seats, variant, deal=seed, options=options)
    chain = Chain(make_header(game.id, variant, seats, seed, options=options))
    earlier: list[Move] = []
    for _ in range(max_moves):
        assert_hidden(state)
        snapshot = state.to_json()
        json.dumps(snapshot)
        loaded = game.load(json.loads(json.dumps(snapshot)))
        assert loaded.to_json() == snapshot, "to_json/load does not round-trip"
        if state.outcome is not None:
            assert not state.to_act() and state.pending_chance() is None
            break
        for probe in _moves_to_probe(state, earlier, rng):
            verdict = state.check(probe)
            try:
                state.apply(probe)
            except IllegalMove as exc:
                assert not verdict.ok, "check accepted what apply refused"
                assert exc.verdict == verdict, "check and apply give different reasons"
                assert verdict.rule, "a rejection must name a rule id"
                assert state.to_json() == snapshot, "a rejected move changed the state"
            else:
                assert verdict.ok, f"check refused {probe} but apply accepted it"
                chain.append(seat=probe.actor, source="simulator", move=probe.to_json(), verdict=Verdict.accept())
                earlier.append(probe)
                snapshot = None  # the probe was legal; continue from the new state
                break
        if snapshot is None:
            continue
        chance = state.pending_chance()
        if chance is not None:
            assert not state.to_act(), "a seat may act while chance is pending"
            move: Move = sample_chance(chance, rng)
        else:
            acting = sorted(state.to_act())
            assert acting, "nobody to act, no chance pending and no outcome"
            for seat in range(seats):
                if seat not in acting:
                    assert state.legal_moves(seat) == [], f"seat {seat} has moves out of turn"
            seat = rng.choice(acting)
            moves = state.legal_moves(seat)
            assert moves, f"seat {seat} must act but has no legal move"
            assert loaded.legal_moves(seat) == moves, "a loaded state lists other moves"
            for m in rng.sample(moves, min(5, len(moves))):
                assert state.check(m).ok, f"listed move {m} refused: {state.check(m)}"
                assert game.decode_move(json.loads(json.dumps(m.to_json()))) == m, "move JSON does not round-trip"
            move = rng.choice(moves)
        verdict = state.check(move)
        assert verdict.ok, f"{move} refused: {verdict}"
        events = state.apply(move)
        secret = state.hidden_from(None)
        for event in events:
            leaked = secret.intersection(leaves(event.to_json()))
            assert not leaked, f"event {event.type} names hidden cards {sorted(leaked)}"
        state.undo()
        assert state.to_json() == snapshot, "undo did not restore the state"
        state.apply(move)
        chain.append(seat=move.actor, source="simulator", move=move.to_json(), verdict=Verdict.accept())
        earlier.append(move)
    record = parse_record(chain_lines(chain))
    replayed, steps = replay(record, game=game)
    assert all(step.agrees for step in steps), "a replayed verdict differs from the recorded one"
    assert replayed.to_json() == state.to_json(), "replaying the record gives another state"
    return state


def chain_lines(chain: Chain) -> list[str]:
    from companion.record import canonical

    return [canonical(chain.header), *(canonical(e) for e in chain.entries)]
