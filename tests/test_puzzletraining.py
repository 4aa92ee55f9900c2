"""The puzzle training loop: next and retry, the per-theme Glicko-2 rating, the daily streak."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from pathlib import Path

import pytest
from clirun import run
from test_puzzles import PUZZLES  # read once for both modules (~0.25 s CPU a process)

from gintutor.cli.progress import Progress
from gintutor.content.verdicts import solve
from gintutor.tutor.daily import daily, next_puzzle
from gintutor.tutor.puzzles import Grade, PuzzleKind, Theme
from gintutor.tutor.rating import SCALE, START, TAU, Rating, puzzle_rating


@pytest.fixture
def home(warm_home: Path) -> Path:
    """The data folder of a learner's second run (conftest.py's ``warm_home``): these tests are
    about the puzzle commands, not about building their caches (test_startup.py's are)."""
    return warm_home


DAILY = [p for p in PUZZLES if p.kind is not PuzzleKind.CLOSE_CALL]
"""What ``gintutor puzzle`` picks the daily from: every puzzle but the close calls."""


def test_glickmans_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system" (2012): 1500 (RD 200, volatility 0.06) beats
    # 1400 (RD 30) and loses to 1550 (RD 100) and 1700 (RD 300), tau 0.5: 1464.06, 151.52,
    # 0.05999 (his steps are rounded; the exact computation gives 1464.0507).
    after = Rating(1500, 200, 0.06).after(
        [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)], tau=0.5
    )
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def _f(x: float, delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    a = math.log(sigma * sigma)
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


@pytest.mark.parametrize(
    ("rating", "games"),
    [
        (Rating(), [(1100.0, 150.0, 0.0)]),
        (Rating(1800, 60, 0.06), [(1900.0, 150.0, 1.0)]),
        (Rating(1400, 120, 0.09), [(1300.0, 150.0, 1.0), (1500.0, 150.0, 0.0)]),
    ],
)
def test_the_new_volatility_is_the_root_of_glickmans_function(
    rating: Rating, games: list[tuple[float, float, float]]
) -> None:
    # An independent check of step 5: bisection on f, then steps 6 and 7 by hand.
    mu, phi = (rating.rating - START) / SCALE, rating.deviation / SCALE
    terms = []
    for r, rd, s in games:
        g = 1 / math.sqrt(1 + 3 * (rd / SCALE) ** 2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (r - START) / SCALE)))
        terms.append((g, e, s))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    low, high = -20.0, 5.0
    for _ in range(200):
        middle = (low + high) / 2
        if _f(middle, delta, phi, v, rating.volatility, TAU) > 0:
            low = middle
        else:
            high = middle
    sigma = math.exp(low / 2)
    after = rating.after(games)
    assert after.volatility == pytest.approx(sigma, rel=1e-4)
    phi_new = 1 / math.sqrt(1 / (phi**2 + sigma**2) + 1 / v)
    mu_new = mu + phi_new**2 * sum(g * (s - e) for g, e, s in terms)
    assert after.deviation == pytest.approx(SCALE * phi_new, rel=1e-4)
    assert after.rating == pytest.approx(START + SCALE * mu_new, rel=1e-6)


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_interval() -> None:
    start = Rating()
    won = start.after([(*puzzle_rating(3), 1.0)])
    lost = start.after([(*puzzle_rating(3), 0.0)])
    assert lost.rating < start.rating < won.rating
    assert won.deviation < start.deviation and lost.deviation < start.deviation
    # Beating an easy puzzle moves the rating less than beating a hard one.
    assert start.after([(*puzzle_rating(1), 1.0)]).rating < won.rating
    assert Rating(1500, 50).after([]).deviation > 50  # idle: the uncertainty grows


def test_next_puzzle_is_unplayed_of_the_theme_and_near_the_rating() -> None:
    played = {p.id for p in PUZZLES[:5]}
    strong = {"outs": Rating(1900, 60)}
    chosen = next_puzzle(PUZZLES, played, strong, theme="outs")
    assert chosen is not None and chosen.theme is Theme.OUTS and chosen.id not in played
    hardest = max(p.difficulty for p in PUZZLES if p.theme is Theme.OUTS)
    assert chosen.difficulty == hardest
    weak = next_puzzle(PUZZLES, played, {"outs": Rating(1100, 60)}, theme="outs")
    assert weak is not None and weak.difficulty == min(
        p.difficulty for p in PUZZLES if p.theme is Theme.OUTS
    )
    every = {p.id for p in PUZZLES if p.theme is Theme.SAFETY}
    assert next_puzzle(PUZZLES, every, {}, theme="safety") is None


def _wrong(puzzle_id: str) -> str:
    puzzle = next(p for p in PUZZLES if p.id == puzzle_id)
    return next(r.code for r in solve(puzzle).rows if r.grade is not Grade.BEST)


def _right(puzzle_id: str) -> str:
    return next(p for p in PUZZLES if p.id == puzzle_id).answers[0]


def test_enter_offers_the_next_puzzle_of_the_theme(home: Path) -> None:
    first = next(p for p in PUZZLES if p.theme is Theme.DEADWOOD)
    code, out, _ = run(
        "puzzle", "--id", first.id, "--theme", "deadwood", stdin=f"{_right(first.id)}\n\nskip\nn\n"
    )
    assert code == 0
    shown = re.findall(r"^Puzzle (\S+):", out, re.MULTILINE)
    assert shown[0] == first.id and len(shown) == 2 and shown[1].startswith("deadwood-")
    solved = Progress(home / "progress.json").data["puzzles"]["solved"]
    assert set(solved) == set(shown)


def test_a_retry_is_practice_and_moves_no_rating(home: Path) -> None:
    puzzle_id = next(p.id for p in PUZZLES if p.theme is Theme.DEADWOOD)
    stdin = f"{_wrong(puzzle_id)}\ny\n{_right(puzzle_id)}\nn\n"
    code, out, _ = run("puzzle", "--id", puzzle_id, stdin=stdin)
    assert code == 0
    assert "Try it again (practice)?" in out and "Practice: your rating does not move." in out
    store = Progress(home / "progress.json").data["puzzles"]
    assert store["practice"] == 1
    assert store["solved"][puzzle_id]["first_try"] is False  # the first attempt stands
    assert store["ratings"]["deadwood"]["games"] == 1


def test_the_end_line_and_stats_agree(home: Path) -> None:
    ids = [p.id for p in PUZZLES if p.theme is Theme.DEADWOOD][:3]
    lines = []
    answers = (_right(ids[0]), _wrong(ids[1]), _right(ids[2]))
    for puzzle_id, answer in zip(ids, answers, strict=True):
        _, out, _ = run("puzzle", "--id", puzzle_id, stdin=f"{answer}\nn\n")
        lines.append(next(line for line in out.splitlines() if "puzzle rating" in line))
    assert lines[-1].endswith("First try: 2 of 3 deadwood puzzles (67%).")
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    row = stats["themes"]["deadwood"]
    assert (row["first_try"], row["attempted"]) == (2, 3)
    rating = Rating(row["rating"]["rating"], row["rating"]["deviation"])
    assert f"rating: {rating.text()}" in lines[-1]
    assert row["rating"]["interval"] == pytest.approx(
        [rating.rating - 2 * rating.deviation, rating.rating + 2 * rating.deviation], abs=0.2
    )
    _, text, _ = run("puzzle", "--stats")
    assert rating.text() in text and "2 (67%)" in text


def test_only_todays_daily_makes_the_streak(home: Path) -> None:
    today = dt.date.today()
    yesterday = today - dt.timedelta(days=1)
    past = daily(DAILY, yesterday)
    code, out, _ = run("puzzle", "--date", yesterday.isoformat(), stdin=f"{past.answers[0]}\nn\n")
    assert code == 0 and "gintutor daily" not in out
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert stats["streak"] == 0 and stats["first_try"] == 1  # rated, but no streak day
    puzzle = daily(DAILY, today)
    run("puzzle", stdin=f"{puzzle.answers[0]}\nn\n")
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert stats["streak"] == 1


def test_a_daily_recorded_on_another_day_is_no_streak_day(home: Path) -> None:
    today = dt.date.today()
    progress = Progress(home / "progress.json")
    with progress.locked() as data:
        data["puzzles"] = {
            "daily": {
                today.isoformat(): {
                    "id": "outs-001",
                    "grade": "Best",
                    "first_try": True,
                    "date": today.isoformat(),
                },
                (today - dt.timedelta(days=1)).isoformat(): {
                    "id": "outs-002",
                    "grade": "Best",
                    "first_try": True,
                    "date": today.isoformat(),  # solved today, a day late
                },
            }
        }
    stats = json.loads(run("puzzle", "--stats", "--json")[1])
    assert (stats["streak"], stats["best_streak"]) == (1, 1)


def test_a_broken_rating_record_starts_again(home: Path) -> None:
    progress = Progress(home / "progress.json")
    with progress.locked() as data:
        data["puzzles"] = {
            "ratings": {"outs": {"rating": "x"}, "safety": {"rating": 1e308, "deviation": 1}},
            "practice": "many",
        }
    code, out, err = run("puzzle", "--stats", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["practice"] == 0, err
    for theme in ("outs", "safety"):
        assert stats["themes"][theme]["rating"]["rating"] == 1500.0
