"""ガンナガン host game as modelled (docs/rules/gun-and-gun.md GG-1 .. GG-9), its card
data, hidden information, random playouts and records.  The house rule's own
tests live in test_gun_and_gun_double_edge.py; both use :func:`arrange`."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence

import pytest

from companion.record import Chain, make_header, parse_record, read_record, replay
from engines.core import ChanceMove, IllegalMove, Verdict, to_plain
from engines.gun_and_gun import GAME
from engines.gun_and_gun.cards import CardSetError, load_card_set, parse_card_set
from engines.gun_and_gun.moves import (
    EndMain,
    Load,
    NoResponse,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    SetResponse,
    Shoot,
    UseSkill,
)
from engines.gun_and_gun.snapshot import Player, Snap
from engines.gun_and_gun.state import GunAndGunState
from engines.playout import random_steps

# --------------------------------------------------------------------------
# arranging a table


class Arranged:
    """A state put together card by card, plus the ids it used (by key, in order)."""

    def __init__(self, state: GunAndGunState, used: dict[tuple[int, str], list[str]]):
        self.state = state
        self.used = used

    def id(self, seat: int, key: str, n: int = 0) -> str:
        """The id of the n-th copy of card ``key`` placed for ``seat``."""
        return self.used[(seat, key)][n]


def arrange(variant: str = "double-edge", *, active: int = 0, phase: str = "main",
            hands: Sequence[Sequence[str]] = ((), ()), voltage: Sequence[int] = (0, 0),
            loaded: Sequence[Sequence[Sequence[str]]] = (((), ()), ((), ())),
            functions: Sequence[Sequence[str]] = ((), ()), responses: Sequence[Sequence[str]] = ((), ()),
            deck_tops: Sequence[Sequence[Sequence[str]]] = (((), ()), ((), ())),
            empty_decks: Sequence[int] = (), life: Sequence[int] = (30, 30),
            gunners: Sequence[str] | None = None) -> Arranged:
    """A game in the main (or down) phase of turn 1 with the named cards where asked.

    Card keys are those of cards.json; ``"*"`` is any bullet.  ``voltage`` gives a
    number of bullets per seat.  Every card not placed stays in its deck (named
    ``deck_tops`` first), except for the seats of ``empty_decks``, whose unplaced
    cards go to the trash.
    """
    options = {"gunners": list(gunners)} if gunners else {}
    state = GAME.new(2, variant, deal=0, options=options)
    table = state.table
    free = [[list(table.decks[seat][gun]) for gun in (0, 1)] for seat in (0, 1)]
    used: dict[tuple[int, str], list[str]] = {}

    def take(seat: int, key: str) -> str:
        for gun in (0, 1):
            for card_id in free[seat][gun]:
                card = table.ids[card_id]
                if card.key == key or (key == "*" and card.type == "bullet"):
                    free[seat][gun].remove(card_id)
                    used.setdefault((seat, key), []).append(card_id)
                    return card_id
        raise AssertionError(f"no free copy of {key} for seat {seat}")

    players = []
    for seat in (0, 1):
        hand = tuple(take(seat, k) for k in hands[seat])
        volt = tuple(take(seat, "*") for _ in range(voltage[seat]))
        load = tuple(tuple(take(seat, k) for k in loaded[seat][gun]) for gun in (0, 1))
        funcs = tuple(take(seat, k) for k in functions[seat])
        resp = tuple(take(seat, k) for k in responses[seat])
        tops = [[take(seat, k) for k in deck_tops[seat][gun]] for gun in (0, 1)]
        if seat in empty_decks:
            decks: tuple[tuple[str, ...], ...] = (tuple(tops[0]), tuple(tops[1]))
            trash = tuple(free[seat][0] + free[seat][1])
        else:
            decks = (tuple(tops[0] + free[seat][0]), tuple(tops[1] + free[seat][1]))
            trash = ()
        players.append(Player(life[seat], hand, decks, load, volt, trash, resp, funcs))
    snap = Snap(phase, tuple(players), active, 1 - active, 1, False, (), False, (), (), False, (), None,
                4, None, "")
    data = {"game": GAME.id, "seats": 2, "variant": variant, "deal": 0, "options": options,
            "snapshot": to_plain(snap)}
    return Arranged(GAME.load(data), used)  # type: ignore[arg-type]


def rejected(state, move) -> Verdict:
    """Assert ``move`` is refused by check and apply alike and changes nothing."""
    before = state.to_json()
    verdict = state.check(move)
    assert not verdict.ok and verdict.rule and verdict.message
    with pytest.raises(IllegalMove) as exc:
        state.apply(move)
    assert exc.value.verdict == verdict
    assert state.to_json() == before
    return verdict


def end_turn(state) -> None:
    """End the active seat's main phase and resolve its functions without declaring."""
    seat = state.snapshot.active
    state.apply(EndMain(seat))
    while state.snapshot.phase == "down" and state.snapshot.active == seat and state.snapshot.players[seat].functions:
        state.apply(ResolveFunction(seat, state.snapshot.players[seat].functions[0]))


# --------------------------------------------------------------------------
# the game object and the card data


def test_game_metadata_and_variants():
    assert GAME.id == "gun-and-gun"
    assert GAME.players == (2,)
    assert GAME.variants == ("standard", "double-edge")
    assert GAME.rules_doc == "docs/rules/gun-and-gun.md"


def test_bad_setups_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="gunners must name"):
        GAME.new(2, "standard", deal=1, options={"gunners": ["raven", "nobody"]})
    with pytest.raises(ValueError, match="unknown option"):
        GAME.new(2, "standard", deal=1, options={"speed": 3})
    with pytest.raises(ValueError):
        GAME.new(3, "standard", deal=1)


def test_card_set_holds_the_example_cards():
    cards = load_card_set()
    assert cards.cards["keiryaku"].name == "計略" and cards.cards["keiryaku"].effect == (("draw", 3),)
    assert cards.cards["blitz"].name == "ブリッツ" and cards.cards["blitz"].effect == (("extra-turn", 1),)
    rs = cards.cards["reload-supporter"]
    assert rs.name == "リロード・サポーター" and rs.type == "function" and rs.effect == (("load", 1),)
    assert cards.gunners["raven"].skill.name == "ブレインハック"
    assert cards.life == 30
    # a generic draw-2 action, a response, bullets
    assert cards.cards["resupply"].effect == (("draw", 2),)
    assert {c.type for c in cards.cards.values()} == {"bullet", "action", "function", "response"}


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d["cards"]["keiryaku"].update(type="spell"), "card 'keiryaku'"),
    (lambda d: d["cards"]["keiryaku"].update(effect=[["draw", 0]]), "positive"),
    (lambda d: d["cards"]["blitz"].update(effect=[["teleport", 1]]), "unknown kind 'teleport'"),
    (lambda d: d["decks"]["handgun-deck"].append(["nothing", 1]), "unknown card 'nothing'"),
    (lambda d: d["guns"]["handgun"].update(capacity=0), "gun 'handgun'"),
    (lambda d: d["gunners"]["raven"].update(guns=["handgun"]), "gunner 'raven'"),
    (lambda d: d["cards"]["9mm-round"].update(hit=0), "bullet"),
    (lambda d: d.pop("skills"), "skills"),
])
def test_a_broken_card_set_names_the_bad_entry(mutate, needle):
    from importlib import resources

    raw = json.loads(resources.files("engines.gun_and_gun").joinpath("cards.json").read_text(encoding="utf-8"))
    broken = copy.deepcopy(raw)
    mutate(broken)
    with pytest.raises(CardSetError, match=needle):
        parse_card_set(broken)
    parse_card_set(raw)  # the shipped file itself is fine


def test_every_copy_has_its_own_id():
    state = GAME.new(2, "standard", deal=3)
    ids = list(state.table.ids)
    assert len(ids) == len(set(ids)) == 80
    assert ids[0] == "0A-01"


# --------------------------------------------------------------------------
# setup and turn structure


def test_setup_shuffles_four_decks_then_the_faster_gunner_starts():
    state = GAME.new(2, "standard", deal=0)
    kinds = []
    while state.pending_chance() is not None:
        request = state.pending_chance()
        kinds.append((request.kind, request.seat))
        state.apply(ChanceMove(tuple(0 for _ in request.ranges)))
    assert kinds == [("shuffle", 0), ("shuffle", 0), ("shuffle", 1), ("shuffle", 1)]
    snap = state.snapshot
    assert snap.active == 0 and snap.phase == "main"  # レイヴン speed 5 beats ジーナ speed 4 (GG-2.3)
    assert [len(p.hand) for p in snap.players] == [5, 6]  # GG-2.2


def test_equal_speed_is_decided_by_a_coin():
    state = GAME.new(2, "standard", deal=0, options={"gunners": ["raven", "mirror"]})
    for _ in range(4):
        request = state.pending_chance()
        state.apply(ChanceMove(tuple(0 for _ in request.ranges)))
    request = state.pending_chance()
    assert request.kind == "coin" and request.ranges == (2,)
    state.apply(ChanceMove((1,)))
    assert state.snapshot.active == 1  # value 1 = seat 2 (GG-R1)


def test_down_phase_refills_the_hand_then_the_turn_passes():
    arranged = arrange("standard", hands=(("keiryaku",), ()))
    state = arranged.state
    state.apply(EndMain(0))
    snap = state.snapshot
    assert snap.active == 1 and snap.turn == 2
    assert len(snap.players[0].hand) == 5  # GG-7.1 refill to レイヴン's hand size


def test_main_phase_moves_are_refused_in_the_down_phase():
    arranged = arrange("standard", hands=(("resupply",), ()), functions=(("reload-supporter",), ()))
    state = arranged.state
    state.apply(EndMain(0))
    assert state.snapshot.phase == "down"
    assert rejected(state, PlayAction(0, arranged.id(0, "resupply"))).rule == "GG-3.2"
    state.apply(ResolveFunction(0, arranged.id(0, "reload-supporter")))
    assert state.snapshot.active == 1


def test_a_shot_deals_hits_and_a_response_prevents_some():
    arranged = arrange("standard", loaded=((("hollow-point", "9mm-round"), ("slug",)), ((), ())),
                       responses=((), ("body-armour",)))
    state = arranged.state
    state.apply(Shoot(0, 0))
    assert state.to_act() == {1}
    assert state.legal_moves(1) == [NoResponse(1), Respond(1, arranged.id(1, "body-armour"))]
    state.apply(Respond(1, arranged.id(1, "body-armour")))
    assert state.snapshot.players[1].life == 29  # 3 hits - 2 prevented
    state.apply(Shoot(0, 1))  # no response left: 2 + shotgun bonus 1
    assert state.snapshot.players[1].life == 26
    assert rejected(state, Shoot(0, 1)).rule == "GG-4.5"  # once per gun per turn


def test_life_zero_ends_the_game():
    arranged = arrange("standard", hands=(("grenade",), ()), voltage=(2, 0), life=(30, 3))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "grenade")))
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert "GG-8.1" in state.outcome.reason
    assert state.to_act() == frozenset() and state.pending_chance() is None


def test_deck_out_ends_the_game():
    arranged = arrange("standard", hands=(("resupply",), ()), empty_decks=(0,))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply")))
    assert state.outcome is not None and state.outcome.winners == (1,)
    assert "GG-8.2" in state.outcome.reason


def test_costs_and_limits_of_the_host_game():
    arranged = arrange("standard", hands=(("blitz", "keiryaku", "keiryaku", "assault"), ()), voltage=(3, 0))
    state = arranged.state
    assert rejected(state, PlayAction(0, arranged.id(0, "blitz"))).rule == "GG-5.2"  # needs voltage 4
    assert rejected(state, PlayAction(0, arranged.id(0, "assault"))).rule == "GG-5.3"  # nothing loaded
    assert rejected(state, PlayFunction(0, arranged.id(0, "keiryaku"))).rule == "GG-4.2"
    state.apply(PlayAction(0, arranged.id(0, "keiryaku", 0)))
    assert len(state.snapshot.players[0].trash) == 1  # cost 1 from the voltage area (GG-5.1)
    assert rejected(state, PlayAction(0, arranged.id(0, "keiryaku", 1))).rule == "GG-5.4"


def test_brain_hack_reveals_and_mills_a_non_action():
    arranged = arrange("standard", deck_tops=(((), ()), (("9mm-round",), ())))
    state = arranged.state
    state.apply(UseSkill(0, 0))
    assert state.snapshot.pending is None
    assert state.snapshot.players[1].voltage == (arranged.id(1, "9mm-round"),)
    assert rejected(state, UseSkill(0, 1)).rule == "GG-4.6"


def test_loading_takes_bullets_only_and_respects_capacity():
    arranged = arrange("standard", hands=(("9mm-round", "keiryaku"), ()), loaded=(((), ("slug", "slug")), ((), ())))
    state = arranged.state
    assert rejected(state, Load(0, 0, arranged.id(0, "keiryaku"))).rule == "GG-4.4"
    assert rejected(state, Load(0, 1, arranged.id(0, "9mm-round"))).rule == "GG-4.4"
    assert rejected(state, Load(0, 2, arranged.id(0, "9mm-round"))).rule == "GG-1.2"
    state.apply(Load(0, 0, arranged.id(0, "9mm-round")))
    assert state.snapshot.players[0].loaded[0] == (arranged.id(0, "9mm-round"),)


def test_standard_variant_never_offers_or_accepts_a_declaration():
    arranged = arrange("standard", hands=(("resupply", "body-armour", "9mm-round"), ()),
                       functions=(("reload-supporter",), ()))
    state = arranged.state
    assert all(not getattr(m, "double_edge", False) for m in state.legal_moves(0))
    for move in [PlayAction(0, arranged.id(0, "resupply"), True), SetResponse(0, arranged.id(0, "body-armour"), True),
                 Load(0, 0, arranged.id(0, "9mm-round"), True)]:
        assert rejected(state, move).rule == "GG-DE-1"


# --------------------------------------------------------------------------
# hidden information


def test_hidden_from_lists_the_opponents_hand_and_set_responses():
    arranged = arrange(hands=(("keiryaku", "9mm-round"), ("resupply",)), responses=((), ("body-armour",)),
                       loaded=((("slug",), ()), ((), ())))
    state = arranged.state
    secret = state.hidden_from(0)
    assert arranged.id(1, "resupply") in secret and arranged.id(1, "body-armour") in secret
    assert arranged.id(0, "keiryaku") not in secret
    assert arranged.id(0, "keiryaku") in state.hidden_from(1)
    assert arranged.id(0, "slug") in state.hidden_from(1)
    view = json.dumps(state.view(0), ensure_ascii=False)
    assert arranged.id(0, "keiryaku") in view and arranged.id(1, "resupply") not in view
    assert arranged.id(1, "body-armour") not in view
    public = state.hidden_from(None)
    assert {arranged.id(0, "keiryaku"), arranged.id(1, "resupply"), arranged.id(1, "body-armour")} <= public
    assert state.view(None)["players"][1]["responses_set"] == 1


# --------------------------------------------------------------------------
# random playouts and records


def test_random_double_edge_playouts_end_and_use_declarations():
    declared = tosses = 0
    reasons = set()
    for seed in range(25):
        state = GAME.new(2, "double-edge", deal=seed)
        previous = None
        for step in random_steps(state, random.Random(seed), 5000):
            if getattr(step.move, "double_edge", False):
                declared += 1
            if isinstance(step.move, ChanceMove) and previous is not None and getattr(previous, "double_edge", False):
                tosses += 1
                assert any(e.type == "coin-tossed" for e in step.events)
            previous = step.move
        assert state.outcome is not None, f"seed {seed} did not end"
        reasons.add(state.outcome.reason.split("(")[-1])
    assert declared > 0 and tosses == declared
    assert reasons == {"GG-8.1)", "GG-8.2)"}


def test_a_record_shows_each_toss_and_replays_to_the_same_state():
    state = GAME.new(2, "double-edge", deal=7)
    chain = Chain(make_header(GAME.id, "double-edge", 2, 7))
    for step in random_steps(state, random.Random(7), 5000):
        chain.append(seat=step.move.actor, source="simulator", move=step.move.to_json(), verdict=Verdict.accept())
    record = parse_record(list(chain_lines(chain)))
    moves = [e["move"] for e in record.entries]
    declared_at = [i for i, m in enumerate(moves) if m.get("double_edge")]
    assert declared_at
    for i in declared_at:
        assert moves[i + 1]["type"] == "chance" and moves[i + 1]["values"][0] in (0, 1)
    replayed, steps = replay(record, game=GAME)
    assert all(s.agrees for s in steps)
    assert replayed.to_json() == state.to_json()


def chain_lines(chain: Chain):
    from companion.record import canonical

    yield canonical(chain.header)
    for entry in chain.entries:
        yield canonical(entry)


def test_companion_simulate_writes_a_record_that_replays(tmp_path, capsys):
    from companion.cli import main

    path = tmp_path / "gg.jsonl"
    assert main(["simulate", "gun-and-gun", "--variant", "double-edge", "--games", "5", "--seed", "3",
                 "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hit the cap of 5000 moves: 0" in out
    record = read_record(path)
    assert any(e["move"].get("double_edge") for e in record.entries)
    state, steps = replay(record)
    assert all(s.agrees for s in steps) and state.outcome is not None


def test_bad_input_gets_a_rule_and_changes_nothing():
    arranged = arrange(hands=(("9mm-round",), ()))
    state = arranged.state
    card = arranged.id(0, "9mm-round")
    for bad in [None, {"type": "load", "seat": 0, "gun": "x", "card": card},
                {"type": "load", "seat": 0, "gun": 5, "card": card}, Load(0, True, card),
                {"type": "shoot", "seat": 0, "gun": 0, "double_edge": "yes"}, {"type": "fly", "seat": 0},
                {"type": "play-action", "seat": 1, "card": card}, ChanceMove((0,))]:
        assert rejected(state, bad).rule in {"CORE-1", "CORE-3", "CORE-6", "GG-1.2"}
    assert rejected(state, Load(0, 2, card)).rule == "GG-1.2"


def test_every_rule_id_the_engine_names_is_in_the_rules_document():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / GAME.rules_doc).read_text(encoding="utf-8")
    source = "".join(p.read_text(encoding="utf-8") for p in (root / "engines" / "gun_and_gun").glob("*.py"))
    named = set(re.findall(r'Reject\(\s*"(GG-[\w.-]+)"', source)) | set(re.findall(r'excluded\(\s*"(GG-[\w.-]+)"', source))
    assert len(named) > 20
    missing = {rule for rule in named if f"**{rule}**" not in doc}
    assert not missing, f"rule ids used by the engine but not defined in {GAME.rules_doc}: {sorted(missing)}"
    tests = (root / "tests" / "test_gun_and_gun_double_edge.py").read_text(encoding="utf-8")
    for name in re.findall(r"`(test_faq\w+?)(?:\*)?`", doc):
        assert f"def {name}" in tests, name
