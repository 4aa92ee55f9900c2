"""Running the command line in tests: plain output (no colour), stdout and stderr apart.

Every in-process run goes through :func:`invoke`. The app builds only the command named on the
line (cli/shared.py's LazyCommands, as the installed ``gintutor`` does): building all of them
is ~0.09 s of each run, which over the suite's ~1,000 runs was most of the developer loop's
time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from typer.testing import CliRunner, Result

from gintutor.cli.app import app


def invoke(
    args: Sequence[str],
    *,
    stdin: str | bytes | None = None,
    env: Mapping[str, str | None] | None = None,
) -> Result:
    """The result of ``gintutor ARGS`` with ``stdin`` piped in, colour off, ``env`` set."""
    argv = list(args)
    runner = CliRunner(env={"NO_COLOR": "1", **(env or {})})
    return runner.invoke(app, argv, input=stdin)


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of ``gintutor ARGS`` with ``stdin`` piped in."""
    result = invoke(args, stdin=stdin)
    return result.exit_code, result.stdout, result.stderr
