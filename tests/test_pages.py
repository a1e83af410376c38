"""The phone and table pages in headless Chromium against a real server.

A phone joins by the URL read back from the table page's QR code, seals a card
with the picker built from its legal moves, sees the red notice of an illegal
move (rule id, sentence, fix), rejoins its seat after a reload; the table page
shows whose turn, the log, the illegal-move banner and the dispute viewer; the
language switch and the browser's language choose Japanese; a sealed card is
changed until it is revealed.  The camera view and the screenshots of games in
progress are in tests/test_pages_camera.py.
"""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from companion import qr
from companion.config import TableSpec
from tests.support.server import PIN, thread_server
from tests.support.waiting import wait_for

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
              pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from companion.app import templates_dir

    if not (templates_dir() / "static" / "vendor" / "socket.io.min.js").exists():
        pytest.skip("run scripts/fetch_assets.py first (the socket.io browser client)")
    with thread_server(tmp_path_factory.mktemp("pages")) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def new_table(server, game: str = "toy", seats: int = 2, deal: int = 5):
    return server.server.create_table(TableSpec(game, seats=seats, deal=deal))


def card_option(phone, card: str):
    """The picker's option for ``card`` by the move it sends: a text match
    would take "10" for "1"."""
    moves = phone.eval_on_selector_all("#choices .option[data-move]", "bs => bs.map(b => b.dataset.move)")
    (k,) = [i for i, m in enumerate(moves) if json.loads(m).get("card") == card]
    return phone.locator("#choices .option[data-move]").nth(k)


def table_url(server, table) -> str:
    return qr.table_url(server.url, table.id, table.display_key)


def _strings(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (k, *_strings(v))]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def decode_qr(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    image = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    image = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(255, 255, 255))  # quiet zone
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    if not text:  # the other detector reads some renderings the first one misses
        text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    return text


def read_qr(locator, tries: int = 10) -> str:
    """Decode the QR code an element shows; the table page may redraw the seat (a status poll) while
    the screenshot is taken, so an empty decode is tried again rather than taken as the answer."""
    for _ in range(tries):
        text = decode_qr(locator.screenshot())
        if text:
            return text
        locator.page.wait_for_timeout(300)
    return ""


def test_join_by_qr_seal_illegal_notice_reload_and_table_page(server, browser):
    table = new_table(server)
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    phone_ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True,
                                    has_touch=True)
    # Headless Chromium has no vibrator: record what the page asks for.
    phone_ctx.add_init_script("window.vibrated = []; navigator.vibrate = (p) => { window.vibrated.push(p); return true; };")
    try:
        page = tablet.new_page()
        page.goto(table_url(server, table))
        page.wait_for_function("document.getElementById('conn').dataset.state === 'connected'", timeout=15000)
        qr_img = page.locator('.seat[data-seat="0"] img')
        qr_img.wait_for()
        page.wait_for_function("document.querySelector('.seat img').naturalWidth > 0", timeout=15000)
        url = read_qr(qr_img)
        assert url == qr.join_url(server.url, table.seat(0).token)

        phone = phone_ctx.new_page()
        phone.goto(url)
        phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 1'", timeout=15000)
        phone.wait_for_selector("#choices .option")
        hand = table.state.view(0)["hand"]
        other = set(table.state.view(1)["hand"])
        # The picker offers exactly this seat's legal moves; nothing of seat 2's hand is on the page.
        offered = [json.loads(m) for m in phone.eval_on_selector_all("#choices .option", "bs => bs.map(b => b.dataset.move)")]
        assert sorted(m["card"] for m in offered) == sorted(hand)
        shown = json.loads(phone.inner_text("#view") if phone.locator("#view").is_visible()
                           else phone.evaluate("document.getElementById('view').textContent"))
        assert not other & set(_strings(shown))
        chips = set(phone.eval_on_selector_all(".chip", "cs => cs.map(c => c.textContent)"))
        assert chips and chips <= set(hand)
        assert "my-turn" in phone.evaluate("document.body.className")
        assert phone.evaluate("window.vibrated") == [120]  # it became this seat's turn
        # One hand on a 360 px screen: nothing wider than the screen, every control at least 44 px high.
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        heights = phone.eval_on_selector_all("#choices button, .dock button",
                                             "bs => bs.map(b => b.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44
        # The table page hid seat 1's QR code now that its phone is connected, and says who is to play.
        page.wait_for_function("document.querySelector('.seat[data-seat=\"0\"]').hidden", timeout=15000)
        assert "Seat 1, Seat 2 to play" in page.inner_text("#turn")

        # An illegal move typed by hand: a red notice with the rule id, the sentence and the fix.
        phone.click("#typed summary")
        phone.fill("#move", json.dumps({"type": "pick", "card": "99"}))
        phone.click("#send")
        notice = phone.locator("#notice")
        notice.wait_for(state="visible", timeout=15000)
        assert "Rule TOY-2" in notice.inner_text()
        assert "99 is not in your hand" in notice.inner_text()
        assert "Fix: pick a card you hold" in notice.inner_text()
        phone.click("#typed summary")  # fold it away again
        colour = phone.evaluate("getComputedStyle(document.getElementById('notice')).borderColor")
        assert colour.startswith("rgb(176, 0, 32")  # --bad, red

        # Seal a card: pick it, confirm.
        card = hand[0]
        card_option(phone, card).click()
        assert phone.inner_text("#confirm") == "Seal this card"
        phone.click("#confirm")
        notice.wait_for(state="hidden", timeout=15000)  # an accepted move clears the notice
        phone.wait_for_function("!document.body.classList.contains('my-turn')", timeout=15000)
        assert table.state.view(0)["my_pick"] == card
        assert card in phone.inner_text("#mine .f-my_pick")
        assert "Waiting for Seat 2" in phone.inner_text("#action-hint")
        page.wait_for_function("document.getElementById('log').textContent.includes('Seat 1: has chosen')",
                               timeout=15000)

        # Reload: the cookie rejoins seat 1 with its sealed card.
        phone.reload()
        phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 1' && "
                                "document.getElementById('conn').dataset.state === 'connected'", timeout=15000)
        phone.wait_for_selector("#mine .f-my_pick")
        assert card in phone.inner_text("#mine .f-my_pick")
        # The server drops the socket: the page shows it and reconnects by itself to the same seat.
        sid = next(iter(table.seat(0).sids))
        server.server.socketio.server.disconnect(sid, namespace="/")
        phone.wait_for_function("document.getElementById('phone').dataset.connections === '2' && "
                                "document.getElementById('conn').dataset.state === 'connected'", timeout=15000)
        # the server takes the new socket into the seat when it handles its join, a moment
        # after the page can show itself connected (a busy CI machine once saw the gap)
        assert phone.inner_text("#seat") == "Seat 1"
        assert wait_for(lambda: table.seat(0).sids and sid not in table.seat(0).sids, timeout=15.0, interval=0.05)

        # A physical illegal move announced by the referee: a banner on the table page and a notice on the phone.
        referee = server.server.hub.referee(table.id)
        referee.run(referee.announce, "illegal", {"verdict": {"ok": False, "rule": "TOY-9", "message":
                    "A card was put down out of turn", "fix": "take it back"}})
        banner = page.locator("#illegal")
        banner.wait_for(state="visible", timeout=15000)
        assert "TOY-9" in banner.inner_text() and "take it back" in banner.inner_text()
        phone.locator("#notice").wait_for(state="visible", timeout=15000)
        assert "TOY-9" in phone.inner_text("#notice")

        # The virtual device panel mirrors what a board showed (here without a board: the same events).
        referee.run(referee.announce, "device", {"board": "sim-1", "kind": "roll_shown",
                                                 "data": {"seat": 0, "values": [3, 5]}})
        page.wait_for_function("document.getElementById('devices').textContent.includes('⚂ ⚄')", timeout=15000)

        # Dispute viewer: step back through the record.
        page.click("#dispute summary")
        page.wait_for_function("document.getElementById('rec-entry').textContent.startsWith('Entry')", timeout=15000)
        last = table.seq
        page.click("#rec-prev")
        page.wait_for_function(f"document.getElementById('rec-entry').textContent.startsWith('Entry {last - 1} of')",
                               timeout=15000)
        # Manual entry on the table page, checked like any move: seat 2's pick is refused (not in its hand).
        page.click("#manual summary")
        page.select_option("#manual-seat", "1")
        page.fill("#manual-fields input[name=card]", "99")
        page.click("#manual-form button[type=submit]")
        page.wait_for_function("document.getElementById('manual-answer').textContent.includes('TOY-2')",
                               timeout=15000)

        # The challenge button pauses the table; the host, after the PIN, upholds the move and play resumes.
        phone.once("dialog", lambda dialog: dialog.accept())
        phone.click("#challenge")
        page.locator("#banner").wait_for(state="visible", timeout=15000)
        assert table.paused is not None and table.paused["by"] == 0
        phone.locator("#banner").wait_for(state="visible", timeout=15000)
        page.click("#host summary")
        page.fill("#host-pin", "0000")
        page.click("#host-auth button")
        page.wait_for_function("document.getElementById('host-answer').textContent.includes('Wrong host PIN')",
                               timeout=15000)
        page.fill("#host-pin", PIN)
        page.click("#host-auth button")
        page.locator("#host-controls").wait_for(state="visible", timeout=15000)
        page.click("#host-controls [data-action=uphold]")
        page.locator("#banner").wait_for(state="hidden", timeout=15000)
        phone.locator("#banner").wait_for(state="hidden", timeout=15000)
        assert table.paused is None
    finally:
        tablet.close()
        phone_ctx.close()


def test_language_switch_and_browser_language(server, browser):
    table = new_table(server)
    ja = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP")
    en = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    try:
        # The browser's language by default.
        page = ja.new_page()
        page.goto(table_url(server, table))
        page.wait_for_function("document.getElementById('conn').dataset.state === 'connected'", timeout=15000)
        assert page.evaluate("document.documentElement.lang") == "ja"
        page.wait_for_function("document.getElementById('turn').innerText !== '…'", timeout=15000)  # the first view drawn
        assert "の番" in page.inner_text("#turn")
        # The switch: an English browser picks 日本語 on the phone page; rejections come back in Japanese.
        phone = en.new_page()
        phone.goto(qr.join_url(server.url, table.seat(1).token))
        phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 2'", timeout=15000)
        assert phone.inner_text("#action-title") == "Your turn"
        phone.click("nav.lang a[data-lang=ja]")
        phone.wait_for_function("document.getElementById('seat').textContent === '席2'", timeout=15000)
        assert phone.evaluate("document.documentElement.lang") == "ja"
        assert phone.inner_text("#action-title") == "あなたの番です"
        assert phone.inner_text("#challenge") == "異議あり"
        phone.click("#typed summary")
        phone.fill("#move", json.dumps({"type": "pick", "card": "x"}))
        phone.click("#send")
        phone.locator("#notice").wait_for(state="visible", timeout=15000)
        assert "ルール TOY-2" in phone.inner_text("#notice")
        # The choice is remembered (cookie) on the next page load.
        phone.reload()
        phone.wait_for_function("document.getElementById('seat').textContent === '席2'", timeout=15000)
        phone.click("nav.lang a[data-lang=en]")
        phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 2'", timeout=15000)
    finally:
        ja.close()
        en.close()


def test_status_and_camera_routes(server):
    import urllib.error
    import urllib.request

    table = new_table(server)
    with urllib.request.urlopen(f"{server.url}/t/{table.id}/status.json", timeout=5) as resp:
        public = json.load(resp)
    assert public["camera"] == {"present": False} and "move_forms" not in public
    with urllib.request.urlopen(f"{server.url}/t/{table.id}/status.json?key={table.display_key}", timeout=5) as resp:
        keyed = json.load(resp)
    assert keyed["move_forms"] == [{"type": "pick", "fields": ["card"], "kinds": {"card": "text"}}]
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"{server.url}/t/{table.id}/camera.jpg", timeout=5)
    assert err.value.code == 404  # no camera and no evidence yet
    # A move the camera saw keeps its frame as evidence: the table page's image is the latest one.
    jpeg = cv2.imencode(".jpg", np.full((48, 64, 3), 200, np.uint8))[1].tobytes()
    digest = server.server.store.put_evidence(jpeg)
    referee = server.server.hub.referee(table.id)
    card = table.state.view(0)["hand"][0]
    assert referee.run(referee.play, 0, "camera", {"type": "pick", "seat": 0, "card": card}, digest)["ok"]
    with urllib.request.urlopen(f"{server.url}/t/{table.id}/status.json", timeout=5) as resp:
        assert json.load(resp)["frame"] == f"/t/{table.id}/evidence/{digest}"
    with urllib.request.urlopen(f"{server.url}/t/{table.id}/camera.jpg", timeout=5) as resp:
        assert resp.read() == jpeg and resp.headers["Content-Type"] == "image/jpeg"


def test_change_a_sealed_card_until_it_is_revealed(server, browser):
    """"Change the card" on a sealed, unrevealed commitment: the card picker again, sent as ``amend``; once
    the other seat's pick reveals both, the control is gone and the change is refused."""
    table = new_table(server)
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True, has_touch=True)
    try:
        phone = ctx.new_page()
        phone.goto(qr.join_url(server.url, table.seat(0).token))
        phone.wait_for_selector("#choices .option")
        hand = table.state.view(0)["hand"]
        card_option(phone, hand[0]).click()
        phone.click("#confirm")
        change = phone.locator("#change")
        change.wait_for(state="visible", timeout=15000)
        assert table.state.view(0)["my_pick"] == hand[0]
        assert change.bounding_box()["height"] >= 44
        assert hand[0] in phone.inner_text(".change-group")
        # The picker again, without the sealed card; "Keep it" leaves everything as it was.
        change.click()
        assert phone.inner_text("#action-title") == "Change your sealed card"
        offered = [json.loads(m)["card"] for m in phone.eval_on_selector_all("#choices .option[data-move]",
                                                                              "bs => bs.map(b => b.dataset.move)")]
        assert sorted(offered) == sorted(hand[1:])
        phone.click("#keep")
        phone.locator("#change").wait_for(state="visible", timeout=15000)
        # Change it: pick another card, confirm; the engine has the new card, the other seat saw nothing new.
        before = table.state.view(1)
        phone.click("#change")
        card_option(phone, hand[2]).click()
        assert phone.inner_text("#confirm") == "Change the card"
        phone.click("#confirm")
        phone.wait_for_function("document.getElementById('banner').textContent === 'Changed.'", timeout=15000)
        assert table.state.view(0)["my_pick"] == hand[2]
        assert table.state.view(1) == before
        phone.wait_for_selector("#mine .f-my_pick")
        phone.wait_for_function(f"document.querySelector('#mine .f-my_pick').textContent.includes('{hand[2]}')",
                                timeout=15000)
        # A reload keeps the offer (sessionStorage); the server still decides.
        phone.reload()
        phone.locator("#change").wait_for(state="visible", timeout=15000)
        # Seat 2 picks: both cards are revealed, the round is scored; the control goes away.
        referee = server.server.hub.referee(table.id)
        other = table.state.view(1)["hand"][0]
        assert referee.run(referee.play, 1, "phone", {"type": "pick", "seat": 1, "card": other})["ok"]
        phone.wait_for_function("!document.getElementById('change')", timeout=15000)
        # The server refuses a change of a revealed card with its rule, whatever a page sends.
        answer = phone.evaluate("""([table, card]) => new Promise((done) => {
            const s = io({ transports: ["websocket"] });
            s.on("connect", () => s.emit("join", { table }, () =>
                s.emit("amend", { table, move: { type: "pick", card } }, (ack) => { s.close(); done(ack); })));
        })""", [table.id, hand[1]])
        assert not answer["ok"] and answer["verdict"]["rule"] == "TC-SEALED"
        assert table.state.view(0)["my_pick"] is None or table.state.view(0)["my_pick"] != hand[1]
    finally:
        ctx.close()


def test_a_fighter_picks_a_character_sheet_and_the_table_shows_the_coins(server, browser):
    """Two Freakin' Swords: the phone names its player (with a PIN) and character; the same character name
    picks the sheet up again with its points, and once the fight has begun the points wait (TC-OPTIONS,
    shown as a notice).  The table page draws the aggression coins on their arms without a board."""
    table = server.server.create_table(TableSpec("two-freakin-swords", seats=2, deal=3))
    store = server.server.hub.store
    phone_ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True,
                                    has_touch=True)
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    try:
        phone = phone_ctx.new_page()
        phone.goto(qr.join_url(server.url, table.seat(0).token))
        phone.wait_for_function("document.getElementById('seat').textContent === 'Seat 1'", timeout=15000)
        assert phone.locator("#profile").get_attribute("open") is not None  # open at a fighting table
        assert "a new name starts a new sheet" in phone.inner_text("#profile")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        phone.fill("#name", "Ada")
        phone.fill("#pin", "2468")
        phone.fill("#character", "Blade")
        phone.click("#name-form button[type=submit]")
        answer = phone.locator("#profile-answer")
        answer.wait_for(state="visible", timeout=15000)
        assert "Character: Blade, 0 points." in answer.inner_text()
        player = store.player("Ada", "2468")
        sheet = store.character_named(player["id"], "Blade")
        store.add_points(sheet["id"], 3)

        # The fight begins (a seat plays); the same name picks the sheet up again, its points wait.
        referee = server.server.hub.referee(table.id)
        move = referee.moves_of(1)[0]
        assert referee.run(referee.play, 1, "phone", move)["ok"]
        phone.click("#name-form button[type=submit]")
        phone.wait_for_function("document.getElementById('profile-answer').textContent.includes('3 points')",
                                timeout=15000)
        notice = phone.locator("#notice")
        notice.wait_for(state="visible", timeout=15000)
        assert "TC-OPTIONS" in notice.inner_text()
        assert table.seat(0).character_id == sheet["id"]

        # The table page: the coins on their arms (the view's "coins"), per seat.
        page = tablet.new_page()
        page.goto(table_url(server, table))
        page.wait_for_selector("#devices .device.coins")
        lit = page.eval_on_selector_all("#devices .arm.lit", "as => as.map(a => a.dataset.arm)")
        assert sorted(lit) == sorted(table.state.view(None)["coins"])
        assert page.locator("#devices .arm").count() == 4
    finally:
        phone_ctx.close()
        tablet.close()


def test_a_question_shows_readable_choices_and_survives_a_reload(server, browser):
    """The camera asks a seat (ガンナガン: declare ダブルエッジ?): readable buttons, the code as their value;
    a reload asks again; the answer plays the move and the question goes away."""
    from engines.core import Sighting, TableSnapshot, ZoneChange
    from engines.gun_and_gun.table import sighting_of

    table = server.server.create_table(TableSpec("gun-and-gun", "double-edge", seats=2, deal="physical"))
    referee = server.server.hub.referee(table.id)
    seat = table.state.snapshot.active
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True, has_touch=True)
    try:
        phone = ctx.new_page()
        phone.goto(qr.join_url(server.url, table.seat(seat).token))
        phone.wait_for_function(f"document.getElementById('seat').textContent === 'Seat {seat + 1}'", timeout=15000)
        state = table.state
        card = next(c for c in state.snapshot.players[seat].unseen if state.table.card(c).key == "resupply")
        name = sighting_of(state, card)
        snap = TableSnapshot((Sighting(name, f"s{seat}.action", 60.0, 260.0),))
        referee.run(referee.physical, [ZoneChange("placed", name, f"s{seat}.action")], snap, None)
        phone.wait_for_selector("#question .option.answer")
        values = phone.eval_on_selector_all("#question .option.answer", "bs => bs.map(b => b.value)")
        labels = phone.eval_on_selector_all("#question .option.answer", "bs => bs.map(b => b.innerText)")
        assert values[0].startswith("declare:play-action:")
        assert labels[0].startswith("Declare") and "declare:" not in labels[0]
        assert labels[1].startswith("Do not declare")
        phone.reload()
        phone.wait_for_selector("#question .option.answer")
        before = table.seq
        phone.locator("#question .option.answer").nth(1).click()
        phone.wait_for_function("document.getElementById('question').hidden", timeout=15000)
        assert table.seq > before
    finally:
        ctx.close()


def test_the_table_page_scores_keeners_banks(server, browser):
    """Keener's banks are public (KN-11): the table page's score table has a row per resource."""
    table = server.server.create_table(TableSpec("keener", seats=2, deal=3))
    bank = table.state.view(None)["sides"][0]["bank"]
    ctx = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(table_url(server, table))
        page.wait_for_function("document.getElementById('score').textContent.includes('Bank')", timeout=15000)
        rows = page.eval_on_selector_all("#score tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))")
        for resource, amount in bank.items():
            row = next(r for r in rows if r[0] == f"Bank · {resource.capitalize()}")
            assert row[1] == str(amount)
    finally:
        ctx.close()


def test_a_physical_base_is_picked_card_by_card_on_the_phone(server, browser):
    """A hand-shuffled Double-Edge game: the server cannot list the Base's orders (DE-15.1), so the phone
    offers every card the seat may hold and sends the three picked, top first; the engine seals them."""
    table = new_table(server, "double-edge", deal="physical")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True, has_touch=True)
    try:
        phone = ctx.new_page()
        phone.goto(qr.join_url(server.url, table.seat(0).token))
        phone.wait_for_selector("#choices .card-pick")
        offered = phone.eval_on_selector_all("#choices .card-pick", "bs => bs.map(b => b.dataset.card)")
        assert len(offered) == 48 and not any(c.startswith("A") for c in offered)  # aces never in a Base (DE-2.4)
        assert phone.is_disabled("#confirm")
        for card in ("7H", "QS", "2C"):  # no Straight or Anti pattern: the engine refuses, the phone says why
            phone.click(f"#choices .card-pick[data-card='{card}']")
        assert phone.inner_text("#confirm").startswith("Seal")
        phone.click("#confirm")
        phone.wait_for_function("document.body.innerText.includes('DE-4.1')", timeout=15000)
        for card in ("7H", "QS", "2C"):  # tap again to put them back
            phone.click(f"#choices .card-pick[data-card='{card}']")
        import itertools

        base = next(list(c) for c in itertools.permutations(offered[:13], 3)  # a Base the patterns allow
                    if table.state.check({"type": "build-base", "seat": 0, "cards": list(c)}).ok)
        for card in base:
            phone.click(f"#choices .card-pick[data-card='{card}']")
        phone.click("#confirm")
        phone.wait_for_function("document.getElementById('action-title').textContent !== 'Your turn'",
                                timeout=15000)
        entry = table.chain.entries[-1]
        assert entry["source"] == "phone" and entry["verdict"]["ok"], entry
        assert entry["move"] == {"type": "build-base", "seat": 0, "cards": list(base)}
        assert not any(c in json.dumps(table.state.view(1)) for c in base)  # sealed: the other seat sees none
    finally:
        ctx.close()
