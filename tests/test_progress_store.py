"""The progress store never loses the learner's work: concurrent processes merge under a lock,
unreadable files are never overwritten, corrupt files are set aside, failed saves are errors."""

from __future__ import annotations

import builtins
import io
import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from clirun import run

from gintutor.cli.progress import Progress, ProgressError, schema_problem

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def saved(home: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((home / "progress.json").read_text(encoding="utf-8"))
    return data


def entry(grade: str = "Best") -> dict[str, Any]:
    return {"grade": grade, "first_try": True, "hints": 0, "theme": "outs", "date": "2026-12-01"}


# --- two processes at once ---------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from gintutor.cli.progress import Progress

    def wait(flag):
        while not Path(flag).exists():
            time.sleep(0.005)

    home, role = Path(sys.argv[1]), sys.argv[2]
    if role == "slow":
        progress = Progress(home / "progress.json")
        (home / "slow-loaded").touch()
        wait(home / "fast-saved")
        progress.lesson("layoffs")["status"] = "started"
        progress.save()
    elif role == "fast":
        wait(home / "slow-loaded")
        progress = Progress(home / "progress.json")
        progress.data["puzzles"].setdefault("solved", {})["outs-049"] = {
            "grade": "Best", "first_try": True}
        progress.save()
        (home / "fast-saved").touch()
    else:  # many saves of one's own keys, each process keeping its one Progress
        progress = Progress(home / "progress.json")
        for n in range(int(sys.argv[3])):
            progress.lesson(f"{role}-{n}")["step"] = n
            progress.save()
""")


def children(home: Path, *roles: list[str]) -> None:
    running = [subprocess.Popen([sys.executable, "-c", CHILD, str(home), *role]) for role in roles]
    for child in running:
        assert child.wait(timeout=60) == 0


def test_a_save_keeps_what_another_process_saved_meanwhile(tmp_path: Path) -> None:
    """The slow process loaded before the fast one saved; its save keeps the fast one's puzzle."""
    children(tmp_path, ["slow"], ["fast"])
    data = saved(tmp_path)
    assert data["lessons"]["layoffs"]["status"] == "started"
    assert data["puzzles"]["solved"]["outs-049"]["grade"] == "Best"


def test_many_processes_saving_at_once_lose_nothing(tmp_path: Path) -> None:
    children(tmp_path, *([f"p{n}", "12"] for n in range(4)))
    lessons = saved(tmp_path)["lessons"]
    assert sorted(lessons) == sorted(f"p{p}-{n}" for p in range(4) for n in range(12))
    assert not list(tmp_path.glob(".progress.json.*.tmp"))


@pytest.mark.slow
def test_learn_waiting_for_an_answer_keeps_a_puzzle_solved_meanwhile(home: Path) -> None:
    env = {**os.environ, "GINTUTOR_HOME": str(home), "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    learn = subprocess.Popen(
        [sys.executable, "-m", "gintutor", "learn", "2"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert learn.stdin is not None and learn.stdout is not None
    seen = ""
    while not seen.rstrip().endswith(">"):  # the first question: progress is loaded and saved
        char = learn.stdout.read(1)
        assert char, seen
        seen += char
    puzzle = subprocess.run(
        [sys.executable, "-m", "gintutor", "puzzle", "--id", "outs-049"],
        env=env,
        input="3H\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert puzzle.returncode == 0, puzzle.stderr
    learn.communicate("skip\n" * 20 + "q\n", timeout=120)
    data = saved(home)
    assert "outs-049" in data["puzzles"]["solved"]
    assert data["lessons"]


def test_records_held_by_the_caller_stay_the_saved_ones(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    mine, other = Progress(path), Progress(path)
    record = mine.lesson("sets")
    record["step"] = 1
    mine.save()
    other.lesson("sets")["steps"]["0"] = {"correct": True}
    other.save()
    mine.save()  # takes the other's step 0 into the very record held above
    record["step"] = 2
    mine.save()
    assert saved(tmp_path)["lessons"]["sets"] == {
        "status": "new",
        "step": 2,
        "steps": {"0": {"correct": True}},
    }


def test_locked_read_modify_write_sees_the_latest_file(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    mine, other = Progress(path), Progress(path)
    other.data["puzzles"]["solved"] = {"outs-001": entry("Mistake")}
    other.save()
    with mine.locked() as data:
        assert "outs-001" in data["puzzles"]["solved"]  # a first attempt already stands
    assert saved(tmp_path)["puzzles"]["solved"]["outs-001"]["grade"] == "Mistake"


# --- files that cannot be read are never overwritten ------------------------------------------


@pytest.fixture
def unreadable(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A progress file that cannot be opened (as chmod 000 does, even when tests run as root)."""
    path = home / "progress.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "lessons": {"cards": {"status": "done", "step": 3, "steps": {}}},
                "current": None,
                "puzzles": {},
            }
        )
    )
    real_os_open, real_open = os.open, builtins.open

    def refuse(name: Any) -> None:
        if os.fspath(name) == str(path):
            raise PermissionError(13, "Permission denied", str(path))

    def os_open(name: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if not flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            refuse(name)
        return real_os_open(name, flags, *args, **kwargs)

    def open_(name: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(name, (str, Path)) and "r" in mode:
            refuse(name)
        return real_open(name, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
    return path


@pytest.mark.parametrize("args", [["learn", "2"], ["learn", "--list"], ["puzzle", "--stats"]])
def test_an_unreadable_file_is_an_error_and_kept(unreadable: Path, args: list[str]) -> None:
    before = io.FileIO(unreadable).read()  # FileIO is not patched: the bytes as they are
    code, _, err = run(*args, stdin="skip\n" * 10)
    assert code == 2
    assert err.startswith(
        f"error: cannot read your progress file {unreadable} "
        "(Permission denied); nothing was changed"
    )
    assert io.FileIO(unreadable).read() == before
    assert [p.name for p in unreadable.parent.iterdir()] == ["progress.json"]


@pytest.mark.skipif(ROOT, reason="root reads any file whatever its mode")
def test_chmod_000_file_is_an_error_and_kept(home: Path) -> None:
    path = home / "progress.json"
    path.write_text('{"version": 1, "lessons": {}, "current": null, "puzzles": {}}')
    path.chmod(0)
    try:
        code, _, err = run("learn", "2", stdin="skip\n")
        assert code == 2 and "cannot read your progress file" in err
    finally:
        path.chmod(0o600)
    assert json.loads(path.read_text())["version"] == 1


# --- corrupt files are set aside -----------------------------------------------------------------

VALID_LESSON = {"status": "started", "step": 1, "steps": {}}
CORRUPT = {
    "binary": b"\x00\xff\xfe garbage \x89PNG",
    "deep-json": b"[" * 200_000 + b"]" * 200_000,
    "not-json": b'{"version": 1, "lessons": ',
    "lesson-not-a-record": b'{"version": 1, "lessons": {"cards": 5}}',
    "step-not-a-number": json.dumps(
        {"version": 1, "lessons": {"cards": {**VALID_LESSON, "step": "x"}}}
    ).encode(),
    "missing-keys": json.dumps(
        {"version": 1, "lessons": {"cards": {"status": "started"}}}
    ).encode(),
    "solved-not-a-record": b'{"version": 1, "puzzles": {"solved": {"x": 5}}}',
    "daily-not-a-date": json.dumps(
        {"version": 1, "puzzles": {"daily": {"notadate": {"id": "outs-001", **entry()}}}}
    ).encode(),
    "steps-not-a-mapping": json.dumps(
        {"version": 1, "lessons": {"cards": {**VALID_LESSON, "steps": [1]}}}
    ).encode(),
    "wrong-version": b'{"version": 0}',
}


@pytest.mark.parametrize(
    ("kind", "args"),
    [(kind, ["puzzle", "--stats"]) for kind in sorted(CORRUPT)]
    + [(kind, ["learn", "--list"]) for kind in ("binary", "missing-keys", "daily-not-a-date")],
)
def test_corrupt_files_are_set_aside_with_a_warning(home: Path, kind: str, args: list[str]) -> None:
    (home / "progress.json").write_bytes(CORRUPT[kind])
    code, _, err = run(*args)
    assert code == 0, err
    assert err.startswith(f"warning: {home / 'progress.json'} was not valid progress (")
    aside = list(home.glob("progress.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == CORRUPT[kind]


def test_two_corrupt_files_in_one_second_are_both_kept(home: Path) -> None:
    for text in (b"first", b"second"):
        (home / "progress.json").write_bytes(text)
        Progress()
    assert sorted(p.read_bytes() for p in home.glob("progress.json.corrupt-*")) == [
        b"first",
        b"second",
    ]


def test_valid_files_pass_the_schema() -> None:
    assert (
        schema_problem(
            {
                "version": 1,
                "lessons": {
                    "cards": {
                        **VALID_LESSON,
                        "passed": True,
                        "steps": {"2": {"correct": True, "tries": 1}},
                    }
                },
                "current": "cards",
                "puzzles": {
                    "solved": {"outs-001": entry()},
                    "daily": {"2026-12-01": {"id": "outs-001", **entry()}},
                },
                "added-by-a-newer-version": [1],
            }
        )
        is None
    )


# --- saves that fail are errors -------------------------------------------------------------------


def test_gintutor_home_that_cannot_exist_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINTUTOR_HOME", "/proc/nope")
    code, _, err = run("learn", "1", stdin="skip\n" * 10)
    assert code == 2
    assert err.startswith("error: cannot save your progress in /proc/nope/progress.json")


def test_gintutor_home_a_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.write_text("not a folder")
    monkeypatch.setenv("GINTUTOR_HOME", str(home))
    code, _, err = run("learn", "1", stdin="skip\n")
    assert code == 2 and err.startswith("error: cannot read your progress file")
    assert home.read_text() == "not a folder"


def test_a_folder_where_the_file_should_be_is_an_error(home: Path) -> None:
    (home / "progress.json").mkdir()
    code, _, err = run("puzzle", "--stats")
    assert code == 2 and err.startswith(f"error: {home / 'progress.json'} is not a regular file")


@pytest.mark.skipif(ROOT, reason="root writes in read-only folders")
def test_a_read_only_folder_is_an_error(home: Path) -> None:
    home.chmod(0o500)
    try:
        code, _, err = run("learn", "1", stdin="skip\n")
    finally:
        home.chmod(0o700)
    assert code == 2 and err.startswith("error: cannot save your progress")


def test_a_failing_write_is_an_error_and_leaves_no_temporary_file(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    progress = Progress()

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ProgressError, match="No space left on device"):
        progress.save()
    assert [p.name for p in home.iterdir()] == [".progress.json.lock"]


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is a POSIX file lock")
def test_a_lock_file_that_cannot_be_opened_is_named(home: Path) -> None:
    """A folder where the lock file goes: the error names the lock file, not the progress."""
    (home / ".progress.json.lock").mkdir()
    lock = home / ".progress.json.lock"
    with pytest.raises(ProgressError, match=f"its lock file {lock}: Is a directory"):
        Progress().save()


# --- what a save leaves behind ---------------------------------------------------------------


def test_stale_temporary_files_from_killed_saves_are_removed(home: Path) -> None:
    stale = home / ".progress.json.abc123.tmp"
    stale.write_text("half a save")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    Progress().save()
    assert not stale.exists()
    assert (home / "progress.json").exists()


def test_a_read_only_progress_file_keeps_its_mode(home: Path) -> None:
    path = home / "progress.json"
    Progress().save()
    path.chmod(0o444)
    progress = Progress()
    progress.lesson("cards")
    progress.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert "cards" in saved(home)["lessons"]


def test_a_symlinked_progress_file_keeps_its_link(home: Path, tmp_path_factory: Any) -> None:
    elsewhere = tmp_path_factory.mktemp("dotfiles") / "gintutor-progress.json"
    elsewhere.write_text('{"version": 1, "lessons": {}, "current": null, "puzzles": {}}')
    link = home / "progress.json"
    link.symlink_to(elsewhere)
    progress = Progress()
    progress.lesson("cards")
    progress.save()
    assert link.is_symlink() and link.resolve() == elsewhere.resolve()
    assert "cards" in json.loads(elsewhere.read_text())["lessons"]


# --- a file from a newer gintutor, a finished lesson played again -------------------------------

NEWER = b'{"version": 2, "lessons": {"cards": {"stars": 3}}, "badges": ["x"]}\n'


@pytest.mark.parametrize("args", [["learn", "--list"], ["puzzle", "--stats"]])
def test_a_file_from_a_newer_gintutor_is_reported_and_left_as_it_is(
    home: Path, args: list[str]
) -> None:
    """``learn --list`` moved a newer gintutor's progress aside ("progress starts afresh")."""
    (home / "progress.json").write_bytes(NEWER)
    code, _, err = run(*args)
    assert code == 0, err
    assert err.startswith(f"warning: {home / 'progress.json'} was written by a newer gintutor")
    assert "left as it is" in err
    assert (home / "progress.json").read_bytes() == NEWER
    assert not list(home.glob("progress.json.*"))  # nothing set aside


@pytest.mark.parametrize("args", [["learn", "1"], ["puzzle"], ["learn", "--reset", "--yes"]])
def test_a_file_from_a_newer_gintutor_is_never_saved_over(home: Path, args: list[str]) -> None:
    (home / "progress.json").write_bytes(NEWER)
    code, out, err = run(*args, stdin="skip\n" * 20)
    assert code == 2 and err.startswith("error: ") and "newer gintutor" in err, (code, err)
    assert "upgrade gintutor" in err and out == ""
    assert (home / "progress.json").read_bytes() == NEWER


def test_a_newer_file_saved_meanwhile_is_not_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    mine = Progress(path)
    path.write_bytes(NEWER)  # a newer gintutor saved while this one was running
    mine.lesson("cards")["status"] = "started"
    with pytest.raises(ProgressError, match="newer gintutor"):
        mine.save()
    assert path.read_bytes() == NEWER and not list(tmp_path.glob("progress.json.*"))


def test_playing_a_finished_lesson_again_and_skipping_keeps_its_score(home: Path) -> None:
    """Re-opening a lesson done 4/4 and skipping every question made it 3/4 (each skip was
    recorded over the right answer); a replay may raise a score, never lower it."""
    from test_lessons import LESSONS, learn, right_answers

    lesson = next(lesson for lesson in LESSONS if len(lesson.questions) >= 2)
    questions = len(lesson.questions)
    learn(lesson.id, stdin="\n".join(right_answers(lesson)) + "\n")
    before = saved(home)["lessons"][lesson.id]
    code, _, _ = learn(lesson.id, stdin="skip\n" * questions)
    assert code == 0
    assert saved(home)["lessons"][lesson.id]["steps"] == before["steps"]
    listed = json.loads(run("learn", "--list", "--json")[1])
    mine = next(item for item in listed if item["id"] == lesson.id)
    assert mine["score"] == {"right_first_time": questions, "questions": questions}
    assert mine["status"] == "done"


def test_a_replay_raises_a_score(home: Path) -> None:
    from test_lessons import LESSONS, learn, right_answers

    lesson = next(lesson for lesson in LESSONS if len(lesson.questions) >= 2)
    learn(lesson.id, stdin="skip\n" * len(lesson.questions))
    learn(lesson.id, stdin="\n".join(right_answers(lesson)) + "\n")
    listed = json.loads(run("learn", "--list", "--json")[1])
    mine = next(item for item in listed if item["id"] == lesson.id)
    assert mine["score"]["right_first_time"] == len(lesson.questions)
    assert mine["status"] == "done"
