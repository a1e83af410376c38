"""DeviceManager over real ptys: the server's API, events, hot-plug, resets and faults.

Nothing here mocks a port: the virtual boards run the firmware core behind os.openpty().
"""

import functools
import os
import threading
import time

import pytest

from devices import discovery
from devices.firmware import boardcore as fw
from devices.ledstate import LedState
from devices.link import Timing
from devices.manager import DeviceManager
from devices.simulator import Simulator, VirtualBoard, standard_boards
from tests.support import waiting

FAST = Timing(ack_timeout=0.1, retries=2, heartbeat=0.3)


wait_for = functools.partial(waiting.wait_for, timeout=8.0)


class Events:
    def __init__(self):
        self.items = []
        self.lock = threading.Lock()

    def __call__(self, event):
        with self.lock:
            self.items.append(event)

    def of(self, kind):
        with self.lock:
            return [e for e in self.items if e.kind == kind]


@pytest.fixture
def sim():
    s = Simulator(standard_boards(roll_ms=40, toss_ms=40, heartbeat_ms=200))
    s.start()
    yield s
    s.close()


@pytest.fixture
def manager(sim):
    events = Events()
    m = DeviceManager("sim", on_event=events, timing=FAST, scan_interval=0.05, simulator=sim)
    m.events = events
    m.start()
    assert wait_for(lambda: sum(s.online for s in m.status()) == 3)
    assert m.wait_idle(8)
    yield m
    m.close()


def shown(sim, board_id):
    return LedState.decode(sim.board(board_id).state())


def settled(manager, sim):
    """Every board online, idle, and showing its part of the host's state."""
    want = manager.leds
    for status in manager.status():
        if not status.online or status.queued:
            return False
    if not manager.wait_idle(0.05):
        return False
    return (shown(sim, "sim-coins").coins == want.coins and shown(sim, "sim-dice").dice == want.dice
            and shown(sim, "sim-toss").toss == {s: v for s, v in want.toss.items() if s < 2})


def test_status_and_capabilities(manager):
    by_id = {s.board_id: s for s in manager.status()}
    assert set(by_id) == {"sim-coins", "sim-dice", "sim-toss"}
    dice = by_id["sim-dice"]
    assert dice.online and dice.port.startswith("/dev/") and dice.firmware == "1.0.0"
    assert dice.capabilities == ("dice for seats 1-8", "8 button(s)") and dice.last_heard
    assert wait_for(lambda: {s.board_id: s for s in manager.status()}["sim-dice"].round_trip_ms is not None)
    assert manager.has("dice") and manager.has("coins", 7) and manager.has("coin-toss", 1) and manager.has("buttons")
    assert not manager.has("coin-toss", 2)
    with pytest.raises(ValueError, match="unknown capability"):
        manager.has("lasers")


def test_heartbeats_both_ways(manager, sim):
    boards = manager._boards
    assert wait_for(lambda: all(b.acked["PING"] >= 2 for b in boards.values()))  # the host pings when idle
    assert wait_for(lambda: all(b.link.counters.get("stray_answers", 0) == 0 for b in boards.values()))
    assert all(b.core.host_alive for b in sim.boards)
    before = {s.board_id: s.last_heard for s in manager.status()}
    assert wait_for(lambda: all(s.last_heard > before[s.board_id] for s in manager.status()))


def test_every_call_reaches_the_boards_and_every_event_comes_back(manager, sim):
    manager.set_aggression_coins({(0, "left"): True, (3, "right"): True, (4, "left"): False})
    manager.show_dice(2, (6, 1))
    manager.show_dice(5, (3, 3), roll_animation=False)
    manager.show_coin_toss(1, "opponent")
    assert wait_for(lambda: settled(manager, sim))
    assert shown(sim, "sim-coins").coins == 0b1000_0001 and shown(sim, "sim-dice").dice == {2: (6, 1), 5: (3, 3)}
    assert shown(sim, "sim-toss").toss == {1: 2}
    assert wait_for(lambda: len(manager.events.of("roll_shown")) == 2 and manager.events.of("coin_shown"))
    rolls = {e.data["seat"]: e.data["values"] for e in manager.events.of("roll_shown")}
    assert rolls == {2: (6, 1), 5: (3, 3)}
    [coin] = manager.events.of("coin_shown")
    assert coin.board_id == "sim-toss" and coin.data == {"seat": 1, "face": "opponent"}
    sim.board("sim-dice").press(4)
    sim.board("sim-toss").press(0)
    assert wait_for(lambda: len(manager.events.of("button")) == 2)
    buttons = sorted((e.board_id, e.data["seat"], e.data["for"]) for e in manager.events.of("button"))
    assert buttons == [("sim-dice", 4, "dice"), ("sim-toss", None, "coin-toss")]
    manager.clear()
    assert wait_for(lambda: settled(manager, sim))
    assert all(shown(sim, b.board_id) == LedState() for b in sim.boards)


def test_bad_arguments_are_refused_and_change_nothing(manager):
    before = manager.leds
    for call in (lambda: manager.show_dice(0, (0, 7)), lambda: manager.show_dice(9, (1, 1)),
                 lambda: manager.show_dice(0, (1,)), lambda: manager.show_coin_toss(0, "heads"),
                 lambda: manager.set_aggression_coins({(0, "middle"): True}),
                 lambda: manager.set_aggression_coins({0: True})):
        with pytest.raises(ValueError):
            call()
    assert manager.leds == before


def test_unplug_and_replug_at_a_new_path_restores_the_leds_and_loses_no_command(manager, sim):
    manager.set_aggression_coins({(1, "left"): True})
    manager.show_dice(0, (2, 2))
    assert wait_for(lambda: settled(manager, sim) and manager.events.of("roll_shown"))
    dice = sim.board("sim-dice")
    old_path = dice.path
    dice.unplug()
    assert wait_for(lambda: not manager.has("dice"))
    # While the cable is out the game goes on: nothing blocks or raises, commands wait.
    manager.show_dice(1, (5, 6))
    manager.show_dice(7, (1, 4), roll_animation=False)
    manager.set_aggression_coins({(1, "left"): True, (2, "right"): True})
    status = {s.board_id: s for s in manager.status()}["sim-dice"]
    assert not status.online and status.queued == 2 and status.port == old_path  # where it was last seen
    new_path = dice.plug()
    assert wait_for(lambda: settled(manager, sim))
    assert shown(sim, "sim-dice").dice == {0: (2, 2), 1: (5, 6), 7: (1, 4)}
    assert shown(sim, "sim-coins").coins == manager.leds.coins
    status = {s.board_id: s for s in manager.status()}["sim-dice"]
    assert status.reconnects == 1 and status.port == new_path
    assert wait_for(lambda: sorted(e.data["seat"] for e in manager.events.of("roll_shown")) == [0, 1, 7])


def test_replug_under_a_new_path_is_found(sim):
    """The kernel may hand a replugged board a new name; the scan finds it by its board id."""
    m = DeviceManager("sim", timing=FAST, scan_interval=0.05, simulator=sim).start()
    try:
        assert wait_for(lambda: m.has("coins"))
        m.set_aggression_coins({(7, "right"): True})
        coins = sim.board("sim-coins")
        first = coins.path
        coins.unplug()
        # Hold a pty while the board is out: the kernel hands out the lowest free number, so the
        # freed one goes to this holder and the replugged board gets a different name.
        keep = os.openpty()
        try:
            second = coins.plug()
            assert second != first
            assert wait_for(lambda: {s.board_id: s for s in m.status()}["sim-coins"].port == second)
            assert wait_for(lambda: shown(sim, "sim-coins").coins == 1 << 15)
        finally:
            for fd in keep:
                os.close(fd)
    finally:
        m.close()


def test_a_board_reset_mid_game_gets_its_state_back(manager, sim):
    manager.set_aggression_coins({(0, "right"): True, (6, "left"): True})
    manager.show_coin_toss(0, "player")
    assert wait_for(lambda: settled(manager, sim))
    sim.board("sim-coins").reset()
    sim.board("sim-toss").reset()
    assert wait_for(lambda: {s.board_id: s.resets for s in manager.status()} == {"sim-coins": 1, "sim-dice": 0,
                                                                                 "sim-toss": 1})
    assert wait_for(lambda: settled(manager, sim))
    assert shown(sim, "sim-coins").coins == manager.leds.coins != 0
    assert shown(sim, "sim-toss").toss == {0: 1}


def test_a_hung_board_goes_offline_without_blocking_and_comes_back(manager, sim):
    toss = sim.board("sim-toss")
    toss.faults.mute = True
    manager.show_coin_toss(1, "player")  # returns at once although nobody will answer
    assert wait_for(lambda: not manager.has("coin-toss"))
    manager.show_coin_toss(0, "opponent")
    assert not manager.has("coin-toss")  # the server shows the toss on screen instead
    toss.faults.mute = False
    assert wait_for(lambda: manager.has("coin-toss"))
    assert wait_for(lambda: settled(manager, sim))
    assert shown(sim, "sim-toss").toss == {0: 2}
    assert wait_for(lambda: any(e.data == {"seat": 0, "face": "opponent"} for e in manager.events.of("coin_shown")))


def test_no_queued_command_is_lost_through_line_faults(manager, sim):
    dice = sim.board("sim-dice")
    dice.faults.corrupt_incoming = 3
    dice.faults.duplicate_answers = True
    for seat in range(8):
        manager.show_dice(seat, (seat % 6 + 1, 6 - seat % 6), roll_animation=seat % 2 == 0)
        if seat == 3:
            dice.inject(b"\x01\x02garbage\x00\x00")
        if seat == 5:
            dice.faults.delay_answers = FAST.ack_timeout * 1.5
    assert wait_for(lambda: settled(manager, sim))
    dice.faults.delay_answers = 0
    dice.faults.duplicate_answers = False
    assert shown(sim, "sim-dice").dice == {s: (s % 6 + 1, 6 - s % 6) for s in range(8)}
    assert wait_for(lambda: len(manager.events.of("roll_shown")) >= 8)
    time.sleep(0.3)
    seats = sorted(e.data["seat"] for e in manager.events.of("roll_shown"))
    assert seats == list(range(8))  # each exactly once, although frames were doubled


def test_a_failing_callback_does_not_stop_events(sim):
    got = []

    def callback(event):
        got.append(event)
        raise RuntimeError("server bug")

    with DeviceManager("sim", on_event=callback, timing=FAST, scan_interval=0.05, simulator=sim) as m:
        assert wait_for(lambda: m.has("buttons"))
        sim.board("sim-dice").press(0)
        assert wait_for(lambda: len(got) == 1)
        sim.board("sim-dice").press(1)
        assert wait_for(lambda: len(got) == 2)


def test_named_ports_and_status_callbacks(sim):
    statuses = []
    spec = ",".join(sim.ports()[:2])
    with DeviceManager(spec, on_status=statuses.append, timing=FAST, scan_interval=0.05) as m:
        assert wait_for(lambda: sum(s.online for s in m.status()) == 2)
        assert wait_for(lambda: {s.board_id for s in statuses} == {"sim-coins", "sim-dice"})
        sim.board("sim-coins").unplug()
        assert wait_for(lambda: any(not s.online and s.board_id == "sim-coins" for s in statuses))


def test_none_has_nothing_and_ignores_every_call():
    with DeviceManager("none") as m:
        m.show_dice(0, (1, 1))
        m.show_coin_toss(0, "player")
        m.set_aggression_coins({(0, "left"): True})
        m.clear()
        assert m.status() == [] and not m.has("dice")


def test_a_second_board_with_the_same_id_is_ignored():
    twins = Simulator(standard_boards()[:1] + standard_boards()[:1])
    twins.start()
    try:
        with DeviceManager(",".join(twins.ports()), timing=FAST, scan_interval=0.05) as m:
            assert wait_for(lambda: len(m.status()) == 1 and m.status()[0].online)
            time.sleep(0.2)
            [status] = m.status()
            assert "second board" in status.last_error
    finally:
        twins.close()


class _Probing(DeviceManager):
    def __init__(self, candidates, **kw):
        super().__init__("auto", **kw)
        self.fixed = candidates

    def _candidates(self):
        return self.fixed


def test_a_port_that_does_not_answer_hello_is_probed_once(sim):
    silent_master, silent_slave = os.openpty()  # a serial port with nothing speaking our protocol behind it
    try:
        quiet = os.ttyname(silent_slave)
        m = _Probing([discovery.Candidate(quiet, "USB serial", False),
                      discovery.Candidate(sim.board("sim-dice").path, "USB serial", False)], timing=FAST)
        try:
            m.scan_once()
            assert [s.board_id for s in m.status()] == ["sim-dice"]  # any port that answers hello is a board
            assert quiet in m._probed
            os.read(silent_master, 4096)
            m.scan_once()
            import select
            assert not select.select([silent_master], [], [], 0.05)[0]  # not asked a second time
        finally:
            m.close()
    finally:
        os.close(silent_master)
        os.close(silent_slave)


def test_discovery_prefers_rp2040_ids():
    assert discovery.is_rp2040(0x2E8A, 0x0005) and not discovery.is_rp2040(0x1A86, 0x7523)
    assert all(isinstance(c, discovery.Candidate) for c in discovery.scan())


@pytest.mark.parametrize("fault", ["reset", "replug"])
def test_a_roll_cut_short_by_a_reset_or_a_pulled_cable_is_still_shown_and_reported_once(fault):
    slow = Simulator([VirtualBoard("slow-dice", [(fw.CAP_DICE, 0, 2)], roll_ms=60_000, heartbeat_ms=200)])
    slow.start()
    events = Events()
    try:
        with DeviceManager("sim", on_event=events, timing=FAST, scan_interval=0.05, simulator=slow) as m:
            assert wait_for(lambda: m.has("dice"))
            m.show_dice(1, (4, 2))  # a minute-long roll: it cannot end by itself during this test
            board = slow.board("slow-dice")
            assert wait_for(lambda: 1 in board.core.dice_anim)
            getattr(board, fault)()
            assert wait_for(lambda: events.of("roll_shown"))
            assert LedState.decode(board.state()).dice == {1: (4, 2)}
            time.sleep(0.3)
            assert [e.data for e in events.of("roll_shown")] == [{"seat": 1, "values": (4, 2)}]
    finally:
        slow.close()
