"""Every way of stopping a command ends its whole process tree quietly (issue 24, item 5).

The commands run as real processes in a session of their own (a process group, as a terminal
makes one), are signalled, and then: the exit status is 128 + the signal's number, standard
error holds no traceback, and no process of the group is left running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gintutor.engine.workers import Stopped, WorkerDied, Workers

ROOT = Path(__file__).resolve().parent.parent


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running (zombies are dead)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "gintutor", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "stderr").open("wb"),
        env={**os.environ, "NO_COLOR": "1", "GINTUTOR_HOME": str(tmp_path / "home")},
        start_new_session=True,
        cwd=ROOT,
    )


def _stopped(tmp_path: Path, process: subprocess.Popen[bytes], expected: int) -> None:
    """``process`` ends with ``expected``, says nothing on standard error, and leaves nothing
    of its group running (what is left is killed, so a failure leaves nothing either)."""
    try:
        code = process.wait(timeout=30)
    finally:
        _until(lambda: not _group(process.pid), 5)
        left = _group(process.pid)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()
    stderr = (tmp_path / "stderr").read_text(errors="replace")
    assert (code, stderr, left) == (expected, "", [])


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

MATCH = ("match", "simple", "simple", "--games", "100000", "--jobs", "2")


@needs_proc
@pytest.mark.parametrize(
    ("signum", "to_group", "expected"),
    [
        (signal.SIGTERM, False, 143),
        pytest.param(signal.SIGHUP, False, 129, marks=pytest.mark.slow),
        pytest.param(signal.SIGINT, False, 130, marks=pytest.mark.slow),
        pytest.param(signal.SIGTERM, True, 143, marks=pytest.mark.slow),  # `timeout`
        pytest.param(signal.SIGHUP, True, 129, marks=pytest.mark.slow),  # the terminal closed
        (signal.SIGINT, True, 130),  # Ctrl-C
    ],
)
def test_a_stop_signal_ends_a_match_and_its_workers(
    tmp_path: Path, signum: int, to_group: bool, expected: int
) -> None:
    """SIGTERM/SIGHUP to ``match --jobs 2`` killed the parent alone: its workers ran on for up
    to two minutes, each ending in a ``BrokenPipeError`` traceback; Ctrl-C printed a
    ``KeyboardInterrupt`` traceback from each worker."""
    process = _start(tmp_path, *MATCH)
    assert _until(lambda: len(_children(process.pid)) == 2, 30), "the workers did not start"
    time.sleep(0.2)  # the workers are at work
    (os.killpg if to_group else os.kill)(process.pid, signum)
    _stopped(tmp_path, process, expected)


@needs_proc
@pytest.mark.slow
def test_a_stop_signal_ends_a_review_and_its_workers(tmp_path: Path) -> None:
    process = _start(tmp_path, "review", "examples/game.txt", "--jobs", "2")
    assert _until(lambda: len(_children(process.pid)) == 2, 30), "the workers did not start"
    os.kill(process.pid, signal.SIGTERM)
    _stopped(tmp_path, process, 143)


@needs_proc
@pytest.mark.slow
def test_workers_die_with_a_parent_killed_outright(tmp_path: Path) -> None:
    """SIGKILL leaves no chance to clean up: the workers die with the parent (Linux)."""
    if sys.platform != "linux":
        pytest.skip("the parent-death signal is Linux's")
    process = _start(tmp_path, *MATCH)
    assert _until(lambda: len(_children(process.pid)) == 2, 30), "the workers did not start"
    os.kill(process.pid, signal.SIGKILL)
    _stopped(tmp_path, process, -signal.SIGKILL)


# --- the pool itself ---------------------------------------------------------------------------


def _fail(item: int) -> int:
    if item == 3:
        raise ValueError(f"bad item {item}")
    return item


def _sleep(item: float) -> float:
    time.sleep(item)
    return item


def test_an_error_in_a_worker_is_raised_where_its_answer_is_asked_for() -> None:
    with Workers(2) as workers, pytest.raises(ValueError, match="bad item 3") as raised:
        list(workers.imap_unordered(_fail, range(6)))
    assert any("in a worker process" in note for note in raised.value.__notes__)


def test_answers_in_order_of_asking_with_submit() -> None:
    with Workers(2) as workers:
        answers = [workers.submit(_sleep, s) for s in (0.2, 0.0, 0.1, 0.0)]
        assert [answer() for answer in answers] == [0.2, 0.0, 0.1, 0.0]


@needs_proc
def test_a_worker_killed_from_outside_is_reported_not_waited_for() -> None:
    """A ``multiprocessing.Pool`` worker killed while idle kept the queue's lock: the parent
    waited for ever."""
    with Workers(2) as workers:
        answer = workers.submit(_sleep, 30.0)
        victims = _children(os.getpid())
        assert len(victims) == 2
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(WorkerDied):
            answer()
        assert time.monotonic() - start < 5
    assert _children(os.getpid()) == []


def test_the_handlers_are_put_back_and_a_stop_inside_raises_stopped() -> None:
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as a command starts (not xdist's)
    try:
        with pytest.raises(Stopped) as stopped, Workers(1):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        assert (stopped.value.code, stopped.value.signum) == (143, signal.SIGTERM)
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


@needs_proc
def test_a_stop_signal_the_command_was_started_to_ignore_stays_ignored() -> None:
    """``nohup`` ignores SIGHUP: the workers must not make it stop the command."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with Workers(1) as workers:
            answer = workers.submit(_sleep, 0.3)
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            for pid in _children(os.getpid()):
                os.kill(pid, signal.SIGHUP)
            assert answer() == 0.3
    finally:
        signal.signal(signal.SIGHUP, previous)


# --- Ctrl-C as a command starts --------------------------------------------------------------

CUT = """
import os, signal, sys

class Cut:
    "Ctrl-C (a real SIGINT) just as the start imports {module!r}."
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Cut())
sys.argv = ["gintutor", *{args!r}]
from gintutor.cli import main
main()
"""


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("gintutor.cli.app", ("rules",)),  # the interface starts loading
        ("typer", ("rules",)),  # deep in its imports
        ("gintutor.cli.guard", ("rules",)),  # the guard is about to run the command
        ("gintutor.text.rules", ("rules",)),  # the command loads what it shows
    ],
)
def test_ctrl_c_as_a_command_starts_exits_130_quietly(
    tmp_path: Path, module: str, args: tuple[str, ...]
) -> None:
    """SIGINT in the first tenth of a second printed a ``KeyboardInterrupt`` traceback (8 of
    120 early interrupts): the interface was still loading, outside any handler."""
    done = subprocess.run(
        [sys.executable, "-c", CUT.format(module=module, args=args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1", "GINTUTOR_HOME": str(tmp_path)},
    )
    assert (done.returncode, done.stderr) == (130, "")


# --- SIGTERM at a prompt -----------------------------------------------------------------------


@needs_proc
@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, pytest.param(signal.SIGHUP, marks=pytest.mark.slow)]
)
def test_a_stop_signal_at_a_prompt_puts_the_terminal_back_and_keeps_the_game(
    tmp_path: Path, signum: int
) -> None:
    """Killed by SIGTERM at a prompt (the default action), ``play`` left the terminal raw: no
    echo, no line editing, bracketed paste on. It now unwinds as Ctrl-C does: exit 143 (129),
    the terminal as it was, the game saved and readable."""
    import select
    import termios

    from gintutor.content.gamefile import latest_game
    from gintutor.content.games import games_dir, load_game

    master, slave = os.openpty()
    home = tmp_path / "home"
    process = subprocess.Popen(
        [sys.executable, "-m", "gintutor", "play", "--seed", "3"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "GINTUTOR_HOME": str(home), "TERM": "xterm", "NO_COLOR": "1"},
        start_new_session=True,
        cwd=ROOT,
    )
    os.close(slave)
    shown = b""
    try:

        def read() -> None:
            nonlocal shown
            while select.select([master], [], [], 0.05)[0]:
                try:
                    shown += os.read(master, 65536)
                except OSError:
                    return

        def prompting() -> bool:
            """The terminal raw and the prompt drawn (bracketed paste on): a signal in between
            finds nothing drawn to take back (the coach thinking in the background at the
            table makes that window wide enough for the test to hit)."""
            read()
            return not termios.tcgetattr(master)[3] & termios.ECHO and b"\x1b[?2004h" in shown

        assert _until(prompting, 30), f"no prompt: {shown[-300:]!r}"
        process.send_signal(signum)

        def ended() -> bool:
            read()
            return process.poll() is not None

        assert _until(ended, 30)
        read()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        flags = termios.tcgetattr(master)[3]
        os.close(master)
    assert process.returncode == 128 + signum
    assert flags & termios.ECHO and flags & termios.ICANON
    assert b"Traceback" not in shown and shown.endswith(b"\x1b[?2004l")  # bracketed paste off
    game = latest_game(games_dir(home))
    assert game is not None and load_game(game).problems == ()
