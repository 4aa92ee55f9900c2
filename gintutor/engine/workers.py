"""Worker processes for ``--jobs`` work that end with the command, however it ends.

Every command that spreads work over processes (``match``, ``review``, ``puzzles check``,
``puzzles generate``) uses :class:`Workers`:

- a worker ignores Ctrl-C: the terminal sends SIGINT to the whole process group, and the parent
  alone decides (each worker printed a ``KeyboardInterrupt`` traceback);
- while workers run, SIGTERM and SIGHUP to the parent raise :class:`Stopped` (exit 143, 129) as
  Ctrl-C raises ``KeyboardInterrupt`` (exit 130): the ``with`` block ends and the workers are
  killed and reaped. A stop signal left at its default killed the parent alone, and its workers
  ran on as orphans for up to two minutes, each ending in a ``BrokenPipeError`` traceback;
- a worker dies with the parent even when the parent is killed outright (SIGKILL), on Linux;
- each worker has a pipe of its own and one task at a time, so a worker killed at any moment
  leaves no lock held: ``multiprocessing.Pool`` shares one queue lock among its workers, and a
  worker killed while waiting for a task (``timeout`` signals the whole group) left
  ``Pool.terminate()`` waiting for that lock for ever. A worker that dies is reported, not
  waited for.

A signal disposition the parent was started with as "ignore" (``nohup`` ignores SIGHUP) is kept
in the parent and its workers.

>>> with Workers(2) as workers:
...     sorted(workers.imap_unordered(abs, [-3, 1, -2]))
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from types import FrameType, TracebackType
from typing import Any, NoReturn, TypeAlias, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_STOPS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The stop signals the parent turns into :class:`Stopped` while its workers run."""
_ALL_STOPS = (signal.SIGINT, *_STOPS)
_Mask: TypeAlias = "set[int | signal.Signals] | None"
"""A thread's signal mask as :func:`signal.pthread_sigmask` gives it; None where none exist."""
_PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when its parent dies (Linux)."""


class Stopped(SystemExit):
    """SIGTERM or SIGHUP stopped the command while its workers ran: exit 128 + the signal's
    number (143, 129), what a shell reports for a process the signal killed."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed from outside, out of memory)."""


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def _block_stops() -> _Mask:
    """Hold the stop signals (they wait, pending) and return the previous mask; None where
    signal masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _ALL_STOPS)


def _restore_mask(mask: _Mask) -> None:
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies; exit now if it already has."""
    if sys.platform == "linux":
        # No libc to ask (OSError, AttributeError): the pipe's end still ends the worker.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _serve(connection: Connection, parent: int, ignored: tuple[int, ...], mask: _Mask) -> None:
    """A worker's life: answer ``(function, item)`` with ``(True, result)`` or ``(False,
    exception)`` until the pipe closes or ``None`` comes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in _STOPS:
        signal.signal(signum, signal.SIG_IGN if signum in ignored else signal.SIG_DFL)
    _die_with_parent(parent)
    _restore_mask(mask)  # a stop signal sent to the group before this point was ignored
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        function, item = task
        try:
            reply: tuple[bool, Any] = (True, function(item))
        except Exception as error:  # the parent raises it where it asks for the answer
            reply = (False, _portable(error))
        try:
            connection.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer that cannot be pickled
            connection.send((False, _portable(error)))


def _portable(error: Exception) -> Exception:
    """``error`` with the worker's traceback as a note, as the parent can unpickle it (else a
    ``RuntimeError`` that names it)."""
    error.add_note("in a worker process:\n" + traceback.format_exc().rstrip())
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, parent: int, ignored: tuple[int, ...], mask: Any) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(theirs, parent, ignored, mask), daemon=True
        )
        self.process.start()
        theirs.close()  # the worker's death closes the pipe: the parent reads the end of it
        self.ticket: int | None = None


class Workers:
    """``processes`` worker processes running module-level functions on picklable items, to be
    used as a context manager: leaving the block, whatever the reason, kills and reaps every
    worker and puts the signal handlers back.

    :meth:`imap_unordered` runs a function over items, answers as they come; :meth:`submit`
    runs one item and returns a function that waits for its answer. An exception in a worker is
    raised in the parent where its answer is asked for.
    """

    def __init__(self, processes: int) -> None:
        self._queue: list[tuple[int, Callable[[Any], Any], Any]] = []
        self._answers: dict[int, tuple[bool, Any]] = {}
        self._tickets = 0
        self._handlers: dict[int, Any] = {}
        self._workers: list[_Worker] = []
        ignored = tuple(s for s in _STOPS if signal.getsignal(s) is signal.SIG_IGN)
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        )
        mask = _block_stops()  # held until the handlers are set; a worker starts with them held
        try:
            if threading.current_thread() is threading.main_thread():
                for signum in _STOPS:
                    if signal.getsignal(signum) is signal.SIG_DFL:
                        self._handlers[signum] = signal.signal(signum, _raise_stopped)
            for _ in range(max(1, processes)):
                self._workers.append(_Worker(context, os.getpid(), ignored, mask))
        except BaseException:
            self._end(mask)
            raise
        _restore_mask(mask)

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Kill and reap every worker and put the signal handlers back (idempotent)."""
        self._end(_block_stops())  # a second Ctrl-C must not cut the ending short

    def _end(self, mask: _Mask) -> None:
        try:
            for worker in self._workers:
                worker.process.kill()
            for worker in self._workers:
                worker.process.join()
                worker.connection.close()
            self._workers = []
            for signum, handler in self._handlers.items():
                signal.signal(signum, handler)
            self._handlers = {}
        finally:
            _restore_mask(mask)  # a stop signal that came meanwhile acts now

    def submit(self, function: Callable[[T], R], item: T) -> Callable[[], R]:
        """Run ``function(item)`` on a worker; the returned function waits for its answer."""
        ticket = self._enqueue(function, item)

        def answer() -> R:
            while ticket not in self._answers:
                self._receive()
            result: R = _unwrap(self._answers.pop(ticket))
            return result

        return answer

    def imap_unordered(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``function(item)`` of every item, in the order they finish; at most one item per
        worker is taken from ``items`` ahead."""
        waiting: set[int] = set()
        for item in items:
            waiting.add(self._enqueue(function, item))
            while len(waiting) >= len(self._workers):
                yield from self._finished(waiting)
        while waiting:
            yield from self._finished(waiting)

    def _finished(self, waiting: set[int]) -> Iterator[Any]:
        """The answers to the tickets in ``waiting`` that have come, at least one (waited for);
        each leaves ``waiting``."""
        done = waiting & self._answers.keys()
        while not done:
            self._receive()
            done = waiting & self._answers.keys()
        for ticket in sorted(done):
            waiting.discard(ticket)
            yield _unwrap(self._answers.pop(ticket))

    def _enqueue(self, function: Callable[[Any], Any], item: Any) -> int:
        """Queue ``function(item)``, start it if a worker is idle, and return its ticket."""
        ticket = self._tickets
        self._tickets += 1
        self._queue.append((ticket, function, item))
        self._dispatch()
        return ticket

    def _dispatch(self) -> None:
        """Give queued tasks to idle workers, oldest first."""
        for worker in self._workers:
            if not self._queue:
                return
            if worker.ticket is None:
                ticket, function, item = self._queue.pop(0)
                worker.connection.send((function, item))
                worker.ticket = ticket

    def _receive(self) -> None:
        """Wait for at least one answer and file it under its ticket."""
        busy = {w.connection: w for w in self._workers if w.ticket is not None}
        if not busy:
            raise RuntimeError("no task is running: nothing to wait for")
        for connection in wait(list(busy)):
            worker = busy[connection]
            try:
                answer = worker.connection.recv()
            except (EOFError, OSError):
                self._died(worker)
            assert worker.ticket is not None
            self._answers[worker.ticket] = answer
            worker.ticket = None
        self._dispatch()

    def _died(self, worker: _Worker) -> NoReturn:
        """A worker's pipe closed without an answer: a stop signal sent to the whole group
        stops the command as it stops the parent; anything else is an error."""
        worker.process.join()
        code = worker.process.exitcode or 0
        if -code == signal.SIGINT:
            raise KeyboardInterrupt
        if -code in _STOPS:
            raise Stopped(-code)
        raise WorkerDied(f"a worker process ended without answering (exit status {code})")


def _unwrap(answer: tuple[bool, Any]) -> Any:
    ok, value = answer
    if not ok:
        raise value
    return value
