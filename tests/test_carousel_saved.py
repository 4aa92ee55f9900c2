"""Carousel games saved as they are played: the file, quit and resume, a kill, the seed."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import run

from gintutor.content.carouselgames import (
    CarouselWriter,
    carousel_games_folder,
    load_carousel_game,
)
from gintutor.content.gamefile import GameOpenError
from gintutor.engine.carousel.game import BotLevel, Phase

ROOT = Path(__file__).resolve().parents[1]


def game_files(home: Path) -> list[Path]:
    return sorted((home / "games" / "carousel").glob("*.jsonl"))


def last_view(out: str) -> str:
    """The last table view shown (from ``Table`` to the hand line)."""
    views = re.findall(r"^Table\n.*?^Your hand: [^\n]*$", out, re.S | re.M)
    assert views, out
    return views[-1]


def test_quit_saves_and_says_how_to_resume(home: Path) -> None:
    code, out, err = run("carousel", "play", "--seed", "7", "--ascii", stdin="best\nbest\nquit\n")
    assert code == 0 and err == ""
    assert "(seed 7; --seed 7 deals it again)" in out
    [path] = game_files(home)
    assert f"Game saved as {path.stem}. Go on with: gintutor carousel play --resume" in out
    assert path.stat().st_mode & 0o777 == 0o600
    saved = load_carousel_game(path)
    assert saved.end is None and saved.problems == ()
    assert saved.header.seed == 7 and saved.header.players == 3
    assert saved.header.bot is BotLevel.GREEDY and not saved.header.one_round
    plays = [a for a in saved.rounds[0].actions if a.entry.player == 0 and a.coach]
    assert len(plays) == 2 and all("best_left" in a.coach for a in plays)  # type: ignore[operator]


def test_resume_goes_on_from_the_same_state(home: Path) -> None:
    _, first, _ = run("carousel", "play", "--seed", "11", "--ascii", stdin="best\nbest\nquit\n")
    before = last_view(first)
    code, resumed, err = run("carousel", "play", "--resume", "--ascii", stdin="quit\n")
    assert code == 0 and err == ""
    [path] = game_files(home)
    assert resumed.startswith(f"Resuming game {path.stem} (seed 11, 2 greedy bots), round 1.")
    assert last_view(resumed) == before
    # Going on after the resume, then resuming again by name: still the same game.
    run("carousel", "play", "--resume", path.stem, "--ascii", stdin="best\nquit\n")
    saved = load_carousel_game(path)
    assert len(game_files(home)) == 1 and saved.end is None
    learner = [a for a in saved.rounds[0].actions if a.entry.player == 0]
    # Three decisions (best plays, or draws again with nothing to place), all in one file.
    assert sum(a.entry.action.value in ("play", "pass") for a in learner) == 3


def test_the_same_seed_deals_the_same_game(home: Path) -> None:
    _, a, _ = run("carousel", "play", "--seed", "5", "--ascii", stdin="quit\n")
    _, b, _ = run("carousel", "play", "--seed", "5", "--ascii", stdin="quit\n")
    assert last_view(a) == last_view(b)
    first, second = game_files(home)
    assert first != second  # two games, two files (an id clash gets -2)


def test_a_finished_round_is_saved_as_finished(home: Path) -> None:
    code, out, _ = run(
        "carousel", "play", "--seed", "5", "--round", "--ascii", stdin="best\nknock\n" * 400
    )
    assert code == 0 and "Game over. Saved as" in out
    [path] = game_files(home)
    saved = load_carousel_game(path)
    assert saved.finished and saved.states[-1].phase is Phase.ROUND_OVER
    code, _, err = run("carousel", "play", "--resume", path.stem)
    assert code == 2 and f"game {path.stem} is over (finished)" in err
    code, _, err = run("carousel", "play", "--resume")
    assert code == 1 and "no unfinished Carousel game" in err


def test_resume_refuses_other_settings(home: Path) -> None:
    for option in (["--players", "4"], ["--bot", "careful"], ["--seed", "3"], ["--round"]):
        code, _, err = run("carousel", "play", "--resume", *option)
        assert code == 2 and f"leave out {option[0]}" in err
    code, _, err = run("carousel", "play", "20261202-133749")
    assert code == 2 and "write --resume 20261202-133749" in err


def test_a_cut_short_line_is_ignored_and_the_game_goes_on(home: Path) -> None:
    _, first, _ = run("carousel", "play", "--seed", "9", "--ascii", stdin="best\nquit\n")
    [path] = game_files(home)
    with path.open("ab") as file:
        file.write(b'{"type": "action", "round": 1, "pla')
    code, out, _ = run("carousel", "play", "--resume", "--ascii", stdin="quit\n")
    assert code == 0 and "the last line is cut short (ignored)" in out
    assert last_view(out) == last_view(first)
    assert path.read_bytes().endswith(b"}\n")  # the partial line was cut off


def test_a_damaged_line_keeps_the_rounds_before_it(tmp_path: Path) -> None:
    writer, _ = CarouselWriter.create(
        tmp_path, players=2, bot=BotLevel.GREEDY, coach=True, seed=3, one_round=False
    )
    with writer:
        writer.round(1, 3, 0)
        writer.writer.line({"type": "action", "round": 1, "player": 0, "action": "knock"})
    saved = load_carousel_game(writer.path)
    assert saved.damage is not None and ":3: round 1: " in saved.damage
    assert len(saved.rounds) == 1 and saved.rounds[0].actions == ()
    # A round with the wrong seed is damage too (the seed of each round is the game's).
    path = tmp_path / "other.jsonl"
    lines = [
        json.dumps({**_header(), "id": "x"}),
        json.dumps({"type": "round", "round": 1, "seed": 99, "first": 0}),
    ]
    path.write_text("\n".join(lines) + "\n")
    assert "the game's seed deals it from 3" in str(load_carousel_game(path).damage)


def _header() -> dict[str, object]:
    return {
        "type": "carousel",
        "version": 1,
        "created": "",
        "players": 2,
        "bot": "greedy",
        "coach": "on",
        "seed": 3,
        "one_round": False,
    }


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    writer, _ = CarouselWriter.create(
        tmp_path, players=2, bot=BotLevel.GREEDY, coach=True, seed=3, one_round=False
    )
    with writer:
        writer.sync()
        with pytest.raises(GameOpenError, match="open in another gintutor"):
            CarouselWriter.resume(load_carousel_game(writer.path))


def test_a_kill_loses_at_most_the_turn_being_typed(home: Path) -> None:
    """kill -9 while the learner is asked: every action before the question is in the file,
    and the resumed game shows the same table."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "gintutor", "carousel", "play", "--seed", "13", "--ascii"]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=home
    )
    assert process.stdin is not None and process.stdout is not None
    # Two plays, then an edit typed but never finished: the turn being typed.
    process.stdin.write(b"best\nbest\nnew 2C 3C\n")
    process.stdin.flush()
    shown = b""
    deadline = time.monotonic() + 60
    while shown.count(b"edit, done, draw") < 3 and time.monotonic() < deadline:
        shown += os.read(process.stdout.fileno(), 65536)
    time.sleep(0.3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stdin.close()
    process.stdout.close()
    before = last_view(shown.decode())
    [path] = game_files(home)
    saved = load_carousel_game(path)
    assert saved.problems == () and saved.end is None
    state = saved.states[-1]
    assert state.player == 0 and state.phase is Phase.MAY_PLAY
    code, out, _ = run("carousel", "play", "--resume", "--ascii", stdin="quit\n")
    assert code == 0 and last_view(out) == before


def test_the_folder_is_apart_from_gins_games(home: Path) -> None:
    assert carousel_games_folder() == home / "games" / "carousel"
    run("carousel", "play", "--seed", "7", "--ascii", stdin="quit\n")
    code, _, err = run("play", "--resume")
    assert code != 0 and "no unfinished game" in err
