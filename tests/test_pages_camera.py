"""The table page's live camera view, and screenshots of games in progress, in headless Chromium.

The camera is real in every part but the lens: vision's scene generator draws
the mat and the cards as an overhead camera sees them (companion.demo.render),
companion.camera.FrameReader reads the frames through vision's pipeline, and
the server shows that reader as the table's camera.  The table page (display
key) shows the mat straightened and cut at its edge, every recognised card
outlined and labelled, and the calibration (mat, corner markers, light, frame
rate); a phone and a page without the key never get the image.

Screenshots of a game in progress of each game (phone and table page, phone
and tablet size, and the whole table page with the game's state opened) go to artifacts/pages/ (``TC_SCREENSHOTS=docs/screenshots`` to
refresh the README's).  Double-Edge and Double Side Play are played by the
demo's scripts through the rendered camera; the other games by seeded random
legal moves (no camera), or, when refreshing docs/screenshots, by their demo
scripts too where they have one.
"""

from __future__ import annotations

import importlib
import inspect
import json
import logging
import os
import random
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import qr
from companion.camera import FrameReader, light_of
from companion.config import TableSpec
from tests.support.server import ROOT, thread_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(os.environ["TC_SCREENSHOTS"]) if os.environ.get("TC_SCREENSHOTS") else ROOT / "artifacts" / "pages"
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from companion.app import templates_dir

    if not (templates_dir() / "static" / "vendor" / "socket.io.min.js").exists():
        pytest.skip("run scripts/fetch_assets.py first (the socket.io browser client)")
    with thread_server(tmp_path_factory.mktemp("pages-camera")) as srv:
        srv.server.cameras = {}  # table id -> its camera (companion.pages.camera_of)
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


def table_url(srv, table) -> str:
    return qr.table_url(srv.url, table.id, table.display_key)


def rendered_reader(game: str, seats: int, cards: list[tuple[str, str]], art, size=(1280, 720), frames: int = 3):
    """A FrameReader that has read ``frames`` rendered frames of ``cards`` ((card, zone) pairs) on the mat."""
    from companion.demo.render import Placed, Renderer
    from engines import registry

    layout = registry.adapter(game).layout(seats, "standard")
    facing = importlib.import_module(f"engines.{game.replace('-', '_')}.mat").facing
    renderer = Renderer(layout, art, lambda seat: float(facing(seats, seat)), *size, seed=3, max_tilt=4.0,
                        effects=False)
    reader = FrameReader.create(layout, game, frames=2)
    reader.show = lambda more: reader.read(renderer.frame([Placed(card, zone) for card, zone in more]))
    for _ in range(frames):
        reader.show(cards)
    return reader


# ---- the view itself (no browser) ---------------------------------------------------------------

def test_light_verdicts():
    rng = np.random.default_rng(1)
    felt = rng.integers(30, 90, (200, 300)).astype(np.uint8)
    felt[50:120, 40:90] = 235  # a card: the white that says the light is enough
    assert light_of(felt)["light"] == "ok"
    assert light_of((felt * 0.3).astype(np.uint8))["light"] == "dark"
    assert light_of(np.full((200, 300), 240, np.uint8))["light"] == "bright"
    glare = felt.copy()
    glare[:60, :] = 255
    assert light_of(glare)["light"] == "glare" and light_of(glare)["glare"] > 0.05
    # A white card face is as bright as a reflection: glare is counted on the bare mat only.
    white = felt.copy()
    white[50:130, 40:110] = 255
    card = np.zeros(white.shape, bool)
    card[50:130, 40:110] = True
    assert light_of(white)["light"] == "glare" and light_of(white, card)["light"] == "ok"
    flat = np.full((200, 300), 120, np.uint8)
    assert light_of(flat)["light"] == "flat"


def test_no_mat_no_image():
    """Without the mat the view has the light of the frame and no image: the raw frame is never shown."""
    reader = FrameReader.create(None, "double-edge", frames=2)
    reader.read(np.full((360, 640, 3), 60, np.uint8))
    view = reader.view()
    assert view.jpeg is None and view.cards == []
    status = reader.status()
    assert status["mat_seen"] is False and status["markers"] == [] and status["frames"] == 1
    assert status["light"] == "dark"


# ---- the table page -------------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
@pytest.mark.timeout(120)
def test_live_camera_view_outlines_and_calibration(server, browser):
    from companion.demo.render import standard_art

    table = server.server.create_table(TableSpec("double-edge", seats=2, deal=5))
    reader = rendered_reader("double-edge", 2, [("QH", "s0.striker"), ("face-down", "s1.base"), ("7C", "s1.striker")],
                             standard_art)
    view = reader.view()
    assert view.jpeg is not None and view.calibration["markers_found"] == 4
    assert isinstance(reader.status()["fps"], float) and reader.status()["frames"] == 3
    labels = {c["card"] for c in view.cards}
    assert {"QH", "face-down"} <= labels
    server.server.cameras[table.id] = reader
    tablet = browser.new_context(viewport=TABLET, locale="en-US")
    phone_ctx = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    try:
        page = tablet.new_page()
        page.goto(table_url(server, table))
        page.locator("#live").wait_for(state="visible", timeout=20000)
        # The mat alone, straightened: the image has the mat's proportions (594 x 420 mm).
        w, h = page.evaluate("[document.getElementById('frame').naturalWidth, document.getElementById('frame').naturalHeight]")
        assert w == 640 and abs(h / w - 420 / 594) < 0.01
        # Every recognised card outlined and labelled, on the image (the SVG's viewBox is the mat in mm).
        drawn = page.eval_on_selector_all("#outlines g", "gs => gs.map(g => [g.dataset.card, g.querySelector('text').textContent])")
        assert sorted(c for c, _ in drawn) == sorted(c["card"] for c in view.cards)
        texts = {t for _, t in drawn}
        assert "Q♥" in texts and "face down" in texts
        assert page.get_attribute("#outlines", "viewBox") == "0 0 594 420"
        box = page.locator("#outlines").bounding_box()
        img = page.locator("#frame").bounding_box()
        assert abs(box["width"] - img["width"]) < 1 and abs(box["height"] - img["height"]) < 1
        # The calibration: the mat, the four corner markers by name, the light, the frame rate.
        cal = page.inner_text("#calibration")
        assert "Mat seen" in cal and "Markers found: 4 of 4" in cal
        assert "top left" in cal and "bottom right" in cal
        assert "Light: good" in cal and "brightness" in cal
        assert page.locator("#calibration li.fps").count() == 1  # the frame rate (or "no new frames just now")
        assert page.locator("#calibration li.markers.ok").count() == 1
        # The view follows the camera: a card taken away, a new frame, the outlines of that frame.
        first = page.get_attribute("#live", "data-frame")
        reader.show([("QH", "s0.striker")])
        page.wait_for_function(f"document.getElementById('live').dataset.frame !== '{first}'", timeout=15000)
        drawn = page.eval_on_selector_all("#outlines g", "gs => gs.map(g => g.dataset.card)")
        assert drawn == [c["card"] for c in reader.view().cards] and len(drawn) < len(view.cards)

        # The image only with the display key: not in the public status, not at camera.jpg without the key.
        with urllib.request.urlopen(f"{server.url}/t/{table.id}/status.json", timeout=5) as resp:
            public = json.load(resp)
        assert "display" not in public and public["camera"]["mat_seen"] is True
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"{server.url}/t/{table.id}/camera.jpg", timeout=5)
        assert err.value.code == 404
        keyed = f"{server.url}/t/{table.id}/camera.jpg?key={table.display_key}&frame={view.index}"
        with urllib.request.urlopen(keyed, timeout=5) as resp:
            assert resp.read() == view.jpeg
        # A phone page has no camera image and never asks for one.
        asked: list[str] = []
        phone = phone_ctx.new_page()
        phone.on("request", lambda r: asked.append(r.url))
        phone.goto(qr.join_url(server.url, table.seat(0).token))
        phone.wait_for_function("document.getElementById('conn').dataset.state === 'connected'", timeout=15000)
        phone.wait_for_timeout(300)
        assert not [u for u in asked if "camera.jpg" in u or "status.json" in u]
        assert phone.locator("img").count() == 0
        # A watcher's page (no key) has the calibration but not the image.
        watch = tablet.new_page()
        watch.goto(f"{server.url}/t/{table.id}/watch")
        watch.wait_for_function("document.getElementById('calibration').textContent.includes('Mat seen')",
                                timeout=15000)
        assert watch.locator("#live").is_hidden()
    finally:
        server.server.cameras.pop(table.id, None)
        tablet.close()
        phone_ctx.close()


# ---- screenshots of games in progress ---------------------------------------------------------------

CAMERA_GAMES = {"double-edge", "double-side-play"}
"""Played through the rendered camera in every run; the others only when refreshing docs/screenshots
(``TC_SCREENSHOTS``), to keep the test's time down (a rendered game costs seconds of vision per move)."""
GAMES = [("double-edge", 2, 4), ("double-side-play", 4, 8), ("two-freakin-swords", 2, 8), ("keener", 2, 8),
         ("gun-and-gun", 2, 4)]


NAMES = ["Aki", "Ben", "Chie", "Dan"]


def in_progress(srv, game: str, seats: int, moves: int, seed: int = 7):
    """A table of ``game`` some ``moves`` into a game: the demo's script through the rendered camera when
    the game has one (companion.demo.<game>), else seeded random legal moves.  Every seat has a connected
    phone with a name (a game in progress).  Returns (table, camera or None, phones to close)."""
    from companion.demo.phones import SimPhone

    module = None
    if game in CAMERA_GAMES or os.environ.get("TC_SCREENSHOTS"):
        try:
            module = importlib.import_module(f"companion.demo.{game.replace('-', '_')}")
        except ImportError:
            pass
    if module is not None:
        from companion.demo.driver import Demo

        options = {"seats": seats}
        script = module.script(**{k: v for k, v in options.items() if k in inspect.signature(module.script).parameters})
        deal = getattr(script, "deal", None)  # a script may play a physical deal (Keener: hands shuffled at the table)
        table = srv.server.create_table(TableSpec(game, script.variant, script.seats,
                                                  deal=deal if deal is not None else seed, options=script.options))
        stop = threading.Event()
        said = []

        def say(text: str) -> None:
            if os.environ.get("TC_SAY"):
                print(f"{time.monotonic():.1f} {text}", flush=True)
            said.append(text)
            if sum(not t.startswith(("illegal", "referee", "the camera")) for t in said) >= moves:
                stop.set()

        demo = Demo(srv.server, table, script, srv.url, seed=seed, frames=2, say=say, stop=stop,
                    max_illegal=0 if script.width > 640 else 1)  # an illegal card costs frames of a big image
        for phone, name in zip(demo.phones, NAMES, strict=False):
            phone.client.call("profile", {"table": table.id, "name": name}, timeout=15)
        try:
            demo.play(max_moves=moves + 5)
            return table, demo.reader, demo.phones
        except Exception:  # another game's demo script being written: these are screenshots of the pages
            logging.getLogger(__name__).exception("the demo script of %s failed; random legal moves instead", game)
            demo.close()
    for attempt in range(5):  # a random walk (and the server's draws) can end a game early: deal again
        table = srv.server.create_table(TableSpec(game, seats=seats, deal=seed + attempt))
        referee = srv.server.hub.referee(table.id)
        rng = random.Random(seed + attempt)
        for _ in range(moves):
            acting = sorted(table.state.to_act())
            if table.over or not acting:
                break
            seat = rng.choice(acting)
            legal = table.state.legal_moves(seat) or []
            if not legal:
                break
            referee.run(referee.play, seat, "phone", rng.choice(legal).to_json())
        if not table.over:
            break
    phones = [SimPhone(srv.url, table.id, s.token, name=NAMES[s.index]) for s in table.seats]
    return table, None, phones


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
@pytest.mark.timeout(240)
def test_screenshots_of_games_in_progress(server, browser):
    written = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for game, seats, moves in GAMES:
        table, camera, phones = in_progress(server, game, seats, moves)
        assert table.seq > 1 and not table.over
        if camera is not None:
            server.server.cameras[table.id] = camera
        context = browser.new_context(viewport=TABLET, locale="en-US", device_scale_factor=1)
        try:
            phone = context.new_page()
            phone.set_viewport_size(PHONE)
            phone.goto(qr.join_url(server.url, table.seat(0).token))
            phone.wait_for_function("document.getElementById('conn').dataset.state === 'connected' && "
                                    "document.getElementById('mine').children.length > 0", timeout=20000)
            page = context.new_page()
            page.goto(table_url(server, table))
            page.wait_for_function("document.getElementById('conn').dataset.state === 'connected' && "
                                   "document.getElementById('score').children.length > 0", timeout=20000)
            if camera is not None:
                page.locator("#live").wait_for(state="visible", timeout=20000)
                assert page.locator("#outlines g").count() == len(camera.view().cards) > 0
            page.wait_for_timeout(300)
            for name, shot, size in (("phone", phone, PHONE), ("table", page, TABLET), ("phone", phone, TABLET),
                                     ("table", page, PHONE)):
                shot.set_viewport_size(size)
                shot.bring_to_front()
                path = SHOTS / f"{game}-{name}-{'phone' if size is PHONE else 'tablet'}-{size['width']}x{size['height']}.png"
                shot.screenshot(path=str(path))
                written.append(path)
            # The whole state of the game as the table page shows it: the full page, "The whole table" open.
            page.set_viewport_size(TABLET)
            page.evaluate("document.getElementById('all').closest('details').open = true")
            path = SHOTS / f"{game}-table-full-tablet-{TABLET['width']}.png"
            page.screenshot(path=str(path), full_page=True)
            written.append(path)
        finally:
            context.close()
            server.server.cameras.pop(table.id, None)
            for p in phones:
                p.close()
    for path in written:
        image = cv2.imread(str(path))
        assert image is not None and image.shape[1] in (360, 1024)
