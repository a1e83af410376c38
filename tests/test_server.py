"""The companion server over real sockets: joining, rejoining, refusals, host controls,
sealed commitments, disputes, replay agreement, pages and exports."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from companion.config import TableSpec
from companion.record import parse_record, replay
from tests.support.conformance import leaves
from tests.support.server import PIN, Phone, thread_server
from tests.support.toy_game import GAME


@pytest.fixture
def toy(tmp_path):
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=3)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phones: list[Phone] = []

        def phone(cookie=None):
            p = Phone(srv.url, cookie)
            phones.append(p)
            return p

        yield srv, table, phone
        for p in phones:
            try:
                p.close()
            except Exception:
                pass


def seat_in(phone, table, seat):
    ack = phone.call("join", {"table": table.id, "token": table.seats[seat].token})
    assert ack["ok"], ack
    return ack


def get(url, cookie=None):
    """GET without following redirects; HTTPError for 4xx like urllib."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                 headers={"Cookie": cookie} if cookie else {})
    resp = conn.getresponse()
    if resp.status >= 400:
        raise urllib.error.HTTPError(url, resp.status, resp.reason, resp.headers, None)
    return resp


def test_join_by_token_gives_the_private_view(toy):
    srv, table, phone = toy
    ack = seat_in(phone(), table, 0)
    assert ack["seat"] == 0 and len(ack["view"]["hand"]) == 3
    assert ack["view"]["hand"] == table.state.view(0)["hand"]
    assert ack["moves"] == [{"type": "pick", "seat": 0, "card": c} for c in ack["view"]["hand"]]
    assert ack["info"]["seats"][0]["connected"] is True


def test_wrong_or_missing_token_is_refused(toy):
    srv, table, phone = toy
    p = phone()
    for payload in ({"table": table.id, "token": "A" * 32}, {"table": table.id}):
        ack = p.call("join", payload)
        assert not ack["ok"] and ack["code"] == "refused"
    assert p.wait_for(lambda e, d: e == "error")[1]["code"] == "refused"
    # Not seated: a move is refused and changes nothing.
    before = table.seq
    ack = p.call("play", {"table": table.id, "move": {"type": "pick", "card": "1"}})
    assert ack["code"] == "unauthorised" and table.seq == before


def test_rejoin_by_cookie_restores_the_same_private_state(toy):
    srv, table, phone = toy
    resp = get(f"{srv.url}/j/{table.seats[1].token}")
    assert resp.status == 302 and resp.headers["Location"].endswith(f"/t/{table.id}/phone")
    cookie = resp.headers["Set-Cookie"].split(";")[0]
    assert "HttpOnly" in resp.headers["Set-Cookie"]
    first = phone(cookie)
    ack = first.call("join", {"table": table.id})
    assert ack["ok"] and ack["seat"] == 1
    hand = ack["view"]["hand"]
    assert first.call("play", {"table": table.id, "move": {"type": "pick", "card": hand[0]}})["ok"]
    private = first.wait_seq(table.seq)["view"]
    first.close()
    again = phone(cookie)
    ack = again.call("join", {"table": table.id})
    assert ack["ok"] and ack["seat"] == 1 and ack["view"] == private


def test_a_bad_join_link_is_refused(toy):
    srv, table, phone = toy
    with pytest.raises(urllib.error.HTTPError) as err:
        get(f"{srv.url}/j/not-a-real-token-at-all")
    assert err.value.code == 403


def test_kicked_phone_is_refused_and_the_new_token_works(toy):
    srv, table, phone = toy
    player, host = phone(), phone()
    old = table.seats[0].token
    seat_in(player, table, 0)
    assert host.call("host", {"table": table.id, "action": "kick", "seat": 0})["code"] == "unauthorised"
    assert host.call("host_auth", {"table": table.id, "pin": "0000"})["code"] == "refused"
    assert host.call("host_auth", {"table": table.id, "pin": PIN})["ok"]
    assert host.call("host", {"table": table.id, "action": "kick", "seat": 0})["ok"]
    player.wait_for(lambda e, d: e == "kicked")
    again = phone()
    assert again.call("join", {"table": table.id, "token": old})["code"] == "refused"
    assert table.seats[0].token != old
    assert again.call("join", {"table": table.id, "token": table.seats[0].token})["ok"]
    kinds = [e["data"]["event"] for e in table.chain.entries if e["kind"] == "note"]
    assert "kick" in kinds


def test_spectator_sees_only_the_public_view(toy):
    srv, table, phone = toy
    spectator = phone()
    ack = spectator.call("watch", {"table": table.id})
    assert ack["ok"] and ack["role"] == "spectator" and "hand" not in ack["view"]
    assert spectator.call("play", {"table": table.id, "move": {"type": "pick", "card": "1"}})["code"] == "unauthorised"
    player = phone()
    hand = seat_in(player, table, 0)["view"]["hand"]
    player.call("play", {"table": table.id, "move": {"type": "pick", "card": hand[0]}})
    view = spectator.wait_seq(table.seq)
    assert view["seat"] is None and "hand" not in view["view"] and view["view"]["picked"] == [True, False]


def test_a_phone_may_not_move_for_another_seat_nor_roll_dice(toy):
    srv, table, phone = toy
    p = phone()
    seat_in(p, table, 0)
    before = table.seq
    other = table.state.view(1)["hand"][0]
    assert p.call("play", {"table": table.id, "move": {"type": "pick", "seat": 1, "card": other}})["code"] == "unauthorised"
    assert p.call("play", {"table": table.id, "move": {"type": "chance", "values": [1]}})["code"] == "unauthorised"
    assert table.seq == before


def test_illegal_move_answered_with_rule_sentence_and_fix_and_recorded(toy):
    srv, table, phone = toy
    p = phone()
    seat_in(p, table, 0)
    ack = p.call("play", {"table": table.id, "move": {"type": "pick", "card": "99"}})
    assert ack["verdict"] == {"ok": False, "rule": "TOY-2", "message": "99 is not in your hand",
                              "fix": "pick a card you hold"}
    assert p.wait_for(lambda e, d: e == "rejected")[1]["verdict"]["rule"] == "TOY-2"
    assert table.chain.entries[-1]["verdict"]["rule"] == "TOY-2"


def test_sealed_pick_can_change_until_revealed_and_replay_agrees(toy):
    srv, table, phone = toy
    a, b = phone(), phone()
    hand_a = seat_in(a, table, 0)["view"]["hand"]
    hand_b = seat_in(b, table, 1)["view"]["hand"]
    assert a.call("play", {"table": table.id, "move": {"type": "pick", "card": hand_a[0]}})["ok"]
    ack = a.call("amend", {"table": table.id, "move": {"type": "pick", "card": hand_a[1]}})
    assert ack["ok"], ack
    assert table.state.view(0)["my_pick"] == hand_a[1]
    assert sorted(table.state.view(0)["hand"]) == sorted([hand_a[0], hand_a[2]])
    # Once both picked, the die is rolled and the picks revealed: no more changes.
    assert b.call("play", {"table": table.id, "move": {"type": "pick", "card": hand_b[0]}})["ok"]
    late = a.call("amend", {"table": table.id, "move": {"type": "pick", "card": hand_a[0]}})
    assert not late["ok"] and late["verdict"]["rule"] == "TC-SEALED"
    record = parse_record(list(table.record().lines()))
    replayed, steps = replay(record, game=GAME)
    assert replayed.to_json() == table.state.to_json() and all(s.agrees for s in steps)
    assert any(e["kind"] == "rollback" and e["data"]["reason"] == "amend" for e in record.entries)


def test_dispute_pauses_steps_the_record_and_rolls_back(toy):
    srv, table, phone = toy
    a, b, host, spectator = phone(), phone(), phone(), phone()
    hand_a = seat_in(a, table, 0)["view"]["hand"]
    hand_b = seat_in(b, table, 1)["view"]["hand"]
    spectator.call("watch", {"table": table.id})
    a.call("play", {"table": table.id, "move": {"type": "pick", "card": hand_a[0]}})
    before_b = table.seq
    snapshot = table.state.to_json()
    b.call("play", {"table": table.id, "move": {"type": "pick", "card": hand_b[0]}})
    assert table.state.view(None)["round"] == 2
    assert a.call("challenge", {"table": table.id, "reason": "I saw a 12"})["ok"]
    spectator.wait_for(lambda e, d: e == "paused")
    refused = b.call("play", {"table": table.id, "move": {"type": "pick", "card": hand_b[1]}})
    assert refused["verdict"]["rule"] == "TC-PAUSED"
    # Step through the record: a seat sees its own view then, and another seat's pick stays hidden.
    step = a.call("record", {"table": table.id, "seq": before_b + 1})
    assert step["ok"] and step["entry"]["move"] == {"type": "pick", "seat": 1}
    assert step["view"]["my_pick"] == hand_a[0] and hand_b[0] not in set(leaves(step))
    step = spectator.call("record", {"table": table.id, "seq": before_b})
    assert "hand" not in step["view"] and step["view"]["picked"] == [True, False]
    # The host rolls back to before seat 2's pick; that is recorded and replays the same.
    assert host.call("host", {"table": table.id, "action": "rollback", "to": before_b})["code"] == "unauthorised"
    host.call("host_auth", {"table": table.id, "pin": PIN})
    assert host.call("host", {"table": table.id, "action": "rollback", "to": before_b})["ok"]
    assert table.paused is None and table.state.to_json() == snapshot
    spectator.wait_for(lambda e, d: e == "resumed" and d["ruling"] == "rollback")
    replayed, _ = replay(parse_record(list(table.record().lines())), game=GAME)
    assert replayed.to_json() == table.state.to_json()


def test_a_full_game_is_scored_revealed_and_exported(toy):
    srv, table, phone = toy
    a, b = phone(), phone()
    seat_in(a, table, 0)
    seat_in(b, table, 1)
    assert a.call("profile", {"table": table.id, "name": "Ada", "pin": "1234"})["ok"]
    assert b.call("profile", {"table": table.id, "name": "Bo"})["ok"]
    for _ in range(3):
        for p, seat in ((a, 0), (b, 1)):
            card = table.state.view(seat)["hand"][0]
            assert p.call("play", {"table": table.id, "move": {"type": "pick", "card": card}})["ok"]
    assert table.over and table.revealed
    over = a.wait_for(lambda e, d: e == "over")[1]
    assert over["outcome"] == table.state.outcome.to_json()
    from companion.fairness import verify_record

    assert verify_record(parse_record(list(table.record().lines())), GAME) == []
    data = json.load(urllib.request.urlopen(f"{srv.url}/api/export.json", timeout=10))
    names = {row["name"] for row in data["matches"]}
    assert names == {"Ada", "Bo"}
    assert {row["player"] for row in data["standings"]} == {"Ada", "Bo"}
    csv_text = urllib.request.urlopen(f"{srv.url}/api/export/matches.csv", timeout=10).read().decode()
    assert csv_text.splitlines()[0].startswith("id,table_id,game") and "Ada" in csv_text
    # The game is over and the seed revealed: the record is public now.
    record = urllib.request.urlopen(f"{srv.url}/t/{table.id}/record.jsonl", timeout=10).read().decode()
    assert parse_record(record.splitlines()).entries[-1]["kind"] == "reveal"
    # A wrong PIN for an existing player is refused.
    c = phone()
    seat_in(c, table, 0)
    assert c.call("profile", {"table": table.id, "name": "Ada", "pin": "9999"})["code"] == "invalid"


def test_pages_qr_and_record_need_the_display_key(toy):
    srv, table, phone = toy
    with pytest.raises(urllib.error.HTTPError) as err:
        get(f"{srv.url}/t/{table.id}/qr/0.svg")
    assert err.value.code == 403
    with pytest.raises(urllib.error.HTTPError):
        get(f"{srv.url}/t/{table.id}/record.jsonl")
    svg = get(f"{srv.url}/t/{table.id}/qr/0.svg?key={table.display_key}").read()
    assert svg.startswith(b"<?xml") and b"<svg" in svg
    page = get(f"{srv.url}/t/{table.id}?key={table.display_key}").read().decode()
    assert table.seats[0].token in page and "qr/0.svg" in page
    public = get(f"{srv.url}/t/{table.id}/watch").read().decode()
    assert table.seats[0].token not in public and table.display_key not in public
    assert table.seats[0].token not in get(f"{srv.url}/t/{table.id}/phone").read().decode()
    display = phone()
    ack = display.call("watch", {"table": table.id, "key": table.display_key})
    assert ack["role"] == "display"


def test_typed_code_joins_and_the_table_page_enters_moves_by_hand(toy):
    srv, table, phone = toy
    p = phone()
    code = table.seats[1].code
    ack = p.call("join", {"table": table.id, "code": f"{code[:4]}-{code[4:].lower()}"})
    assert ack["ok"] and ack["seat"] == 1
    display = phone()
    display.call("watch", {"table": table.id, "key": table.display_key})
    card = table.state.view(0)["hand"][0]
    assert display.call("play", {"table": table.id, "seat": 0, "move": {"type": "pick", "card": card}})["ok"]
    assert table.chain.entries[-1]["source"] == "host"


def test_cross_origin_socket_is_refused(toy):
    srv, table, phone = toy
    import socketio

    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(srv.url, transports=["websocket"], headers={"Origin": "http://evil.example"}, wait_timeout=5)


def test_the_host_opens_another_table_over_http(toy):
    srv, table, phone = toy

    def post(body):
        req = urllib.request.Request(f"{srv.url}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.load(resp)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    assert post({"pin": "0000", "game": "toy"})[0] == 403
    assert post({"pin": PIN, "game": "toy", "seats": 9})[0] == 400
    assert post({"pin": PIN, "game": "toy", "seats": 2, "extra": 1})[0] == 400
    status, body = post({"pin": PIN, "game": "toy", "seats": 4})
    assert status == 201 and len(body["seats"]) == 4
    token = body["seats"][3]["url"].rsplit("/", 1)[1]
    ack = phone().call("join", {"table": body["table"], "token": token, "lang": "en"})
    assert ack["ok"] and ack["seat"] == 3


def test_two_freakin_swords_character_sheets_earn_points_and_fall(tmp_path):
    import random

    from engines import registry
    from engines.playout import random_steps

    if "two-freakin-swords" not in registry.available():
        pytest.skip("Two Freakin' Swords is not built")
    with thread_server(tmp_path, [TableSpec("two-freakin-swords", seats=2, deal=4)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phones = [Phone(srv.url), Phone(srv.url)]
        try:
            for seat, (p, name) in enumerate(zip(phones, ("Ada", "Bo"), strict=True)):
                seat_in(p, table, seat)
                ack = p.call("profile", {"table": table.id, "name": name, "character": f"{name}'s knight"})
                assert ack["ok"] and ack["character"]["points"] == 0
            rng = random.Random(4)
            while not table.over:
                step = next(random_steps(table.game.load(table.state.to_json()), rng, 1))
                assert phones[step.move.actor].call("play", {"table": table.id, "move": step.move.to_json()})["ok"]
            phones[0].wait_for(lambda e, d: e == "over")
            outcome = table.state.outcome
            sheets = {c["name"]: c for c in srv.server.store.characters()}
            for seat, name in enumerate(("Ada", "Bo")):
                sheet = sheets[f"{name}'s knight"]
                assert (sheet["destroyed"] is None) == (seat in outcome.winners)
                if outcome.scores:
                    assert sheet["points"] == int(outcome.scores[seat])
            csv_text = urllib.request.urlopen(f"{srv.url}/api/export/characters.csv", timeout=10).read().decode()
            assert "Ada's knight" in csv_text
        finally:
            for p in phones:
                p.close()


def test_a_flooding_socket_is_slowed_and_the_table_does_not_notice(tmp_path):
    with thread_server(tmp_path, [TableSpec("toy", seats=2, deal=3)], rate=1.0, burst=5) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        p = Phone(srv.url)
        try:
            answers = [p.call("record", {"table": table.id, "seq": 0}) for _ in range(8)]
            assert answers[0]["code"] == "unauthorised"
            assert [a["code"] for a in answers].count("rate-limited") >= 2
            assert table.seq == 1  # only the opening shuffle
        finally:
            p.close()


def test_companion_replay_rebuilds_the_servers_state(toy, tmp_path):
    import subprocess
    import sys

    from tests.support.server import ROOT

    srv, table, phone = toy
    a, b = phone(), phone()
    seat_in(a, table, 0)
    seat_in(b, table, 1)
    for p, seat in ((a, 0), (b, 1), (a, 0)):
        card = table.state.view(seat)["hand"][0]
        p.call("play", {"table": table.id, "move": {"type": "pick", "card": card}})
    a.call("play", {"table": table.id, "move": {"type": "pick", "card": "99"}})  # a rejection, recorded too
    path = tmp_path / "record.jsonl"
    path.write_text(get(f"{srv.url}/t/{table.id}/record.jsonl?key={table.display_key}").read().decode())
    code = ("import sys; from companion.commands import replay; from engines import registry; "
            "from tests.support import toy_game; registry.GAMES['toy'] = 'tests.support.toy_game'; "
            "sys.exit(replay.run(replay_args))")
    args = f"import argparse; replay_args = argparse.Namespace(record={str(path)!r}, at=None, quiet=True, json=True)"
    done = subprocess.run([sys.executable, "-c", f"{args}\n{code}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = json.loads(done.stdout[done.stdout.index("{"):])
    assert printed == table.state.view(None)
    assert "0 verdict(s) differ from the record" in done.stdout
