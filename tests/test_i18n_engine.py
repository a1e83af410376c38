"""The engines' sentences in Japanese: every template is translated, and real rejections come out in Japanese.

The engines write English f-strings (``f"{card} is not in your hand"``);
scripts/engine_messages.py extracts them as templates into the ``engine``
gettext domain and companion.i18n.translate matches finished sentences against
them.  The first tests fail when an engine gains or changes a sentence without
its template and translation (run ``python scripts/engine_messages.py all`` and
translate what ``check`` lists); the last plays random illegal moves in all five
games and reads every rejection in Japanese.
"""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from typing import Any

import pytest

from companion import i18n
from engines import registry
from engines.core import PHYSICAL, State
from engines.keener.catalog import CARDS as KEENER_CARDS
from engines.playout import sample_chance

spec = importlib.util.spec_from_file_location("engine_messages", i18n.TRANSLATIONS.parent.parent / "scripts" / "engine_messages.py")
engine_messages = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
sys.modules.setdefault("engine_messages", engine_messages)
spec.loader.exec_module(engine_messages)  # type: ignore[union-attr]

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH_RUN = re.compile(r"\b[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}\b")
"""Three English words in a row: a sentence (or most of one) left untranslated."""
CARD_NAMES = sorted((card.name for card in KEENER_CARDS.values()), key=len, reverse=True)
KEPT_AS_IS = {"Two Freakin' Swords", "LP", "PV", "ID"}
"""Translations that rightly hold no Japanese: names and abbreviations."""


@pytest.fixture(scope="module")
def catalog():
    return engine_messages.read(engine_messages.po_path("ja"), "ja")


def test_the_template_file_lists_every_engine_sentence_now():
    extracted = set(engine_messages.extract())
    listed = {m.id for m in engine_messages.read(engine_messages.POT) if m.id}
    new = sorted(extracted - listed)  # (a template no engine writes any more does no harm)
    assert not new, (f"{len(new)} new engine sentences: run `python scripts/engine_messages.py all` and translate "
                     f"what it lists: {new[:10]}")


def test_every_engine_template_has_a_japanese_translation():
    missing = engine_messages.missing("ja")
    assert not missing, f"{len(missing)} engine templates have no Japanese (scripts/engine_messages.py check): {missing[:10]}"


def test_translations_keep_the_placeholders_and_are_japanese(catalog):
    for message in catalog:
        if not message.id or not message.string:
            continue
        extra = i18n.placeholders(message.string) - i18n.placeholders(message.id)
        assert not extra, f"{message.id!r}: the translation names placeholders the English has not: {extra}"
        words = "".join(text for is_field, text in i18n.template_parts(message.id) if not is_field)
        if re.search("[A-Za-z]{2,}", words) and message.string not in KEPT_AS_IS:
            assert JAPANESE.search(message.string), f"{message.id!r} -> {message.string!r} is not Japanese"


def test_the_compiled_catalog_is_the_translated_one(catalog):
    compiled = i18n.engine_catalog("ja")
    translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    assert len(compiled.exact) + len(compiled.patterns) == len(translated), (
        "engine.mo is older than engine.po: run `python scripts/engine_messages.py compile`")


def test_a_template_is_read_like_an_f_string():
    parts = i18n.template_parts("take {card} back{f', then {v.fix}' if v.fix else ''} {{literally}}")
    assert parts == [(False, "take "), (True, "{card}"), (False, " back"),
                     (True, "{f', then {v.fix}' if v.fix else ''}"), (False, " {literally}")]
    pattern = i18n.Pattern.of("{n:d} Gold", "ゴールド{n:d}")
    assert pattern.regex.fullmatch("2 Gold") and not pattern.regex.fullmatch("1 Gold, 2 Gold")
    twice = i18n.Pattern.of("{a} and {a}", "{a}と{a}")
    assert twice.regex.fullmatch("x and x") and not twice.regex.fullmatch("x and y")


def test_a_sentence_is_matched_with_its_specifics_and_its_parts_translated():
    ja = "ja"
    assert i18n.translate("Q♥ is not in your hand", ja) == "Q♥ は手札にありません"
    assert i18n.translate("seat 2 may not act now", ja) == "席2は今は行動できません"
    # A placeholder that holds a phrase of its own is translated too (seat 2's Striker zone).
    assert i18n.translate("seat 1 laid 7H on seat 2's Striker zone, but it is seat 2's turn", ja) == (
        "席1が 7H を席2のストライカーゾーンに置きましたが、今は席2の手番です")
    assert i18n.translate("JS is already in seat 2's Gambit; it cannot also be seat 1's Striker", ja) == (
        "JS はすでに席2のギャンビットにあります。同時に席1のストライカーにはなれません")
    # Of several readings the simplest wins ("{who} discard pile" would swallow the whole sentence).
    assert i18n.translate("take 4S off seat 2's discard pile", ja) == "4Sを席2の捨て札の山から取ってください"
    assert i18n.translate("seat 4's left arm: that is not the card you sealed on your left arm", ja) == (
        "席4の左腕：それはあなたの左腕に封印したカードではありません")
    assert i18n.translate("JD belongs on seat 1's Striker zone or seat 1's discard pile, not on the shared deck", ja) == (
        "JD の置き場所は席1のストライカーゾーンまたは席1の捨て札の山です（共有の山札ではありません）")
    # A fix joined to another at run time.
    assert i18n.translate("take 7H back to seat 1's hand, then draw first", ja) == (
        "7H を席1の手札に戻してください。続けて先に引いてください")
    # ガンナガン's own terms.
    assert "ダブルエッジ" in i18n.translate("ダブルエッジ was already declared this turn (once per turn, however "
                                          "many cards you play)", ja)
    assert i18n.translate("計略 is a action card, not a bullet card", ja) == "計略 は行動カードです（銃弾カードではありません）"
    # Nothing matches: the English stays readable; English readers get the engine's own words.
    assert i18n.translate("a sentence no engine writes", ja) == "a sentence no engine writes"
    assert i18n.translate("Q♥ is not in your hand", "en") == "Q♥ is not in your hand"
    assert i18n.translate("Q♥ is not in your hand", "fr") == "Q♥ is not in your hand"


def test_a_verdict_and_a_message_are_said_in_the_readers_language():
    verdict = {"ok": False, "rule": "DE-6.5", "message": "4H is not in your hand", "fix": "play a card you hold"}
    assert i18n.translate_verdict(verdict, "ja") == {
        "ok": False, "rule": "DE-6.5", "message": "4H は手札にありません", "fix": "手札にあるカードを出してください"}
    payload = {"table": "t1", "verdict": verdict, "prompt": "Which response card did you set?",
               "choices": ["set:0A-01"], "events": [{"type": "chance-shown", "label": "shuffle the 48 cards (DE-2.2)"}],
               "view": {"chance": {"kind": "coin", "label": "toss a coin: who goes first in round 1 (DE-R1)"},
                        "hand": ["4H"]}}
    said = i18n.localize(payload, "ja")
    assert said["verdict"]["message"] == "4H は手札にありません"
    assert said["prompt"] == "どの対応カードをセットしましたか？"
    assert said["choices"] == ["set:0A-01"]  # answers go back to the adapter as they are
    assert said["labels"] == ["set:0A-01"]  # and are shown in the reader's language where they have words
    assert i18n.localize({"choices": ["strike", "declare:play-action:0A-01"]}, "ja")["labels"] == [
        "ストライク", "ダブルエッジを宣言する"]
    assert said["events"][0]["label"] == "48枚のカードをシャッフルします（DE-2.2）"
    assert said["view"]["chance"]["label"] == "コイントス：第1ラウンドの先攻を決めます（DE-R1）"
    assert said["view"]["hand"] == ["4H"]
    assert payload["verdict"]["message"] == "4H is not in your hand"  # the original is left as it was
    assert i18n.localize(payload, "en") is payload


# --------------------------------------------------------------------------
# Random illegal moves in all five games


def _mutated(move: dict, pool: dict[str, list[Any]], rng: random.Random, seats: int) -> dict:
    out = dict(move)
    keys = [k for k in out if k != "type"]
    for key in rng.sample(keys, min(len(keys), rng.randint(1, 2))):
        if key == "seat":
            out[key] = rng.randrange(seats)
        elif pool.get(key):
            out[key] = rng.choice(pool[key])
    return out


def _rejections(game_id: str, seats: int, variant: str, deal: int | str, seed: int, plies: int) -> dict:
    """(message, fix) -> rule of every rejection met while trying wrong moves along a random game:
    other seats' moves, moves of other moments, and moves with a field swapped for another's value."""
    game = registry.get(game_id)
    rng = random.Random(seed)
    state: State = game.new(seats, variant, deal=deal)
    seen: list[dict] = []
    pool: dict[str, list[Any]] = {}
    out: dict = {}
    for _ in range(plies):
        if state.outcome is not None:
            break
        for seat in range(seats):
            for move in (state.legal_moves(seat) or [])[:20]:
                data = move.to_json()
                seen.append(data)
                for key, value in data.items():
                    values = pool.setdefault(key, [])
                    if key != "type" and value not in values and len(values) < 40:
                        values.append(value)
        tries = [rng.choice(seen) for _ in range(4)] if seen else []
        for data in tries + [_mutated(d, pool, rng, seats) for d in tries]:
            verdict = state.check(data)
            if not verdict.ok:
                out.setdefault((verdict.message, verdict.fix), verdict.rule)
        request = state.pending_chance()
        if request is not None:
            state.apply(sample_chance(request, rng))
            continue
        seat = rng.choice(sorted(state.to_act()))
        moves = state.legal_moves(seat)
        if moves is None:  # a physical deal: play a move of the kind seen that the engine accepts
            fitting = [d for d in rng.sample(seen, min(len(seen), 100)) if state.check({**d, "seat": seat}).ok]
            if not fitting:
                break
            state.apply({**fitting[0], "seat": seat})
        else:
            state.apply(rng.choice(moves))
    return out


def _tables(game_id: str) -> list[tuple[int, str, int | str]]:
    game = registry.get(game_id)
    out = []
    for seats, variant, _options in game.setups()[:3]:
        out.append((seats, variant, 11))
        try:
            game.validate_setup(seats, variant, PHYSICAL)
            game.new(seats, variant, deal=PHYSICAL)
        except ValueError:
            continue
        out.append((seats, variant, PHYSICAL))
    return out


@pytest.mark.parametrize("game_id", sorted(registry.GAMES))
def test_random_illegal_moves_are_refused_in_japanese(game_id):
    if game_id not in registry.available():
        pytest.skip(f"{game_id} is not built")
    found: dict = {}
    for n, (seats, variant, deal) in enumerate(_tables(game_id)):
        found.update(_rejections(game_id, seats, variant, deal, seed=n, plies=80))
    assert len(found) >= 10, f"{game_id}: only {len(found)} different rejections met; the test plays too little"
    untranslated = []
    for (message, fix), rule in found.items():
        for text in (message, fix):
            if not text:
                continue
            said = i18n.translate(text, "ja")
            for name in CARD_NAMES:  # Keener's cards keep their English names
                said = said.replace(name, "")
            if not JAPANESE.search(said) or ENGLISH_RUN.search(said):
                untranslated.append(f"[{rule}] {text!r} -> {said!r}")
    assert not untranslated, f"{len(untranslated)} of {len(found)} rejections not in Japanese:\n" + "\n".join(
        untranslated[:20])
