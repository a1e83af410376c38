"""ガンナガン with ダブルエッジ on the mat, for the demo and the end-to-end test.

Players bring their own commercial cards, which we never print, so the camera
is taught them first (``companion vision teach``).  The demo draws stand-ins
(``vision.feature_scene.card_face``: full-bleed artwork, a title, a type
banner), teaches each from one rendered phone photo, and lays them on the mat:
actions face up on the action zone, functions on the function area, loads and
responses face down, used cards on the voltage area.  What a glance cannot
tell is sent by the phones: shots, skills, ending the main phase, which bullet
was loaded, and the answer to "declare ダブルエッジ?" — or the coin-toss
board's button instead (GG-T9).  The coin is the server's, shown by the board's
arrow; the table page says who resolved the effect and how many times.

:func:`script` is the generic demo (``Demo.play``: declarations entered on the
phone); :func:`run` is the scripted game of the end-to-end test, which also
answers questions on the phone, presses the board's button once, and tries a
second declaration in a turn and one on a bullet (both refused with their
rule ids).
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.demo.render import Placed, taught_art
from companion.demo.script import Illegal, Script
from engines.core import FACE_DOWN, JSON, Move, State
from engines.gun_and_gun.cards import CARD_SET
from engines.gun_and_gun.moves import (
    Activate,
    EndMain,
    Load,
    NoResponse,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    SetResponse,
    Shoot,
)

GAME = "gun-and-gun"
TYPE_JA = {"action": "行動", "function": "機能", "bullet": "銃弾", "response": "対応"}
_SEED = {card.name: 700 + i for i, card in enumerate(CARD_SET.cards.values())}


# ---------------------------------------------------------------------------
# Stand-in cards and teaching them


@functools.cache
def face_of(name: str) -> Any:
    """The stand-in face (BGR image) of the card registered as ``name``; None for an unknown name."""
    from vision.feature_scene import card_face

    seed = _SEED.get(name)
    return None if seed is None else card_face(seed)


def stand_ins() -> Any:
    """Every card of the set taught from one rendered phone photo of its stand-in, as a player does with
    ``companion vision teach --game gun-and-gun --name NAME --type TYPE PHOTO`` (the same steps: find the
    card's outline, straighten it, keep its features), in memory.  The demo command sets it as its
    camera's taught cards (``demo.reader.taught``) so a player's own taught cards are left alone."""
    from vision.feature_cards import FeatureCards
    from vision.feature_scene import registration_photo

    registry = FeatureCards()
    for i, card in enumerate(CARD_SET.cards.values()):
        registry.add(card.name, TYPE_JA[card.type], registration_photo(face_of(card.name), seed=i))
    return registry


def teach(root: Path | None = None) -> Any:
    """:func:`stand_ins`, saved where the camera looks for the game's taught cards (``root`` or the user
    data directory: the end-to-end test points it at a temporary one).  Returns the registry."""
    from vision.feature_cards import taught_dir

    registry = stand_ins()
    registry.save(root if root is not None else taught_dir(GAME))
    return registry


# ---------------------------------------------------------------------------
# The mat


def _name(state: State, card_id: str) -> str:
    return state.table.card(card_id).name  # type: ignore[attr-defined]


FUNCTION_PLACES = (-53.0, 0.0, 53.0, -26.0, 26.0)
"""Function cards side by side (mm to the right of the zone's centre as its seat sees it)."""
RESPONSE_PLACES = (-40.0, 40.0)
LOADED_PLACES = (-22.0, 0.0, 22.0)
"""Loaded backs fanned towards the player (GG-T3: each back shows)."""


@functools.cache
def _zones() -> dict[str, Any]:
    from engines.gun_and_gun import mat

    return {z.id: z for z in mat.layout(2, "double-edge").zones}


def _at(card: str, zone_id: str, right: float = 0.0, toward: float = 0.0, layer: int = 0) -> Placed:
    """``card`` in ``zone_id``, ``right`` mm to the right and ``toward`` mm towards its seat (as it sees
    it) from the zone's centre: a fixed place, so it stays put while cards beside it come and go."""
    z = _zones()[zone_id]
    sign = 1.0 if zone_id.startswith("s0.") else -1.0  # seat 2 sits across the mat, turned half a turn
    return Placed(card, zone_id, layer, x=z.x + z.w / 2 + sign * right, y=z.y + z.h / 2 + sign * toward)


def table_of(state: State) -> list[Placed]:
    """The mat tidied to the engine's position (cards as their names: copies look alike).

    Every card has a fixed place in its zone.  The voltage area shows its newest card on top of the
    pile (the used cards under it are not checked here); decks show a back, the trash is kept aside."""
    s = state.snapshot
    out: list[Placed] = []
    for seat, p in enumerate(s.players):
        z = f"s{seat}."
        voltage = list(p.voltage)
        pending = s.pending
        if pending is not None and pending.seat == seat and pending.card and pending.kind in ("coin", "activate"):
            if pending.source == "function":
                voltage.append(pending.card)  # moved there to resolve it; the coin is in the air
            else:
                out.append(_at(_name(state, pending.card), z + "action"))
        out += [_at(_name(state, c), z + "function", FUNCTION_PLACES[i % 5], layer=i)
                for i, c in enumerate(p.functions)]
        out += [_at(FACE_DOWN, z + "response", RESPONSE_PLACES[i % 2]) for i in range(len(p.responses))]
        for gun in (0, 1):
            out += [_at(FACE_DOWN, z + f"loaded{gun}", toward=LOADED_PLACES[i % 3], layer=i)
                    for i in range(len(p.loaded[gun]))]
            if p.decks[gun]:
                out.append(_at(FACE_DOWN, z + f"deck{gun}"))
        if voltage:
            out.append(_at(_name(state, voltage[-1]), z + "voltage"))
    return out


def camera(state: State, move: Move, table: list[Placed]) -> list[Placed] | None:
    """The mat after a player makes ``move`` by hand on the tidy mat; None for a phone move.  (``table``,
    what the camera last saw, is not used: the players tidy before each move, see :func:`tidy`.)"""
    table = table_of(state)
    seat = getattr(move, "seat", 0)
    z = f"s{seat}."
    p = state.snapshot.players[seat]
    if isinstance(move, PlayAction):
        return [*table, _at(_name(state, move.card), z + "action")]
    if isinstance(move, PlayFunction):
        n = len(p.functions)
        return [*table, _at(_name(state, move.card), z + "function", FUNCTION_PLACES[n % 5], layer=n)]
    if isinstance(move, Load):
        n = len(p.loaded[move.gun])
        return [*table, _at(FACE_DOWN, z + f"loaded{move.gun}", toward=LOADED_PLACES[n % 3], layer=n)]
    if isinstance(move, SetResponse):
        return [*table, _at(FACE_DOWN, z + "response", RESPONSE_PLACES[len(p.responses) % 2])]
    if isinstance(move, ResolveFunction):
        # The card goes from the function area onto the voltage pile.  (A card of the same name laid on
        # the pile's top would look like no change, so :func:`run` has the player lift the top card aside
        # first; a table that keeps it is read by the camera as a removal only, and the phone enters it.)
        name = _name(state, move.card)
        gone = next(x for x in table if x.zone == z + "function" and x.card == name)
        rest = [x for x in table if x is not gone and x.zone != z + "voltage"]
        return [*rest, _at(name, z + "voltage")]
    if isinstance(move, Respond):
        back = next(x for x in table if x.zone == z + "response")
        rest = [x for x in table if x is not back]
        return [*rest, Placed(_name(state, move.card), back.zone, back.layer, x=back.x, y=back.y)]
    return None


# ---------------------------------------------------------------------------
# What the players do


def _ok(state: State, move: Move) -> bool:
    return state.check(move).ok


def choose(state: State, rng: random.Random) -> Move:
    """A plausible move for the seat to act: load, shoot, play cards (declaring where the engine allows),
    resolve functions, end the main phase."""
    s = state.snapshot
    seat = min(state.to_act())
    p = s.players[seat]
    pending = s.pending
    if pending is not None and pending.kind == "activate":
        return Activate(seat, _ok(state, Activate(seat, True)))
    if pending is not None and pending.kind == "response":
        if p.responses and rng.random() < 0.5:
            return Respond(seat, p.responses[0])
        return NoResponse(seat)
    if s.phase == "down":
        card = p.functions[0]
        return ResolveFunction(seat, card, _ok(state, ResolveFunction(seat, card, True)))
    kinds = {c: state.table.card(c).type for c in p.hand}  # type: ignore[attr-defined]
    bullets = [c for c, k in kinds.items() if k == "bullet"]
    for gun in (0, 1):
        # One card per gun and turn: overlapping backs are hard to count (GG-T3), so no second load.
        if gun not in s.shot and bullets and not p.loaded[gun] and _ok(state, Load(seat, gun, bullets[0])):
            return Load(seat, gun, bullets[0])
    for gun in (0, 1):
        if _ok(state, Shoot(seat, gun)):
            return Shoot(seat, gun)
    for c, k in kinds.items():
        if k == "action" and _ok(state, PlayAction(seat, c)):
            return PlayAction(seat, c, _ok(state, PlayAction(seat, c, True)))
    for c, k in kinds.items():
        if k == "function" and _ok(state, PlayFunction(seat, c)):
            return PlayFunction(seat, c)
    for c, k in kinds.items():
        if k == "response" and _ok(state, SetResponse(seat, c)) and rng.random() < 0.5:
            return SetResponse(seat, c)
    return EndMain(seat)


def illegal(state: State, table: list[Placed], rng: random.Random) -> Illegal | None:
    """Now and then the player whose turn it is not lays an action card (GG-T4), or a bullet goes face up
    on the action zone (GG-T2)."""
    s = state.snapshot
    if s.phase != "main" or s.pending is not None:
        return None
    seat = s.active
    other = 1 - seat
    tidy = table_of(state)
    theirs = [c for c in s.players[other].hand if state.table.card(c).type == "action"]  # type: ignore[attr-defined]
    if theirs and rng.random() < 0.15:
        return Illegal((*tidy, _at(_name(state, theirs[0]), f"s{other}.action")), ("GG-T4",),
                       f"seat {other + 1} plays an action card when it is not its turn")
    bullets = [c for c in s.players[seat].hand if state.table.card(c).type == "bullet"]  # type: ignore[attr-defined]
    if bullets and rng.random() < 0.1:
        return Illegal((*tidy, _at(_name(state, bullets[0]), f"s{seat}.action")), ("GG-T2",),
                       f"seat {seat + 1} lays a bullet face up on the action zone")
    return None


def script(life: int = 6, variant: str = "double-edge") -> Script:
    """The generic demo of ガンナガン (``Demo.play``); the camera must have been taught (:func:`teach`)."""
    return Script(GAME, variant, 2, {"life": life}, taught_art(face_of), table_of, camera, choose, illegal,
                  width=1920, height=1080, pile_shown=1, effects=False, max_tilt=4.0)


# ---------------------------------------------------------------------------
# The scripted game of the end-to-end test


@dataclass
class Report:
    """What :func:`run` saw besides the driver's tally."""

    declared_by_phone: int = 0
    declared_by_button: int = 0
    declined: int = 0
    questions: int = 0
    tosses: list[JSON] = field(default_factory=list)
    """Per toss: the board's arrow (``player`` | ``opponent``) and the table page's ``double_edge.last``."""
    refused: list[JSON] = field(default_factory=list)
    """Verdicts of the declarations made on purpose where the rules forbid them."""
    button_refusals: list[JSON] = field(default_factory=list)
    """``rejected`` messages the button's seat received."""


def _wait(cond: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.02)


def run(demo: Any, toss_board: Any, watcher: Any, max_moves: int = 400) -> Report:
    """Play the table of ``demo`` (companion.demo.driver.Demo with this module's :func:`script`) to its end.

    ``toss_board``: the simulated coin-toss board (devices.simulator.VirtualBoard); its button makes the
    first declaration.  ``watcher``: a socket following the table's public room (the table page).
    """
    report = Report()
    table, state, rng = demo.table, demo.table.state, demo.rng
    demo.look(table_of(state))
    tried = set()
    for _ in range(max_moves):
        demo._wait_for_chance()
        if table.over:
            break
        tidy(demo)
        bad = illegal(state, demo.physical, rng)
        if bad is not None and len(demo.tally.illegal_tried) < 3:
            demo._illegal(bad)
        demo._wait_for_chance()
        if table.over or not state.to_act():
            break
        s = state.snapshot
        seat = min(state.to_act())
        move = choose(state, rng)
        demo.say(f"seat {seat + 1}: {move.to_json()}")
        # On purpose: a declaration on a bullet (GG-DE-9.1), a second one in a turn (GG-DE-2).
        if isinstance(move, Load) and "GG-DE-9.1" not in tried:
            tried.add("GG-DE-9.1")
            answer = demo.phone(seat, Load(seat, move.gun, move.card, True).to_json())
            report.refused.append(answer.get("verdict") or {})
        if isinstance(move, PlayAction) and s.de_used and "GG-DE-2" not in tried:
            tried.add("GG-DE-2")
            answer = demo.phone(seat, PlayAction(seat, move.card, True).to_json())
            report.refused.append(answer.get("verdict") or {})
        after = camera(state, move, demo.physical)
        if isinstance(move, ResolveFunction) and any(x.zone == f"s{seat}.voltage" for x in demo.physical):
            demo.look([x for x in demo.physical if x.zone != f"s{seat}.voltage"])  # the pile's top lifted aside
        position = demo._position()
        if after is None:
            _phone(demo, seat, move)
            continue
        asked = len(demo.phones[seat].received("question"))
        answers = demo.look(after)
        if demo._position() is not position:
            demo.tally.camera_moves += 1
            demo.say("  taken by the camera")
            continue
        question = answers and _wait(lambda phone=demo.phones[seat], n=asked: phone.received("question")[n:], timeout=5.0)
        if not question:
            demo.say(f"  the camera did not take it ({answers}): entered on the phone")
            _phone(demo, seat, move)
            demo.tally.entered_by_hand += 1
            continue
        demo.say(f"  asked: {question[-1]['choices']}")
        report.questions += 1
        choices = question[-1]["choices"]
        tosses = state.snapshot.de_last
        shown = len(_coins_shown(demo.phones[seat]))
        if choices[0].startswith("declare:"):
            flag = getattr(move, "double_edge", False)
            if flag and report.declared_by_button == 0:
                toss_board.press(0)
                report.declared_by_button += 1
            else:
                pick = choices[0] if flag else choices[1]
                answer = demo.phones[seat].client.call("answer", {"table": table.id, "choice": pick}, timeout=15)
                if not answer.get("ok"):
                    raise RuntimeError(f"the answer {pick} was refused: {answer}")
                if flag:
                    report.declared_by_phone += 1
                else:
                    report.declined += 1
            if not _wait(lambda was=position: demo._position() is not was):
                raise RuntimeError(f"the declaration on {move} was not applied")
            demo.tally.camera_moves += 1
            if flag:
                demo._wait_for_chance()
                last = _wait(lambda was=tosses: state.snapshot.de_last is not was and state.snapshot.de_last)
                # The board reports where its arrow settled (coin_shown), announced to every phone.
                arrow = _wait(lambda phone=demo.phones[seat], n=shown: _coins_shown(phone)[n:])
                # The toss's own entry, not table.seq: a toss that ends the game is followed by the fairness
                # reveal, an entry that publishes no view of its own.
                # (Applied before the board shows it, so before ``arrow`` above.)
                seq = next((a.seq for a in reversed(table.applied) if a.seat is None and a.move.get("type") == "chance"),
                           table.seq)
                # the table page's view that shows this toss (one published just before it lands shows none)
                view = _wait(lambda n=seq: next((d for e, d in reversed(list(watcher.messages))
                                              if e == "view" and d["seq"] >= n
                                              and (d["view"].get("double_edge") or {}).get("last")), None))
                report.tosses.append({"declarer": seat, "arrow": arrow[-1]["data"] if arrow else None,
                                      "engine": last, "page": view["view"]["double_edge"]["last"] if view else None})
                if not report.button_refusals and not table.over and state.snapshot.active == seat:
                    # The button again in the same turn: a second declaration, refused to that seat (GG-DE-2).
                    before = len(demo.phones[seat].received("rejected"))
                    toss_board.press(0)
                    got = _wait(lambda phone=demo.phones[seat], n=before: phone.received("rejected")[n:])
                    report.button_refusals += list(got or [])
            continue
        # Which bullet or response: the name the player used.
        name = _name(state, move.card)  # type: ignore[attr-defined]
        pick = next(c for c in choices if _name(state, c.rsplit(":", 1)[1]) == name)
        answer = demo.phones[seat].client.call("answer", {"table": table.id, "choice": pick}, timeout=15)
        if not answer.get("ok"):
            raise RuntimeError(f"the answer {pick} was refused: {answer}")
        demo.tally.camera_moves += 1
    return report


def tidy(demo: Any) -> None:
    """The players tidy the mat to the engine's position: first they take away what does not stay where
    it lies (the camera sees the table bare there), then they lay what is missing."""
    want = Counter(table_of(demo.table.state))
    have = Counter(demo.physical)
    if want == have:
        return
    if have - want:
        demo.look(list((have & want).elements()))
    if want - have:
        demo.look(list(want.elements()))


def _coins_shown(phone: Any) -> list[JSON]:
    return [d for d in phone.received("device") if d.get("kind") == "coin_shown"]


def _phone(demo: Any, seat: int, move: Move) -> None:
    answer = demo.phone(seat, move.to_json())
    if not answer.get("ok"):
        raise RuntimeError(f"phone move {move.to_json()} refused: {answer}")
    demo.tally.phone_moves += 1


