"""The game in progress: move checks, resolution, views.

:class:`GunAndGunState` is the host game without the house rule (variant
``standard``); :class:`DoubleEdgeState` overrides the two hooks that decide
whether a declaration may be made and offered (variant ``double-edge``), in
the way python-chess variants override a few hooks of ``Board``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from engines.core import (
    JSON,
    ChanceMove,
    ChanceRequest,
    Event,
    Move,
    Outcome,
    Reject,
    State,
    apply_shuffle,
    shuffle_ranges,
)
from engines.gun_and_gun import double_edge as de
from engines.gun_and_gun import events as ev
from engines.gun_and_gun import rules
from engines.gun_and_gun.moves import (
    Activate,
    EndMain,
    Load,
    NoResponse,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    Reveal,
    SetResponse,
    Shoot,
    UseSkill,
)
from engines.gun_and_gun.snapshot import (
    UNKNOWN,
    Pending,
    Player,
    Snap,
    Table,
    evolve,
    snap_from_json,
    snap_to_json,
)


def _not_in_standard() -> Reject:
    return Reject("GG-DE-1", "ダブルエッジ is not part of the standard rules",
                  "play without declaring, or start the table with the double-edge variant")


MAIN_MOVES = (PlayAction, PlayFunction, SetResponse, Load, Shoot, UseSkill, EndMain)


class GunAndGunState(State[Snap]):
    """ガンナガン as far as ダブルエッジ needs it (GG-1 .. GG-9), without the house rule."""

    offers_double_edge: ClassVar[bool] = False
    _checks: ClassVar[dict[type, Callable[..., None]]]
    """Move class -> its legality check (filled below the class)."""
    table: Table

    # ---- variant hooks ----------------------------------------------------
    def declaration_refusal(self, s: Snap, seat: int, card_id: str, source: str) -> Reject | None:
        """Why ``seat`` may not declare ダブルエッジ on ``card_id`` now (None: it may)."""
        return _not_in_standard()

    def excluded(self, rule: str, message: str, fix: str | None = None) -> Reject:
        """A declaration on something the house rule never applies to (GG-DE-9, GG-DE-12)."""
        return Reject(rule, message, fix) if self.offers_double_edge else _not_in_standard()

    # ---- who acts ---------------------------------------------------------
    def _to_act(self, s: Snap) -> frozenset[int]:
        if s.phase in ("over", "setup"):
            return frozenset()
        if s.pending is not None:
            return frozenset() if s.pending.kind in ("coin", "first") else frozenset((s.pending.seat,))
        return frozenset((s.active,))

    def _pending_chance(self, s: Snap) -> ChanceRequest | None:
        if s.phase == "over":
            return None
        if s.phase == "setup" and s.shuffled < 2 * self.seats:
            seat, gun = divmod(s.shuffled, 2)
            deck = s.players[seat].decks[gun]
            return ChanceRequest("shuffle", shuffle_ranges(len(deck)), seat=seat,
                                 label=f"shuffle seat {seat + 1}'s {self.table.gunners[seat].guns[gun].name_en} deck")
        if s.pending is not None and s.pending.kind == "first":
            return ChanceRequest("coin", (2,), seat=None, label="equal speed: the coin names who goes first "
                                 "(0 = seat 1, 1 = seat 2)")
        if s.pending is not None and s.pending.kind == "coin":
            return de.toss_request(s)
        return None

    # ---- moves ------------------------------------------------------------
    def _step(self, s: Snap, move: Move) -> tuple[Snap, list[Event]]:
        if isinstance(move, ChanceMove):
            return self._chance(s, move.values)
        self._validate(s, move)
        return self._perform(s, move)

    def _chance(self, s: Snap, values: tuple[int, ...]) -> rules.Result:
        table = self.table
        if s.phase == "setup" and s.pending is None:
            seat, gun = divmod(s.shuffled, 2)
            p = s.players[seat]
            p = evolve(p, decks=rules.with_gun(p.decks, gun, apply_shuffle(p.decks[gun], values)))
            s = evolve(rules.set_player(s, seat, p), shuffled=s.shuffled + 1)
            events: list[Event] = [ev.DecksShuffled(seat, gun)]
            if s.shuffled == 2 * self.seats:
                s, more = self._opening(s)
                events += more
            return s, events
        if s.pending is not None and s.pending.kind == "first":
            return rules.start_turn(evolve(s, pending=None), values[0], False)
        pending = s.pending
        assert pending is not None and pending.kind == "coin"
        s, events = de.resolve_toss(table, s, values[0])
        s, more = self._finish(s, pending.card)
        return s, events + more

    def _opening(self, s: Snap) -> rules.Result:
        """GG-2.2 / GG-2.3: opening hands, then the faster gunner starts (a coin on equal speed)."""
        events: list[Event] = []
        for seat in range(self.seats):
            s, more = rules.draw(self.table, s, seat, self.table.gunners[seat].hand_size)
            events += more
        speeds = [g.speed for g in self.table.gunners]
        if speeds[0] == speeds[1]:
            return evolve(s, pending=Pending("first", 0)), events
        s, more = rules.start_turn(s, 0 if speeds[0] > speeds[1] else 1, False)
        return s, events + more

    def _finish(self, s: Snap, card_id: str) -> rules.Result:
        """A resolved action or function card goes to its owner's voltage area; the turn goes on."""
        return rules.settle(rules.to_voltage(self.table, s, card_id))

    def _validate(self, s: Snap, move: Move) -> None:
        """Raise Reject naming the rule when ``move`` is not legal now; change nothing."""
        table = self.table
        seat = move.actor
        assert isinstance(seat, int)
        p = s.players[seat]
        pending = s.pending
        if pending is not None and pending.kind == "activate" and not isinstance(move, Activate):
            raise Reject("GG-4.6.2", f"resolve {table.card(pending.card).name} revealed by your skill first",
                         "send the activate move")
        if pending is not None and pending.kind == "reveal" and not isinstance(move, Reveal):
            raise Reject("GG-P3" if pending.source == "shot" else "GG-P4", "name the cards being turned up first",
                         "send the reveal move")
        if pending is not None and pending.kind == "response" and not isinstance(move, Respond | NoResponse):
            raise Reject("GG-6.2", "a shot is waiting for the defender's response", "respond or pass")
        if isinstance(move, MAIN_MOVES) and s.phase != "main":
            raise Reject("GG-3.2", f"{move.type} is a main-phase move; this is the down phase",
                         "resolve your function cards")
        check = self._checks.get(type(move))
        if check is None:
            raise Reject("CORE-1", f"{move.type} is not a move of this game")
        check(self, s, p, seat, move)

    def _check_play_action(self, s: Snap, p: Player, seat: int, move: PlayAction) -> None:
        card = self._hand_card(p, move.card, "action", "GG-4.1")
        self._playable(s, p, move.card)
        if move.double_edge:
            self._may_declare(s, seat, move.card, "hand")
        elif not rules.additional_cost_payable(p, card):
            raise Reject("GG-5.3", f"the additional cost of {card.name} cannot be paid (unload "
                         f"{sum(n for _, n in card.additional_cost)} loaded card)", "load a card first")

    def _check_play_function(self, s: Snap, p: Player, seat: int, move: PlayFunction) -> None:
        self._hand_card(p, move.card, "function", "GG-4.2")
        if move.double_edge:
            raise self.excluded("GG-DE-12", "ダブルエッジ on a function card is declared when it resolves in "
                                "the down phase, not when it is played")
        self._playable(s, p, move.card)

    def _check_set_response(self, s: Snap, p: Player, seat: int, move: SetResponse) -> None:
        table = self.table
        self._hand_card(p, move.card, "response", "GG-4.3")
        if move.double_edge:
            raise self.excluded("GG-DE-9.2", "ダブルエッジ never applies to response (対応) cards")
        if len(p.responses) >= table.cards.response_slots:
            raise Reject("GG-4.3", f"you already have {table.cards.response_slots} response cards set")

    def _check_load(self, s: Snap, p: Player, seat: int, move: Load) -> None:
        table = self.table
        self._gun(move.gun)
        self._hand_card(p, move.card, "bullet", "GG-4.4")
        if move.double_edge:
            raise self.excluded("GG-DE-9.1", "ダブルエッジ never applies to bullet (銃弾) cards")
        if len(p.loaded[move.gun]) >= table.gunners[seat].guns[move.gun].capacity:
            raise Reject("GG-4.4", "that gun is full", "shoot it first or load the other gun")

    def _check_shoot(self, s: Snap, p: Player, seat: int, move: Shoot) -> None:
        self._gun(move.gun)
        if move.double_edge:
            raise self.excluded("GG-DE-9.3", "ダブルエッジ never applies to shot damage (Hit) or effects "
                                "attached to shooting")
        if move.gun in s.shot:
            raise Reject("GG-4.5", "each gun shoots once per turn")
        if not p.loaded[move.gun]:
            raise Reject("GG-4.5", "that gun has nothing loaded", "load a bullet first")

    def _check_use_skill(self, s: Snap, p: Player, seat: int, move: UseSkill) -> None:
        table = self.table
        self._gun(move.gun)
        if move.double_edge:
            raise self.excluded("GG-DE-9.7", "ダブルエッジ never applies to skill (技能) effects",
                                "declare on the action card a skill activates, with the activate move")
        if s.skill_used:
            raise Reject("GG-4.6", "the skill was already used this turn")
        skill = table.gunners[seat].skill
        if skill.kind == "activate-opponent-action":
            if not s.players[rules.other(seat)].decks[move.gun]:
                raise Reject("GG-4.6.1", "that opponent deck is empty", "choose the other deck")
        elif not rules.can_load_from_deck(table, p, seat, move.gun):
            raise Reject("GG-4.6.3", "that gun is full or its deck is empty", "choose the other gun")

    def _check_activate(self, s: Snap, p: Player, seat: int, move: Activate) -> None:
        pending = s.pending
        if pending is None or pending.kind != "activate":
            raise Reject("GG-4.6.2", "no card revealed by a skill is waiting")
        if move.double_edge:
            self._may_declare(s, seat, pending.card, "skill")

    def _check_respond(self, s: Snap, p: Player, seat: int, move: Respond) -> None:
        pending = s.pending
        if pending is None or pending.kind != "response":
            raise Reject("GG-6.2", "response cards answer a shot of the opponent", "wait for a shot")
        if move.card not in p.responses:
            raise Reject("GG-6.2", f"{move.card} is not one of your set response cards")
        if move.double_edge:
            raise self.excluded("GG-DE-9.2", "ダブルエッジ never applies to response (対応) cards")

    def _check_no_response(self, s: Snap, p: Player, seat: int, move: NoResponse) -> None:
        pending = s.pending
        if pending is None or pending.kind != "response":
            raise Reject("GG-6.2", "no shot is waiting for a response")

    def _check_resolve_function(self, s: Snap, p: Player, seat: int, move: ResolveFunction) -> None:
        if s.phase != "down":
            raise Reject("GG-7.2", "function cards resolve in the down phase", "end the main phase first")
        if move.card not in p.functions:
            raise Reject("GG-7.2", f"{move.card} is not in your function area")
        if move.double_edge:
            self._may_declare(s, seat, move.card, "function")

    def _check_end_main(self, s: Snap, p: Player, seat: int, move: EndMain) -> None:
        return None

    def _hand_card(self, p, card_id: str, kind: str, rule: str):
        if self.snapshot.physical:
            self._unseen_copy(p, card_id)
        elif card_id not in p.hand:
            raise Reject(rule, f"{card_id} is not in your hand")
        card = self.table.card(card_id)
        if card.type != kind:
            raise Reject(rule, f"{card.name} is a {card.type} card, not a {kind} card",
                         "use the move for its card type")
        return card

    def _unseen_copy(self, p, card_id: str) -> None:
        """Physical deal (GG-P2): a card from the hand is one of the seat's copies not yet seen anywhere."""
        if UNKNOWN not in p.hand:
            raise Reject("GG-P2", "your hand is empty", "draw first")
        if card_id not in p.unseen:
            name = self.table.card(card_id).name if card_id in self.table.ids else card_id
            raise Reject("GG-P2", f"{name} ({card_id}) is not a card of your decks that could still be in your "
                         "hand: it is already seen elsewhere, or another player's", "check the card you played")

    def _from_hand(self, s: Snap, p: Player, card_id: str) -> Player:
        """The player without ``card_id`` in the hand (physical deal: one placeholder, one unseen copy)."""
        if not s.physical:
            return evolve(p, hand=tuple(c for c in p.hand if c != card_id))
        hand = list(p.hand)
        hand.remove(UNKNOWN)
        return evolve(p, hand=tuple(hand), unseen=tuple(c for c in p.unseen if c != card_id))

    def _check_reveal(self, s: Snap, p: Player, seat: int, move: Reveal) -> None:
        pending = s.pending
        if pending is None or pending.kind != "reveal":
            raise Reject("GG-P3", "no unknown card is being turned up")
        rule = "GG-P3" if pending.source == "shot" else "GG-P4"
        owner = seat if pending.source == "shot" else rules.other(seat)
        unknown = self._unknowns(s, pending)
        cards = tuple(move.cards) if isinstance(move.cards, list | tuple) else ()
        if len(cards) != unknown or len(set(cards)) != len(cards):
            raise Reject(rule, f"name the {unknown} card(s) being turned up, each once")
        for c in cards:
            if c not in s.players[owner].unseen:
                raise Reject(rule, f"{c} is not a card of seat {owner + 1}'s decks still unseen",
                             "name the card that was turned up")

    def _unknowns(self, s: Snap, pending: Pending) -> int:
        if pending.source == "shot":
            return s.players[pending.seat].loaded[pending.gun].count(UNKNOWN)
        return 1

    def _gun(self, gun: int) -> None:
        if type(gun) is not int or gun not in (0, 1):
            raise Reject("GG-1.2", f"there is no gun {gun!r}; guns are 0 and 1")

    def _playable(self, s: Snap, p, card_id: str) -> None:
        card = self.table.card(card_id)
        if card.once_per_turn and card.key in s.uses:
            raise Reject("GG-5.4", f"{card.name} is 【1ターン1度】: once per turn")
        if len(p.voltage) < card.voltage:
            raise Reject("GG-5.2", f"{card.name} needs {card.voltage} cards in your voltage area")
        if len(p.voltage) < card.cost:
            raise Reject("GG-5.1", f"{card.name} costs {card.cost}; your voltage area holds {len(p.voltage)}")

    def _may_declare(self, s: Snap, seat: int, card_id: str, source: str) -> None:
        refusal = self.declaration_refusal(s, seat, card_id, source)
        if refusal is not None:
            raise refusal

    def _perform(self, s: Snap, move: Move) -> rules.Result:
        table = self.table
        seat = move.actor
        assert isinstance(seat, int)
        p = s.players[seat]
        events: list[Event] = []
        if isinstance(move, PlayAction):
            card = table.card(move.card)
            p = self._from_hand(s, p, move.card)
            s = rules.set_player(s, seat, p)
            if card.once_per_turn:
                s = evolve(s, uses=s.uses + (card.key,))
            s = evolve(s, played=s.played + (move.card,))
            events.append(ev.CardPlayed(seat, move.card, card.name))
            s, more = rules.pay_cost(s, seat, move.card, card.cost)
            events += more
            s, more = rules.pay_additional_cost(s, seat, move.card, card)
            events += more
            return self._resolve_or_declare(s, seat, move.card, "hand", move.double_edge, events)
        if isinstance(move, PlayFunction):
            card = table.card(move.card)
            p = evolve(self._from_hand(s, p, move.card), functions=p.functions + (move.card,))
            s = evolve(rules.set_player(s, seat, p), played=s.played + (move.card,))
            if card.once_per_turn:
                s = evolve(s, uses=s.uses + (card.key,))
            s, more = rules.pay_cost(s, seat, move.card, card.cost)
            return s, [ev.CardPlayed(seat, move.card, card.name), *more]
        if isinstance(move, SetResponse):
            p = evolve(self._from_hand(s, p, move.card), responses=p.responses + (move.card,))
            return rules.set_player(s, seat, p), [ev.ResponseSet(seat)]
        if isinstance(move, Load):
            p = evolve(self._from_hand(s, p, move.card),
                        loaded=rules.with_gun(p.loaded, move.gun, p.loaded[move.gun] + (move.card,)))
            return rules.set_player(s, seat, p), [ev.Loaded(seat, move.gun, False)]
        if isinstance(move, Shoot):
            if UNKNOWN in p.loaded[move.gun]:  # physical deal: cards loaded from the deck are turned up (GG-P3)
                return evolve(s, pending=Pending("reveal", seat, source="shot", gun=move.gun)), []
            hits = rules.shot_hits(table, p, seat, move.gun)
            p = evolve(p, loaded=rules.with_gun(p.loaded, move.gun, ()), voltage=p.voltage + p.loaded[move.gun])
            s = evolve(rules.set_player(s, seat, p), shot=s.shot + (move.gun,))
            events.append(ev.ShotFired(seat, move.gun, hits))
            defender = rules.other(seat)
            if s.players[defender].responses:
                return evolve(s, pending=Pending("response", defender, hits=hits)), events
            s, more = rules.damage(s, defender, hits)
            return s, events + more
        if isinstance(move, Respond | NoResponse):
            assert s.pending is not None
            hits = s.pending.hits
            s = evolve(s, pending=None)
            if isinstance(move, Respond):
                card = table.card(move.card)
                p = evolve(p, responses=tuple(c for c in p.responses if c != move.card))
                s = rules.to_voltage(table, rules.set_player(s, seat, p), move.card)
                events.append(ev.CardPlayed(seat, move.card, card.name))
                hits = max(0, hits - card.prevent)
            s, more = rules.damage(s, seat, hits)
            return s, events + more
        if isinstance(move, UseSkill):
            skill = table.gunners[seat].skill
            s = evolve(s, skill_used=True)
            events.append(ev.SkillUsed(seat, skill.name))
            if skill.kind == "effect":
                s, more = rules.resolve_steps(table, s, skill.effect, seat, gun=move.gun)
                return s, events + more
            opponent = rules.other(seat)
            o = s.players[opponent]
            top = o.decks[move.gun][0]
            s = rules.set_player(s, opponent, evolve(o, decks=rules.with_gun(o.decks, move.gun, o.decks[move.gun][1:])))
            if top == UNKNOWN:  # physical deal: the user names the card turned up (GG-P4)
                return evolve(s, pending=Pending("reveal", seat, source="skill", gun=move.gun)), events
            return self._brain_hacked(s, seat, top, events)
        if isinstance(move, Reveal):
            return self._reveal(s, seat, tuple(move.cards))
        if isinstance(move, Activate):
            assert s.pending is not None
            card_id = s.pending.card
            s = evolve(s, pending=None, played=s.played + (card_id,))
            return self._resolve_or_declare(s, seat, card_id, "skill", move.double_edge, events)
        if isinstance(move, EndMain):
            return rules.down_phase(table, s)
        if isinstance(move, ResolveFunction):
            card = table.card(move.card)
            p = evolve(p, functions=tuple(c for c in p.functions if c != move.card))
            s = evolve(rules.set_player(s, seat, p), resolved_effects=s.resolved_effects + (card.effect_key,))
            if not rules.additional_cost_payable(p, card):
                events.append(ev.FunctionFizzled(seat, move.card))
                s, more = self._finish(s, move.card)
                return s, events + more
            s, more = rules.pay_additional_cost(s, seat, move.card, card)
            events += more
            return self._resolve_or_declare(s, seat, move.card, "function", move.double_edge, events)
        raise Reject("CORE-1", f"{move.type} is not a move of this game")

    def _brain_hacked(self, s: Snap, seat: int, top: str, events: list[Event]) -> rules.Result:
        """GG-4.6.1: the revealed card waits to be activated if it is an action, else goes to the voltage area."""
        card = self.table.card(top)
        events = [*events, ev.CardRevealed(rules.other(seat), top, card.name)]
        if card.type == "action":
            return evolve(s, pending=Pending("activate", seat, top, "skill")), events
        return rules.to_voltage(self.table, s, top), events

    def _reveal(self, s: Snap, seat: int, cards: tuple[str, ...]) -> rules.Result:
        """Physical deal: the named cards take the places of the unknown ones, then the shot or the skill goes on."""
        pending = s.pending
        assert pending is not None
        s = evolve(s, pending=None)
        if pending.source == "skill":
            opponent = rules.other(seat)
            o = s.players[opponent]
            s = rules.set_player(s, opponent, evolve(o, unseen=tuple(c for c in o.unseen if c != cards[0])))
            return self._brain_hacked(s, seat, cards[0], [])
        p = s.players[seat]
        names = iter(cards)
        loaded = tuple(next(names) if c == UNKNOWN else c for c in p.loaded[pending.gun])
        p = evolve(p, loaded=rules.with_gun(p.loaded, pending.gun, loaded),
                   unseen=tuple(c for c in p.unseen if c not in cards))
        return self._perform(rules.set_player(s, seat, p), Shoot(seat, pending.gun))

    def _resolve_or_declare(self, s: Snap, seat: int, card_id: str, source: str, declared: bool,
                            events: list[Event]) -> rules.Result:
        if declared:
            s, more = de.declare(s, seat, card_id, source)
            return s, events + more
        s, more = rules.resolve_card(self.table, s, card_id, seat)
        events += more
        s, more = self._finish(s, card_id)
        return s, events + more

    # ---- listing legal moves ------------------------------------------------
    def _legal_moves(self, s: Snap, seat: int) -> list[Move] | None:
        if s.physical:
            return None  # the hands are unknown: the moves cannot be listed (GG-P1)
        flags = (False, True) if self.offers_double_edge else (False,)
        pending = s.pending
        p = s.players[seat]
        if pending is not None and pending.kind == "activate":
            candidates: list[Move] = [Activate(seat, f) for f in flags]
        elif pending is not None and pending.kind == "response":
            candidates = [NoResponse(seat), *(Respond(seat, c) for c in p.responses)]
        elif s.phase == "down":
            candidates = [ResolveFunction(seat, c, f) for c in p.functions for f in flags]
        else:
            candidates = [EndMain(seat)]
            for card_id in p.hand:
                kind = self.table.card(card_id).type
                if kind == "action":
                    candidates += [PlayAction(seat, card_id, f) for f in flags]
                elif kind == "function":
                    candidates.append(PlayFunction(seat, card_id))
                elif kind == "response":
                    candidates.append(SetResponse(seat, card_id))
                else:
                    candidates += [Load(seat, 0, card_id), Load(seat, 1, card_id)]
            candidates += [Shoot(seat, 0), Shoot(seat, 1), UseSkill(seat, 0), UseSkill(seat, 1)]
        out = []
        for move in candidates:
            try:
                self._validate(s, move)
            except Reject:
                continue
            out.append(move)
        return out

    # ---- views --------------------------------------------------------------
    def _card_json(self, card_id: str) -> JSON:
        if card_id == UNKNOWN:
            return {"id": UNKNOWN, "name": UNKNOWN}
        return {"id": card_id, "name": self.table.card(card_id).name}

    def _view(self, s: Snap, seat: int | None) -> JSON:
        table = self.table
        players = []
        for i, p in enumerate(s.players):
            gunner = table.gunners[i]
            players.append({
                "gunner": {"name": gunner.name, "name_en": gunner.name_en, "speed": gunner.speed,
                           "hand_size": gunner.hand_size, "skill": gunner.skill.name},
                "guns": [{"name": g.name, "capacity": g.capacity, "bonus": g.bonus} for g in gunner.guns],
                "life": p.life,
                "hand_count": len(p.hand),
                "deck_counts": [len(d) for d in p.decks],
                "loaded_counts": [len(x) for x in p.loaded],
                "voltage": [self._card_json(c) for c in p.voltage],
                "trash_count": len(p.trash),
                "responses_set": len(p.responses),
                "functions": [self._card_json(c) for c in p.functions],
            })
        pending = None
        if s.pending is not None:
            pending = {"kind": s.pending.kind, "seat": s.pending.seat}
            if s.pending.card:
                pending["card"] = self._card_json(s.pending.card)
            if s.pending.kind == "response":
                pending["hits"] = s.pending.hits
            if s.pending.kind == "reveal":
                pending["gun"] = s.pending.gun
        view: JSON = {
            "phase": s.phase, "turn": s.turn, "active": s.active, "extra_turn": s.extra,
            "extra_turns_queued": list(s.extra_turns), "players": players, "pending": pending,
            "physical": s.physical,
            "double_edge": {"offered": self.offers_double_edge, "declared_this_turn": s.de_used,
                            "last": self._toss_json(s)},
        }
        if seat is not None:
            p = s.players[seat]
            view["you"] = {
                "seat": seat,
                "hand": [self._card_json(c) for c in p.hand if c != UNKNOWN],
                "hand_unknown": p.hand.count(UNKNOWN),
                "responses": [self._card_json(c) for c in p.responses],
                "loaded": [[self._card_json(c) for c in x] for x in p.loaded],
            }
        return view

    def _toss_json(self, s: Snap) -> JSON | None:
        """The last ダブルエッジ toss as the table page shows it: who resolves the effect, how many times."""
        t = s.de_last
        if t is None:
            return None
        return {"card": self._card_json(t.card), "declarer": t.declarer, "coin": t.face, "resolver": t.resolver,
                "times": t.times, "turn": t.turn}

    def _hidden_from(self, s: Snap, seat: int | None) -> frozenset[str]:
        secret: set[str] = set()
        for i, p in enumerate(s.players):
            for deck in p.decks:
                secret.update(deck)
            if i != seat:
                secret.update(p.hand)
                secret.update(p.responses)
                for x in p.loaded:
                    secret.update(x)
        secret.discard(UNKNOWN)
        return frozenset(secret)

    def _outcome(self, s: Snap) -> Outcome | None:
        if s.loser is None:
            return None
        winner = rules.other(s.loser)
        scores = tuple(float(p.life) for p in s.players)
        return Outcome((winner,), scores, reason=s.reason)

    def snapshot_to_json(self, s: Snap) -> JSON:
        return snap_to_json(s)

    def snapshot_from_json(self, data: JSON) -> Snap:
        return snap_from_json(data)


GunAndGunState._checks = {
    PlayAction: GunAndGunState._check_play_action,
    PlayFunction: GunAndGunState._check_play_function,
    SetResponse: GunAndGunState._check_set_response,
    Load: GunAndGunState._check_load,
    Shoot: GunAndGunState._check_shoot,
    UseSkill: GunAndGunState._check_use_skill,
    Activate: GunAndGunState._check_activate,
    Respond: GunAndGunState._check_respond,
    NoResponse: GunAndGunState._check_no_response,
    ResolveFunction: GunAndGunState._check_resolve_function,
    EndMain: GunAndGunState._check_end_main,
    Reveal: GunAndGunState._check_reveal,
}


class DoubleEdgeState(GunAndGunState):
    """The standard game plus ダブルエッジ: declarations are offered and checked (GG-DE)."""

    offers_double_edge: ClassVar[bool] = True

    def declaration_refusal(self, s: Snap, seat: int, card_id: str, source: str) -> Reject | None:
        return de.declaration_refusal(self.table, s, seat, card_id, source)
