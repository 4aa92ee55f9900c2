"""The ``gintutor`` command line: parse the arguments, make one engine call, format the result.

Engine errors (:class:`~gintutor.errors.GinError`) are turned into ``error: ...`` on stderr with
exit status 2 in one place, :func:`main`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gintutor import __version__
from gintutor.errors import GinError

app = typer.Typer(
    name="gintutor",
    help="A Gin Rummy rules tutor and hand analyzer.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gintutor {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """A Gin Rummy rules tutor and hand analyzer."""


def main() -> None:
    """Run the command line; engine errors become ``error: ...`` and exit status 2."""
    try:
        app()
    except GinError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
