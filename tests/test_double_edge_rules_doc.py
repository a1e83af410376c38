"""Double-Edge as a whole: every rule id is tested, legal moves are complete, wrong moves are refused
in every phase, random games end."""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
import re
from itertools import permutations
from pathlib import Path

import tests
from engines.core import ChanceMove, IllegalMove
from engines.double_edge import GAME
from engines.double_edge import moves as m
from engines.double_edge.cards import KNOWN
from engines.playout import playout, random_steps
from tests.double_edge.support import rules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules" / "double-edge.md"
RULE_ID = re.compile(r"\bDE-(?:R\d+|\d+\.\d+)\b")


def doc_ids() -> set[str]:
    return set(re.findall(r"^- \*\*(DE-(?:R\d+|\d+\.\d+))\*\*", DOC.read_text(encoding="utf-8"), re.M))


def ids_named_by_tests() -> set[str]:
    named: set[str] = set()
    for info in pkgutil.iter_modules(tests.__path__):
        if not info.name.startswith("test_double_edge"):
            continue
        module = importlib.import_module(f"tests.{info.name}")
        for obj in vars(module).values():
            named.update(getattr(obj, "de_rules", ()))
    return named


def test_every_rule_and_ruling_in_the_document_is_named_by_a_test():
    ids = doc_ids()
    assert len(ids) > 60 and {"DE-1.1", "DE-R1", "DE-15.4"} <= ids
    missing = sorted(ids - ids_named_by_tests(), key=_order)
    assert not missing, f"rules with no test naming them: {missing}"
    unknown = sorted(ids_named_by_tests() - ids)
    assert not unknown, f"tests name rules the document lacks: {unknown}"


def test_every_rule_the_engine_cites_is_in_the_document():
    cited = set()
    for path in (ROOT / "engines" / "double_edge").glob("*.py"):
        cited.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    assert cited and not cited - doc_ids(), sorted(cited - doc_ids())


def _order(rule: str) -> tuple:
    return tuple(int(x) if x.isdigit() else -1 for x in re.split(r"[-.R]", rule) if x)


# ------------------------------------------------------------------ legal moves are complete

def _candidates(state, seat: int) -> list:
    """A superset of the legal moves: every move type with every card, and orders of the hand."""
    s = state.snapshot
    out: list = [m.Draw(seat), m.TakeDiscards(seat), m.TakeDiscard(seat, 0), m.TakeDiscard(seat, 1), m.EndTurn(seat),
                 m.Claim(seat, True), m.Claim(seat, False)]
    for card in sorted(KNOWN):
        out += [m.PlayStriker(seat, card), m.DiscardSupport(seat, card), m.PlaySupport(seat, card),
                m.Indicate(seat, card)]
    hand = s.hands[seat]
    if s.phase == "build":
        out += [m.BuildBase(seat, p) for p in permutations(hand, 3)]
    if s.phase == "turn" and state.gambits:
        for size in (3, 4):
            out += [m.PlayGambit(seat, p) for p in permutations(hand, size) if len({c[:-1] for c in p}) == 1]
    return out


@rules("DE-6.1", "DE-8.1", "DE-3.1")
def test_legal_moves_are_exactly_the_accepted_moves():
    rng = random.Random(7)
    for variant in GAME.variants:
        for seed in range(3):
            state = GAME.new(2, variant, deal=seed)
            for i, _ in enumerate(random_steps(state, rng, 400)):
                if i % 7 or state.outcome is not None or state.pending_chance() is not None:
                    continue
                for seat in (0, 1):
                    listed = state.legal_moves(seat)
                    accepted = [c for c in _candidates(state, seat) if state.check(c).ok]
                    assert set(listed) == set(accepted), (variant, seed, state.snapshot.phase)
                    assert len(listed) == len(set(listed))


# ------------------------------------------------------------------ wrong moves in every phase

WRONG = {
    "build": ("DE-3.1", lambda seat, hand: m.PlayStriker(seat, hand[0])),
    "turn": ("DE-6.1", lambda seat, hand: m.Indicate(seat, "AH" if seat == 0 else "AD")),
    "indicate": ("DE-8.1", lambda seat, hand: m.Draw(seat)),
    "claim": ("DE-11.3", lambda seat, hand: m.PlayStriker(seat, "2C")),
}


@rules("DE-6.1", "DE-8.1", "DE-11.3", "DE-3.1", "DE-12.4")
def test_a_move_of_another_phase_is_refused_and_changes_nothing():
    seen = set()
    rng = random.Random(3)
    for variant in GAME.variants:
        for seed in range(6):
            state = GAME.new(2, variant, deal=seed)
            for _ in random_steps(state, rng, 3000):
                before = state.to_json()
                if state.outcome is not None:
                    verdict = state.check(m.EndTurn(0))
                    assert verdict.rule == "CORE-2"
                    seen.add("over")
                    continue
                if state.pending_chance() is not None:
                    verdict = state.check(m.EndTurn(0))
                    assert not verdict.ok and verdict.rule == "CORE-4"
                    continue
                phase = state.snapshot.phase
                rule, make = WRONG[phase]
                for seat in sorted(state.to_act()):
                    move = make(seat, state.snapshot.hands[seat] or ("2C",))
                    verdict = state.check(move)
                    assert not verdict.ok and verdict.rule == rule, (phase, move, verdict)
                    try:
                        state.apply(move)
                    except IllegalMove as exc:
                        assert exc.verdict == verdict
                    assert state.to_json() == before
                    seen.add(phase)
    assert seen == {"build", "turn", "indicate", "claim", "over"}


def test_bad_input_is_refused_with_a_rule():
    state = GAME.new(2, "standard", deal=1)
    before = state.to_json()
    for bad in [None, {"type": "play-striker", "seat": 0, "card": 5}, {"type": "draw"}, {"type": "nope"},
                {"type": "chance", "values": [99]}, {"type": "build-base", "seat": 0, "cards": "2C"}]:
        verdict = state.check(bad)
        assert not verdict.ok and verdict.rule
        assert state.to_json() == before
    state.apply(ChanceMove(tuple(0 for _ in range(47))))
    verdict = state.check({"type": "build-base", "seat": 0, "cards": ["XX", "2C", "4C"]})
    assert verdict.rule == "DE-3.1"


def test_json_round_trip_of_a_physical_game_mid_reveal():
    state = GAME.new(2, "azbar", "physical")
    state.apply(m.BuildBase(0, ("2C", "4C", "6C")))
    state.apply(m.BuildBase(1, ("3H", "5H", "7H")))
    data = json.loads(json.dumps(state.to_json()))
    loaded = GAME.load(data)
    assert loaded.to_json() == state.to_json() and loaded.snapshot == state.snapshot
    try:
        loaded.apply(m.Reveal(0, "base", ("2C", "4C", "6C")))
    except IllegalMove as exc:  # pragma: no cover - a failure message
        raise AssertionError(exc) from None


@rules("DE-R8", "DE-R7")
def test_random_games_end():
    for variant in GAME.variants:
        for seed in range(15):
            result = playout(GAME, 2, variant, seed)
            assert not result.capped and result.state.outcome is not None
