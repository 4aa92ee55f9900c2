"""A game file: append-only JSON lines, written as a game is played (gin's and Carousel's).

What a game's lines say belongs to its reader (``content/games.py`` for gin,
``content/carouselgames.py`` for Carousel); this module keeps the file itself, with the same
guarantees for both, and imports no engine (a Carousel game starts without gin's). Invariants:

- Each line is written whole with one ``write`` on a file opened for appending (in the
  system's hands at once), so a kill at any moment loses at most the line being written. The
  lines are fsynced (with a new file's folder) by :meth:`LineWriter.sync` before the learner is
  asked anything and on closing: a crash of the machine loses at most the lines written since
  the last question, and a start pays for one fsync, not one per line (each ~4 ms of wall
  time on this machine; five of them came before the first question).
- A reader ignores a truncated last line (and reports it); a writer that resumes the game
  first cuts that partial line off.
- A damaged line after the header (by hand, by a disk, by two writers) never makes the lines
  before it unreadable: :func:`read_lines` stops at it and reports the damage; a writer that
  resumes such a game first keeps the whole file beside it (``ID.jsonl.damaged-N``), then
  continues after the last good line.
- One writer at a time: a :class:`LineWriter` holds an exclusive lock on its file (``flock``)
  until it is closed; a second one is refused (:class:`GameOpenError`), never let append.
- Files are created readable by their owner only (0600), like the progress file.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Self

from gintutor.content.store import write_atomically
from gintutor.content.textfile import FileError, json_problem, read_bytes
from gintutor.errors import GinError, Note, Phrase

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, one writer is up to the learner
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".jsonl"
MAX_BYTES = 16 * 1024 * 1024
"""The largest game file read (a long game is a few hundred lines of ~100 bytes)."""

SYNC = True
"""fsync the lines written at each :meth:`LineWriter.sync` (tests that write thousands of lines
may turn it off)."""

_ID = re.compile(r"^(\d{8}-\d{6})(?:-(\d+))?$")


class GameFileError(GinError):
    """A saved game cannot be read or written: the message names the file and the line."""

    exit_code = 1


class GameNotFoundError(GameFileError):
    """No saved game has the id asked for (a usage problem)."""

    exit_code = 2


class GameOpenError(GameFileError):
    """Another gintutor is writing the game (it holds the file's lock)."""


def _id_key(path: Path) -> tuple[str, int]:
    match = _ID.match(path.name.removesuffix(SUFFIX))
    if match is None:
        return ("", 0)
    return (match.group(1), int(match.group(2) or 1))


def list_games(folder: Path) -> list[Path]:
    """The saved game files in ``folder``, oldest first (ids are times; ``-2`` after the plain)."""
    if not folder.is_dir():
        return []
    found = [
        path
        for path in folder.iterdir()
        if path.name.endswith(SUFFIX) and _ID.match(path.name.removesuffix(SUFFIX))
    ]
    return sorted(found, key=_id_key)


def latest_game(folder: Path, *, unfinished: bool = False) -> Path | None:
    """The newest saved game (``unfinished``: the newest that has no ``end`` line)."""
    for path in reversed(list_games(folder)):
        if not unfinished or not _has_end(path):
            return path
    return None


def find_game(folder: Path, name: str) -> Path:
    """A game by id (``20261201-054000``), file name or path; :class:`GameFileError` if none."""
    direct = Path(name)
    if direct.suffix == SUFFIX and direct.is_file():
        return direct
    candidate = folder / (name.removesuffix(SUFFIX) + SUFFIX)
    if _ID.match(name.removesuffix(SUFFIX)) and candidate.is_file():
        return candidate
    known = [p.name.removesuffix(SUFFIX) for p in list_games(folder)][-3:]
    if known:
        raise GameNotFoundError(
            "no saved game {name!r} in {folder} (the latest: {latest})",
            name=name,
            folder=folder,
            latest=", ".join(reversed(known)),
        )
    raise GameNotFoundError(
        "no saved game {name!r} in {folder} (no games saved yet)", name=name, folder=folder
    )


def _has_end(path: Path) -> bool:
    """True when the file's last whole line is an ``end`` line (a cheap look at the tail)."""
    try:
        # Without blocking, and only a regular file's tail: a FIFO or a device in the folder
        # is left to load_game to name, not waited on or read without end.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return False
    with os.fdopen(descriptor, "rb") as stream:
        try:
            stream.seek(0, os.SEEK_END)
            size = stream.tell()
            stream.seek(max(0, size - 4096))
            tail = stream.read(4096)
        except OSError:
            return False
    # Only whole lines count: what follows the last newline is a cut-short line.
    for line in reversed(tail.split(b"\n")[:-1]):
        if line.strip():
            return b'"type": "end"' in line or b'"type":"end"' in line
    return False


def _read_bytes(path: Path) -> bytes:
    """The file's bytes: a regular file of at most :data:`MAX_BYTES` (a FIFO is not waited on,
    a device not read without end)."""
    try:
        size = os.stat(path).st_size
    except OSError as error:
        raise GameFileError(
            "{path}: cannot read ({reason})", path=path, reason=error.strerror or error
        ) from None
    if size > MAX_BYTES:
        raise GameFileError(
            "{path}: {size} bytes is too big for a saved game", path=path, size=size
        )
    try:
        return read_bytes(path, Phrase("the saved game"), MAX_BYTES)
    except FileError as error:
        raise GameFileError(error.template, **error.params) from None


def json_int(data: Mapping[str, Any], key: str, allowed: range | None = None) -> int:
    """A saved line's whole-number field (``allowed``: its range); a :class:`GinError` (a
    ValueError) names it.

    >>> json_int({"player": 2}, "player", range(2))
    Traceback (most recent call last):
    gintutor.errors.GinError: player is 2, not a number from 0 to 1
    """
    value = data.get(key)
    if type(value) is not int or (allowed is not None and value not in allowed):
        if allowed is None:
            raise GinError("{key} is {value!r}, not a number", key=key, value=value)
        raise GinError(
            "{key} is {value!r}, not a number from {low} to {high}",
            key=key,
            value=value,
            low=allowed.start,
            high=allowed.stop - 1,
        )
    return value


def _lines(raw: bytes) -> Iterator[tuple[int, bytes, int]]:
    """``(line number, line, end offset)`` for every line, the last possibly unterminated."""
    start = 0
    number = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        number += 1
        if end < 0:
            yield number, raw[start:], -1
            return
        yield number, raw[start:end], end + 1
        start = end + 1


@dataclass(frozen=True)
class LinesRead:
    """What reading a game file's lines found besides the lines themselves (see
    :func:`read_lines`)."""

    problems: tuple[str, ...]
    complete_bytes: int
    damage: str | None
    size: int


def read_lines(
    path: Path, take: Callable[[Mapping[str, Any], int, int], None], started: Callable[[], bool]
) -> LinesRead:
    """Hand every whole JSON line of the file at ``path`` to ``take(data, line, start)`` in
    order; the reading behind :func:`load_game` (and any other game kept in this format).

    A last line without its newline (the writer was killed mid-line) is ignored and reported.
    A line ``take`` refuses (:class:`ValueError`) or that is not a JSON object ends the reading
    once ``started()`` is true (the header was taken): the lines before it are kept and the
    damage reported; before that, it is a :class:`GameFileError`.
    """
    raw = _read_bytes(path)
    problems: list[str] = []
    complete = 0
    damage: str | None = None
    for number, line, end in _lines(raw):
        if end < 0:
            problems.append(
                Note(
                    "{path}:{number}: the last line is cut short (ignored)",
                    path=path,
                    number=number,
                )
            )
            break
        if line.strip():
            try:
                _take_line(take, path, number, line, complete)
            except GameFileError as error:
                if not started() or number == 1:
                    raise
                damage = Note(error.template, **error.params)
                break
        complete = end
    return LinesRead(tuple(problems), complete, damage, len(raw))


def _take_line(
    take: Callable[[Mapping[str, Any], int, int], None],
    path: Path,
    number: int,
    line: bytes,
    start: int,
) -> None:
    """One whole line to ``take``; :class:`GameFileError` naming the line if it is bad."""
    try:
        data = json.loads(line.decode("utf-8"))
        if not isinstance(data, dict):
            raise GinError("a line is a JSON object")
        take(data, number, start)
    except UnicodeDecodeError as error:
        raise GameFileError(
            "{path}:{number}: not UTF-8 text (byte {byte:#04x} at column {column}): not a line "
            "gintutor wrote",
            path=path,
            number=number,
            byte=line[error.start],
            column=error.start + 1,
        ) from None
    except json.JSONDecodeError as error:
        raise GameFileError(
            "{path}:{number}: not JSON ({reason})",
            path=path,
            number=number,
            reason=json_problem(error),
        ) from None
    except (ValueError, TypeError) as error:
        raise GameFileError(
            "{path}:{number}: {error}", path=path, number=number, error=error
        ) from None
    except RecursionError:
        raise GameFileError(
            "{path}:{number}: JSON nested too deeply", path=path, number=number
        ) from None


def new_game_id(folder: Path, now: dt.datetime) -> str:
    """``YYYYMMDD-HHMMSS`` of ``now``, with ``-2``, ``-3``... if that file exists already."""
    base = now.strftime("%Y%m%d-%H%M%S")
    name, count = base, 1
    while (folder / (name + SUFFIX)).exists():
        count += 1
        name = f"{base}-{count}"
    return name


class ReadGame(Protocol):
    """What :meth:`LineWriter.resume` needs of a game file read (a :class:`SavedGame`, or
    another game kept in this format)."""

    @property
    def path(self) -> Path: ...

    @property
    def size(self) -> int: ...

    @property
    def complete_bytes(self) -> int: ...

    @property
    def damage(self) -> str | None: ...


class LineWriter:
    """Appends lines to a game file: each one whole, fsynced at :meth:`sync` (see the module)."""

    def __init__(self, path: Path, descriptor: int, new_in: Path | None = None) -> None:
        self.path = path
        self._fd = descriptor
        self._unsynced = False
        self._new_in = new_in  # the folder of a new file, its entry not yet fsynced
        self.kept_damage: Path | None = None
        """Where :meth:`resume` kept the file as it was, its damaged tail included."""

    @classmethod
    def open_new(cls, folder: Path, now: dt.datetime | None = None) -> tuple[Self, str, str]:
        """A new empty game file in ``folder`` (made if missing), created 0600 and locked;
        with its id and creation time (ISO, to the second). The caller writes the header."""
        now = now or dt.datetime.now()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            while True:
                game_id = new_game_id(folder, now)
                path = folder / (game_id + SUFFIX)
                try:
                    descriptor = os.open(
                        path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600
                    )
                except FileExistsError:
                    continue  # another process took the id between the check and the open
                break
        except OSError as error:
            raise GameFileError(
                "{folder}: cannot save the game there ({reason}); set GINTUTOR_HOME to a "
                "folder you can write to",
                folder=folder,
                reason=error.strerror or error,
            ) from None
        _lock(descriptor, path)  # no one else knows the file yet: never refused
        return cls(path, descriptor, new_in=folder), game_id, now.replace(microsecond=0).isoformat()

    @classmethod
    def resume(cls, game: ReadGame) -> Self:
        """Append to a saved game, holding its lock: a damaged tail is first kept beside it
        (its name in :attr:`kept_damage`) and a truncated last line cut off.

        :class:`GameOpenError` if another gintutor holds the game; :class:`GameFileError` if
        the file changed since it was read (read it again).
        """
        try:
            descriptor = os.open(game.path, os.O_RDWR | os.O_APPEND)
        except OSError as error:
            raise GameFileError(
                "{path}: cannot continue the game ({reason})",
                path=game.path,
                reason=error.strerror or error,
            ) from None
        try:
            _lock(descriptor, game.path)
            size = os.fstat(descriptor).st_size
            if game.size and size != game.size:
                raise GameFileError(
                    "{path}: the game changed while it was being read; try again", path=game.path
                )
            kept = None
            if size != game.complete_bytes:
                if game.damage is not None:
                    kept = _keep_damaged(game.path, descriptor)
                os.ftruncate(descriptor, game.complete_bytes)
                os.fsync(descriptor)
        except OSError as error:
            os.close(descriptor)
            raise GameFileError(
                "{path}: cannot continue the game ({reason})",
                path=game.path,
                reason=error.strerror or error,
            ) from None
        except GinError:
            os.close(descriptor)
            raise
        writer = cls(game.path, descriptor)
        writer.kept_damage = kept
        return writer

    def line(self, data: Mapping[str, Any]) -> None:
        """Append ``data`` as one JSON line, whole (on disk at the next :meth:`sync`)."""
        line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError as error:
            raise GameFileError(
                "{path}: cannot save ({reason})", path=self.path, reason=error.strerror or error
            ) from None
        self._unsynced = True

    def sync(self) -> None:
        """Put the lines written so far on disk (and a new file's name in its folder)."""
        if not self._unsynced or self._fd < 0:
            return
        if SYNC:
            try:
                os.fsync(self._fd)
            except OSError as error:
                raise GameFileError(
                    "{path}: cannot save ({reason})",
                    path=self.path,
                    reason=error.strerror or error,
                ) from None
            if self._new_in is not None:
                _sync_folder(self._new_in)
        self._new_in = None
        self._unsynced = False

    def end(self, reason: str) -> None:
        """The ``end`` line: ``finished`` (played to the end) or ``resigned``."""
        self.line({"type": "end", "reason": reason})

    def close(self) -> None:
        """Close the file, its lines on disk."""
        if self._fd >= 0:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (a crash right after creating it keeps it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _lock(descriptor: int, path: Path) -> None:
    """Take the game file's writer lock; :class:`GameOpenError` if another process holds it."""
    if fcntl is None:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise GameOpenError(
            "{path}: this game is open in another gintutor; go on playing it there, or close "
            "that one first",
            path=path,
        ) from None


def _keep_damaged(path: Path, descriptor: int) -> Path:
    """A copy of the whole file beside it, ``ID.jsonl.damaged-N`` (not a game file, so never
    listed or resumed), before its damaged tail is cut off."""
    number = 1
    while (kept := path.with_name(f"{path.name}.damaged-{number}")).exists():
        number += 1
    size = os.fstat(descriptor).st_size
    data = os.pread(descriptor, size, 0)
    try:
        write_atomically(kept, data)
    except FileError as error:
        raise GameFileError(
            "{path}: the game is damaged and a copy could not be kept ({error}); nothing "
            "was changed",
            path=path,
            error=error,
        ) from None
    return kept
