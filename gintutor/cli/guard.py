"""Running the command line so that nothing ends in a traceback or a misleading exit status.

Exit statuses: 0 success, 1 a content check found problems, 2 bad usage or input
(``error: ...``), 70 a bug in gintutor (EX_SOFTWARE: "internal error", never 1, which would
read as "your content has problems"). ``GINTUTOR_DEBUG=1`` shows a bug's traceback.
"""

from __future__ import annotations

import errno
import io
import os
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn

from gintutor.content.store import system_words
from gintutor.errors import Phrase
from gintutor.text.i18n import _, error_text

INTERNAL_ERROR = 70
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""Errors of a write that found no room: the user's to mend (exit 1), not a bug."""
LONGEST_WORD = 100
"""The longest word an error message shows whole (a path, a quoted argument)."""
LONGEST_MESSAGE = 1000
"""The longest error message shown whole (the choices an error lists fit in it)."""


def shortened(message: str) -> str:
    """``message`` with each word longer than :data:`LONGEST_WORD` cut to its two ends, and
    the whole cut to its two ends past :data:`LONGEST_MESSAGE`: a pasted page or a runaway
    argument is named, not echoed back.

    >>> shortened("no lesson " + "1234567890" * 50 + " (choose 1 to 23)")
    'no lesson 123456789012345678901234567890…1234567890 (choose 1 to 23)'
    >>> len(shortened("'A knock" + " 7" * 30_000 + "': too many words"))
    818
    """
    words = message.split(" ")
    if any(len(word) > LONGEST_WORD for word in words):
        message = " ".join(
            word if len(word) <= LONGEST_WORD else f"{word[:30]}…{word[-10:]}" for word in words
        )
    if len(message) > LONGEST_MESSAGE:
        message = f"{message[:600]} … {message[-215:]}"
    return message


def _writable_streams() -> None:
    """A closed standard output or error (``gintutor rules >&-``) writes to the null device."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _quiet_stdout() -> None:
    """Standard output goes to the null device from here (what is left unwritten too)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _flush_output() -> None:
    """Standard output written out now, so a failure is reported here, not at exit: a reader
    gone (``| head -1``) ends quietly, exit 0; an output that cannot be written (``> /dev/full``,
    a full disk) is ``error: cannot write the output``, exit 1."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        raise SystemExit(0) from None
    except OSError as error:
        _cannot_write(error)


def _cannot_write(error: OSError) -> NoReturn:
    """A write failed (``> /dev/full``, a full disk): the output, or the file the error names.
    One line, exit 1; what is left unwritten goes nowhere."""
    _quiet_stdout()
    where = error.filename or Phrase("the output")
    why = Phrase("cannot write {where}: {reason}", where=where, reason=system_words(error))
    print(_("error: {message}", message=error_text(why)), file=sys.stderr)
    raise SystemExit(1) from None


def _utf8_argument(argument: str) -> str:
    """An argument the locale could not decode (``LANG=C`` and ``7♣``) read as UTF-8 if it is.

    >>> _utf8_argument(os.fsdecode(b"7\\xe2\\x99\\xa3"))
    '7♣'
    """
    try:
        return os.fsencode(argument).decode("utf-8")
    except UnicodeError:
        return argument


def _forgiving_streams() -> None:
    """Arguments are UTF-8 when they can be; standard input never fails to decode (bad bytes
    become U+FFFD and are rejected as answers); standard output never fails to encode."""
    sys.argv[1:] = [_utf8_argument(argument) for argument in sys.argv[1:]]
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    if isinstance(sys.stdout, io.TextIOWrapper) and not (sys.stdout.encoding or "").lower().replace(
        "-", ""
    ).startswith("utf"):
        sys.stdout.reconfigure(errors="replace")


def run_guarded(command: Callable[[], object]) -> None:
    """Run ``command`` (the Typer app); a crash is ``error: internal error ...``, exit 70."""
    _writable_streams()
    _forgiving_streams()
    try:
        command()
    except SystemExit:
        _flush_output()
        raise
    except KeyboardInterrupt:
        raise
    except BrokenPipeError:
        # The reader went away (``gintutor rules | head -1``): nothing left to say.
        _quiet_stdout()
        raise SystemExit(0) from None
    except OSError as error:
        if error.errno not in _NO_ROOM:
            _report_bug(error)
        _cannot_write(error)
    except Exception as error:
        _report_bug(error)


def _report_bug(error: Exception) -> NoReturn:
    """The one place a bug is reported: ``error: internal error ...``, exit 70."""
    if os.environ.get("GINTUTOR_DEBUG"):
        traceback.print_exc()
    what = f"{type(error).__name__}: {shortened(str(error))[:200]}"
    try:  # in the reader's language, unless the bug is in that machinery itself
        line = _(
            "error: {message}",
            message=_(
                "internal error (a bug in gintutor; please report it with the command you "
                "ran): {error}",
                error=what,
            ),
        )
    except Exception:  # any: this is the last word on a bug
        line = (
            f"error: internal error (a bug in gintutor; please report it with the command you "
            f"ran): {what}"
        )
    print(line, file=sys.stderr)
    raise SystemExit(INTERNAL_ERROR) from None
