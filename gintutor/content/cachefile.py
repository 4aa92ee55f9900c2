"""Caches of what the shipped content files give when read (lesson outlines, the puzzle pack),
kept in the learner's data folder: only ever a saving, never needed.

A cache is one file written atomically (a crash leaves the old file or the new one); one that
cannot be written is passed by, and a reader ignores one it cannot read or whose key (what it
was made from) is not the current one. Records read from content (a lesson read in full) are
kept pickled under their key (:func:`keep`, :func:`kept`): only gintutor's own records are ever
unpickled from the data folder.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
from dataclasses import is_dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from gintutor import __version__
from gintutor.content.store import write_atomically
from gintutor.content.textfile import FileError, read_bytes
from gintutor.errors import Phrase

MAX_BYTES = 64 * 1024 * 1024
"""The largest cache file read (the puzzle pack's is under 1 MB)."""


def read_quietly(path: Path) -> bytes | None:
    """The bytes of the cache file ``path``, or ``None`` if there is none or it cannot be read:
    anything but a regular file (a FIFO is not waited on, ``/dev/zero`` not read without end)
    or one over :data:`MAX_BYTES` is passed by, as a missed saving."""
    try:
        return read_bytes(path, Phrase("the cache"), MAX_BYTES)
    except FileError:
        return None


def can_store(path: Path) -> bool:
    """True when a cache file can be written at ``path`` (its folder, or the nearest folder
    above it that exists, is writable): a cache that would cost work to fill is not filled
    where it could never be kept."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK)


def store_quietly(path: Path, text: str) -> None:
    """Write ``text`` to the cache file ``path`` atomically; an error is passed by."""
    store_quietly_bytes(path, text.encode("utf-8"))


def store_quietly_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to the cache file ``path`` atomically; an error is passed by."""
    with contextlib.suppress(FileError):
        write_atomically(path, data, make_folder=True)


def code_fingerprint() -> str:
    """The size and modification time of every module of gintutor, and its version: records
    kept by other code are not used."""
    parts: list[Any] = [__version__]
    folders = [str(Path(__file__).resolve().parents[1])]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir() and entry.name != "__pycache__":
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    status = entry.stat()
                    parts.append((entry.path, status.st_size, status.st_mtime_ns))
    return json.dumps(parts)


def keep(path: Path, key: str, value: Any) -> None:
    """Keep ``value`` (gintutor's records) in ``path`` under ``key``; an error is passed by."""
    store_quietly_bytes(path, pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL))


def kept(path: Path, key: str) -> Any:
    """The value kept in ``path`` under ``key``, or ``None`` (none, another key, or anything
    unexpected in it).

    Only gintutor's own records (dataclasses and enums) are ever unpickled: kept records hold
    nothing else, and no function, no other class and no other module is reached from the data
    folder.
    """

    class GintutorOnly(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            parts = module.split(".")
            if parts[0] == "gintutor" and not any(part.startswith("_") for part in parts):
                found = super().find_class(module, name)
                if isinstance(found, type) and (is_dataclass(found) or issubclass(found, Enum)):
                    return found
            raise pickle.UnpicklingError(f"{module}.{name} is not one of gintutor's records")

    data = read_quietly(path)
    if data is None:
        return None
    try:
        stored_key, value = GintutorOnly(io.BytesIO(data)).load()
    except Exception:  # a damaged or foreign file is only a missed saving
        return None
    return value if stored_key == key else None
