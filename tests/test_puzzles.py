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
from gintutor.cli.puzzlestats import streaks
from gintutor.cli.puzzletraining import share_line
from gintutor.content.puzzlepack import shipped_pack
from gintutor.content.puzzlerules import load_baseline
from gintutor.content.puzzles import check_puzzles, load_puzzles, puzzle_files
from gintutor.content.verdicts import load_verdicts, solve
from gintutor.engine.hand import Action
from gintutor.engine.judgement import Judged
from gintutor.tutor.daily import daily, daily_id, select
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    PuzzleKind,
    Theme,
    fill_explanation,
    natural_choice,
    verdict_key,
)

PUZZLES = load_puzzles()


@pytest.fixture
def home(warm_home: Path) -> Path:
    """The data folder of a learner's second run (conftest.py's ``warm_home``): these tests are
    about the puzzle commands, not about building their caches (test_startup.py's are)."""
    return warm_home


DAILY = [p for p in PUZZLES if p.kind is not PuzzleKind.CLOSE_CALL]
"""What ``gintutor puzzle`` picks the daily from: every puzzle but the close calls."""
BROKEN = Path(__file__).parent / "broken_puzzles"


def first_of(theme: Theme) -> str:
    return next(p.id for p in PUZZLES if p.theme is theme)


@pytest.mark.slow
def test_every_shipped_puzzle_passes_the_check() -> None:
    # The rules' known violations are listed in the baseline, which lists none that the
    # pack no longer breaks (test_puzzlerules: it never grows).
    puzzles, problems = check_puzzles(
        puzzle_files(), stored=load_verdicts(), jobs=2, baseline=load_baseline(), whole_pack=True
    )
    assert [str(p) for p in problems] == []
    assert len(puzzles) >= 365


def test_every_judged_puzzle_has_its_stored_verdict() -> None:
    stored = load_verdicts()
    missing = [p.id for p in PUZZLES if p.theme.judged and verdict_key(p) not in stored]
    assert missing == []


def test_the_pack_spreads_over_themes_and_difficulties() -> None:
    themes = Counter(p.theme for p in PUZZLES)
    assert set(themes) == set(Theme)
    # Against the coach the least-deadwood knock is nearly always best: only the instructive
    # layoff-exposure positions are kept, so that theme is small.
    assert min(n for t, n in themes.items() if t is not Theme.LAYOFF_EXPOSURE) >= 30
    for theme in Theme:
        levels = {p.difficulty for p in PUZZLES if p.theme is theme}
        assert len(levels) >= (3 if themes[theme] >= 20 else 1), theme


@pytest.mark.slow
def test_the_natural_answer_is_often_not_the_best() -> None:
    exact = [p for p in PUZZLES if p.theme.exact]
    surprising = [p for p in exact if natural_choice(solve(p)) not in p.answers]
    assert len(surprising) >= len(exact) // 2
    knock_or_play = Counter(p.answers for p in PUZZLES if p.theme is Theme.KNOCK_OR_PLAY)
    assert len(knock_or_play) >= 2, "knock-or-play puzzles should not all have one answer"


def test_explanations_fill_from_the_engine() -> None:
    for theme in Theme:
        puzzle = next(p for p in PUZZLES if p.theme is theme)
        text = fill_explanation(puzzle.explanation, solve(puzzle))
        assert "{" not in text and text


def test_layoffs_are_the_cards_a_defender_may_lay_off_directly_on_the_spread() -> None:
    # knock-or-play-042: after the 6D the spread is four nines (closed) and A-4 of spades,
    # whose top end takes the 5S; the 6S, 7S and 8S (unseen too) fit only after it.
    puzzle = next(p for p in PUZZLES if p.id == "knock-or-play-042")
    solution = solve(puzzle)
    assert fill_explanation("{6D.layoffs} ({6D.layoffs:n})", solution) == "5♠ (1)"


DAILY_AT_LEAST = 400
THEME_AT_LEAST = 40
"""The pack's counts (issue 21): the daily puzzles in all, and the puzzles of every Gin theme."""


def test_the_pack_holds_enough_daily_puzzles_and_enough_of_every_theme() -> None:
    assert len(shipped_pack().daily_ids()) >= DAILY_AT_LEAST
    per_theme = Counter(p.theme for p in PUZZLES)
    short = {t.value: per_theme[t] for t in Theme if per_theme[t] < THEME_AT_LEAST}
    assert not short, f"themes under {THEME_AT_LEAST} puzzles: {short}"


def test_daily_is_deterministic_and_does_not_repeat_within_a_year() -> None:
    # The pool `gintutor puzzle` picks the daily from (close calls excluded), not the pack.
    pool = shipped_pack().daily_ids()
    assert sorted(pool) == sorted(p.id for p in DAILY)
    assert len(pool) >= 366, f"the daily cycle holds {len(pool)} puzzles, fewer than a year"
    for year, days in ((2027, 365), (2028, 366)):
        start = dt.date(year, 1, 1)
        picks = [daily_id(pool, start + dt.timedelta(days=n)) for n in range(days)]
        assert len(set(picks)) == days
        assert picks == [daily_id(pool, start + dt.timedelta(days=n)) for n in range(days)]
    start = dt.date(2026, 11, 29)
    cycle = [daily_id(pool, start + dt.timedelta(days=n)) for n in range(len(pool))]
    assert sorted(cycle) == sorted(pool), "every daily puzzle comes round"


def test_daily_depends_only_on_the_pack_not_its_order() -> None:
    date = dt.date(2026, 12, 1)
    assert daily(list(reversed(PUZZLES)), date) == daily(PUZZLES, date)


def test_select_by_theme_and_difficulty() -> None:
    chosen = select(PUZZLES, theme="outs", difficulty=3)
    assert chosen and all(p.theme is Theme.OUTS and p.difficulty == 3 for p in chosen)


def test_exact_puzzle_feedback_and_table(home: Path, snapshot: SnapshotAssertion) -> None:
    puzzle_id = first_of(Theme.OUTS)
    puzzle = next(p for p in PUZZLES if p.id == puzzle_id)
    solution = solve(puzzle)
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
    puzzle = daily(DAILY, today)
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
    solution = solve(puzzle)
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
    puzzle = daily(DAILY, today)
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
    row = stats["themes"]["deadwood"]
    assert (row["attempted"], row["solved"], row["first_try"]) == (2, 0, 0)
    # Two first attempts, both lost: the rating fell from 1500 and is still provisional.
    assert row["rating"]["games"] == 2 and row["rating"]["rating"] < 1500
    assert row["rating"]["provisional"] is True


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
                "upcard, layoff-exposure",
                "unknown-theme.yaml:5: difficulty: expected 1 to 5",
            ],
        ),
        (
            "duplicates.yaml",
            [
                "duplicates.yaml:12: id 'twice' is also used at {dir}/duplicates.yaml:2",
                "duplicates.yaml:12: the same position as twice ({dir}/duplicates.yaml:2)",
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
            "stray-discard.yaml",
            [
                "stray-discard.yaml:7: position: opponent_discards: 6H is not dead, in a hand or "
                "the upcard"
            ],
        ),
        (
            "wrong-answer.yaml",
            [
                "wrong-answer.yaml:2: wrong-answer: answers ['8S'] but the engine accepts ['KS'] "
                "(best first: KS 8, 8S 10, 4C 23, 3C 24)",
                "wrong-answer.yaml:11: wrong-answer: [idea] the highest card is accepted: "
                "counting does not decide it.",
            ],
        ),
    ],
)
def test_puzzles_check_reports_file_line_and_problem(name: str, expected: list[str]) -> None:
    code, out, _ = run("puzzles", "check", str(BROKEN / name))
    assert code == 1
    assert out.splitlines() == [f"{BROKEN}/{line.format(dir=BROKEN)}" for line in expected]


def test_generated_puzzles_pass_the_check() -> None:
    from gintutor.content.puzzlegen import generate, to_yaml
    from gintutor.engine.rules import preset

    made = generate({Theme.DEADWOOD: 1}, preset("classic"), seed=3, players=("simple", "simple"))
    puzzles, problems = check_puzzles([("new.yaml", to_yaml(made))])
    assert problems == [] and [p.id for p in puzzles] == [p.id for p in made]
    assert all(p.position.rules.name == "classic" for p in puzzles)


@pytest.mark.slow
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


@pytest.mark.parametrize("theme", list(Theme), ids=lambda t: t.value)
def test_option_tables_fit_80_columns_and_the_legend_explains_what_is_shown(theme: Theme) -> None:
    from gintutor.cli.render import render_text
    from gintutor.text.blocks import Style
    from gintutor.tutor.puzzletext import option_table, table_legend

    puzzle = next(p for p in PUZZLES if p.theme is theme)
    solution = solve(puzzle)
    text = render_text([option_table(solution, Style(), solution.rows[-1].code)], width=200)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    if theme.exact:
        knocks = any(r.evaluation is not None and r.evaluation.can_knock for r in solution.rows)
        assert ("k: may knock now." in table_legend(solution)) == knocks


def test_a_stored_verdict_is_used_for_exactly_its_position() -> None:
    import dataclasses

    from gintutor.content.verdicts import stored_verdict, verdicts_text

    puzzle = next(p for p in PUZZLES if p.theme is Theme.KNOCK_OR_PLAY)
    shipped = load_verdicts()
    known = stored_verdict(puzzle, shipped)
    assert known is not None
    solution = solve(puzzle, shipped)
    table = json.loads(verdicts_text([solution]))["verdicts"]
    again = stored_verdict(puzzle, table)
    assert again is not None and again.judged == known.judged
    # Another position (or score) changes the key: the stored verdict is not used.
    moved = dataclasses.replace(
        puzzle,
        position=dataclasses.replace(
            puzzle.position, stock_size=(puzzle.position.stock_size or 20) - 1
        ),
    )
    assert stored_verdict(moved, table) is None
    assert stored_verdict(dataclasses.replace(puzzle, score=(10, 20)), table) is None


def _judged(text: str, loss: float, se: float, close: bool, mean: float = 40.0) -> Judged:
    from gintutor.engine.judgement import Grade as CoachGrade
    from gintutor.engine.judgement import grade_of

    grade = CoachGrade.BEST if close else grade_of(loss)
    return Judged(Action.parse(text), mean - loss, 1.0, loss, se, None, None, grade, close, ())


def _puzzle(theme: Theme, hand: str, **extra: object) -> Puzzle:
    from gintutor.engine.cards import CardSet
    from gintutor.engine.evaluate import Position
    from gintutor.engine.rules import preset

    position = Position(CardSet.parse(hand), preset("standard"), **extra)  # type: ignore[arg-type]
    return Puzzle("t", "t", theme, 1, position, "?", (), (), "")


HAND = "TC JC QC 5D 6D 7D 9H 9S 9C AS 4H"


def test_a_choice_is_worth_its_best_action_and_close_calls_are_accepted() -> None:
    from gintutor.engine.hand import Phase
    from gintutor.engine.judgement import Verdict
    from gintutor.tutor.puzzles import solve_puzzle

    verdict = Verdict(
        0,
        Phase.DISCARD,
        (
            _judged("knock 4H: TC JC QC | 5D 6D 7D | 9C 9H 9S", 0.0, 0.0, True),
            _judged("discard AS", 1.0, 0.8, True),
            _judged("knock AS: TC JC QC | 5D 6D 7D | 9C 9H 9S", 3.0, 0.5, False),
            _judged("discard 4H", 5.0, 1.0, False),
        ),
        512,
        1.0,
    )
    knock = solve_puzzle(_puzzle(Theme.KNOCK_OR_PLAY, HAND), verdict)
    assert sorted(knock.accepted) == ["knock", "play-on"]
    assert knock.row("play-on").measure == 39.0  # the best discard values playing on
    layoff = solve_puzzle(_puzzle(Theme.LAYOFF_EXPOSURE, HAND), verdict)
    assert layoff.accepted == ("4H",)
    assert layoff.row("AS").cost == 3.0 and layoff.row("AS").grade is Grade.MISTAKE


def test_layoff_exposure_measures_from_the_best_knock_when_playing_on_is_better() -> None:
    from gintutor.engine.hand import Phase
    from gintutor.engine.judgement import Verdict
    from gintutor.tutor.puzzles import solve_puzzle

    verdict = Verdict(
        0,
        Phase.DISCARD,
        (
            _judged("discard AS", 0.0, 0.0, True),
            _judged("knock 4H: TC JC QC | 5D 6D 7D | 9C 9H 9S", 2.0, 0.5, False),
            _judged("knock AS: TC JC QC | 5D 6D 7D | 9C 9H 9S", 3.0, 0.5, False),
            _judged("discard 4H", 5.0, 1.0, False),
        ),
        512,
        1.0,
    )
    layoff = solve_puzzle(_puzzle(Theme.LAYOFF_EXPOSURE, HAND), verdict)
    # 1.0 behind the best knock, with the two losses' errors combined: a close call.
    assert sorted(layoff.accepted) == ["4H", "AS"]
    assert layoff.row("AS").cost_stderr == pytest.approx(0.5 * 2**0.5)


def test_a_puzzle_position_is_the_information_set_the_player_has() -> None:
    from gintutor.engine.cards import Card, CardSet
    from gintutor.engine.hand import NO_CARD, Phase
    from gintutor.tutor.puzzles import infoset_of

    first = _puzzle(Theme.UPCARD, "2C 3C 4C 5D 6D 7D 9H 9S AS 4H", upcard=Card.parse("9C"))
    info = infoset_of(first)
    assert (info.phase, info.stock_size, info.pile, info.dealer) == (
        Phase.OFFER,
        31,
        (Card.parse("9C").index,),
        1,
    )
    assert [str(a) for a in info.legal_actions()] == ["pass", "take"]
    later = _puzzle(
        Theme.UPCARD,
        "2C 3C 4C 5D 6D 7D 9H 9S AS 4H",
        upcard=Card.parse("9C"),
        dead=CardSet.parse("KD QS"),
        opponent_known=CardSet.parse("KH"),
    )
    info = infoset_of(later)
    assert info.phase is Phase.DRAW and info.top == Card.parse("9C").index
    assert info.stock_size == 52 - 10 - 3 - 10 and info.opponent_known == CardSet.parse("KH").mask
    took = _puzzle(Theme.OUTS, HAND, took_from_discard=Card.parse("4H"), dead=CardSet.parse("KD"))
    info = infoset_of(took)
    assert info.phase is Phase.DISCARD and info.taken == Card.parse("4H").index
    assert info.taken != NO_CARD and len(info.legal_actions()) > 10


def test_a_missing_verdict_is_a_problem_that_says_how_to_refresh_it() -> None:
    puzzle = next(p for p in PUZZLES if p.theme is Theme.UPCARD)
    text = Path(puzzle.path).read_text(encoding="utf-8")
    _, problems = check_puzzles([(puzzle.path, text)], stored={}, baseline=load_baseline())
    assert problems and all("--write-verdicts" in str(p) for p in problems)
    assert len(problems) == sum(1 for p in PUZZLES if p.path == puzzle.path)


@pytest.mark.slow
def test_replay_reports_a_stored_verdict_that_differs_from_a_fresh_one(tmp_path: Path) -> None:
    from gintutor.content.puzzlegen import to_yaml

    puzzle = next(p for p in PUZZLES if p.theme is Theme.KNOCK_OR_PLAY)
    path = tmp_path / "one.yaml"
    path.write_text(to_yaml([puzzle]), encoding="utf-8")
    stored = load_verdicts()
    key = verdict_key(puzzle)
    tampered = {key: {**stored[key], "judged": stored[key]["judged"][:-1]}}
    files = [(str(path), path.read_text(encoding="utf-8"))]
    assert check_puzzles(files, stored=stored)[1] == []
    _, problems = check_puzzles(files, stored=tampered, replay=True)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        f"{puzzle.id}: the stored verdict differs from a fresh one: run "
        "'gintutor puzzles check --replay --write-verdicts'"
    ]


def test_every_shipped_oklahoma_and_straight_puzzle_reads_its_rules() -> None:
    rules = Counter(p.position.rules.name for p in PUZZLES)
    assert {"standard", "classic", "oklahoma", "straight"} <= set(rules)
    for puzzle in PUZZLES:
        if puzzle.position.rules.name == "straight":
            assert puzzle.theme not in (Theme.KNOCK_OR_PLAY, Theme.LAYOFF_EXPOSURE)


def test_a_difficulty_of_true_is_not_a_difficulty() -> None:
    """YAML's ``true`` equals 1 in Python: the shared puzzle reader refuses it."""
    from gintutor.content.puzzles import read_puzzles

    text = "puzzles:\n  - id: x-001\n    title: t\n    theme: outs\n    difficulty: true\n"
    text += '    position: {hand: "2C 3C 4C 9D TD JD 5H 5S 5D 8S KS", stock_size: 31}\n'
    text += "    question: q\n    answers: [KS]\n"
    found, problems = read_puzzles(text, "p.yaml")
    assert found == []
    assert [str(p) for p in problems] == ["p.yaml:5: difficulty: expected 1 to 5"]
