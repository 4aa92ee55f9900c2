"""``gintutor review``: registered on the app here; the work is imported only when it runs."""

from __future__ import annotations

from typing import Annotated

import typer

from gintutor.cli.shared import (
    MAX_WORLDS,
    AsciiOption,
    Builder,
    JobsOption,
    JsonOption,
    NoColorOption,
    UsageError,
    subcommand,
)
from gintutor.text.i18n import _


def register(builders: dict[str, Builder]) -> None:
    """Add the ``review`` command to the app's ``builders`` (the work lives in
    :mod:`.reviewrun`)."""

    @subcommand(
        builders,
        "review",
        epilog="Examples: gintutor review  |  gintutor review 20261201-054000 --json  |  "
        "gintutor review examples/game.txt --worlds 256. A log file is a game played "
        "elsewhere, written from your side (see the README, section review).",
    )
    def review(
        game: Annotated[
            str,
            typer.Argument(
                metavar="GAME|last|FILE",
                help="A saved game's id, 'last' (the newest saved game) or a game log file.",
            ),
        ] = "last",
        as_json: JsonOption = False,
        worlds: Annotated[
            int | None,
            typer.Option(
                metavar="N",
                min=1,
                max=MAX_WORLDS,
                help="Sampled deals per decision (default: the review's).",
            ),
        ] = None,
        seed: Annotated[
            int, typer.Option(metavar="N", help="Seed: the same seed, the same review.")
        ] = 0,
        jobs: JobsOption = 0,
        opponent_model: Annotated[
            str | None,
            typer.Option(
                "--opponent-model",
                metavar="BOT",
                help="The bot the coach assumes across the table (default: the bot the game "
                "was played against, or expert for a game played elsewhere).",
            ),
        ] = None,
        step: Annotated[
            bool,
            typer.Option(
                "--step",
                help="Walk through the game one decision at a time (n/p or the arrow keys, e "
                "the next error, q to stop); commands are read a line at a time when piped.",
            ),
        ] = False,
        ascii_only: AsciiOption = False,
        no_color: NoColorOption = False,
    ) -> None:
        """Every one of your decisions in a game judged by the coach: best, loss, grade, why."""
        if step and as_json:
            raise UsageError(_("--step walks through the review on screen: leave out --json"))
        from gintutor.cli.reviewrun import run_review

        run_review(game, as_json, worlds, seed, jobs, ascii_only, no_color, opponent_model, step)
