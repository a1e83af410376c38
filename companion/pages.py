"""HTTP routes: the pages, join links, QR codes, records, evidence and exports.

Seat tokens travel in the join link once and then live in an HttpOnly cookie,
so the phone page itself never shows a token and a reload rejoins the seat.
The table page's seat QR codes and the record (which names every hidden
card) need the table's display key; spectators get the public pages only.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, g, make_response, redirect, render_template, request, url_for

from companion import i18n, qr
from companion.camera import printed_name
from companion.hub import Hub
from companion.i18n import gettext as _
from companion.seats import format_code
from companion.sockets import cookie_name

bp = Blueprint("pages", __name__)
COOKIE_AGE = 7 * 24 * 3600
LANG_COOKIE = "tc_lang"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
"""Each language named in itself, for the switch on every page."""


def page_strings() -> dict[str, str]:
    """Every sentence the pages' scripts show, in the reader's language (``{name}`` fields are filled
    in by the script).  Field and move names are looked up here too; an unknown one is shown as is."""
    return {
        "connected": _("Connected"), "connecting": _("Connecting…"), "reconnecting": _("Reconnecting…"),
        "seat_n": _("Seat {n}"), "you_seat": _("You are seat {n}"), "you": _("You"),
        "your_turn": _("Your turn"), "waiting": _("Waiting for {who}"), "waiting_chance": _("Waiting for: {what}"),
        "not_your_turn": _("Nothing to do now."), "confirm": _("Confirm"), "seal": _("Seal this card"),
        "pick_one": _("Choose one, then confirm."),
        "in_order": _("Tap {n} cards in the order they go; tap a card again to take it back."), "sent": _("Sent."), "illegal_title": _("Not allowed"),
        "rule": _("Rule {rule}"), "fix": _("Fix: {fix}"), "dismiss": _("Dismiss"),
        "kicked": _("The host removed this phone from the seat."), "no_answer": _("The server did not answer."),
        "not_json": _("That is not a move: write it as JSON, e.g. {example}"),
        "join_failed": _("Could not join: {message}"), "join_again": _("Scan the seat's QR code again."),
        "paused": _("The table is paused for a dispute; wait for the host."),
        "resumed": _("Play resumes."), "over": _("Game over."), "winner": _("Winner: {who}"),
        "tie": _("A tie between {who}"), "challenge_sure": _("Challenge the last move and pause the table?"),
        "challenged": _("You challenged; the table is paused."), "manual": _("No list of moves: type the move."),
        "to_play": _("{who} to play"), "nobody": _("nobody"), "camera_none": _("No camera: moves are entered by hand."),
        "mat_seen": _("Mat seen"), "mat_missing": _("Mat not seen"), "markers": _("Markers found: {n} of {of}"),
        "light": _("Light: {value}"),
        "light_ok": _("good"), "light_dark": _("too dark"), "light_bright": _("too bright"),
        "light_glare": _("glare on the mat"), "light_flat": _("no contrast"),
        "light_numbers": _("brightness {brightness}, contrast {contrast}, glare {glare}%"),
        "markers_none": _("no corner marker found"),
        "corner_top-left": _("top left"), "corner_top-right": _("top right"),
        "corner_bottom-right": _("bottom right"), "corner_bottom-left": _("bottom left"),
        "fps": _("{fps} frames a second"), "camera_still": _("No new frames just now"), "mat_hidden": _("The mat is not seen: no camera image."),
        "face_down": _("face down"), "printed_card": _("printed {game} #{n}"),
        "change_card": _("Change the card"), "change_choice": _("Change your choice"), "change_title": _("Change your sealed card"),
        "change_hint": _("Until it is revealed you may pick another card."), "changed": _("Changed."),
        "keep_card": _("Keep it"), "sealed_now": _("Sealed:"), "cards_seen": _("Cards seen: {n}"), "unknown": _("unknown"), "yes": _("yes"), "no": _("no"),
        "entry": _("Entry {seq} of {last}"), "entry_none": _("The start of the game"),
        "by_seat": _("by seat {n}"), "hidden_move": _("a hidden move"), "accepted": _("accepted"),
        "rejected": _("rejected"), "no_frame": _("No camera image yet."), "host_ok": _("Host controls unlocked."),
        "done": _("Done."), "dice": _("Dice"), "coin": _("Coin"), "leds": _("LEDs"),
        "board_button": _("Button {button} pressed (seat {n})"), "rolled": _("{label}: {values}"),
        "illegal_table": _("Illegal move: {message}"), "seats_connected": _("{n} of {of} seats connected"),
        "seat_move": _("{who}: {what}"), "list_sep": _(", "), "entered": _("Move entered."),
        "profile_saved": _("Saved as {name}."), "character_sheet": _("Character: {name}, {points} points."),
        "answer_declare": _("Declare"), "answer_decline": _("Do not declare"), "answer_load": _("Load"),
        "answer_yes": _("Yes"), "answer_no": _("No"),
        "coins_title": _("Aggression coins"), "arm_left": _("left arm"), "arm_right": _("right arm"),
        "coin_here": _("a coin is on this arm"),
        "field": {
            "hand": _("Your hand"), "my_pick": _("Your sealed card"), "my_sealed_base": _("Your sealed base"),
            "known_in_hand": _("Known cards"), "hand_counts": _("Cards in hand"), "scores": _("Scores"),
            "points": _("Points"), "bank": _("Bank"), "dice": _("Dice"), "round": _("Round"), "phase": _("Phase"),
            "turn": _("Turn"), "trick": _("Trick"), "tricks_won": _("Tricks won"), "trump": _("Trump"),
            "picked": _("Has chosen"), "hit_points": _("Hit points"), "hits": _("Hits"), "life": _("Life"),
            "deck": _("Deck"), "bases": _("Bases"), "strikers": _("Strikers"), "supports": _("Supports"),
            "discards": _("Discard piles"), "current_trick": _("Current trick"), "goals": _("Goals"),
            "playable": _("Playable"), "commander": _("Commander"), "generators": _("Generators"),
            "fighters": _("Fighters"), "defenses": _("Defenses"), "card": _("Card"), "cards": _("Cards"),
            "indicators": _("Indicators"), "aces": _("Aces"), "hand_unseen": _("Cards not yet seen"),
            "active": _("Active player"), "alive": _("Still fighting"), "amount": _("Amount"), "arm": _("Arm"),
            "arms": _("Arms"), "asleep": _("Asleep"), "at": _("Where"), "attacker": _("Attacker"),
            "attackers": _("Attackers"), "back": _("Back"), "base_sealed": _("Base sealed"), "block": _("Block"),
            "blocker": _("Blocker"), "blocks": _("Blocks"), "bonus": _("Bonus"), "by": _("By"),
            "by_trump": _("By trump"), "capacity": _("Capacity"), "chance": _("Chance"), "circle": _("Seating order"),
            "claim": _("Claim"), "claimed_card": _("Claimed card"), "claimed_trick": _("Claimed trick"),
            "coin": _("Coin"), "coins": _("Coins"), "colour": _("Colour"), "colours": _("Colours"),
            "combat": _("Combat"), "commitment": _("Commitment"), "cost": _("Cost"), "count": _("Count"),
            "counters": _("Counters"), "damage_to_assign": _("Damage to assign"), "deal": _("Deal"),
            "deck_count": _("Cards in deck"), "deck_counts": _("Cards in deck"), "deck_mode": _("Deck mode"),
            "declared_this_turn": _("Declared this turn"), "discard": _("Discard"), "doing": _("Doing"),
            "double_edge": _("Double edge"), "eliminated": _("Eliminated"), "extra": _("Extra"),
            "extra_turn": _("Extra turn"), "extra_turns_queued": _("Extra turns to come"), "face_down": _("Face down"),
            "face_down_cards": _("Face-down cards"), "face_down_count": _("Face-down cards"), "faces": _("Faces"),
            "fake": _("Fake"), "fell_this_turn": _("Fell this turn"), "fighter": _("Fighter"), "first": _("First"),
            "forfeited": _("Forfeited"), "friendly": _("Friendly"), "from_deck": _("From the deck"),
            "functions": _("Function cards"), "gain": _("Gain"), "gambit_middles": _("Gambit middles"),
            "game": _("Game"), "gear": _("Gear"), "gold": _("Gold"), "gun": _("Gun"), "gunner": _("Gunner"),
            "guns": _("Guns"), "half": _("Half"), "hand_count": _("Cards in hand"), "hand_known": _("Known cards"),
            "hand_numbers": _("Numbers in hand"), "hand_size": _("Hand size"), "hands": _("Hands"), "id": _("Id"),
            "into": _("Into"), "iron": _("Iron"), "janken": _("Janken"), "kill_budget": _("PV left to take down"),
            "kind": _("Kind"), "label": _("Label"), "last": _("Last"), "lead": _("Lead"), "leader": _("Leader"),
            "led": _("Led"), "led_card": _("Card led"), "left": _("Left"), "loaded": _("Loaded"),
            "loaded_counts": _("Loaded cards"), "loser": _("Loser"), "lp": _("LP"), "lp_max": _("Max LP"),
            "lunge_at": _("Lunge at"), "lunges": _("Lunges"), "merged": _("Merged"), "my_deck": _("Your deck"),
            "my_placements": _("Your placed cards"), "name": _("Name"), "name_en": _("Name (English)"),
            "number": _("Number"), "offered": _("Offered"), "out_of_round": _("Out of this round"),
            "outcome": _("Outcome"), "owner": _("Owner"), "pairs": _("Pairs"), "parry": _("Parry"),
            "pass_arm": _("Coin passed from arm"), "passes": _("Coin passes"), "pending": _("Pending"),
            "pending_reveals": _("Waiting to be revealed"), "pile": _("Pile"), "placements": _("Placed cards"),
            "players": _("Players"), "plays": _("Plays"), "purpose": _("Purpose"), "pv": _("PV"),
            "ranges": _("Ranges"), "reason": _("Reason"), "remaining": _("Remaining"), "removed": _("Removed"),
            "replay": _("Replay"), "reset": _("Reset"), "reshuffle": _("Reshuffle"), "resolver": _("Resolved by"),
            "resolving": _("Resolving"), "responses": _("Response cards"), "responses_set": _("Responses set"),
            "result": _("Result"), "revealed": _("Revealed"), "revoke_ruling": _("Revoke ruling"),
            "revokes": _("Revokes"), "rolling": _("Rolling"), "rounds": _("Rounds"), "rule": _("Rule"),
            "ruling": _("Ruling"), "salt": _("Salt"), "scored": _("Scored"), "seat": _("Seat"), "seats": _("Seats"),
            "seen": _("Seen"), "sides": _("Sides"), "skill": _("Skill"), "slot": _("Slot"), "speed": _("Speed"),
            "stone": _("Stone"), "strike": _("Strike"), "take": _("Take"), "target": _("Target"), "team": _("Team"),
            "tie": _("Tie"), "to": _("To"), "to_act": _("To act"), "trash_count": _("Cards in the trash"),
            "tricks": _("Tricks"), "trump_chooser": _("Trump chooser"), "unloaded": _("Unloaded"),
            "values": _("Values"), "variant": _("Variant"), "void": _("Void"), "voided": _("Voided"),
            "voids": _("Voids"), "voltage": _("Voltage"), "waiting": _("Waiting"), "what": _("What"),
            "why": _("Why"), "winner": _("Winner"), "winners": _("Winners"), "wood": _("Wood"), "zone": _("Zone"),
            "declarer": _("Declared by"), "times": _("Times it resolves"), "physical": _("Physical cards"),
            "hand_unknown": _("Unknown cards in hand"), "you": _("You"), "my_janken": _("Your janken hand"),
            "chosen": _("Chosen"), "replays": _("Replays"), "for": _("For"),
        },
        "phase": {
            "shuffle": _("shuffling"),
            "deal": _("dealing"),
            "build": _("building the bases"),
            "turn": _("turns"),
            "play": _("playing"),
            "over": _("game over"),
            "claim": _("claim"),
            "block": _("blocks"),
            "declare": _("declarations"),
            "announce": _("announcements"),
            "opening": _("opening hands"),
            "indicate": _("indicators"),
            "draw": _("drawing"),
            "coin": _("coin toss"),
            "setup": _("setting up"),
            "reveal": _("revealing"),
            "resolve": _("resolving"),
            "main": _("main phase"),
            "janken": _("janken"),
            "dice": _("rolling the dice"),
            "trump": _("choosing trump"),
            "place-1": _("aggressors place cards"),
            "place-2": _("defenders place cards"),
            "reveal-1": _("aggressors reveal"),
            "reveal-2": _("defenders reveal"),
            "shuffle-1": _("shuffling seat 1's deck"),
            "shuffle-2": _("shuffling seat 2's deck"),
            "economy": _("Economy phase"),
            "spending": _("Spending phase"),
            "attack": _("Attack phase"),
            "assign": _("assigning damage"),
            "kill": _("taking down blockers"),
            "down": _("down phase"),
        },
        "move": {
            "pick": _("Seal a card"), "seal-base": _("Seal your base"), "end-turn": _("End turn"),
            "declare": _("Declare"), "janken": _("Janken"), "confirm": _("Confirm"), "pass": _("Pass"),
            "play": _("Play a card"), "play-card": _("Play a card"), "choose-opening": _("Choose your opening hand"),
            "build-base": _("Build your base"), "play-striker": _("Play a Striker"),
            "play-support": _("Play a Support"), "discard-support": _("Discard the Support"),
            "play-gambit": _("Play a Gambit"), "draw": _("Draw a card"), "take-discard": _("Take a discard"),
            "take-discards": _("Take the discards"), "indicate": _("Seal your indicator"), "claim": _("Claim"),
            "reveal": _("Reveal"), "choose-trump": _("Choose trump"), "attack": _("Attack"), "block": _("Block"),
            "load": _("Load"), "shoot": _("Shoot"), "respond": _("Respond"), "place": _("Place a card"),
            "lunge": _("Lunge"), "deploy": _("Deploy"), "cloak": _("Cloak"), "activate": _("Activate"),
            "dealt": _("the cards were dealt"),
            "base-sealed": _("sealed a base"),
            "bases-revealed": _("the bases were revealed"),
            "first-player": _("goes first"),
            "striker-played": _("played a Striker"),
            "support-played": _("played a Support face down"),
            "discarded": _("discarded"),
            "gambit-played": _("played a Gambit"),
            "drew": _("drew a card"),
            "took-discard": _("took a discard"),
            "turn-ended": _("ended the turn"),
            "indicator-committed": _("sealed an indicator"),
            "indicators-revealed": _("the indicators were revealed"),
            "support-revealed": _("the Support was revealed"),
            "combat": _("combat"),
            "fizzled": _("fizzled"),
            "base-lost": _("lost a base card"),
            "added-to-base": _("added to the base"),
            "game-over": _("the game is over"),
            "rolled": _("rolled the dice"),
            "doubles": _("rolled doubles"),
            "janken-called": _("janken is called"),
            "janken-chosen": _("chose a hand for janken"),
            "janken-shown": _("janken hands shown"),
            "lead-chosen": _("leads"),
            "trump-chooser": _("chooses trump"),
            "trump-chosen": _("trump chosen"),
            "card-played": _("played a card"),
            "revoke": _("revoke (did not follow colour)"),
            "trick-won": _("won the trick"),
            "hands-flipped": _("the hands were turned round"),
            "round-scored": _("the round was scored"),
            "round-voided": _("the round was voided"),
            "round-won": _("won the round"), "picked": _("has chosen"), "chance-shown": _("Chance"),
            "announce": _("Announce"), "announced": _("announced"), "coins-moved": _("the coins moved"),
            "defeated": _("was defeated"), "eliminated": _("was eliminated"), "engaged": _("engaged"),
            "fight-over": _("the fight is over"), "opening-chosen": _("chose an opening hand"),
            "placed": _("placed a card"), "revealed": _("revealed"), "shuffled": _("shuffled"),
            "turn-began": _("a turn began"), "play-generator": _("Play a Resource Generator"),
            "uncloak": _("Turn a cloaked card up"), "assign-damage": _("Assign damage"), "kill": _("Take down a blocker"),
            "attacking": _("attacks"), "blocking": _("blocks"), "cloak-played": _("played a card face down"),
            "combined": _("combined"), "damaged": _("took damage"), "gained": _("gained resources"),
            "left": _("left play"), "paid": _("paid"), "phase": _("a new phase"), "played": _("played"),
            "slept": _("fell asleep"), "woke": _("woke up"), "play-action": _("Play an action card"),
            "play-function": _("Play a function card"), "set-response": _("Set a response card"),
            "use-skill": _("Use the skill"), "no-response": _("No response"), "end-main": _("End the main phase"),
            "resolve-function": _("Resolve a function card"), "card-revealed": _("a card was revealed"),
            "coin-tossed": _("the coin was tossed"), "cost-paid": _("paid the cost"),
            "decks-shuffled": _("the decks were shuffled"), "double-edge-declared": _("declared ダブルエッジ"),
            "down-phase": _("the down phase began"), "effect-resolved": _("an effect resolved"),
            "extra-turn-granted": _("gets an extra turn"), "function-fizzled": _("a function card fizzled"),
            "healed": _("healed"), "loaded": _("loaded a card"), "response-set": _("set a response card"),
            "shot-fired": _("shot"), "skill-used": _("used the skill"), "turn-started": _("the turn began"),
        },
    }


@bp.before_app_request
def choose_language() -> None:
    """``?lang=`` (remembered in a cookie), else the cookie, else the browser's Accept-Language."""
    known = i18n.languages()
    asked = request.args.get("lang", "")
    lang = asked if asked in known else request.cookies.get(LANG_COOKIE, "")
    if lang not in known:
        lang = request.accept_languages.best_match(known) or i18n.DEFAULT
    g.lang, g.lang_asked = lang, asked in known
    i18n.set_language(lang)


@bp.after_app_request
def remember_language(resp: Response) -> Response:
    if getattr(g, "lang_asked", False):
        resp.set_cookie(LANG_COOKIE, g.lang, max_age=365 * 24 * 3600, samesite="Lax", path="/")
    return resp


@bp.app_context_processor
def language_globals() -> dict:
    def lang_url(code: str) -> str:
        args = {**request.args.to_dict(), "lang": code}
        return url_for(request.endpoint, **(request.view_args or {}), **args) if request.endpoint else "?lang=" + code

    lang = getattr(g, "lang", i18n.DEFAULT)
    return {"lang": lang, "lang_url": lang_url, "page_strings": page_strings,
            "languages": [(code, LANGUAGE_NAMES.get(code, code)) for code in i18n.languages()]}


def hub() -> Hub:
    return current_app.extensions["companion"].hub


def base() -> str:
    server = current_app.extensions["companion"]
    return server.base_url or request.host_url.rstrip("/")


def _table(table_id: str):
    table = hub().table(table_id)
    if table is None:
        abort(404, _("There is no table {table} here.", table=table_id))
    return table


def _has_key(table) -> bool:
    key = request.args.get("key", "")
    return bool(key) and hmac.compare_digest(key.encode(), table.display_key.encode())


@bp.get("/")
def index():
    tables = [t.info() for t in hub().tables.values()]
    return render_template("index.html", tables=tables, games=hub().games())


@bp.get("/healthz")
def healthz():
    return {"ok": True, "tables": len(hub().tables)}


@bp.get("/j/<token>")
def join(token: str):
    found = hub().seat_by_token(token)
    if found is None:
        return render_template("refused.html", message=_(
            "This seat link is not valid any more (the host may have reissued it). Scan the seat's QR code again.")), 403
    table, seat = found
    resp = make_response(redirect(url_for("pages.phone", table_id=table.id)))
    resp.set_cookie(cookie_name(table.id), token, max_age=COOKIE_AGE, httponly=True, samesite="Lax", path="/")
    return resp


@bp.route("/join", methods=["GET", "POST"])
def join_by_code():
    message = None
    if request.method == "POST":
        limiter = current_app.extensions["companion"].limiter
        if not limiter.allow_guess(request.remote_addr or "?"):
            message = _("Too many codes tried; wait a minute.")
        else:
            found = hub().seat_by_code(request.form.get("code", ""))
            if found is not None:
                table, seat = found
                return redirect(url_for("pages.join", token=table.seat(seat).token))
            message = _("That code is not valid.")
    return render_template("join.html", message=message)


@bp.get("/t/<table_id>/phone")
def phone(table_id: str):
    table = _table(table_id)
    return render_template("phone.html", table=table.info(), demo=table.demo)


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    table = _table(table_id)
    key = request.args.get("key", "") if _has_key(table) else ""
    seats = []
    if key:
        for s in table.seats:
            seats.append({"seat": s.index, "name": s.name, "connected": bool(s.sids),
                          "url": qr.join_url(base(), s.token), "code": format_code(s.code),
                          "qr": url_for("pages.seat_qr", table_id=table.id, seat=s.index, key=key)})
    return render_template("table.html", table=table.info(), key=key, seats=seats, demo=table.demo)


@bp.get("/t/<table_id>/watch")
def watch(table_id: str):
    table = _table(table_id)
    return render_template("table.html", table=table.info(), key="", seats=[], demo=table.demo)


@bp.get("/t/<table_id>/seats.json")
def seat_links(table_id: str):
    table = _table(table_id)
    if not _has_key(table):
        abort(403)
    return {"seats": [{"seat": s.index, "url": qr.join_url(base(), s.token), "code": format_code(s.code),
                       "connected": bool(s.sids), "name": s.name} for s in table.seats]}


@bp.get("/t/<table_id>/qr/<int:seat>.svg")
def seat_qr(table_id: str, seat: int):
    table = _table(table_id)
    if not _has_key(table) or not 0 <= seat < len(table.seats):
        abort(403)
    return Response(qr.svg(qr.join_url(base(), table.seat(seat).token)), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/t/<table_id>/status.json")
def status(table_id: str):
    """What the table page polls besides the socket: the camera's calibration, and (with the display key)
    the move forms for manual entry (types and field names only: never a seat's legal cards)."""
    table = _table(table_id)
    out: dict = {"table": table.id, "camera": camera_status(table), "frame": _latest_frame_url(table)}
    if _has_key(table):
        out["display"] = _display(table)
        out["move_forms"] = [{"type": cls.type, "fields": [f.name for f in dataclasses.fields(cls) if f.name != "seat"],
                              "kinds": _field_kinds(cls)} for cls in table.game.move_types]
    return out


def _field_kinds(cls: type) -> dict[str, str]:
    """How the manual-entry form reads each field: ``number``, ``text``, ``list`` (comma separated) or ``json``."""
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # a hint that does not resolve: let the person type JSON
        hints = {}
    kinds = {}
    for f in dataclasses.fields(cls):
        hint = hints.get(f.name)
        origin = typing.get_origin(hint)
        if hint is int or hint is float:
            kinds[f.name] = "number"
        elif hint is str:
            kinds[f.name] = "text"
        elif origin in (tuple, list):
            kinds[f.name] = "list"
        else:
            kinds[f.name] = "json"
    kinds.pop("seat", None)
    return kinds


def camera_of(table) -> Any:
    """The camera watching ``table``: the server's per-table cameras (``Server.cameras``, where the demo
    puts its rendered camera's reader) first, else the server's one camera (``--camera``), else None."""
    server = current_app.extensions["companion"]
    cameras = getattr(server, "cameras", None) or {}
    return cameras.get(table.id, server.camera)


def camera_status(table) -> dict:
    """The calibration panel: is there a camera, is the mat seen, which of the four corner markers are
    found, is the light good enough (brightness, contrast, glare), the frame rate.

    From the camera's ``status()`` (companion.camera.FrameReader.status) when it has one, else read
    defensively from its fields: a field it does not keep is ``None``, shown as unknown."""
    cam = camera_of(table)
    if cam is None:
        return {"present": False}
    def field(name: str):
        value = getattr(cam, name, None)
        return value() if callable(value) else value
    seen = []
    last = getattr(cam, "last", None)
    for s in getattr(last, "sightings", ()) or ():
        # What lies on the table is in plain sight; a face-down card stays "face-down".
        seen.append({"card": str(s.card), "name": printed_name(table.game.id, str(s.card)), "zone": s.zone,
                     "confidence": round(float(s.confidence), 2)})
    out = {"present": True, "mat_seen": field("mat_seen"), "markers_found": field("markers_found"),
           "markers_needed": 4, "light": field("light"), "frames": field("frames"), "seen": seen[:80]}
    if callable(getattr(cam, "status", None)):
        out.update(cam.status())
    return out


def _display(table) -> dict | None:
    """The live camera view for the table page (display key only; never sent to a phone): the frame's
    number, the URL of its straightened mat image, the mat's size in mm and the cards outlined on it."""
    cam = camera_of(table)
    view = cam.view() if cam is not None and callable(getattr(cam, "view", None)) else None
    if view is None or view.jpeg is None:
        return None
    return {"index": view.index, "mat": list(view.size_mm), "cards": view.cards,
            "url": url_for("pages.camera_frame", table_id=table.id, key=table.display_key, frame=view.index)}


def _latest_frame_url(table) -> str | None:
    digest = _latest_evidence(table)
    return url_for("pages.evidence", table_id=table.id, digest=digest) if digest else None


def _latest_evidence(table) -> str | None:
    for entry in reversed(table.chain.entries):
        if entry.get("evidence"):
            return entry["evidence"]
    return None


@bp.get("/t/<table_id>/camera.jpg")
def camera_frame(table_id: str):
    """With the display key: the live camera image, the mat straightened and cut at its edge (``?frame=N``:
    the image of that recent frame, whose outlines the page already has; else the newest).  Without the
    key, or with no live image: the latest evidence frame in the record; 404 when there is neither."""
    table = _table(table_id)
    cam = camera_of(table)
    if _has_key(table) and cam is not None and callable(getattr(cam, "view", None)):
        frame = request.args.get("frame", type=int)
        view = (cam.view_at(frame) if frame is not None else None) or cam.view()
        if view is not None and view.jpeg:
            return Response(view.jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
    digest = _latest_evidence(table)
    if digest is None:
        abort(404)
    return redirect(url_for("pages.evidence", table_id=table.id, digest=digest))


@bp.get("/t/<table_id>/record.jsonl")
def record(table_id: str):
    """The full record names every hidden card: the display key, or the game must be over."""
    table = _table(table_id)
    if not (_has_key(table) or (table.over and table.revealed)):
        abort(403)
    text = "\n".join(table.record().lines()) + "\n"
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename=table-{table.id}.jsonl"})


@bp.get("/t/<table_id>/evidence/<digest>")
def evidence(table_id: str, digest: str):
    _table(table_id)
    found = hub().store.evidence(digest)
    if found is None:
        abort(404)
    data, mime = found
    return Response(data, mimetype=mime, headers={"Cache-Control": "max-age=31536000, immutable"})


@bp.get("/api/tables")
def tables():
    return {"tables": [t.info() for t in hub().tables.values()], "games": hub().games()}


@bp.post("/api/tables")
def create_table():
    """Open another table: ``{"pin", "game", "variant"?, "seats"?, "deal"?}`` -> its links."""
    from companion import messages
    from companion.config import TableSpec

    server = current_app.extensions["companion"]
    if not server.limiter.allow_guess(request.remote_addr or "?"):
        return {"ok": False, "message": _("Too many PINs tried; wait a minute.")}, 429
    try:
        msg = messages.parse(messages.CreateTable, request.get_json(silent=True))
    except ValueError as exc:
        return {"ok": False, "message": str(exc)}, 400
    if not hmac.compare_digest(msg.pin.encode(), server.pin.encode()):
        return {"ok": False, "message": _("Wrong host PIN.")}, 403
    try:
        table = server.create_table(TableSpec(msg.game, msg.variant, msg.seats, msg.deal))
    except ValueError as exc:
        return {"ok": False, "message": str(exc)}, 400
    return {"ok": True, "table": table.id, "page": qr.table_url(base(), table.id, table.display_key),
            "watch": qr.watch_url(base(), table.id),
            "seats": [{"seat": s.index, "url": qr.join_url(base(), s.token), "code": format_code(s.code)}
                      for s in table.seats]}, 201


@bp.get("/api/export.json")
def export_json():
    return Response(json.dumps(hub().store.export(), ensure_ascii=False, indent=1), mimetype="application/json")


@bp.get("/api/export/<what>.csv")
def export_csv(what: str):
    if what not in ("players", "matches", "standings", "characters"):
        abort(404)
    return Response(hub().store.export_csv(what), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={what}.csv"})
