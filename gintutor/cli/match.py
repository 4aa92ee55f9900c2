"""``gintutor match``: two bots play each other on duplicate deals, with honest statistics."""

from __future__ import annotations

from typing import Annotated

import typer

from gintutor.cli.shared import (
    MAX_WORLDS,
    Builder,
    JobsOption,
    JsonOption,
    NoColorOption,
    subcommand,
)

MAX_GAMES = 1_000_000
"""The most games a match plays (about a day of the expert's play on two cores)."""


def register(builders: dict[str, Builder]) -> None:
    """Add the ``match`` command to the app's ``builders`` (the work lives in
    :mod:`.matchrun`)."""

    @subcommand(builders, "match")
    def match(
        bot_a: Annotated[
            str,
            typer.Argument(
                metavar="BOT_A", help="novice, simple, openspiel, heuristic, expert or coach."
            ),
        ],
        bot_b: Annotated[str, typer.Argument(metavar="BOT_B", help="The opponent.")],
        games: Annotated[
            int,
            typer.Option(
                "--games",
                "-n",
                metavar="N",
                min=1,
                max=MAX_GAMES,
                help="Games to play (rounded up to whole duplicate pairs).",
            ),
        ] = 200,
        rules: Annotated[
            str,
            typer.Option(
                "--rules",
                "-r",
                metavar="NAME|FILE",
                help="Rule set: a preset (eaai, standard, ...) or a house-rules YAML.",
            ),
        ] = "eaai",
        seed: Annotated[
            int, typer.Option(metavar="N", help="Deal seed: the same seed, the same match.")
        ] = 1,
        jobs: JobsOption = 0,
        worlds: Annotated[
            int | None,
            typer.Option(
                metavar="N", min=1, max=MAX_WORLDS, help="Expert: sampled worlds per decision."
            ),
        ] = None,
        seconds: Annotated[
            float | None,
            typer.Option(
                metavar="NUMBER",
                help="Expert: time cap per decision in seconds (not reproducible when it binds).",
            ),
        ] = None,
        as_json: JsonOption = False,
        no_color: NoColorOption = False,
        ascii_only: Annotated[bool, typer.Option("--ascii", help="ASCII table lines.")] = False,
    ) -> None:
        """Play BOT_A against BOT_B on duplicate deals; games won, points per hand, rates."""
        from gintutor.cli.matchrun import run_match_command

        run_match_command(
            bot_a, bot_b, games, rules, seed, jobs, worlds, seconds, as_json, no_color, ascii_only
        )
