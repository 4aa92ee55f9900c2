"""Running the command line so that nothing ends in a traceback or a misleading exit status.

Exit statuses: 0 success, 1 a content check found problems, 2 bad usage or input
(``error: ...``), 70 a bug in gintutor (EX_SOFTWARE: "internal error", never 1, which would
read as "your content has problems"). ``GINTUTOR_DEBUG=1`` shows a bug's traceback.
"""

from __future__ import annotations

import io
import os
import sys
import traceback
from collections.abc import Callable

INTERNAL_ERROR = 70
LONGEST_WORD = 100
"""The longest word an error message shows whole (a path, a quoted argument)."""


def shortened(message: str) -> str:
    """``message`` with each word longer than :data:`LONGEST_WORD` cut to its two ends: a
    pasted page or a runaway argument is named, not echoed back.

    >>> shortened("no lesson " + "1234567890" * 50 + " (choose 1 to 23)")
    'no lesson 123456789012345678901234567890…1234567890 (choose 1 to 23)'
    """
    words = message.split(" ")
    if all(len(word) <= LONGEST_WORD for word in words):
        return message
    return " ".join(
        word if len(word) <= LONGEST_WORD else f"{word[:30]}…{word[-10:]}" for word in words
    )


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
    _forgiving_streams()
    try:
        command()
    except (SystemExit, KeyboardInterrupt):
        raise
    except BrokenPipeError:
        # The reader went away (``gintutor rules | head -1``): nothing left to say.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(0) from None
    except Exception as error:  # the one place a bug is reported
        if os.environ.get("GINTUTOR_DEBUG"):
            traceback.print_exc()
        print(
            f"error: internal error (a bug in gintutor; please report it with the command "
            f"you ran): {type(error).__name__}: {shortened(str(error))[:200]}",
            file=sys.stderr,
        )
        raise SystemExit(INTERNAL_ERROR) from None
