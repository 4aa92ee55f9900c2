"""The match harness: statistics against hand-computed examples, small seeded matches, the CLI."""

from __future__ import annotations

import json
import re

import pytest
from clirun import run

from gintutor.engine.match import (
    BotFigures,
    GameRecord,
    HandLine,
    MatchReport,
    MatchSpec,
    RatioEstimate,
    play_pair,
    ratio_estimate,
    run_match,
    summarize,
    wilson,
)
from gintutor.engine.rules import preset
from gintutor.engine.scoring import Outcome


def test_wilson_interval_hand_computed() -> None:
    # 7/10: centre (0.7 + 1.9208/10) / 1.38415 = 0.6445, half-width 0.2477.
    low, high = wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    # 0/10: the upper end is z²/(n + z²) = 3.8415 / 13.8415.
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_paired_points_per_hand_hand_computed() -> None:
    # Pairs: +10 over 2 hands, -2 over 2, +6 over 2: R = 14/6; residuals 16/3, -20/3, 4/3.
    estimate = ratio_estimate([10, -2, 6], [2, 2, 2])
    assert estimate.mean == pytest.approx(2.3333)
    assert estimate.stderr == pytest.approx((672 / 9 / 6) ** 0.5 / 2, rel=1e-9)
    # Unequal hand counts weight by hands, not pairs.
    assert ratio_estimate([9, 1], [3, 1]).mean == 2.5


def _game(seats: tuple[str, str], winner: int, lines: list[HandLine]) -> GameRecord:
    return GameRecord(seats, winner, (100, 0), tuple(lines), (10, 12), (0.1, 0.3))


def test_summary_counts_each_bot_in_both_seats() -> None:
    spec = MatchSpec(("a", "b"), preset("eaai"), pairs=1)
    first = _game(
        ("a", "b"),
        0,
        [
            HandLine(0, Outcome.GIN, 40, 0),
            HandLine(1, Outcome.UNDERCUT, 30, 0),
            HandLine(None, None, 0, None),
        ],
    )
    second = _game(("b", "a"), 1, [HandLine(1, Outcome.KNOCK, 20, 1)])
    report = summarize(spec, [(first, second)])
    a, b = report.figures
    assert (report.games, report.hands, report.void_hands) == (2, 4, 1)
    assert (a.games_won, b.games_won) == (2, 0)
    assert (a.hands_won, b.hands_won) == (2, 1)
    assert (a.gin_rate, b.undercut_rate, a.undercut_against_rate) == (0.25, 0.25, 0.25)
    assert a.knock_rate == 0.75 and b.knock_rate == 0.0
    assert report.points_per_hand.mean == pytest.approx((40 - 30 + 20) / 4)
    assert a.seconds_per_decision == pytest.approx(0.4 / 22)


def test_a_pair_plays_the_same_deals_with_the_seats_swapped() -> None:
    spec = MatchSpec(("simple", "simple"), preset("eaai"), pairs=1, seed=4)
    first, second = play_pair(spec, 0)
    assert first.seats == second.seats == ("simple", "simple")
    # Same bots, same deals, different random choices: both games complete to the target.
    assert max(first.totals) >= 100 and max(second.totals) >= 100


def test_a_seeded_match_is_reproducible_on_any_number_of_jobs() -> None:
    spec = MatchSpec(("simple", "novice"), preset("eaai"), pairs=3, seed=2)
    one = run_match(spec, jobs=1)
    two = run_match(spec, jobs=2)
    strip = [(f.games_won, f.hands_won, f.gin_rate, f.knock_rate) for f in one.figures]
    assert strip == [(f.games_won, f.hands_won, f.gin_rate, f.knock_rate) for f in two.figures]
    assert one.points_per_hand == two.points_per_hand
    assert one.games == 6 and one.figures[0].games_won == 6


def test_cli_match_prints_the_table() -> None:
    code, out, err = run("match", "simple", "novice", "--games", "2", "--jobs", "1")
    assert code == 0, err
    assert "simple vs novice: 2 games (1 duplicate pair), eaai rules, seed 1" in out
    assert "95% CI" in out and "Wilson interval" in out and "points per hand" in out
    assert max(len(line) for line in out.splitlines() if "─" in line) <= 80


def _widest_report() -> MatchReport:
    """A report whose every cell is as wide as a real match's can be: the longest bot names,
    a million games, 100% rates, a second per decision."""
    figures = tuple(
        BotFigures(
            name=name,
            games_won=999_999,
            win_rate=1.0,
            win_low=0.999,
            win_high=1.0,
            hands_won=9_999_999,
            gin_rate=1.0,
            knock_rate=1.0,
            undercut_rate=1.0,
            undercut_against_rate=1.0,
            seconds_per_decision=1.23456,
            decisions=10**8,
        )
        for name in ("heuristic", "openspiel")
    )
    return MatchReport(
        bots=("heuristic", "openspiel"),
        rules="hollywood",
        seed=123456789,
        games=1_000_000,
        hands=9_999_999,
        void_hands=99_999,
        figures=(figures[0], figures[1]),
        points_per_hand=RatioEstimate(-123.45, 12.345, 500_000),
        options={"worlds": 64, "seconds": 0.5},
    )


@pytest.mark.parametrize("language", ["en", "id", "pt_BR", "nb"])
def test_the_match_table_fits_80_columns_in_every_language(language: str) -> None:
    """No line over 80 columns, and no figure's name or bot's name broken across lines (Rich
    folds a column that does not fit, mid-word)."""
    from gintutor.cli.matchrun import report_blocks
    from gintutor.cli.render import render_text
    from gintutor.text import i18n
    from gintutor.text.blocks import Table

    i18n.use(language)
    try:
        blocks = report_blocks(_widest_report())
        text = render_text(blocks, width=80)
    finally:
        i18n.use(i18n.ENGLISH)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, text
    (table,) = [block for block in blocks if isinstance(block, Table)]
    header = lines[next(n for n, line in enumerate(lines) if line.startswith("─")) - 1]
    assert re.split(" {2,}", header.strip()) == ["heuristic", "openspiel"], text
    for label, *cells in table.rows:
        row = next((line for line in lines if line.startswith(label + " ")), None)
        assert row is not None, (label, text)
        assert re.split(" {2,}", row) == [label, *cells], (label, text)


def test_cli_match_json() -> None:
    code, out, _ = run("match", "simple", "openspiel", "--games", "2", "--jobs", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 and data["bots"] == ["simple", "openspiel"]
    assert sum(f["games_won"] for f in data["figures"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("match", "simple", "wizard"), "unknown bot 'wizard'"),
        (
            ("match", "simple", "novice", "--games", "0"),
            "'--games' / '-n': Input should be greater",
        ),
        (
            ("match", "simple", "novice", "--games", "99999999999999999999"),
            "less than or equal to 1000000",
        ),
        (("match", "expert", "novice", "--worlds", "10**6"), "--worlds"),
        (("match", "expert", "novice", "--worlds", "1000000"), "'--worlds': Input should be less"),
        (("match", "expert", "novice", "--seconds", "nan"), "--seconds: nan"),
        (("match", "expert", "novice", "--seconds", "inf"), "--seconds: inf"),
        (("match", "expert", "novice", "--seconds", "0"), "--seconds: 0.0"),
        (("match", "simple", "novice", "--jobs", "-1"), "'--jobs'"),
        (("match", "simple", "novice", "--rules", "nosuch"), "unknown rule set"),
    ],
)
def test_cli_match_errors(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.slow
def test_the_ladder_holds_on_a_short_seeded_match() -> None:
    # 60 duplicate pairs: heuristic beats simple, simple beats novice (seeded, so stable).
    heuristic = run_match(MatchSpec(("heuristic", "simple"), preset("eaai"), 60, seed=5), 2)
    assert heuristic.figures[0].win_rate > 0.5 and heuristic.points_per_hand.mean > 0
    simple = run_match(MatchSpec(("simple", "novice"), preset("eaai"), 30, seed=5), 2)
    assert simple.figures[0].win_low > 0.5


def test_a_hand_that_would_not_end_is_abandoned_as_void() -> None:
    """Bots can pass cards back and forth for ever: the table stops the hand, void."""
    import random as _random

    from gintutor.engine.bots import make_bot
    from gintutor.engine.hand import Deal
    from gintutor.engine.match import play_hand
    from gintutor.engine.rules import preset
    from gintutor.errors import GinError

    bots = [make_bot("simple"), make_bot("simple")]
    rngs = [_random.Random(1), _random.Random(2)]
    deal = Deal.shuffled(_random.Random(5))
    state = play_hand(bots, deal, preset("standard"), rngs, max_actions=6)
    assert state.over and state.result is not None and state.result.void
    assert len(state.log) == 6
    with pytest.raises(GinError):
        state.abandon()
