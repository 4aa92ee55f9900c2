"""The learner's saved progress (lessons and puzzles): one JSON file that is never lost.

The file lives in the learner's data folder (:mod:`gintutor.content.store`, which also gives
this module's ``data_dir`` and ``write_atomically``; the format is in ``docs/files.md``).
Invariants:

- Two gintutor processes never lose each other's work: :meth:`Progress.save` takes a lock,
  re-reads the file and keeps what the other process changed, then writes only what this one
  changed on top (:meth:`Progress.locked` is the read-modify-write form).
- A file that cannot be read (permissions, a folder in its place) is never overwritten: that
  is a :class:`ProgressError`. Nor is a file from a newer gintutor (a higher ``version``): it
  is reported (:attr:`Progress.warning`), read as no progress, and saving is refused. A file
  that reads but is not valid progress (garbage, the wrong shape) is moved aside with a
  warning, and progress starts afresh.
- Writes are atomic (a crash leaves the old file or the new), keep the file's mode and write
  through a symlink to its target; temporary files left by killed saves are removed.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gintutor.content.store import PROGRESS, progress_file, system_words
from gintutor.content.store import data_dir as data_dir  # the old names still work
from gintutor.content.store import write_atomically as write_atomically
from gintutor.content.textfile import FileError, json_problem
from gintutor.errors import GinError, Note, Phrase

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: saves still merge, without a lock
    fcntl = None  # type: ignore[assignment]

FILE_NAME = PROGRESS
VERSION = 1
MAX_BYTES = 16 * 1024 * 1024
LOCK_SECONDS = 10.0


class ProgressError(GinError):
    """The progress file cannot be read or written; nothing was changed."""


# The shape of a valid file: the keys each record must have, and the type of each known key.
# Unknown keys are kept as they are, so a newer gintutor's additions survive an older one.
_LESSON_REQUIRED = ("status", "step", "steps")
_PUZZLE_REQUIRED = ("grade", "first_try")
_TYPES: dict[str, Callable[[object], bool]] = {
    "status": lambda v: v in ("new", "started", "done"),
    "step": lambda v: type(v) is int and v >= 0,
    "steps": lambda v: (
        isinstance(v, dict)
        and all(isinstance(k, str) and k.isdecimal() and isinstance(r, dict) for k, r in v.items())
    ),
    "passed": lambda v: isinstance(v, bool),
    "correct": lambda v: isinstance(v, bool),
    "first_try": lambda v: isinstance(v, bool),
    "skipped": lambda v: isinstance(v, bool),
    "tries": lambda v: type(v) is int and v >= 0,
    "hints": lambda v: type(v) is int and v >= 0,
    "grade": lambda v: isinstance(v, str),
    "theme": lambda v: isinstance(v, str),
    "id": lambda v: isinstance(v, str),
    "date": lambda v: isinstance(v, str) and _is_date(v),
}


def _is_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _record_problem(where: str, record: object, required: tuple[str, ...]) -> Phrase | None:
    if not isinstance(record, dict):
        return Phrase("{where} is not a record", where=where)
    for key in required:
        if key not in record:
            return Phrase("{where} has no {key!r}", where=where, key=key)
    for key, value in record.items():
        check = _TYPES.get(key)
        if check is not None and not check(value):
            return Phrase(
                "{where} cannot be {value}", where=f"{where}.{key}", value=json.dumps(value)[:40]
            )
    for key, step in record.get("steps", {}).items():
        problem = _record_problem(f"{where}.steps.{key}", step, ())
        if problem:
            return problem
    return None


def schema_problem(data: object) -> Phrase | None:
    """What is wrong with ``data`` as a progress file (missing top-level parts are filled in),
    in words the front end translates.

    >>> str(schema_problem({"version": 1, "lessons": {"cards": 5}}))
    'lessons.cards is not a record'
    >>> str(schema_problem({"version": 1, "puzzles": {"daily": {"notadate": {}}}}))
    "puzzles.daily has a key 'notadate' that is not a date"
    """
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return Phrase("not a gintutor progress file (version {version})", version=VERSION)
    lessons = data.setdefault("lessons", {})
    puzzles = data.setdefault("puzzles", {})
    current = data.setdefault("current", None)
    if not isinstance(lessons, dict) or not isinstance(puzzles, dict):
        return Phrase(
            "{lessons} and {puzzles} must be mappings", lessons="lessons", puzzles="puzzles"
        )
    if current is not None and not isinstance(current, str):
        return Phrase("{current} is not a lesson id", current="current")
    for lesson_id, record in lessons.items():
        problem = _record_problem(f"lessons.{lesson_id}", record, _LESSON_REQUIRED)
        if problem:
            return problem
    for part in ("solved", "daily"):
        entries = puzzles.setdefault(part, {})
        if not isinstance(entries, dict):
            return Phrase("{where} is not a mapping", where=f"puzzles.{part}")
        for key, entry in entries.items():
            if part == "daily" and not _is_date(key):
                return Phrase(
                    "{where} has a key {key!r} that is not a date",
                    where="puzzles.daily",
                    key=key[:20],
                )
            required = _PUZZLE_REQUIRED + (("id",) if part == "daily" else ())
            problem = _record_problem(f"puzzles.{part}.{key}", entry, required)
            if problem:
                return problem
    return None


def _parse(raw: bytes) -> dict[str, Any]:
    """The progress data in ``raw``; :class:`GinError` saying what is wrong."""
    if len(raw) > MAX_BYTES:
        raise GinError("larger than {size} MB", size=MAX_BYTES // (1024 * 1024))
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise GinError("not UTF-8 text") from None
    except RecursionError:
        raise GinError("JSON nested too deeply") from None
    except ValueError as error:
        raise GinError("not JSON ({reason})", reason=json_problem(error)) from None
    problem = schema_problem(data)
    if problem:
        raise GinError(problem.template, **problem.params)
    assert isinstance(data, dict)
    return data


def _newer_version(raw: bytes) -> int | None:
    """The version of a progress file written by a newer gintutor, else ``None``.

    >>> _newer_version(b'{"version": 2, "lessons": []}'), _newer_version(b'{"version": 1}')
    (2, None)
    """
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if type(version) is int and version > VERSION else None


_MISSING = object()


def _take_theirs(base: Mapping[str, Any], mine: dict[str, Any], theirs: Mapping[str, Any]) -> None:
    """Bring into ``mine``, in place, what another process changed since ``base`` and this one
    did not (where both changed a value, this one's stands)."""
    for key in set(base) | set(theirs):
        old, new = base.get(key, _MISSING), theirs.get(key, _MISSING)
        if new == old:
            continue
        current = mine.get(key, _MISSING)
        if (
            isinstance(current, dict)
            and isinstance(new, dict)
            and (old is _MISSING or isinstance(old, dict))
        ):
            # In place, so that records the caller holds stay the ones that are saved.
            _take_theirs(old if isinstance(old, dict) else {}, current, new)
        elif current == old:
            if new is _MISSING:
                mine.pop(key, None)
            else:
                mine[key] = copy.deepcopy(new)


class Progress:
    """Progress data with load and merging save; ``warning`` says if a bad file was set aside.

    Callers change :attr:`data` (records from :meth:`lesson` stay the same objects across
    saves) and call :meth:`save`; only what they changed since the last load or save is written
    over whatever another process saved meanwhile.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or progress_file()
        self.warning: str | None = None
        self.newer: int | None = None
        """The version of a progress file from a newer gintutor (left as it is, not saved)."""
        self.data: dict[str, Any] = self._load()
        self._base: dict[str, Any] = copy.deepcopy(self.data)

    def _fresh(self) -> dict[str, Any]:
        return {"version": VERSION, "lessons": {}, "current": None, "puzzles": {}}

    def _read(self) -> bytes | None:
        """The file's bytes, ``None`` if there is none; ProgressError if it cannot be read."""
        try:
            handle = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ProgressError(
                "cannot read your progress file {path} ({reason}); nothing was changed: fix it "
                "(e.g. its permissions) or move it away, then try again",
                path=self.path,
                reason=system_words(error),
            ) from None
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            raise ProgressError(
                "{path} is not a regular file: move it away so that gintutor can keep your "
                "progress there",
                path=self.path,
            )
        with os.fdopen(handle, "rb") as stream:
            try:
                return stream.read(MAX_BYTES + 1)
            except OSError as error:
                raise ProgressError(
                    "cannot read your progress file {path} ({reason}); nothing was changed",
                    path=self.path,
                    reason=system_words(error),
                ) from None

    def _load(self) -> dict[str, Any]:
        raw = self._read()
        if raw is None:
            return self._fresh()
        try:
            return _parse(raw)
        except ValueError:
            pass
        if len(raw) <= MAX_BYTES and (newer := _newer_version(raw)) is not None:
            self.newer = newer
            self.warning = Note(
                "{path} was written by a newer gintutor (progress version {newer}; this one "
                "reads version {known}): it is left as it is, and nothing is saved",
                path=self.path,
                newer=newer,
                known=VERSION,
            )
            return self._fresh()
        with self._lock():  # set aside only what is still invalid once no one else is saving
            raw = self._read()
            if raw is None:
                return self._fresh()
            try:
                return _parse(raw)
            except ValueError as error:
                self._set_aside(error)
        return self._fresh()

    def _set_aside(self, why: ValueError) -> None:
        """Move the invalid file aside; ``why`` it is invalid (a :class:`GinError` is
        translated where it is raised again)."""
        target = Path(os.path.realpath(self.path))
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = target.with_name(f"{target.name}.corrupt-{stamp}")
        number = 1
        while aside.exists():
            number += 1
            aside = target.with_name(f"{target.name}.corrupt-{stamp}-{number}")
        try:
            os.replace(target, aside)
        except OSError as error:
            raise ProgressError(
                "{path} is not valid progress ({why}) and could not be moved aside ({reason}): "
                "move it away, then try again",
                path=self.path,
                why=why,
                reason=system_words(error),
            ) from None
        self.warning = Note(
            "{path} was not valid progress ({why}); it was moved to {aside} and progress "
            "starts afresh",
            path=self.path,
            why=why,
            aside=aside,
        )

    @contextmanager
    def _lock(self) -> Iterator[None]:
        """Hold the progress lock (a ``.lock`` file beside the progress file's target)."""
        target = Path(os.path.realpath(self.path))
        if fcntl is None:
            yield
            return
        lock = target.with_name(f".{target.name}.lock")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise self._cannot_save(error, lock) from None
        try:
            deadline = time.monotonic() + LOCK_SECONDS
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise ProgressError(
                            "{path} stayed locked by another gintutor for {seconds:.0f} s; "
                            "try again",
                            path=self.path,
                            seconds=LOCK_SECONDS,
                        ) from None
                    time.sleep(0.01)
            yield
        finally:
            os.close(handle)

    def _cannot_save(self, error: OSError | GinError, lock: Path | None = None) -> ProgressError:
        why: object = system_words(error) if isinstance(error, OSError) else error
        if lock is not None:
            why = Phrase("its lock file {lock}: {why}", lock=lock, why=why)
        return ProgressError(
            "cannot save your progress in {path} ({why}): set GINTUTOR_HOME to a folder you "
            "can write to",
            path=self.path,
            why=why,
        )

    def _refresh(self) -> None:
        """Take into :attr:`data` what other processes saved since this one last read."""
        raw = self._read()
        if raw is None:
            return
        try:
            theirs = _parse(raw)
        except ValueError as error:
            if len(raw) <= MAX_BYTES and (newer := _newer_version(raw)) is not None:
                self.newer = newer  # a newer gintutor saved meanwhile: its file stays
                self.verify_writable()
            self._set_aside(error)
            return
        _take_theirs(self._base, self.data, theirs)

    def _write(self) -> None:
        target = Path(os.path.realpath(self.path))
        if fcntl is not None:  # under the lock, any temporary file is left from a killed save
            for stale in target.parent.glob(f".{target.name}.*.tmp"):
                stale.unlink(missing_ok=True)
        try:
            write_atomically(
                self.path, json.dumps(self.data, indent=2, sort_keys=True) + "\n", make_folder=True
            )
        except FileError as error:
            raise self._cannot_save(error) from None
        self._base = copy.deepcopy(self.data)

    def verify_writable(self) -> None:
        """Raise :class:`ProgressError` if the progress file is from a newer gintutor (before a
        lesson or a puzzle is played whose result could not be saved)."""
        if self.newer is not None:
            raise ProgressError(
                "{path} was written by a newer gintutor (progress version {newer}; this one "
                "reads version {known}): it is left as it is; upgrade gintutor to save progress",
                path=self.path,
                newer=self.newer,
                known=VERSION,
            )

    def save(self) -> None:
        """Write this process's changes over the file as it is now, under the lock."""
        self.verify_writable()
        with self._lock():
            self._refresh()
            self._write()

    @contextmanager
    def locked(self) -> Iterator[dict[str, Any]]:
        """Read-modify-write: :attr:`data`, up to date and locked, saved on leaving the block.

        Use it where a decision depends on what is saved (e.g. "only the first attempt").
        """
        self.verify_writable()
        with self._lock():
            self._refresh()
            yield self.data
            self._write()

    def lesson(self, lesson_id: str) -> dict[str, Any]:
        """The record of one lesson (created empty)."""
        lessons: dict[str, Any] = self.data["lessons"]
        record: dict[str, Any] = lessons.setdefault(
            lesson_id, {"status": "new", "step": 0, "steps": {}}
        )
        return record

    def status(self, lesson_id: str) -> str:
        """``new``, ``started`` or ``done``."""
        record = self.data["lessons"].get(lesson_id)
        return "new" if record is None else str(record.get("status", "new"))

    def reset(self, lesson_id: str | None = None) -> None:
        """Forget one lesson's progress, or every lesson's."""
        if lesson_id is None:
            self.data["lessons"] = {}
            self.data["current"] = None
        else:
            self.data["lessons"].pop(lesson_id, None)
            if self.data.get("current") == lesson_id:
                self.data["current"] = None
