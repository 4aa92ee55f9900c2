"""``gintutor carousel``: analyse and score Carousel, and its rules in prose."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

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
    terminal,
)
from gintutor.errors import GinError

if TYPE_CHECKING:  # annotations only: each command imports what it runs inside itself
    from gintutor.text.blocks import Block
    from gintutor.tutor.carouselpuzzles import CarouselPuzzle

MAX_HAND = 40
"""The largest hand ``carousel analyze`` takes. The solver's relaxed bound grows steeply with
the hand (measured with two decks, two of the cards jokers: 42 cards 0.3 s and 55 MB, 52 cards
up to 1.5 s and 400 MB, 67 a MemoryError past 2 GB, exit 70), and a round deals 10 cards: hands
in play stay under 30."""


def rules_blocks() -> list[Block]:
    """The Carousel rules as prose blocks (``gintutor rules carousel`` may delegate here)."""
    from gintutor.engine.carousel.rules import STANDARD
    from gintutor.text.carousel import explain_rules

    return explain_rules(STANDARD)


def register(builders: dict[str, Builder]) -> None:
    """Add the ``carousel`` command group to the app's ``builders`` (engine imports stay
    inside commands)."""
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
        from gintutor.engine.carousel.cards import (
            decks_for,
            parse_hand_cards,
            parse_table,
            verify_counts,
        )
        from gintutor.engine.carousel.rules import STANDARD
        from gintutor.engine.carousel.solver import best_play
        from gintutor.text.blocks import Style
        from gintutor.text.carousel import explain_play, play_data

        decks = decks_for(players)
        old, cards = parse_table(table), parse_hand_cards(hand)
        if len(cards) > MAX_HAND:
            raise GinError(
                "--hand: {count} cards: gintutor analyses a hand of at most {most} cards "
                "(a round deals 10)",
                count=len(cards),
                most=MAX_HAND,
            )
        verify_counts(old, [cards], decks)
        play = best_play(old, cards, decks, STANDARD, first_meld=first_meld)
        if as_json:
            import json

            typer.echo(json.dumps(play_data(old, cards, play, STANDARD), ensure_ascii=False))
            return
        terminal(no_color, ascii_only).show(
            explain_play(old, cards, play, STANDARD, Style(ascii_only=ascii_only))
        )

    @subcommand(commands, "rules")
    def rules(
        no_color: NoColorOption = False,
        ascii_only: AsciiOption = False,
    ) -> None:
        """The Carousel rules in prose, with the settings the source text leaves open."""
        terminal(no_color, ascii_only).show(rules_blocks())

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
        from gintutor.engine.carousel.game import score_game
        from gintutor.text.carousel import explain_sheet
        from gintutor.tutor.carouselrounds import parse_rounds

        names, results = parse_rounds(rounds)
        terminal(no_color, ascii_only).show(explain_sheet(score_game(results), names))

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
        from gintutor.cli.puzzlestats import open_progress
        from gintutor.content.store import CAROUSEL_PUZZLES, cache_file
        from gintutor.text.i18n import _
        from gintutor.tutor.carouselpuzzles import puzzle_data, solve_puzzle

        if puzzle_id is not None and difficulty is not None:
            raise UsageError(_("--id picks one puzzle: leave out --difficulty"))
        progress = open_progress(stats, as_json, no_color, ascii_only)
        if progress is None:
            return
        cache = cache_file(CAROUSEL_PUZZLES)
        pool: list[CarouselPuzzle] = []

        def puzzles() -> list[CarouselPuzzle]:
            if not pool:
                pool.extend(
                    p
                    for p in _carousel_puzzles(cache)
                    if difficulty is None or p.difficulty == difficulty
                )
            return pool

        if difficulty is not None:
            import datetime as dt

            from gintutor.tutor.daily import daily_id

            if not puzzles():
                raise GinError(_("no Carousel puzzle of difficulty {level}", level=difficulty))
            chosen = next(
                p for p in pool if p.id == daily_id((p.id for p in pool), dt.date.today())
            )
        else:
            chosen = _carousel_puzzle(puzzle_id, cache)
        if as_json:
            import json

            typer.echo(json.dumps(puzzle_data(solve_puzzle(chosen)), ensure_ascii=False))
            return
        from gintutor.cli.carouselpuzzlerun import CarouselPuzzleRunner, train_carousel
        from gintutor.cli.prompts import Quit, asker_for

        runner = CarouselPuzzleRunner(terminal(no_color, ascii_only), asker_for(), progress)
        try:
            train_carousel(runner, chosen, puzzles)
        except Quit:
            typer.echo("\n" + _("No answer given; come back to it any time."))

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
        from gintutor.cli.shared import progress_bar
        from gintutor.content.carouselgames import (
            carousel_games_folder,
            find_carousel_game,
            load_carousel_game,
        )
        from gintutor.text.blocks import Line, Style
        from gintutor.text.i18n import _, error_text
        from gintutor.tutor.carouselplay import Setup
        from gintutor.tutor.carouselreview import review_blocks, review_data, review_rounds

        saved = load_carousel_game(find_carousel_game(which, carousel_games_folder()))
        header = saved.header
        setup = Setup(header.players, header.bot, header.seed, header.one_round, header.coach)
        names = ["You"] + [f"Bot{i}" for i in range(2, header.players + 1)]
        with progress_bar(_("judging each decision")) as progress:
            judged = review_rounds(
                setup, [saved_round.entries for saved_round in saved.rounds], progress=progress
            )
        if as_json:
            import json

            data = review_data(judged, saved.id, names)
            data["problems"] = list(saved.problems)
            typer.echo(json.dumps(data, ensure_ascii=False))
            return
        screen = terminal(no_color, ascii_only)
        for problem in saved.problems:
            screen.show([Line(_("note: {problem}", problem=error_text(problem)))])
        screen.show(review_blocks(judged, saved.id, names, Style(ascii_only=ascii_only)))

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
        from gintutor.cli.carouselrun import play_command
        from gintutor.cli.prompts import asker_for
        from gintutor.text.i18n import _

        if saved is not None and not resume:
            raise GinError(
                _("{game}: to go on with a saved game, write --resume {game}", game=saved)
            )
        play_command(
            players=players,
            bot=bot,
            seed=seed,
            one_round=one_round,
            coach=coach,
            resume=(saved or "last") if resume else None,
            terminal=terminal(no_color, ascii_only),
            asker=asker_for(),
            ascii_only=ascii_only,
        )


def _carousel_puzzles(cache: Path | None = None) -> list[CarouselPuzzle]:
    """Every Carousel puzzle of the shipped pack (from the cache file when it holds this
    code's clean reading of it)."""
    from gintutor.content.carouselpuzzles import carousel_pack_files, check_carousel_puzzles

    files = carousel_pack_files()
    if cache is not None:
        found = _kept_pack(cache, files)
        if found is not None:
            return found
    puzzles, problems = check_carousel_puzzles(files, solve=False)
    if problems:
        from gintutor.content.yamlread import problems_error

        raise problems_error(problems)
    return puzzles


def _kept_pack(cache: Path, files: list[tuple[str, str]]) -> list[CarouselPuzzle] | None:
    """The pack as kept in ``cache`` (read and kept there now if it can be written).

    Kept for a measured reason (bench_startup.py's pairing, 6 rounds, load ~5 on 2 cores):
    ``carousel puzzle`` (the daily, EOF) 1.21x the bare Typer + Rich app's least CPU with it,
    1.30x where no cache can be kept."""
    import hashlib
    import json

    from gintutor.content.cachefile import can_store, code_fingerprint, keep, kept
    from gintutor.content.carouselpuzzles import check_carousel_puzzles

    try:
        key = hashlib.blake2b(json.dumps([code_fingerprint(), files]).encode()).hexdigest()
    except OSError:
        return None
    found = kept(cache, key)
    if isinstance(found, dict) and found:
        return list(found.values())
    if not can_store(cache):
        return None
    puzzles, problems = check_carousel_puzzles(files, solve=False)
    if problems:
        from gintutor.content.yamlread import problems_error

        raise problems_error(problems)
    keep(cache, key, {puzzle.id: puzzle for puzzle in puzzles})
    return puzzles


def _carousel_puzzle(puzzle_id: str | None, cache: Path | None = None) -> CarouselPuzzle:
    """The Carousel puzzle asked for (the day's if ``None``) from the shipped pack.

    With ``cache`` (a file in the data folder) the pack read cleanly before by exactly this
    code is taken from it (no YAML is read), and where it can be written a clean full reading
    is kept there. Otherwise only the puzzle's entry is parsed when it reads cleanly; else the
    whole pack (its problems and errors are the reader's)."""
    import datetime as dt

    from gintutor.content.carouselpuzzles import (
        carousel_pack_files,
        check_carousel_puzzles,
        find_carousel_puzzle,
    )
    from gintutor.errors import GinError
    from gintutor.tutor.daily import daily_id

    files = carousel_pack_files()
    puzzles = None if cache is None else _kept_pack(cache, files)
    if puzzles is None:
        from gintutor.content.carouselpuzzles import read_carousel_puzzles
        from gintutor.content.packs import ID_LINE, entry_only

        ids = [match.group(1) for _, text in files for match in ID_LINE.finditer(text)]
        if ids:
            wanted = puzzle_id if puzzle_id is not None else daily_id(ids, dt.date.today())
            for path, text in files:
                entry = entry_only(text, wanted)
                if entry is not None:
                    read, problems = read_carousel_puzzles(entry, path)
                    if not problems and len(read) == 1 and read[0].id == wanted:
                        return read[0]
        puzzles, problems = check_carousel_puzzles(files, solve=False)
        if problems:
            from gintutor.content.yamlread import problems_error

            raise problems_error(problems)
    if not puzzles:
        raise GinError("the Carousel puzzle pack is missing")
    if puzzle_id is None:
        puzzle_id = daily_id((p.id for p in puzzles), dt.date.today())
    return find_carousel_puzzle(puzzles, puzzle_id)
