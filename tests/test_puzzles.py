"""Puzzles: the shipped pack passes its check, daily selection, the command, stats, bad YAML."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import pytest
from clirun import run
from syrupy.assertion import SnapshotAssertion

from gintutor.cli.progress import Progress
from gintutor.cli.puzzlerun import share_line, streaks
from gintutor.content.puzzles import check_puzzles, load_puzzles, puzzle_files
from gintutor.tutor.daily import daily, select
from gintutor.tutor.puzzles import Grade, Theme, fill_explanation, natural_choice, solve_puzzle

PUZZLES = load_puzzles()
BROKEN = Path(__file__).parent / "broken_puzzles"


def first_of(theme: Theme) -> str:
    return next(p.id for p in PUZZLES if p.theme is theme)


@pytest.mark.slow
def test_every_shipped_puzzle_passes_the_check() -> None:
    puzzles, problems = check_puzzles(puzzle_files())
    assert [str(p) for p in problems] == []
    assert len(puzzles) >= 366


def test_the_pack_spreads_over_themes_and_difficulties() -> None:
    themes = Counter(p.theme for p in PUZZLES)
    assert set(themes) == set(Theme)
    assert min(themes.values()) >= 40
    for theme in Theme:
        levels = {p.difficulty for p in PUZZLES if p.theme is theme}
        assert len(levels) >= 3, theme


@pytest.mark.slow
def test_the_natural_answer_is_often_not_the_best() -> None:
    exact = [p for p in PUZZLES if p.theme.exact]
    surprising = [p for p in exact if natural_choice(solve_puzzle(p)) not in p.answers]
    assert len(surprising) >= len(exact) // 2
    knock_or_play = Counter(p.answers for p in PUZZLES if p.theme is Theme.KNOCK_OR_PLAY)
    assert len(knock_or_play) >= 2, "knock-or-play puzzles should not all have one answer"


def test_explanations_fill_from_the_engine() -> None:
    for theme in Theme:
        puzzle = next(p for p in PUZZLES if p.theme is theme)
        text = fill_explanation(puzzle.explanation, solve_puzzle(puzzle))
        assert "{" not in text and text


def test_daily_is_deterministic_and_does_not_repeat_within_a_year() -> None:
    for year, days in ((2027, 365), (2028, 366)):
        start = dt.date(year, 1, 1)
        picks = [daily(PUZZLES, start + dt.timedelta(days=n)).id for n in range(days)]
        assert len(set(picks)) == days
        assert picks == [daily(PUZZLES, start + dt.timedelta(days=n)).id for n in range(days)]
    start = dt.date(2026, 11, 29)
    cycle = [daily(PUZZLES, start + dt.timedelta(days=n)).id for n in range(len(PUZZLES))]
    assert sorted(cycle) == sorted(p.id for p in PUZZLES), "every puzzle comes round"


def test_daily_depends_only_on_the_pack_not_its_order() -> None:
    date = dt.date(2026, 12, 1)
    assert daily(list(reversed(PUZZLES)), date) == daily(PUZZLES, date)


def test_select_by_theme_and_difficulty() -> None:
    chosen = select(PUZZLES, theme="outs", difficulty=3)
    assert chosen and all(p.theme is Theme.OUTS and p.difficulty == 3 for p in chosen)


def test_exact_puzzle_feedback_and_table(home: Path, snapshot: SnapshotAssertion) -> None:
    puzzle_id = first_of(Theme.OUTS)
    puzzle = next(p for p in PUZZLES if p.id == puzzle_id)
    solution = solve_puzzle(puzzle)
    wrong = next(row.code for row in solution.rows if row.grade is not Grade.BEST)
    code, out, err = run("puzzle", "--id", puzzle_id, stdin=f"hint\n{wrong}\n")
    assert (code, err) == (0, "")
    assert out == snapshot
    assert "Hint: " in out
    record = Progress(home / "progress.json").data["puzzles"]["solved"][puzzle_id]
    assert record["first_try"] is False and record["hints"] == 1


def test_rollout_puzzle_feedback(home: Path, snapshot: SnapshotAssertion) -> None:
    puzzle_id = first_of(Theme.KNOCK_OR_PLAY)
    puzzle = next(p for p in PUZZLES if p.id == puzzle_id)
    code, out, _ = run("puzzle", "--id", puzzle_id, stdin=f"{puzzle.answers[0]}\n")
    assert code == 0
    assert out == snapshot
    assert "Best!" in out


def test_invalid_answers_are_refused_then_the_answer_counts(home: Path) -> None:
    puzzle = next(p for p in PUZZLES if p.theme is Theme.DEADWOOD)
    not_held = next(
        c for c in ("AC", "KD", "5H", "9S") if c not in [card.code for card in puzzle.position.hand]
    )
    code, out, _ = run("puzzle", "--id", puzzle.id, stdin=f"{not_held}\n{puzzle.answers[0]}\n")
    assert code == 0
    assert f"(you don't hold {not_held})" in out
    assert "Best!" in out
    record = Progress(home / "progress.json").data["puzzles"]["solved"][puzzle.id]
    assert record["first_try"] is True


def test_json_fields() -> None:
    code, out, _ = run("puzzle", "--id", first_of(Theme.SAFETY), "--json")
    assert code == 0
    data = json.loads(out)
    for key in (
        "id",
        "theme",
        "hand",
        "took_from_discard",
        "dead",
        "opponent_known",
        "stock_size",
        "rules",
        "answers",
        "options",
    ):
        assert key in data
    assert len(data["hand"]) == 11
    option = data["options"][0]
    for key in (
        "card",
        "deadwood",
        "can_knock",
        "outs",
        "knock_outs",
        "expected_deadwood_next",
        "p_knock_next",
        "p_knock_within_2",
        "p_opponent_melds",
    ):
        assert key in option
    assert all(0.0 <= o["p_opponent_melds"] <= 1.0 for o in data["options"])
    code, out, _ = run("puzzle", "--id", first_of(Theme.UPCARD), "--json")
    data = json.loads(out)
    assert len(data["hand"]) == 10 and "upcard" in data and data["answers"]


def test_today_and_date_give_the_daily_puzzle(home: Path) -> None:
    today = dt.date.today()
    puzzle = daily(PUZZLES, today)
    code, out, _ = run("puzzle", "--json")
    assert json.loads(out)["id"] == puzzle.id
    code, out, _ = run("puzzle", "--date", today.isoformat(), stdin=f"{puzzle.answers[0]}\n")
    assert code == 0
    assert f"gintutor daily {today.isoformat()}: first try, no hints" in out
    code, out, _ = run("puzzle", "--stats")
    assert "1 puzzle played · solved: 1 · first try: 100%" in out
    assert "Daily streak: 1 day (best 1 day)" in out


def _wrong_answer(puzzle_id: str) -> str:
    puzzle = next(p for p in PUZZLES if p.id == puzzle_id)
    solution = solve_puzzle(puzzle)
    return next(row.code for row in solution.rows if row.grade is not Grade.BEST)


def test_a_retried_puzzle_keeps_its_first_attempt(home: Path) -> None:
    # issue 12: 'echo TS | puzzle --id outs-049' then the right answer must not turn 0% into 100%.
    wrong = _wrong_answer("outs-049")
    right = next(p for p in PUZZLES if p.id == "outs-049").answers[0]
    run("puzzle", "--id", "outs-049", stdin=f"{wrong}\n")
    code, out, _ = run("puzzle", "--id", "outs-049", stdin=f"{right}\n")
    assert code == 0
    assert "Already played on" in out and f"your answer was {wrong}" in out
    record = Progress(home / "progress.json").data["puzzles"]["solved"]["outs-049"]
    assert record["answer"] == wrong and record["first_try"] is False
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert (stats["attempted"], stats["solved"], stats["first_try"]) == (1, 0, 0)


def test_a_replayed_daily_shares_nothing_new(home: Path) -> None:
    today = dt.date.today()
    puzzle = daily(PUZZLES, today)
    run("puzzle", "--date", today.isoformat(), stdin="skip\n")
    code, out, _ = run("puzzle", "--date", today.isoformat(), stdin=f"{puzzle.answers[0]}\n")
    assert code == 0 and "first try, no hints" not in out and "practice" in out
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert stats["solved"] == 0 and stats["streak"] == 0


def test_revealed_and_failed_puzzles_are_not_solved(home: Path) -> None:
    ids = [p.id for p in PUZZLES if p.theme is Theme.DEADWOOD][:2]
    run("puzzle", "--id", ids[0], stdin="skip\n")
    run("puzzle", "--id", ids[1], stdin=f"{_wrong_answer(ids[1])}\n")
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert (stats["attempted"], stats["solved"], stats["first_try"]) == (2, 0, 0)
    assert stats["themes"]["deadwood"] == {"attempted": 2, "solved": 0, "first_try": 0}


def test_bad_date_theme_and_id_are_usage_errors(home: Path) -> None:
    assert run("puzzle", "--date", "2026-13-01")[0] == 2
    code, _, err = run("puzzle", "--theme", "bluffing")
    assert code == 2 and "no puzzle with theme 'bluffing'" in err
    code, _, err = run("puzzle", "--id", "nope")
    assert code == 2 and err.startswith("error: no puzzle 'nope' (ids look like outs-049")


def test_streaks_and_share_line() -> None:
    day = dt.date(2026, 12, 10)
    dates = [day - dt.timedelta(days=n) for n in (0, 1, 2, 5, 6)]
    assert streaks(dates, day) == (3, 3)
    assert streaks(dates, day + dt.timedelta(days=1)) == (3, 3)
    assert streaks(dates, day + dt.timedelta(days=2)) == (0, 3)
    assert share_line(day, Grade.BEST, 0) == "gintutor daily 2026-12-10: first try, no hints"
    assert share_line(day, Grade.MISTAKE, 2) == "gintutor daily 2026-12-10: mistake, 2 hints"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "bad-card.yaml",
            ["bad-card.yaml:7: hand: 'KX': unknown suit 'X' (use C, D, H, S or ♣ ♦ ♥ ♠)"],
        ),
        (
            "bad-count.yaml",
            [
                "bad-count.yaml:7: position: the cards do not add up to 52: 13 placed + 10 hidden "
                "in the opponent's hand + stock 31 = 54"
            ],
        ),
        (
            "syntax-error.yaml",
            [
                "syntax-error.yaml:5: YAML syntax: found unexpected end of stream (check "
                "indentation and quotes)"
            ],
        ),
        (
            "unknown-theme.yaml",
            [
                "unknown-theme.yaml:4: theme: use one of deadwood, outs, safety, knock-or-play, "
                "upcard, layoff-exposure"
            ],
        ),
        (
            "duplicates.yaml",
            [
                "duplicates.yaml:11: id 'twice' is also used at {dir}/duplicates.yaml:2",
                "duplicates.yaml:11: the same position as twice ({dir}/duplicates.yaml:2)",
            ],
        ),
        # issue 12: a layoff-exposure position where no discard knocks was a max() traceback.
        (
            "no-knocking-discard.yaml",
            [
                "no-knocking-discard.yaml:2: layoff-exposure-900: no discard lets this hand knock "
                "(limit 10): a layoff-exposure puzzle needs at least one"
            ],
        ),
        (
            "wrong-answer.yaml",
            [
                "wrong-answer.yaml:2: wrong-answer: answers ['8S'] but the engine accepts ['KS'] "
                "(best first: KS 8, 8S 10, 4C 23, 3C 24)"
            ],
        ),
    ],
)
def test_puzzles_check_reports_file_line_and_problem(name: str, expected: list[str]) -> None:
    code, out, _ = run("puzzles", "check", str(BROKEN / name))
    assert code == 1
    assert out.splitlines() == [f"{BROKEN}/{line.format(dir=BROKEN)}" for line in expected]


def test_generator_writes_puzzles_that_pass_the_check(tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    code, _, err = run(
        "puzzles",
        "generate",
        "--theme",
        "deadwood",
        "--count",
        "2",
        "--seed",
        "3",
        "--out",
        str(out),
    )
    assert code == 0 and "wrote 2 puzzles" in err
    puzzles, problems = check_puzzles([(str(out), out.read_text(encoding="utf-8"))])
    assert problems == [] and len(puzzles) == 2


def test_safety_prefers_the_least_deadwood_among_equally_safe_cards() -> None:
    from gintutor.engine.cards import CardSet
    from gintutor.engine.evaluate import Position
    from gintutor.engine.rules import preset
    from gintutor.tutor.puzzles import Puzzle

    # A♥, 3♥ and 5♥ of the run are dead to the opponent (their partners are mine or dead;
    # a king could still join a J-Q-K), but throwing 3♥ out of the middle wastes deadwood.
    position = Position(
        CardSet.parse("KC KD KH KS AH 2H 3H 4H 5H 2C 9D"),
        preset("standard"),
        dead=CardSet.parse("AC AD AS 5C 5D 5S 6H 3C 3D 3S"),
        stock_size=21,
    )
    puzzle = Puzzle("t", "t", Theme.SAFETY, 1, position, "?", (), (), "")
    solution = solve_puzzle(puzzle)
    assert sorted(solution.accepted) == ["5H", "AH"]
    assert solution.row("3H").measure == 0.0
    assert solution.row("3H").grade is Grade.BLUNDER
    assert solution.row("KC").measure > 0


@pytest.mark.parametrize("theme", list(Theme), ids=lambda t: t.value)
def test_option_tables_fit_80_columns_and_the_legend_explains_what_is_shown(theme: Theme) -> None:
    from gintutor.cli.render import render_text
    from gintutor.text.blocks import Style
    from gintutor.tutor.puzzletext import option_table, table_legend

    puzzle = next(p for p in PUZZLES if p.theme is theme)
    solution = solve_puzzle(puzzle)
    text = render_text([option_table(solution, Style(), solution.rows[-1].code)], width=200)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    if theme.exact:
        knocks = any(r.evaluation is not None and r.evaluation.can_knock for r in solution.rows)
        assert ("k: may knock now." in table_legend(solution)) == knocks


def test_a_stored_verdict_is_used_while_its_key_matches() -> None:
    import dataclasses

    from gintutor.content.verdicts import load_verdicts, solve, stored_verdict, verdicts_text

    puzzle = next(p for p in PUZZLES if p.theme is Theme.KNOCK_OR_PLAY)
    fresh = solve_puzzle(puzzle)
    table = json.loads(verdicts_text([fresh]))["verdicts"]
    assert stored_verdict(puzzle, table) == fresh.verdict
    assert solve(puzzle, table) == fresh
    # Another position (or seed) changes the key: the stored verdict is not used.
    moved = dataclasses.replace(
        puzzle,
        position=dataclasses.replace(
            puzzle.position, stock_size=(puzzle.position.stock_size or 20) - 1
        ),
    )
    assert stored_verdict(moved, table) is None
    # The shipped pack stores a verdict for every rollout puzzle.
    shipped = load_verdicts()
    assert {p.id for p in PUZZLES if not p.theme.exact} == set(shipped)
