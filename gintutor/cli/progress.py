"""The learner's saved progress (lessons and puzzles): one JSON file, written atomically.

The file lives in the user's data directory (``GINTUTOR_HOME`` overrides it). A file that
cannot be read is moved aside with a warning and a fresh one started: never a crash.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

FILE_NAME = "progress.json"
VERSION = 1


def data_dir() -> Path:
    """Where gintutor keeps the learner's files."""
    home = os.environ.get("GINTUTOR_HOME")
    if home:
        return Path(home)
    from platformdirs import user_data_dir

    return Path(user_data_dir("gintutor", appauthor=False))


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Progress:
    """Progress data with load and atomic save; ``warning`` says if a corrupt file was set aside."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / FILE_NAME
        self.warning: str | None = None
        self.data: dict[str, Any] = self._load()

    def _fresh(self) -> dict[str, Any]:
        return {"version": VERSION, "lessons": {}, "current": None, "puzzles": {}}

    def _load(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return self._fresh()
        except OSError as error:
            self.warning = f"could not read {self.path} ({error.strerror}); starting afresh"
            return self._fresh()
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise ValueError("not a gintutor progress file")
            for key, kind in (("lessons", dict), ("puzzles", dict)):
                if not isinstance(data.setdefault(key, kind()), kind):
                    raise ValueError(f"{key} is not a {kind.__name__}")
        except ValueError:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
            os.replace(self.path, aside)
            self.warning = (
                f"{self.path} was unreadable; it was moved to {aside} and progress restarts"
            )
            return self._fresh()
        return data

    def save(self) -> None:
        """Write the progress file atomically."""
        write_atomically(self.path, json.dumps(self.data, indent=2, sort_keys=True) + "\n")

    def lesson(self, lesson_id: str) -> dict[str, Any]:
        """The record of one lesson (created empty)."""
        lessons: dict[str, Any] = self.data["lessons"]
        record: dict[str, Any] = lessons.setdefault(lesson_id, {"status": "new", "step": 0,
                                                                "steps": {}})
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
