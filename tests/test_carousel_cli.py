"""``gintutor carousel``: analyze (text and JSON), score, rules, bad input."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from clirun import run


@pytest.fixture(autouse=True)
def _games_saved_in_a_temporary_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``carousel play`` saves its game: into a fresh data folder, under a fixed time."""
    monkeypatch.setattr("gintutor.cli.carouselrun.now", lambda: dt.datetime(2026, 12, 1, 12))


def test_analyze_json_contract() -> None:
    code, out, _ = run(
        "carousel", "analyze", "--table", "7H 8H 9H 10H", "--hand", "7C 7D 2S", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["table"] == [["7H", "8H", "9H", "TH"]]
    play = data["play"]
    assert play["placed"] == ["7C", "7D"]
    assert play["table"] == [["7C", "7D", "7H"], ["8H", "9H", "TH"]]
    assert play["moves"][0]["card"] == "7H"
    assert play["hand_after"] == ["2S"] and play["points_after"] == 2 and play["can_knock"]


def test_analyze_text() -> None:
    code, out, _ = run(
        "carousel", "analyze", "--table", "7H 8H 9H 10H", "--hand", "7C 7D 2S", "--ascii"
    )
    assert code == 0
    assert "7H from 7H 8H 9H 10H to 7C 7D 7H" in out
    assert "you may knock" in out


def test_first_meld_flag() -> None:
    code, out, _ = run(
        "carousel", "analyze", "--table", "6H 7H 8H", "--hand", "9H", "--json", "--first-meld"
    )
    assert code == 0 and json.loads(out)["play"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--table", "7H 8H", "--hand", "2C"), "at least 3 cards"),
        (("--table", "7H 8H 9H | 7H 7C 7D", "--hand", "7H"), "3 times"),
        (("--table", "7H 8H JK", "--hand", "2C"), "JK=7H"),
        (("--hand", "2C", "--players", "6"), "2 to 5 players"),
    ],
)
def test_bad_input_is_an_error_not_a_traceback(args: tuple[str, ...], message: str) -> None:
    code, _, err = run("carousel", "analyze", *args)
    assert code == 2 and err.startswith("error: ") and message in err


def test_score_sheet() -> None:
    code, out, _ = run("carousel", "score", "A knock 3, B 3, C 3, D 20", "A out, B 12, C 140, D 9")
    assert code == 0
    assert "Winner: A" in out


def test_score_bad_round() -> None:
    code, _, err = run("carousel", "score", "A knock 3, B x")
    assert code == 2 and "NAME [knock|out] POINTS" in err
    code, _, err = run("carousel", "score", "A knock 3, B 99999999999999")
    assert code == 2 and "99999999999999 points: a hand holds at most 9999" in err


def test_rules_prose() -> None:
    code, out, _ = run("carousel", "rules")
    assert code == 0 and "K-A-2" in out and "low_tie=share" in out


# --- play -----------------------------------------------------------------------------------

SCRIPT = "best\nknock\n" * 400  # the best play; knock whenever asked


def test_play_a_whole_round_from_piped_input() -> None:
    code, out, _ = run(
        "carousel", "play", "--players", "3", "--seed", "5", "--round", "--ascii", stdin=SCRIPT
    )
    assert code == 0
    assert "You play 6S 7S 8S." in out
    assert "Round over: Bot3 knocked." in out and "You: 2C 6D AH AH 4H (14 points)" in out
    assert "round | ending" in out and "26 (26)" in out and "One round played" in out
    assert "Game over. Saved as 20261201-120000; see each of your turns" in out


def test_play_shows_the_table_meld_by_meld_and_a_hint() -> None:
    code, out, _ = run("carousel", "play", "--seed", "5", "--ascii", stdin="hint\nhint\nhint\n")
    assert code == 0
    assert "Your hand:" in out and "(empty table)" in out
    assert "Hint: you can shed 21 points this turn" in out
    assert "Hint: place 6S 7S 8S." in out
    assert "New table" in out
    assert out.rstrip().endswith("Go on with: gintutor carousel play --resume")


def test_play_refuses_an_illegal_table_and_asks_again() -> None:
    code, out, _ = run(
        "carousel", "play", "--seed", "5", "--ascii", stdin="6S 7S\nhelp\n6S 7S 8S\n"
    )
    assert code == 0
    assert "a meld has at least 3 cards" in out
    assert "What you can type" in out and "unknown suit" not in out
    assert "You play 6S 7S 8S." in out


def test_play_end_of_input_leaves_cleanly() -> None:
    code, out, err = run("carousel", "play", "--players", "2", stdin="")
    assert code == 0 and "Game saved as 20261201-120000." in out and "Traceback" not in out + err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bot", "wild"), "greedy or careful"),
        (("--players", "6"), "2 to 5 players"),
    ],
)
def test_play_bad_options(args: tuple[str, ...], message: str) -> None:
    code, _, err = run("carousel", "play", *args, stdin="")
    assert code == 2 and err.startswith("error: ") and message in err
