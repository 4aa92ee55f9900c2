"""Caches of what the shipped content files give when read (lesson outlines, the puzzle pack),
kept in the learner's data folder: only ever a saving, never needed.

A cache is one text file written atomically (a crash leaves the old file or the new one); one
that cannot be written is passed by, and a reader ignores one it cannot read or whose key
(what it was made from) is not the current one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def store_quietly(path: Path, text: str) -> None:
    """Write ``text`` to the cache file ``path`` atomically; an error is passed by."""
    store_quietly_bytes(path, text.encode("utf-8"))


def store_quietly_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to the cache file ``path`` atomically; an error is passed by."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, path)
        except OSError:
            os.unlink(temporary)
            raise
    except OSError:
        pass
