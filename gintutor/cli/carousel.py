"""``gintutor carousel``: the group's commands declared; each imports the module that does its
work only when it runs (``cli/carouseltools.py``, ``carouselpuzzlepick.py``,
``carouselreviewrun.py``, ``carouselrun.py``)."""

from __future__ import annotations

from typing import Annotated

import typer

from gintutor.cli.shared import (
    AsciiOption,
    Builder,
    JsonOption,
    NoColorOption,
    UsageError,
    lazy_group,
    subcommand,
    subgroup,
)
from gintutor.errors import GinError
from gintutor.text.i18n import _


def register(builders: dict[str, Builder]) -> None:
    """Add the ``carousel`` command group to the app's ``builders``."""
    commands: dict[str, Builder] = {}
    carousel = typer.Typer(
        name="carousel",
        help="Carousel (manipulation rummy): play, analyse, score, rules.",
        no_args_is_help=True,
        cls=lazy_group(commands),
        rich_markup_mode=None,
        add_completion=False,
    )
    subgroup(builders, carousel)

    @subcommand(commands, "analyze")
    def analyze(
        hand: Annotated[
            str, typer.Option("--hand", metavar="CARDS", help='Your cards, e.g. "7C 7D JK 2S".')
        ],
        table: Annotated[
            str,
            typer.Option(
                "--table",
                metavar="MELDS",
                help='Melds separated by |, e.g. "7H 8H 9H | JK=7C 7D 7S".',
            ),
        ] = "",
        first_meld: Annotated[
            bool, typer.Option("--first-meld", help="Only melds of your own cards.")
        ] = False,
        players: Annotated[
            int, typer.Option(metavar="N", help="2 (one deck) to 5 (two decks).")
        ] = 3,
        as_json: JsonOption = False,
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """The best play of your hand onto the table: new table, moves, hand left, knock."""
        from gintutor.cli.carouseltools import analyze as analyze_play

        analyze_play(hand, table, first_meld, players, as_json, no_color, ascii_only)

    @subcommand(commands, "rules")
    def rules(
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """The Carousel rules in prose, with the settings the source text leaves open."""
        from gintutor.cli.carouseltools import show_rules

        show_rules(no_color, ascii_only)

    @subcommand(commands, "score")
    def score(
        rounds: Annotated[
            list[str],
            typer.Argument(
                metavar="ROUND...",
                help="One per round: 'A knock 3, B 12, C 20', 'A out, B 9, "
                "C 14' or 'A 5, B 12, C 30' (stock ran out).",
                show_default=False,
            ),
        ],
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """A score sheet for 2-5 players from round results."""
        from gintutor.cli.carouseltools import score as score_rounds

        score_rounds(rounds, no_color, ascii_only)

    @subcommand(commands, "puzzle")
    def puzzle(
        puzzle_id: Annotated[
            str | None,
            typer.Option("--id", metavar="ID", help="A puzzle by its id, e.g. carousel-007."),
        ] = None,
        difficulty: Annotated[
            int | None,
            typer.Option(
                metavar="1-5", min=1, max=5, help="Only puzzles of this difficulty, 1 to 5."
            ),
        ] = None,
        stats: Annotated[
            bool, typer.Option("--stats", help="Your puzzle statistics (gin's and Carousel's).")
        ] = False,
        as_json: Annotated[
            bool, typer.Option("--json", help="The puzzle and its best play as JSON.")
        ] = False,
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """A "play the most you can" puzzle (the puzzle of the day, or --id): type the new
        table; hint shows a hint, skip the answer. A failed puzzle may be tried again, Enter
        goes on to the next; your first attempts are rated (see --stats)."""
        if puzzle_id is not None and difficulty is not None:
            raise UsageError(_("--id picks one puzzle: leave out --difficulty"))
        if stats:  # from the progress file alone: no puzzle is read
            from gintutor.cli.puzzlestats import stats_command

            stats_command(as_json, no_color, ascii_only)
            return
        from gintutor.cli.carouselpuzzlepick import run_puzzle

        run_puzzle(puzzle_id, difficulty, as_json, no_color, ascii_only)

    @subcommand(commands, "review")
    def review(
        which: Annotated[
            str,
            typer.Argument(
                metavar="GAME|FILE|last",
                help="A saved Carousel game: its id, its file, or last (the newest).",
                show_default=False,
            ),
        ] = "last",
        as_json: JsonOption = False,
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """Each of your turns in a saved Carousel game: the points you left in hand against
        the best play the exact solver finds there (what carousel analyze says), and a
        summary."""
        from gintutor.cli.carouselreviewrun import run_review

        run_review(which, as_json, no_color, ascii_only)

    @subcommand(commands, "play")
    def play(
        players: Annotated[
            int | None,
            typer.Option(
                metavar="N", help="2 (one deck) to 5 (two decks); default 3.", show_default=False
            ),
        ] = None,
        bot: Annotated[
            str | None,
            typer.Option(
                metavar="TEXT", help="Bot level: greedy (default) or careful.", show_default=False
            ),
        ] = None,
        seed: Annotated[
            int | None,
            typer.Option(
                metavar="N",
                help="Deal seed (shown at the start; the same seed, the same deals).",
            ),
        ] = None,
        one_round: Annotated[
            bool, typer.Option("--round", help="Play one round, not a game to 150.")
        ] = False,
        game: Annotated[bool, typer.Option("--game", hidden=True)] = False,
        coach: Annotated[
            str | None,
            typer.Option(
                metavar="TEXT",
                help="on (default): warn before a play that leaves much more than the best; off.",
                show_default=False,
            ),
        ] = None,
        saved: Annotated[
            str | None,
            typer.Argument(
                metavar="GAME|last",
                help="With --resume: the saved game to go on with (default: the last "
                "unfinished one).",
                show_default=False,
            ),
        ] = None,
        resume: Annotated[
            bool,
            typer.Option("--resume", help="Go on with a saved game instead of a new one."),
        ] = False,
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """Play Carousel against bots: you are player 1. Edit the numbered table (add 4S to 3,
        move 5S from 1 to 4, new 7C 7D 7H, split 2 at 8S, undo), then done, draw or knock;
        hint, best, help, quit. Saved as you play: carousel play --resume goes on."""
        if saved is not None and not resume:
            raise GinError(
                _("{game}: to go on with a saved game, write --resume {game}", game=saved)
            )
        from gintutor.cli.carouselrun import play_command

        play_command(
            players=players,
            bot=bot,
            seed=seed,
            one_round=one_round,
            coach=coach,
            resume=(saved or "last") if resume else None,
            no_color=no_color,
            ascii_only=ascii_only,
        )
