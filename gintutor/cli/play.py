"""``gintutor play``: registered on the app here; the work is imported only when it runs."""

from __future__ import annotations

from typing import Annotated

import typer

from gintutor.cli.shared import AsciiOption, Builder, NoColorOption, subcommand
from gintutor.errors import GinError


def register(builders: dict[str, Builder]) -> None:
    """Add the ``play`` command to the app's ``builders`` (the game itself lives in
    ``cli/playrun.py``)."""

    @subcommand(
        builders,
        "play",
        epilog="Examples: gintutor play  |  gintutor play --bot heuristic --rules oklahoma  |  "
        "gintutor play --coach quiet --seed 7  |  gintutor play --resume [GAME]. At the "
        "prompt: draw, take, pass, a card to discard (7d), knock 7d, gin, lay off, hint, help, "
        "sheet, quit.",
    )
    def play(
        bot: Annotated[
            str | None,
            typer.Option(
                metavar="BOT",
                help="The opponent: novice, simple, openspiel, heuristic, expert or coach "
                "(default simple: a sound player a learner beats sometimes).",
                show_default=False,
            ),
        ] = None,
        rules: Annotated[
            str | None,
            typer.Option(
                "--rules",
                "-r",
                metavar="NAME|FILE",
                help="Rule set (default standard): a preset, a source text's set, or a "
                "house-rules YAML file.",
                show_default=False,
            ),
        ] = None,
        coach: Annotated[
            str | None,
            typer.Option(
                metavar="off|quiet|on",
                help="off: no coach; quiet: hint on request; on (default): hints, a warning "
                "before a mistake, each showdown explained.",
                show_default=False,
            ),
        ] = None,
        seed: Annotated[
            int | None,
            typer.Option(
                metavar="N", help="Deal seed: the same seed, the same deals (default: random)."
            ),
        ] = None,
        game: Annotated[
            str | None,
            typer.Argument(
                metavar="GAME|last",
                help="With --resume: the saved game to go on with (default: the last "
                "unfinished one).",
            ),
        ] = None,
        resume: Annotated[
            bool,
            typer.Option("--resume", help="Go on with a saved game instead of a new one."),
        ] = False,
        ascii_only: AsciiOption = False,
        no_color: NoColorOption = False,
    ) -> None:
        """Play a game against the computer to the target, with a coach; saved as you play."""
        if game is not None and not resume:
            raise GinError("{game!r}: to go on with a saved game, write --resume {game}", game=game)
        from gintutor.cli.playrun import play_command

        play_command(
            bot=bot,
            rules=rules,
            coach=coach,
            seed=seed,
            resume=(game or "last") if resume else None,
            no_color=no_color,
            ascii_only=ascii_only,
        )
