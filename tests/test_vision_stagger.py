"""vision.stagger: where a staggered run's even steps place the cards no step read."""

from __future__ import annotations

import numpy as np

from vision.stagger import TRY_MM, gap_corners

U, V = np.array([1.0, 0.0]), np.array([0.0, 1.0])


def _turned(deg: float) -> tuple[np.ndarray, np.ndarray]:
    a = np.radians(deg)
    return np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])


def _column(steps, u=U, v=V, start=(100.0, 100.0)):
    """Cards whose index corners lie ``steps`` mm apart along their long edge."""
    at = np.array(start) + np.concatenate([[0.0], np.cumsum(steps)])[:, None] * v
    return [(p, u, v) for p in at]


def test_a_gap_of_two_steps_in_a_column_holds_one_card_midway():
    cards = _column([20.0, 40.0, 20.0])
    (places,) = gap_corners(cards)
    assert len(places) == len(TRY_MM)
    corner, u, v = places[0]
    np.testing.assert_allclose(corner, [100.0, 140.0])
    np.testing.assert_allclose(u, U)
    np.testing.assert_allclose(v, V)
    # then a little before and beyond the even step, along the run
    np.testing.assert_allclose([p[0][1] for p in places], [140.0 + t for t in TRY_MM])


def test_uneven_steps_laid_by_hand_still_make_a_gap_and_three_steps_hold_two_cards():
    # 18 mm then 42 (2.33 steps of 18): one card; a gap of three steps: two
    assert len(gap_corners(_column([18.0, 42.0]))) == 1
    places = gap_corners(_column([20.0, 60.0]))
    assert [round(float(p[0][0][1])) for p in places] == [140, 160]


def test_a_run_along_the_short_edge_is_a_row():
    u, v = _turned(30.0)
    at = [np.array([50.0, 50.0]) + s * u for s in (0.0, 15.0, 45.0)]
    (places,) = gap_corners([(p, u, v) for p in at])
    np.testing.assert_allclose(places[0][0], at[0] + 30.0 * u)


def test_no_gap_without_a_step_to_measure_it_by_or_a_whole_number_of_steps():
    # two cards: no step known
    assert gap_corners(_column([40.0])) == []
    # even steps: nothing missing
    assert gap_corners(_column([20.0, 20.0, 20.0])) == []
    # 1.5 steps is no whole card's room
    assert gap_corners(_column([20.0, 30.0])) == []
    # steps shorter than an index are not a run's
    assert gap_corners(_column([5.0, 10.0])) == []


def test_cards_lying_another_way_or_off_the_line_are_not_one_run():
    col = _column([20.0, 40.0])
    u, v = _turned(10.0)
    assert gap_corners([col[0], col[1], (col[2][0], u, v)]) == []
    # the third card 15 mm aside: not the run's
    assert gap_corners([col[0], col[1], (col[2][0] + 15.0 * U, U, V)]) == []
    # turned half round (read at its other index corner): not the run's either
    assert gap_corners([col[0], col[1], (col[2][0], -U, -V)]) == []
