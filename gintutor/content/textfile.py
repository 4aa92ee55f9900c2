"""Reading a user's text file safely: regular files only, bounded in size, UTF-8 (BOMs honoured).

Every way a path can go wrong (missing, a folder, a device such as ``/dev/zero``, a FIFO, a
dangling symlink, a symlink loop, a name too long, not UTF-8) is a :class:`FileError` naming
the path and the fix; nothing here can hang or read without bound.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from pathlib import Path

from gintutor.errors import GinError

MAX_BYTES = 8 * 1024 * 1024
"""The largest text file read (the shipped puzzle files are under 100 kB)."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class FileError(GinError):
    """A file could not be read as text: it is missing, not a regular file, too big or not UTF-8."""


def _why(path: Path, error: OSError) -> str:
    """Words for an ``OSError`` on ``path``, telling a dangling symlink from a missing file."""
    if error.errno == errno.ENOENT and os.path.islink(path):
        return f"a symlink to {os.readlink(path)!r}, which does not exist"
    if error.errno == errno.ELOOP:
        return "a symlink loop"
    if error.errno == errno.ENAMETOOLONG:
        return "the path is too long"
    if error.errno == errno.ENOTDIR:
        return "a part of the path is not a folder"
    if error.errno == errno.EISDIR:
        return "a folder, not a file"
    return error.strerror or str(error)


def path_kind(path: Path) -> str:
    """``"file"`` or ``"folder"`` for a path that exists; :class:`FileError` saying what else it is.

    >>> path_kind(Path("/"))
    'folder'
    >>> path_kind(Path("/dev/null"))
    Traceback (most recent call last):
    ...
    gintutor.content.textfile.FileError: /dev/null: a device, not a regular file
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise FileError(f"{path}: {_why(path, error)}") from None
    except ValueError:  # an embedded NUL byte
        raise FileError(f"{str(path)!r}: not a valid path") from None
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    raise FileError(f"{path}: {_special(mode)}, not a regular file")


def _special(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def decode(data: bytes, name: str, *, boms: bool = True) -> str:
    """``data`` as text: UTF-8, or UTF-8/16/32 with a byte-order mark; else :class:`FileError`.
    With ``boms=False`` (a line in the middle of a stream) only UTF-8 is read.

    >>> decode(b"\\xef\\xbb\\xbfbase: classic", "h.yaml")
    'base: classic'
    >>> decode(b"r\\xe8gles", "h.yaml")
    Traceback (most recent call last):
    ...
    gintutor.content.textfile.FileError: h.yaml is not UTF-8 text (byte 0xe8 at line 1, ...
    """
    encoding = next((name for bom, name in _BOMS if boms and data.startswith(bom)), "utf-8")
    if encoding == "utf-8" and b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise FileError(
            f"{name} is not UTF-8 text (a NUL byte at line {line}: UTF-16 without "
            "a byte-order mark, or a binary file): save it as UTF-8"
        )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        detail = f"byte 0x{data[error.start]:02x} at line {line}, column {column}"
        if encoding != "utf-8":
            detail = f"{encoding} with a bad {detail}"
        raise FileError(f"{name} is not UTF-8 text ({detail}): save it as UTF-8") from None
    return text.removeprefix("\ufeff") if boms else text


def wide_encoding(data: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` if ``data`` starts with that byte-order mark, else ``None``.

    >>> wide_encoding("7C".encode("utf-16"))
    'UTF-16'
    """
    name = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    return None if name in (None, "utf-8-sig") else name.upper()


def read_bytes(path: Path, what: str = "the file", limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit``; :class:`FileError` if it
    cannot be read, is not a regular file or is bigger.

    Opened without blocking, so a FIFO is refused rather than waited on, and a device such as
    ``/dev/zero`` is refused rather than read without end.
    """
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileError(f"{path}: cannot read {what}: {_why(path, error)}") from None
    except ValueError:
        raise FileError(f"{str(path)!r}: not a valid path") from None
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        kind = (
            "a folder, not a file"
            if stat.S_ISDIR(mode)
            else (f"{_special(mode)}, not a regular file")
        )
        raise FileError(f"{path}: cannot read {what}: {kind}")
    with os.fdopen(handle, "rb") as stream:
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise FileError(f"{path}: cannot read {what}: {_why(path, error)}") from None
    if len(data) > limit:
        raise FileError(f"{path}: too big for {what} (over {limit // (1024 * 1024)} MB)")
    return data


def read_text(path: Path, what: str = "the file", limit: int = MAX_BYTES) -> str:
    """The text of the regular file at ``path`` (at most ``limit`` bytes, see :func:`decode`).

    Opened without blocking, so a FIFO is refused rather than waited on.
    """
    return decode(read_bytes(path, what, limit), str(path))
