"""What the command line reads and writes besides its arguments: standard input and ``--out``.

Standard input is read as bytes and decoded here, so bytes that are not UTF-8 and endless
lines (``< /dev/zero``) are errors naming the line, never a traceback or a hang. ``--out`` is
checked before any work starts.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from gintutor.content.textfile import STANDARD_INPUT, FileError, decode, path_kind, wide_encoding

MAX_LINE = 64 * 1024
"""The longest line read from standard input (a hand is about 30 characters)."""


def stdin_lines(stream: BinaryIO | None = None, limit: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of standard input, without the line break.

    :class:`FileError` for a line that is not UTF-8 or longer than ``limit`` bytes, or for
    UTF-16 or UTF-32 input; a UTF-8 byte-order mark is honoured on the first line only.
    """
    if stream is None:
        stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text-only stand-in (tests): already decoded
        for number, line in enumerate(sys.stdin, start=1):
            yield number, line.rstrip("\r\n")
        return
    number = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        wide = wide_encoding(raw) if number == 1 else None
        if wide is not None:  # its lines do not end in the byte 0x0a: refused whole
            raise FileError(
                "standard input is {encoding} (it starts with that byte-order mark): give it as "
                "UTF-8",
                encoding=wide,
            )
        if len(raw) > limit and not raw.endswith(b"\n"):
            raise FileError(
                "standard input: line {number} is longer than {limit} bytes",
                number=number,
                limit=limit,
            )
        try:
            text = decode(raw, STANDARD_INPUT, boms=number == 1)
        except FileError as error:
            raise FileError(error.template, **{**error.params, "line": number}) from None
        yield number, text.rstrip("\r\n")


def output_file(path: Path, option: str = "--out") -> Path:
    """``path`` if a file can be written there (before any work is done); else FileError.

    The folder must exist; an existing file must be a regular file (a device such as
    ``/dev/null`` is never replaced).
    """
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except (OSError, ValueError):
        path_kind(path)  # raises with the reason (too long, a loop, not a valid path)
        raise
    if mode is not None and not stat.S_ISREG(mode):
        raise FileError(
            "{option} {path}: it is a folder; give a file name"
            if stat.S_ISDIR(mode)
            else "{option} {path}: it is not a regular file; give a file name",
            option=option,
            path=path,
        )
    folder = Path(os.path.realpath(path)).parent
    try:
        kind = path_kind(folder)
    except FileError:
        raise FileError(
            "{option} {path}: the folder {folder} does not exist",
            option=option,
            path=path,
            folder=folder,
        ) from None
    if kind != "folder" or not os.access(folder, os.W_OK):
        raise FileError(
            "{option} {path}: cannot write in {folder}", option=option, path=path, folder=folder
        )
    # The permission bits do not tell everything (/proc, /sys, a read-only mount for root):
    # a file is made there and removed, so the work is not done for nothing.
    try:
        handle, trial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise FileError(
            "{option} {path}: cannot write in {folder} ({reason})",
            option=option,
            path=path,
            folder=folder,
            reason=error.strerror or error,
        ) from None
    os.close(handle)
    os.unlink(trial)
    return path
