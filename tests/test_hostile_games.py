"""Saved games under attack: two gintutor processes on one game, a damaged tail, a header
naming a bot this gintutor lacks, a full disk, a log with hands after the game was won, the
file's mode. The robustness sweep of issue 24 broke each of these."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import run
from test_play import BOT, GAME, NOW, SEED, scripted

from gintutor.cli import playrun
from gintutor.content import gamefile
from gintutor.content.gamefile import GameOpenError
from gintutor.content.games import GameWriter, games_dir, load_game

EXAMPLE = Path(__file__).parents[1] / "examples" / "game.txt"


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is not what these tests check (tests/test_games_file.py does)."""
    monkeypatch.setattr(gamefile, "SYNC", False)


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``GINTUTOR_HOME`` with a short path: messages name files in it whole (a word over 100
    characters is shown by its two ends, and pytest's folders under xdist are long)."""
    folder = Path(tempfile.mkdtemp(prefix="gg-"))
    monkeypatch.setenv("GINTUTOR_HOME", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's id is :data:`GAME`."""
    monkeypatch.setattr(playrun, "now", lambda: NOW)


def start_game(home: Path, moves: int) -> Path:
    """A saved game, unfinished, the learner's first ``moves`` moves played."""
    inputs = scripted()
    code, _, err = run(
        "play", "--bot", BOT, "--coach", "off", "--seed", str(SEED),
        stdin="\n".join(inputs[:moves]),
    )  # fmt: skip
    assert code == 0, err
    return games_dir(home) / f"{GAME}.jsonl"


def test_a_second_writer_on_one_game_is_refused(home: Path, fixed_time: None) -> None:
    path = start_game(home, 5)
    first = GameWriter.resume(load_game(path))
    try:
        with pytest.raises(GameOpenError, match="open in another gintutor"):
            GameWriter.resume(load_game(path))
    finally:
        first.close()
    GameWriter.resume(load_game(path)).close()  # free again once the first is closed


def test_two_play_resume_on_one_game_leave_it_whole(home: Path, fixed_time: None) -> None:
    """Both processes appended and the file no longer replayed ('…jsonl:8: pass is not
    allowed in the discard phase'); the second is now refused, exit 1, and the game goes on."""
    path = start_game(home, 5)
    before = path.read_bytes()
    first = subprocess.Popen(
        [sys.executable, "-m", "gintutor", "play", "--resume"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1", "GINTUTOR_HOME": str(home)},
    )
    try:
        assert first.stdout is not None
        deadline = time.monotonic() + 60
        seen = b""
        while b"Resuming game" not in seen and time.monotonic() < deadline:
            seen += first.stdout.read1(4096)  # type: ignore[attr-defined]
        assert b"Resuming game" in seen, seen
        code, out, err = run("play", "--resume", stdin="\n".join(scripted()[5:]))
        assert code == 1 and out == "", (code, err)
        assert err == f"error: {path}: this game is open in another gintutor; go on playing it " \
            "there, or close that one first\n"  # fmt: skip
        code, _, err = run("review", "--worlds", "2", "--jobs", "1")  # reading is allowed
        assert code == 0, err
    finally:
        first.communicate(b"quit\n", timeout=60)
    assert first.returncode == 0
    assert path.read_bytes() == before
    code, out, err = run("play", "--resume", stdin="\n".join(scripted()[5:]))
    assert code == 0 and "Game over." in out, err
    game = load_game(path)
    assert game.finished and game.problems == ()


def _damage(path: Path) -> tuple[int, bytes]:
    """Spoil the line after the second ``hand`` line (as a second writer did): the number of
    hands before it and the file as it was."""
    lines = path.read_bytes().splitlines(keepends=True)
    second = [i for i, line in enumerate(lines) if b'"type": "hand"' in line][1]
    record = json.loads(lines[second + 1])
    record["action"] = "pass" if record["action"] != "pass" else "draw"
    record["player"] = 1 - record["player"]
    lines.insert(second + 1, (json.dumps(record) + "\n").encode())
    path.write_bytes(b"".join(lines))
    return second + 2, path.read_bytes()


def test_a_damaged_tail_never_makes_the_earlier_hands_unreadable(
    home: Path, fixed_time: None
) -> None:
    path = start_game(home, len(scripted()) // 2)
    line, damaged = _damage(path)
    game = load_game(path)
    assert len(game.hands) == 2 and len(game.hands[1].actions) == 0 and game.states[0].over
    assert game.damage is not None and game.damage.startswith(f"{path}:{line}: ")
    code, out, err = run("review", "--worlds", "2", "--jobs", "1")
    assert code == 0, err
    assert err.startswith(f"warning: {path}:{line}: ") and "read up to the line before" in err
    assert "Hand 1" in out
    assert path.read_bytes() == damaged  # reading changes nothing
    code, out, err = run("play", "--resume", stdin="quit\n")
    assert code == 0, err
    assert f"note: {path}:{line}: " in out
    kept = path.with_name(f"{GAME}.jsonl.damaged-1")
    assert f"kept as {kept}" in out and kept.read_bytes() == damaged
    assert load_game(path).damage is None  # continues from the last good line
    assert [p.name for p in games_dir(home).glob("*.jsonl")] == [f"{GAME}.jsonl"]


def test_saved_games_are_readable_by_their_owner_only(home: Path, fixed_time: None) -> None:
    """Created 0755 before (progress was 0600); whatever the umask lets through."""
    old = os.umask(0o022)
    try:
        path = start_game(home, 2)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_unknown_bot_in_the_header_is_a_content_error(home: Path, fixed_time: None) -> None:
    path = start_game(home, 2)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["bot"] = "deep-blue"
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    code, _, err = run("play", "--resume", stdin="")
    assert code == 1
    assert err.startswith("error: ") and ".jsonl:1: unknown bot 'deep-blue' (this gintutor" in err


def test_a_full_disk_during_play_is_exit_1(
    home: Path, fixed_time: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    write = os.write
    lines = 0

    def full(descriptor: int, data: bytes | memoryview) -> int:
        nonlocal lines
        if descriptor > 2:
            lines += 1
            if lines > 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write(descriptor, data)

    monkeypatch.setattr(gamefile.os, "write", full)
    code, _, err = run(
        "play", "--bot", BOT, "--coach", "off", "--seed", str(SEED),
        stdin="\n".join(scripted()[:8]),
    )  # fmt: skip
    assert code == 1, err
    assert err.startswith("error: ") and "No space left on device" in err


def test_a_log_with_a_hand_after_the_game_ended_names_the_line(home: Path) -> None:
    """exit 2 without ``file:line`` before (docs/review.md: 1, with it)."""
    tmp_path = home
    house = tmp_path / "house.yaml"
    house.write_text("base: standard\ntarget: 10\n", encoding="utf-8")
    log = tmp_path / "game.txt"
    log.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace("rules: standard", f"rules: {house}"),
        encoding="utf-8",
    )
    second = 1 + EXAMPLE.read_text(encoding="utf-8").splitlines().index("hand 2")
    code, out, err = run("review", str(log), "--worlds", "2", "--jobs", "1")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {log}:{second}: hand 2: the game was already over after hand 1")


def test_a_saved_game_with_a_hand_after_it_was_won_reads_up_to_that_hand(
    home: Path, fixed_time: None
) -> None:
    path = start_game(home, len(scripted()) // 2)
    assert len(load_game(path).hands) >= 2
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    # The same game under a target the first hand reaches: its second hand is damage.
    header["rules"] = {"name": "low", "house": "base: standard\ntarget: 1\n"}
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    second = 1 + next(i for i, line in enumerate(lines) if '"hand": 2, "deal"' in line)
    game = load_game(path)
    assert len(game.hands) == 1 and game.states[0].over
    assert game.damage == (
        f"{path}:{second}: hand 2: the game was already over after hand 1 (a player reached 1)"
    )
