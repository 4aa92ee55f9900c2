"""Running the command line in tests: plain output (no colour), stdout and stderr apart."""

from __future__ import annotations

from typer.testing import CliRunner

from gintutor.cli.app import app


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of ``gintutor ARGS`` with ``stdin`` piped in."""
    result = CliRunner(env={"NO_COLOR": "1"}).invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr
