"""The ``gintutor`` command line: every command declared (its options and help), the work
imported only when it runs.

This module and the command groups it registers (``cli/match.py``, ``play.py``, ``review.py``,
``carousel.py``) are the one lazy boundary of the start: each command's body imports the module
that does its work (``cli/analyzerun.py``, ``cli/learnrun.py``, ...) and calls it; that module
and everything below it import at the top. So ``gintutor --help`` loads no engine, and each
command loads what it runs.

Engine errors (:class:`~gintutor.errors.GinError`) become ``error: ...`` on stderr with their
exit status (2, or 1 for a content problem) in one place, :class:`_Commands`.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from gintutor import __version__
from gintutor.cli import carousel, match, play, review
from gintutor.cli.guard import run_guarded, shortened
from gintutor.cli.language import (
    activate,
    language_value,
    localize_help,
    save_language,
    saved_language,
)
from gintutor.cli.shared import (
    HELP_OPTIONS,
    AsciiOption,
    Builder,
    Command,
    CommandLineError,
    JobsOption,
    JsonOption,
    LazyCommands,
    NoColorOption,
    UsageError,
    subcommand,
    subgroup,
    usage_exit,
)
from gintutor.errors import GinError
from gintutor.text.i18n import LANGUAGE_NAMES, _, active, error_text

COMMANDS: dict[str, Builder] = {}
"""Every command and command group of the app, each built only when it is run (or listed)."""


class _Commands(LazyCommands):
    """Turns every engine error and every usage error into one ``error: ...`` line on stderr
    and exit status 2 (the click usage box is not shown)."""

    builders = COMMANDS

    freeze_start = False
    """Set by :func:`main` (the installed command, not tests or embedders of the app): the
    objects of the start are frozen (:func:`gc.freeze`) as the command is invoked.

    Kept for a measured reason: they live as long as the process (modules, classes, the
    parsed options), yet the cycle collector walks them again in its passes at interpreter
    exit, ~60-80 ms CPU of a ~430 ms start on this 2-core machine (the bare Typer + Rich app
    pays ~65-85 ms of its own). ``benchmarks/bench_startup.py`` pairing, load ~5, least CPU:
    ``play`` 1.22x -> 1.09x, ``learn --list`` 1.21x -> ~1.1x of the bare app; measured again
    with every command's work imported at the top of its module (issue 24; 2x4 rounds, load
    ~7): without it ``learn --list`` 1.23x and 1.16x, ``learn 1`` 1.18x and 1.20x, with it
    1.07-1.09x and 1.06x. It saves exit time, not time to the first prompt: what a one-shot
    command (``analyze``, ``rules``) returns the shell sooner by; an interactive one, as the
    learner quits."""

    # Typed as Click's own (Any): its Context lives in typer's private ``_click`` module.
    def make_context(self, info_name: Any, args: list[str], *rest: Any, **kwargs: Any) -> Any:
        if not rest and kwargs.get("parent") is None:
            activate(args)
            localize_help(self)
        try:
            return super().make_context(info_name, args, *rest, **kwargs)
        except CommandLineError as error:
            raise usage_exit(error) from None

    def invoke(self, ctx: Any) -> Any:
        if self.freeze_start:
            gc.freeze()
        try:
            return super().invoke(ctx)
        except GinError as error:
            typer.echo(_("error: {message}", message=shortened(error_text(error))), err=True)
            raise typer.Exit(error.exit_code) from None
        except CommandLineError as error:
            raise usage_exit(error) from None


THEMES = "deadwood, outs, safety, knock-or-play, upcard, layoff-exposure"
"""The puzzle themes for help pages (a test holds it equal to the Theme enum)."""

app = typer.Typer(
    name="gintutor",
    cls=_Commands,
    help="A Gin Rummy rules tutor and hand analyzer.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
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
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANG",
            help="Language: en, id, pt_BR or nb (default: GINTUTOR_LANG, the saved setting, "
            "then LANG).",
        ),
    ] = None,
) -> None:
    """A Gin Rummy rules tutor and hand analyzer."""
    # The language is chosen from the raw arguments before this runs (cli/language.py).


RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE",
        help="Rule set: standard, classic, oklahoma, hollywood, straight, indonesian, portuguese, "
        "norwegian, eaai, or a house-rules YAML file.",
    ),
]


@subcommand(
    COMMANDS,
    "analyze",
    epilog="Examples: gintutor analyze '7C 7D 7H 5H 6H 8H AS 2S 3S KD'  |  "
    "gintutor analyze '4H 5H 6H 5C 5D 9S TS JS QS KS' --opponent "
    "'3H 7H 8H 2C 3C 4D 8D 9C JD KD'  |  gintutor analyze - < hands.txt",
)
def analyze(
    hand: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND",
            help='10 or 11 cards, e.g. "7C 7D 7S 4H 5H 6H TD JD QD KC"; - reads one hand per '
            "line from standard input.",
            show_default=False,
        ),
    ],
    rules: RulesOption = "standard",
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            "-o",
            metavar="HAND",
            help="The defender's 10 cards: play out the knock, layoffs and score.",
        ),
    ] = None,
    upcard: Annotated[
        str | None,
        typer.Option(metavar="CARD", help="The hand's first upcard (Oklahoma needs it)."),
    ] = None,
    drew_from_discard: Annotated[
        str | None,
        typer.Option(
            "--drew-from-discard",
            metavar="CARD",
            help="The card just taken from the discard pile: it may not be discarded.",
        ),
    ] = None,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """Best melds, deadwood, knock or gin, the best discard, and with --opponent the score."""
    from gintutor.cli.analyzerun import run_analyze

    run_analyze(hand, rules, opponent, upcard, drew_from_discard, as_json, no_color, ascii_only)


@subcommand(
    COMMANDS,
    "rules",
    epilog="Examples: gintutor rules  |  gintutor rules portuguese  |  "
    "gintutor rules --diff standard classic  |  gintutor rules my-house.yaml",
)
def rules_command(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[NAME|FILE]", help="A preset or a house-rules YAML file."),
    ] = None,
    diff: Annotated[
        tuple[str, str] | None,
        typer.Option("--diff", metavar="A B", help="Show only the settings where A and B differ."),
    ] = None,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """The rule sets side by side, one explained in prose, or what differs between two."""
    if diff is None and name is not None and name.strip().lower() == "carousel":
        from gintutor.cli.carouseltools import show_rules

        show_rules(no_color, ascii_only)
        return
    from gintutor.cli.rulesrun import run_rules

    run_rules(name, diff, no_color, ascii_only)


@subcommand(
    COMMANDS,
    "score",
    epilog="Examples: gintutor score 'A knock 12' 'B gin 41' 'void'  |  "
    "gintutor score --players Ann,Bob --rules classic --file game.csv  |  "
    "gintutor score --file - < game.txt. Points are what the hand scored, bonuses "
    "included. A file is a YAML list ('- A knock 12'), a CSV file (player, result, "
    "points; a header row is skipped) or plain lines; '#' starts a comment.",
)
def score(
    hands: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[HAND...]",
            help="Hand results in order: 'A knock 12', 'B gin 41', 'A undercut 27', 'void'.",
            show_default=False,
        ),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            "-f",
            metavar="FILE",
            help="Hand results from a YAML list, a CSV file or plain lines; - reads "
            "standard input.",
        ),
    ] = None,
    players: Annotated[str, typer.Option(metavar="A,B", help="The two players' names.")] = "A,B",
    rules: RulesOption = "standard",
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """A game's score sheet: running totals, boxes, game bonus, shutout (Hollywood: 3 games)."""
    from gintutor.cli.scorerun import run_score

    run_score(hands, file, players, rules, no_color, ascii_only)


lessons_app = typer.Typer(
    name="lessons",
    help="Tools for lesson authors.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    rich_markup_mode=None,
    add_completion=False,
)


@lessons_app.command(cls=Command, name="check", epilog="Example: gintutor lessons check lessons/")
def lessons_check(
    path: Annotated[
        Path | None,
        typer.Argument(metavar="[PATH]", help="A lesson file or folder (default: all)."),
    ] = None,
) -> None:
    """Validate lessons: schema, hands, references, and every expect: against the engine."""
    from gintutor.cli.authoring import check_lesson_files

    check_lesson_files(path)


@subcommand(
    COMMANDS,
    "learn",
    epilog="Examples: gintutor learn  |  gintutor learn --list  |  gintutor learn 3  |  "
    "gintutor learn layoffs",
)
def learn(
    lesson: Annotated[
        str | None,
        typer.Argument(metavar="[LESSON]", help="A lesson id or number (default: resume)."),
    ] = None,
    list_lessons: Annotated[
        bool, typer.Option("--list", help="Every lesson with its status and your progress.")
    ] = False,
    reset: Annotated[
        bool, typer.Option("--reset", help="Forget progress (of LESSON, or of every lesson).")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask before --reset.")] = False,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """Guided lessons: rules and strategy step by step, answers checked by the engine."""
    from gintutor.cli.learnrun import run_learn

    run_learn(lesson, list_lessons, reset, yes, as_json, no_color, ascii_only)


puzzles_app = typer.Typer(
    name="puzzles",
    help="Tools for puzzle authors.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    rich_markup_mode=None,
    add_completion=False,
)


@puzzles_app.command(
    cls=Command, name="check", epilog="Example: gintutor puzzles check puzzles/outs.yaml"
)
def puzzles_check(
    path: Annotated[
        Path | None,
        typer.Argument(metavar="[PATH]", help="A puzzle file or folder (default: all)."),
    ] = None,
    jobs: JobsOption = 0,
    write_verdicts: Annotated[
        bool,
        typer.Option(
            "--write-verdicts",
            help="Judge the positions without a stored verdict and store the shipped pack's "
            "coach verdicts (puzzles/verdicts.json).",
        ),
    ] = False,
    replay: Annotated[
        bool,
        typer.Option(
            "--replay", help="Judge every position again and compare with the stored verdict."
        ),
    ] = False,
    ignore_baseline: Annotated[
        bool,
        typer.Option(
            "--ignore-baseline",
            help="Report the known violations too (those puzzles/baseline.json lists).",
        ),
    ] = False,
    shrink_baseline: Annotated[
        bool,
        typer.Option(
            "--shrink-baseline",
            help="Remove from puzzles/baseline.json the entries the pack no longer breaks.",
        ),
    ] = False,
) -> None:
    """Validate puzzles: schema, legal positions, duplicates, answers equal to the engine's,
    facts in words from the engine, titles that agree with the verdict, possible histories.

    Judged themes are checked against the stored coach verdict of exactly their position
    (fast); --replay judges them all again (slow: seconds per puzzle on every core). The
    shipped pack's known rule violations are listed in puzzles/baseline.json, which only
    shrinks.
    """
    from gintutor.cli.authoring import check_puzzle_files

    check_puzzle_files(path, jobs, write_verdicts, replay, ignore_baseline, shrink_baseline)


@puzzles_app.command(cls=Command, name="report", epilog="Example: gintutor puzzles report --json")
def puzzles_report(
    jobs: JobsOption = 0,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """How many shipped puzzles break each rule of puzzles check, by theme (baseline or not),
    and the cull list: the puzzles with no clear idea or that repeat another."""
    from gintutor.cli.authoring import report_puzzles

    report_puzzles(jobs, as_json, no_color, ascii_only)


@puzzles_app.command(
    "generate",
    cls=Command,
    epilog="Example: gintutor puzzles generate --count 2 --theme outs --out new.yaml",
)
def puzzles_generate(
    count: Annotated[
        int, typer.Option(metavar="N", min=1, max=1000, help="Puzzles per theme, 1 to 1000.")
    ] = 10,
    theme: Annotated[
        list[str] | None,
        typer.Option(metavar="THEME", help=f"Only these themes (repeat the option): {THEMES}."),
    ] = None,
    rules: RulesOption = "standard",
    seed: Annotated[
        int, typer.Option(metavar="N", help="Deal seed: the same seed, the same puzzles.")
    ] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Write YAML here (default: standard output); an existing file only with --force.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --out replace a file that exists.")
    ] = False,
    jobs: JobsOption = 0,
) -> None:
    """Deal hands between bots, keep the positions the coach finds instructive, write YAML.

    New ids continue after the shipped pack's, so the output can be added to it by hand.
    """
    from gintutor.cli.authoring import generate_puzzles

    generate_puzzles(count, theme, rules, seed, out, force, jobs)


@subcommand(
    COMMANDS,
    "puzzle",
    epilog="Examples: gintutor puzzle  |  gintutor puzzle --id outs-049  |  "
    "gintutor puzzle --random --theme safety  |  gintutor puzzle --stats",
)
def puzzle(
    date: Annotated[
        str | None, typer.Option(metavar="YYYY-MM-DD", help="The puzzle of another day.")
    ] = None,
    puzzle_id: Annotated[
        str | None, typer.Option("--id", metavar="ID", help="A puzzle by its id, e.g. outs-049.")
    ] = None,
    random_pick: Annotated[bool, typer.Option("--random", help="Any puzzle.")] = False,
    theme: Annotated[
        str | None, typer.Option(metavar="THEME", help=f"Only puzzles of this theme: {THEMES}.")
    ] = None,
    difficulty: Annotated[
        int | None,
        typer.Option(metavar="1-5", min=1, max=5, help="Only puzzles of this difficulty, 1 to 5."),
    ] = None,
    stats: Annotated[bool, typer.Option("--stats", help="Your puzzle statistics.")] = False,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """Today's discard puzzle: choose, then see every option with exact numbers."""
    if puzzle_id is not None and (random_pick or date is not None):
        raise UsageError(_("--id picks one puzzle: leave out --random and --date"))
    if random_pick and date is not None:
        raise UsageError(_("--random and --date contradict each other: give one"))
    if stats:  # from the progress file alone: no puzzle is read
        from gintutor.cli.puzzlestats import stats_command

        stats_command(as_json, no_color, ascii_only)
        return
    from gintutor.cli.puzzlepick import run_puzzle

    run_puzzle(date, puzzle_id, random_pick, theme, difficulty, as_json, no_color, ascii_only)


settings_app = typer.Typer(
    name="settings",
    help="Your saved settings (in the data folder).",
    no_args_is_help=True,
    cls=TyperGroup,
    rich_markup_mode=None,
    add_completion=False,
)


@settings_app.command(
    "lang",
    cls=Command,
    epilog="Examples: gintutor settings lang id  |  gintutor settings lang auto",
)
def settings_lang(
    value: Annotated[
        str | None,
        typer.Argument(
            metavar="[LANG]",
            help="en, id, pt_BR or nb to save; auto to follow GINTUTOR_LANG and LANG again.",
        ),
    ] = None,
) -> None:
    """Show or save the language gintutor speaks (--lang overrides it for one command)."""
    if value is not None:
        setting = language_value(value)
        save_language(None if setting == "auto" else setting)
        if setting == "auto":
            typer.echo(_("Saved: the language follows GINTUTOR_LANG and LANG."))
        else:
            typer.echo(_("Saved: {language}.", language=LANGUAGE_NAMES[setting]))
        return
    saved = saved_language()
    typer.echo(
        _("Speaking now: {language} ({code}).", language=LANGUAGE_NAMES[active()], code=active())
    )
    if saved:
        typer.echo(_("Saved setting: {code}.", code=saved))
    else:
        typer.echo(_("Saved setting: none (the language follows GINTUTOR_LANG and LANG)."))


def _register_games() -> None:
    """The commands of cli/match.py, play.py, review.py and carousel.py, and the groups, in
    the order the help page lists them (commands, then groups)."""
    match.register(COMMANDS)
    play.register(COMMANDS)
    review.register(COMMANDS)
    for group in (lessons_app, puzzles_app, settings_app):
        subgroup(COMMANDS, group)
    carousel.register(COMMANDS)


_register_games()


def main() -> None:
    """Run the command line (a crash is an internal error, exit 70: see cli/guard.py)."""
    _Commands.freeze_start = True
    run_guarded(app)
