"""The game-win chance table: its invariants, and the shipped self-play data replayed."""

from __future__ import annotations

import pytest

from gintutor.engine import wintables
from gintutor.engine.rules import preset
from gintutor.engine.winchance import (
    FINGERPRINT_HANDS,
    REGIMES,
    fingerprint,
    game_win_chance,
    hand_distribution,
    play_results,
    regime_of,
    shipped_results,
    win_table,
)
from gintutor.errors import GinError

NAMES = ["standard", "classic", "oklahoma", "straight", "hollywood", "eaai"]


@pytest.mark.parametrize("name", NAMES)
def test_hand_distribution_is_a_distribution(name: str) -> None:
    dist, void = hand_distribution(preset(name))
    assert 0 <= void < 0.5
    assert abs(sum(dist.values()) + void - 1) < 1e-9
    assert all(points != 0 for points in dist)


@pytest.mark.parametrize("name", ["standard", "straight"])
def test_the_table_is_monotone_in_each_score(name: str) -> None:
    rules = preset(name)
    table = win_table(rules)
    n = rules.target
    for a in range(n):
        for b in range(n):
            assert 0.0 <= table[a][b] <= 1.0
            if a + 1 < n:
                assert table[a + 1][b] >= table[a][b] - 1e-12
            if b + 1 < n:
                assert table[a][b + 1] <= table[a][b] + 1e-12


@pytest.mark.parametrize("name", NAMES)
def test_the_chance_is_symmetric_and_one_at_the_target(name: str) -> None:
    rules = preset(name)
    t = rules.target
    for a, b in [(0, 0), (10, 60), (95, 3), (t - 1, t - 1), (40, 41)]:
        assert abs(game_win_chance(a, b, rules) + game_win_chance(b, a, rules) - 1) < 1e-12
        mine = game_win_chance(a, b, rules, my_deal=True)
        theirs = game_win_chance(b, a, rules, my_deal=False)
        assert abs(mine + theirs - 1) < 1e-12
    assert game_win_chance(0, 0, rules) == 0.5
    assert game_win_chance(t, 0, rules) == 1.0 and game_win_chance(t + 30, t - 1, rules) == 1.0
    assert game_win_chance(0, t, rules) == 0.0
    assert game_win_chance(t - 1, 0, rules) > 0.9


def test_house_rules_with_another_knock_limit_use_the_hands_dealt_with_that_limit() -> None:
    import dataclasses

    rules = dataclasses.replace(preset("standard"), name="house", knock_limit=5)
    assert regime_of(rules) == "oklahoma"
    assert hand_distribution(rules)[0]
    assert 0.0 < game_win_chance(30, 50, rules) < 0.5


def test_negative_scores_are_refused() -> None:
    with pytest.raises(GinError):
        game_win_chance(-1, 0, preset("standard"))


def test_the_shipped_data_replays_from_its_seeds() -> None:
    regime = "knock-10"
    rows = play_results(regime, 0, FINGERPRINT_HANDS)
    assert fingerprint(rows) == wintables.FINGERPRINTS[regime]


@pytest.mark.slow
@pytest.mark.parametrize("regime", [r for r in REGIMES if r != "knock-10"])
def test_the_shipped_data_of_every_regime_replays(regime: str) -> None:
    rows = play_results(regime, 0, FINGERPRINT_HANDS)
    assert fingerprint(rows) == wintables.FINGERPRINTS[regime]


def test_the_shipped_counts_add_up() -> None:
    for regime in REGIMES:
        rows = shipped_results(regime)
        assert all(len(row) == 7 for row in rows)
        assert sum(row[-1] for row in rows) == wintables.HANDS[regime]
