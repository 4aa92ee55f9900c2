"""``carousel puzzle``: retry, next (Enter), --difficulty, stats: gin's loop and record."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clirun import run


@pytest.fixture
def home(warm_home: Path) -> Path:
    """The data folder of a learner's second run (conftest.py's ``warm_home``): these tests are
    about the puzzle commands, not about building their caches (test_startup.py's are)."""
    return warm_home


def best_table(*args: str) -> tuple[str, dict]:  # type: ignore[type-arg]
    code, out, _ = run("carousel", "puzzle", *args, "--json")
    assert code == 0
    data = json.loads(out)
    table = " | ".join(" ".join(meld) for meld in data["play"]["table"])
    return table, data


def progress(home: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((home / "progress.json").read_text())  # type: ignore[no-any-return]


def test_a_failed_puzzle_is_retried_as_practice(home: Path) -> None:
    table, _ = best_table("--id", "carousel-031")
    script = f"none\ny\n{table}\nn\n"
    code, out, _ = run("carousel", "puzzle", "--id", "carousel-031", "--ascii", stdin=script)
    assert code == 0
    assert "Good: you place nothing." in out
    assert "Your carousel puzzle rating:" in out  # the first attempt is rated
    assert "Already played on" in out and "This is practice" in out
    assert "Best: you place" in out and "Practice: your rating does not move." in out
    store = progress(home)["puzzles"]
    # The first attempt stands; the retry is practice.
    assert store["solved"]["carousel-031"]["grade"] == "Good"
    assert store["solved"]["carousel-031"]["theme"] == "carousel"
    assert store["practice"] == 1 and store["ratings"]["carousel"]["games"] == 1


def test_enter_goes_on_to_the_next_puzzle_of_the_difficulty(home: Path) -> None:
    code, out, _ = run(
        "carousel", "puzzle", "--difficulty", "4", "--ascii", stdin="none\n\n\nnone\n\nn\n"
    )
    assert code == 0
    shown = re.findall(r"\((carousel-\d+), difficulty (\d)\)", out)
    assert len(shown) == 2 and shown[0][0] != shown[1][0]
    assert {level for _, level in shown} == {"4"}
    assert set(progress(home)["puzzles"]["solved"]) == {pid for pid, _ in shown}


def test_an_illegal_table_is_refused_at_the_prompt_and_asked_again(home: Path) -> None:
    table, _ = best_table("--id", "carousel-031")
    code, out, _ = run(
        "carousel", "puzzle", "--id", "carousel-031", "--ascii", stdin=f"2H 2S\n{table}\nn\n"
    )
    assert code == 0 and "at least 3 cards" in out and "Best: you place" in out
    assert progress(home)["puzzles"]["solved"]["carousel-031"]["grade"] == "Best"
    assert progress(home)["puzzles"]["solved"]["carousel-031"]["first_try"] is True


def test_stats_show_carousel_beside_gins_themes(home: Path) -> None:
    run("carousel", "puzzle", "--id", "carousel-031", "--ascii", stdin="skip\nn\n")
    code, out, _ = run("carousel", "puzzle", "--stats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["attempted"] == 1 and stats["themes"]["carousel"]["attempted"] == 1
    assert stats["themes"]["carousel"]["rating"]["games"] == 1
    code, out, _ = run("carousel", "puzzle", "--stats", "--ascii")
    assert code == 0 and "carousel" in out and "1 puzzle played" in out
    code, out, _ = run("puzzle", "--stats", "--json")
    assert json.loads(out)["themes"]["carousel"]["attempted"] == 1


def test_difficulty_options(home: Path) -> None:
    code, _, err = run("carousel", "puzzle", "--id", "carousel-031", "--difficulty", "2")
    assert code == 2 and "leave out --difficulty" in err
    code, _, err = run("carousel", "puzzle", "--difficulty", "9")
    assert code == 2
    _, data = best_table("--difficulty", "5")
    assert data["difficulty"] == 5
