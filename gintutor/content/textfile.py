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

from gintutor.errors import GinError, Phrase

MAX_BYTES = 8 * 1024 * 1024
"""The largest text file read (the shipped puzzle files are under 100 kB)."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


STANDARD_INPUT = Phrase("standard input")
"""What standard input is called in an error (``standard input is not UTF-8 text``)."""

THE_FILE = Phrase("the file")
"""What a file is called in an error when the caller does not say (``Phrase("the lesson")``)."""


class FileError(GinError):
    """A file could not be read as text: it is missing, not a regular file, too big or not UTF-8."""


def _why(path: Path, error: OSError) -> Phrase:
    """Words for an ``OSError`` on ``path``, telling a dangling symlink from a missing file
    (the system's own words, as it gives them, for another error)."""
    if error.errno == errno.ENOENT and os.path.islink(path):
        return Phrase("a symlink to {target!r}, which does not exist", target=os.readlink(path))
    if error.errno == errno.ELOOP:
        return Phrase("a symlink loop")
    if error.errno == errno.ENAMETOOLONG:
        return Phrase("the path is too long")
    if error.errno == errno.ENOTDIR:
        return Phrase("a part of the path is not a folder")
    if error.errno == errno.EISDIR:
        return Phrase("a folder, not a file")
    if error.errno == errno.ENOENT:  # the C library's words, as before, and translated
        return Phrase("No such file or directory")
    if error.errno == errno.EACCES:
        return Phrase("Permission denied")
    return Phrase("{reason}", reason=error.strerror or str(error))


_JSON_WORDS = (
    ("Expecting value", Phrase("a value was expected")),
    ("Expecting property name", Phrase("a name in double quotes was expected")),
    ("Expecting ':'", Phrase("a colon was expected")),
    ("Expecting ','", Phrase("a comma was expected")),
    ("Unterminated string", Phrase("an unclosed string")),
    ("Invalid control character", Phrase("a control character inside a string")),
    ("Invalid \\", Phrase("a backslash escape that JSON does not have")),
    ("Extra data", Phrase("more text after the end")),
    ("Illegal trailing comma", Phrase("a comma before a closing bracket")),
)
"""The words of the ``json`` module's messages (the same in the C and the Python decoder)."""


def json_problem(error: ValueError) -> Phrase:
    """Why :func:`json.loads` refused a text, in words the front end translates: what was
    wrong and where (the decoder's English message is not shown).

    >>> import json
    >>> try:
    ...     json.loads('{"a": }')
    ... except ValueError as error:
    ...     str(json_problem(error))
    'a value was expected at line 1, column 7'
    """
    message, line, column = (getattr(error, key, None) for key in ("msg", "lineno", "colno"))
    if not isinstance(message, str):  # not a decode error: an integer too long to convert
        return Phrase("a number with too many digits")
    what = next((words for start, words in _JSON_WORDS if message.startswith(start)), None)
    if what is None:
        return Phrase("at line {line}, column {column}", line=line, column=column)
    return Phrase("{what} at line {line}, column {column}", what=what, line=line, column=column)


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
        raise FileError("{path}: {why}", path=path, why=_why(path, error)) from None
    except ValueError:  # an embedded NUL byte
        raise FileError("{path!r}: not a valid path", path=str(path)) from None
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    raise FileError("{path}: {kind}, not a regular file", path=path, kind=_special(mode))


def _special(mode: int) -> Phrase:
    if stat.S_ISFIFO(mode):
        return Phrase("a pipe (FIFO)")
    if stat.S_ISSOCK(mode):
        return Phrase("a socket")
    return Phrase("a device")


def decode(data: bytes, name: str | Phrase, *, boms: bool = True) -> str:
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
            "{name} is not UTF-8 text (a NUL byte at line {line}: UTF-16 without "
            "a byte-order mark, or a binary file): save it as UTF-8",
            name=name,
            line=line,
        )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise FileError(
            "{name} is not UTF-8 text (byte {byte:#04x} at line {line}, column {column}): "
            "save it as UTF-8"
            if encoding == "utf-8"
            else "{name} is not UTF-8 text ({encoding} with a bad byte {byte:#04x} at line "
            "{line}, column {column}): save it as UTF-8",
            name=name,
            encoding=encoding,
            byte=data[error.start],
            line=line,
            column=column,
        ) from None
    return text.removeprefix("\ufeff") if boms else text


def wide_encoding(data: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` if ``data`` starts with that byte-order mark, else ``None``.

    >>> wide_encoding("7C".encode("utf-16"))
    'UTF-16'
    """
    name = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    return None if name in (None, "utf-8-sig") else name.upper()


def read_bytes(path: Path, what: str | Phrase = THE_FILE, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit``; :class:`FileError` if it
    cannot be read, is not a regular file or is bigger.

    Opened without blocking, so a FIFO is refused rather than waited on, and a device such as
    ``/dev/zero`` is refused rather than read without end.
    """
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileError(
            "{path}: cannot read {what}: {why}", path=path, what=what, why=_why(path, error)
        ) from None
    except ValueError:
        raise FileError("{path!r}: not a valid path", path=str(path)) from None
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        os.close(handle)
        raise FileError(
            "{path}: cannot read {what}: a folder, not a file"
            if stat.S_ISDIR(mode)
            else "{path}: cannot read {what}: {kind}, not a regular file",
            path=path,
            what=what,
            kind=_special(mode),
        )
    with os.fdopen(handle, "rb") as stream:
        try:
            data = stream.read(limit + 1)
        except OSError as error:
            raise FileError(
                "{path}: cannot read {what}: {why}", path=path, what=what, why=_why(path, error)
            ) from None
    if len(data) > limit:
        raise FileError(
            "{path}: too big for {what} (over {megabytes} MB)",
            path=path,
            what=what,
            megabytes=limit // (1024 * 1024),
        )
    return data


def read_text(path: Path, what: str | Phrase = THE_FILE, limit: int = MAX_BYTES) -> str:
    """The text of the regular file at ``path`` (at most ``limit`` bytes, see :func:`decode`).

    Opened without blocking, so a FIFO is refused rather than waited on.
    """
    return decode(read_bytes(path, what, limit), str(path))
