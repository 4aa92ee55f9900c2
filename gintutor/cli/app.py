"""The ``gintutor`` command line: parse the arguments, make one engine call, format the result.

Engine errors (:class:`~gintutor.errors.GinError`) become ``error: ...`` on stderr with their
exit status (2, or 1 for a content problem) in one place, :class:`_Commands`. Rich is
imported only by commands that print text.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from gintutor import __version__
from gintutor.cli.guard import shortened
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
    progress_bar,
    subcommand,
    subgroup,
    terminal,
    usage_exit,
    workers,
)
from gintutor.errors import GinError, Phrase
from gintutor.text.i18n import N_, _, error_text, ngettext

if TYPE_CHECKING:  # annotations only: each command imports what it runs inside itself
    from gintutor.cli.progress import Progress
    from gintutor.content.catalogs import Message
    from gintutor.content.puzzlerules import Violation
    from gintutor.content.yamlread import Problem
    from gintutor.engine.analysis import Analysis
    from gintutor.engine.cards import Card
    from gintutor.tutor.lessons import LessonOutline, Standing
    from gintutor.tutor.puzzles import Solution
    from gintutor.tutor.puzzleterms import Theme


class NothingToCheck(GinError):
    """A check found nothing to check (an empty folder): never "all good"."""

    exit_code = 1


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
    ``play`` 1.22x -> 1.09x, ``learn --list`` 1.21x -> ~1.1x of the bare app. It saves exit
    time, not time to the first prompt: what a one-shot command (``analyze``, ``rules``)
    returns the shell sooner by; an interactive one, as the learner quits."""

    # Typed as Click's own (Any): its Context lives in typer's private ``_click`` module.
    def make_context(self, info_name: Any, args: list[str], *rest: Any, **kwargs: Any) -> Any:
        if not rest and kwargs.get("parent") is None:
            from gintutor.cli.language import activate, localize_help

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


def _card_option(text: str | None, option: str) -> Card | None:
    from gintutor.engine.cards import Card

    if text is None:
        return None
    try:
        return Card.parse(text)
    except GinError as error:
        raise UsageError("{option}: {error}", option=option, error=error) from None


def _stdin_hands() -> Iterator[tuple[int, str]]:
    from gintutor.cli.inputs import stdin_lines

    for number, line in stdin_lines():
        text = line.split("#", 1)[0].strip()
        if text:
            yield number, text


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
    from gintutor.content.houserules import load_rules
    from gintutor.engine.analysis import analyze as analyze_hand
    from gintutor.engine.cards import CardSet, parse_hand

    rule_set = load_rules(rules)
    up = _card_option(upcard, "--upcard")
    taken = _card_option(drew_from_discard, "--drew-from-discard")
    if rule_set.needs_upcard and up is None:
        raise UsageError(
            _(
                "{rules} rules take the knock limit and doubling from the first upcard: add "
                "--upcard CARD",
                rules=rule_set.name,
            )
        )
    if up is not None and not rule_set.needs_upcard:
        typer.echo(
            _(
                "note: --upcard does not apply under {rules} rules (the first upcard sets no "
                "knock limit and doubles nothing); it is ignored",
                rules=rule_set.name,
            ),
            err=True,
        )
    defender = None
    if opponent is not None:
        try:
            defender = parse_hand(opponent, sizes=(10,))
        except GinError as error:
            raise UsageError("{option}: {error}", option="--opponent", error=error) from None

    def one(text: str) -> Analysis:
        cards: CardSet = parse_hand(text)
        if taken is not None and len(cards) != 11:
            raise UsageError(_("--drew-from-discard needs the 11-card hand you hold after drawing"))
        return analyze_hand(cards, rule_set, upcard=up, taken_from_discard=taken, opponent=defender)

    show = _json_printer() if as_json else _text_printer(no_color, ascii_only)
    if hand == ["-"]:
        failed = 0
        for number, text in _stdin_hands():
            try:
                show(one(text))
            except GinError as error:
                failed += 1
                message = _("line {number}: {error}", number=number, error=error_text(error))
                typer.echo(_("error: {message}", message=shortened(message)), err=True)
        if failed:
            raise typer.Exit(1)
        return
    show(one(" ".join(hand)))


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
    from gintutor.content.houserules import load_rules
    from gintutor.engine.rules import PRESETS, SETTING_NAMES, SOURCE_TEXTS
    from gintutor.text.blocks import Line
    from gintutor.text.rules import explain_rules, rules_table

    screen = terminal(no_color, ascii_only)
    if diff is not None:
        if name is not None:
            raise UsageError(_("give either a rule set or --diff A B, not both"))
        first, second = load_rules(diff[0]), load_rules(diff[1])
        keys = [k for k in SETTING_NAMES if getattr(first, k) != getattr(second, k)]
        if not keys:
            same = _("{a} and {b} have the same settings.", a=first.name, b=second.name)
            screen.show([Line(same)])
            return
        screen.show([rules_table([first, second], keys)])
        return
    if name is None:
        others = ", ".join(SOURCE_TEXTS)
        screen.show(
            [
                rules_table(list(PRESETS.values()), SETTING_NAMES),
                Line(
                    _(
                        "The source texts' rule sets, by name: {names} (gintutor rules NAME). "
                        "Carousel, a game of its own: gintutor rules carousel.",
                        names=others,
                    )
                ),
            ]
        )
        return
    if name.strip().lower() == "carousel":
        from gintutor.cli.carousel import rules_blocks

        screen.show(rules_blocks())
        return
    screen.show(explain_rules(load_rules(name)))


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
    from gintutor.content.houserules import load_rules
    from gintutor.engine.game import score_game, score_match
    from gintutor.text.sheets import explain_match, explain_sheet
    from gintutor.tutor.scoresheet import parse_entries

    rule_set = load_rules(rules)
    names = [name.strip() for name in players.split(",")]
    if len(names) != 2 or not all(names) or names[0].lower() == names[1].lower():
        raise UsageError(
            _("--players: {players!r}: give two different names, e.g. Ann,Bob", players=players)
        )
    entries: Sequence[tuple[str | Phrase, str]] = [
        (Phrase("hand {number}", number=n), text) for n, text in enumerate(hands or [], start=1)
    ]
    if file is not None:
        if entries:
            raise UsageError(_("give the hands as arguments or with --file, not both"))
        if str(file) == "-":
            from gintutor.cli.inputs import stdin_lines
            from gintutor.content.scorefile import entries_from_text, guess_kind

            text = "\n".join(line for _, line in stdin_lines())
            entries = entries_from_text(_("standard input"), text, guess_kind(text))
        else:
            from gintutor.content.scorefile import read_entries  # YAML: only to read a file

            entries = read_entries(file)
    if not entries:
        raise UsageError(_("no hands given: e.g. gintutor score 'A knock 12' 'B gin 41'"))
    records = parse_entries(entries, names, rule_set)
    screen = terminal(no_color, ascii_only)
    if rule_set.hollywood:
        screen.show(explain_match(score_match(records, rule_set), names, rule_set))
    else:
        screen.show(explain_sheet(score_game(records, rule_set), names, rule_set))


def _exit_on_problems(problems: list[Problem]) -> None:
    """Print content problems one per line (``file:line: ...``); exit 1 if there are any."""
    for problem in problems:  # str(problem) in English; its message translated if a Note
        typer.echo(f"{problem.path}:{problem.line}: {error_text(problem.message)}")
    if problems:
        count = len(problems)
        typer.echo(
            ngettext("{count} problem found", "{count} problems found", count, count=count),
            err=True,
        )
        raise typer.Exit(1)


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
    from gintutor.content.lessons import check_lessons, lesson_files

    only: str | None = None
    if path is not None:
        from gintutor.content.textfile import path_kind, read_text

        path_kind(path)  # an error for anything but a file or a folder (a dangling link...)
    other_ids: list[str] = []
    if path is not None and path.is_file():
        # Only this file is checked; its prerequisites may name the lessons beside it.
        from gintutor.content.lessons import lesson_ids_beside

        only = str(path)
        files = [(only, read_text(path, Phrase("the lesson")))]
        other_ids = lesson_ids_beside(path)
    elif path is not None and path.is_dir():
        files = lesson_files(path)
    elif path is not None:
        raise UsageError(_("{path}: no such file or folder", path=path))
    else:
        files = lesson_files()
    lessons, problems = check_lessons(files, other_ids=other_ids)
    if only is not None:
        lessons = [lesson for lesson in lessons if lesson.path == only]
        problems = [problem for problem in problems if problem.path == only]
    _exit_on_problems(problems)
    if not lessons:
        if path is None:
            raise NothingToCheck(
                _("the shipped lessons: no lesson files (*.yaml) found: nothing was checked")
            )
        raise NothingToCheck(
            _("{path}: no lesson files (*.yaml) found: nothing was checked", path=path)
        )
    if path is None:
        from gintutor.content.catalogs import lesson_messages

        _translations("lessons", [m for where, text in files for m in lesson_messages(where, text)])
    questions = sum(len(lesson.questions) for lesson in lessons)
    count = len(lessons)
    typer.echo(
        _(
            "{lessons}, {questions}: all good",
            lessons=ngettext("{count} lesson", "{count} lessons", count, count=count),
            questions=ngettext("{count} question", "{count} questions", questions, count=questions),
        )
    )


def _translations(domain: str, messages: list[Message]) -> None:
    """One line per language: how many of ``messages`` its catalog translates (stale ones
    are shown in English until a translator confirms them)."""
    from gintutor.content.catalogs import coverage

    for found in coverage(domain, messages):
        typer.echo(
            _(
                "{language}: {translated} of {texts} texts translated, {stale} stale, "
                "{untranslated} untranslated",
                language=found.language,
                translated=found.translated,
                texts=found.texts,
                stale=found.stale,
                untranslated=found.untranslated,
            )
        )


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
    from gintutor.cli.progress import Progress
    from gintutor.content.lessons import load_outlines
    from gintutor.content.store import LESSON_OUTLINES, cache_file

    if as_json:
        from gintutor.text.i18n import ENGLISH, use

        use(ENGLISH)  # --json never depends on the language: the titles are the lessons' own
    progress = Progress()
    if not list_lessons:
        progress.verify_writable()  # a newer gintutor's file: refused before any lesson
    if progress.warning:
        typer.echo(_("warning: {problem}", problem=error_text(progress.warning)), err=True)
    # After the progress file is read: nothing is written beside one that cannot be.
    lessons = load_outlines(cache=cache_file(LESSON_OUTLINES))
    if list_lessons:
        _list_lessons(lessons, progress, as_json, no_color, ascii_only)
        return
    # The runner and the prompts only for a lesson run or a reset (not for --list).
    from gintutor.cli.learn import LessonRunner
    from gintutor.cli.prompts import Quit, asker_for
    from gintutor.tutor.lessons import find_lesson, resume_point, standing

    chosen = find_lesson(lessons, lesson) if lesson is not None else None
    asker = asker_for()
    if reset:
        if chosen is None:
            question, done = (
                _("Forget your progress in every lesson?"),
                _("Progress in every lesson reset."),
            )
        else:
            lesson_of = {"number": chosen.number, "title": chosen.title}
            question = _("Forget your progress in lesson {number} ({title})?", **lesson_of)
            done = _("Progress in lesson {number} ({title}) reset.", **lesson_of)
        try:
            if not yes and not asker.confirm(question):
                typer.echo(_("Nothing reset."))
                return
        except Quit:
            typer.echo(_("Nothing reset."))
            return
        progress.reset(chosen.id if chosen else None)
        progress.save()
        typer.echo(done)
        return
    screen = terminal(no_color, ascii_only)
    runner = LessonRunner(screen, asker, progress)
    records = progress.data["lessons"]
    if chosen is not None:
        target: tuple[LessonOutline, int] | None = (
            chosen,
            standing(chosen, records.get(chosen.id)).step,
        )
    else:
        target = resume_point(lessons, records, progress.data.get("current"))
    if target is None:
        typer.echo(
            _(
                "All {count} lessons are done. Replay one with: gintutor learn NUMBER",
                count=len(lessons),
            )
        )
        return
    try:
        runner.course(lessons, *target)
    except Quit:
        typer.echo("\n" + _("Progress saved. Run gintutor learn to pick up where you left off."))


STATUS_TEXT = {
    "new": N_("new"),
    "started": N_("started"),
    "not-passed": N_("not passed"),
    "done": N_("done"),
}
"""A lesson's status in words (:class:`~gintutor.tutor.lessons.LessonStatus`'s values)."""


def _list_lessons(
    lessons: list[LessonOutline],
    progress: Progress,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    from gintutor.tutor.lessons import LessonStatus, standing

    rows = [
        (lesson, standing(lesson, progress.data["lessons"].get(lesson.id))) for lesson in lessons
    ]
    if as_json:
        import json

        typer.echo(
            json.dumps(
                [
                    {
                        "id": lesson.id,
                        "number": lesson.number,
                        "title": lesson.title,
                        "level": lesson.level.value,
                        "concepts": list(lesson.concepts),
                        "status": found.status.value,
                        "passed": found.status is LessonStatus.DONE,
                        "score": {
                            "right_first_time": found.right_first_time,
                            "questions": found.questions,
                        },
                        "answered": found.answered,
                    }
                    for lesson, found in rows
                ],
                ensure_ascii=False,
            )
        )
        return
    from gintutor.text.blocks import Line, Table
    from gintutor.text.i18n import percent

    def status_text(found: Standing) -> str:
        if found.status is LessonStatus.STARTED:
            return _("at question {number}", number=found.question)
        return _(STATUS_TEXT[found.status.value])

    done = sum(1 for _lesson, found in rows if found.status is LessonStatus.DONE)
    table = Table(
        ("#", "id", _("lesson"), _("score"), _("status")),
        tuple(
            (
                str(lesson.number),
                lesson.id,
                lesson.title,
                f"{found.right_first_time}/{found.questions}",
                status_text(found),
            )
            for lesson, found in rows
        ),
        frozenset(
            i for i, (_lesson, found) in enumerate(rows) if found.status is LessonStatus.DONE
        ),
    )
    terminal(no_color, ascii_only).show(
        [
            table,
            Line(
                _(
                    "{done}/{count} lessons, {percent}",
                    done=done,
                    count=len(rows),
                    percent=percent(done / len(rows) if rows else 0),
                )
            ),
            Line(
                _("score: questions right first time; done: every question answered, none skipped")
            ),
        ]
    )


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
    from gintutor.content.carouselpuzzles import (
        carousel_pack_files,
        check_carousel_puzzles,
        is_carousel_pack,
    )
    from gintutor.content.puzzles import check_puzzles, puzzle_files
    from gintutor.content.verdicts import load_verdicts

    processes = workers(jobs)
    if path is not None:
        from gintutor.content.textfile import path_kind, read_text

        path_kind(path)  # an error for anything but a file or a folder (a dangling link...)
    if path is not None and path.is_file():
        files = [(str(path), read_text(path, Phrase("the puzzles")))]
    elif path is not None and path.is_dir():
        files = puzzle_files(path)
    elif path is not None:
        raise UsageError(_("{path}: no such file or folder", path=path))
    else:
        files = puzzle_files() + carousel_pack_files()
    # Carousel puzzles have their own reader and checker (gintutor.content.carouselpuzzles).
    carousel = [(name, text) for name, text in files if is_carousel_pack(text)]
    files = [(name, text) for name, text in files if not is_carousel_pack(text)]
    if write_verdicts and path is not None:
        raise UsageError("--write-verdicts stores the shipped pack's verdicts: give no PATH")
    if shrink_baseline and (path is not None or ignore_baseline):
        raise UsageError("--shrink-baseline rewrites the shipped pack's baseline: give no PATH")
    from gintutor.content.puzzlerules import load_baseline

    # The baseline names shipped puzzles: it holds for a shipped file checked alone too.
    baseline = None if ignore_baseline else load_baseline()
    solutions: list[Solution] = []
    found: list[Violation] = []
    with progress_bar(_("checking puzzles")) as advance:
        puzzles, problems = check_puzzles(
            files,
            jobs=processes,
            progress=advance,
            stored=load_verdicts(),
            solutions=solutions,
            replay=replay,
            judge_missing=write_verdicts or path is not None,
            baseline=baseline,
            violations=found,
            whole_pack=path is None,
        )
    if shrink_baseline:
        from gintutor.content.paths import content_dir
        from gintutor.content.puzzlerules import BASELINE_FILE, shrunk_baseline
        from gintutor.content.store import write_atomically

        target = Path(str(content_dir("puzzles"))) / BASELINE_FILE
        write_atomically(target, shrunk_baseline(baseline or {}, found))
        problems = [
            p
            for p in problems
            if "the baseline only shrinks" not in p.message
            and "which is not in the pack" not in p.message
        ]
    if write_verdicts:
        from gintutor.content.paths import content_dir
        from gintutor.content.store import write_atomically
        from gintutor.content.verdicts import FILE_NAME, verdicts_text

        target = Path(str(content_dir("puzzles"))) / FILE_NAME
        write_atomically(target, verdicts_text(solutions))
        stored = sum(s.verdict is not None for s in solutions)
        typer.echo(
            ngettext(
                "wrote {count} verdict to {target}",
                "wrote {count} verdicts to {target}",
                stored,
                count=stored,
                target=target,
            ),
            err=True,
        )
    checked = len(puzzles)
    if carousel:
        carousel_found, issues = check_carousel_puzzles(carousel)
        problems += issues
        checked += len(carousel_found)
    _exit_on_problems(problems)
    if not checked:
        if path is None:
            raise NothingToCheck(_("the shipped pack: no puzzles found: nothing was checked"))
        raise NothingToCheck(_("{path}: no puzzles found: nothing was checked", path=path))
    if path is None:
        from gintutor.content.catalogs import puzzle_messages

        _translations(
            "puzzles", [m for where, text in files + carousel for m in puzzle_messages(where, text)]
        )
    typer.echo(
        ngettext("{count} puzzle: all good", "{count} puzzles: all good", checked, count=checked)
    )


@puzzles_app.command(cls=Command, name="report", epilog="Example: gintutor puzzles report --json")
def puzzles_report(
    jobs: JobsOption = 0,
    as_json: JsonOption = False,
    no_color: NoColorOption = False,
    ascii_only: AsciiOption = False,
) -> None:
    """How many shipped puzzles break each rule of puzzles check, by theme (baseline or not),
    and the cull list: the puzzles with no clear idea or that repeat another."""
    from gintutor.content.puzzlerules import report
    from gintutor.content.puzzles import check_puzzles, puzzle_files
    from gintutor.content.verdicts import load_verdicts

    found: list[Violation] = []
    with progress_bar(_("checking puzzles")) as advance:
        puzzles, _problems = check_puzzles(
            puzzle_files(),
            jobs=workers(jobs),
            progress=advance,
            stored=load_verdicts(),
            violations=found,
        )
    table = report(found, puzzles)
    if as_json:
        import json

        typer.echo(json.dumps(table, ensure_ascii=False))
        return
    from gintutor.text.blocks import Line, Table

    def columns(*rules: str) -> tuple[tuple[str, ...], ...]:
        return tuple(
            (theme, str(row["puzzles"]), *(str(row[rule]) for rule in rules))
            for theme, row in table.items()
        )

    cull = sum(len(row["cull"]) for row in table.values())
    terminal(no_color, ascii_only).show(
        [
            Line(_("Puzzles that break a rule of puzzles check (known ones too), by theme:")),
            Table(
                (
                    _("theme"),
                    _("puzzles"),
                    "facts",
                    "title",
                    "history",
                    "hint",
                    _("repeat"),
                    _("keeps all"),
                ),
                columns("facts", "title", "history", "hint", "duplicate", "clean"),
            ),
            Line(
                _(
                    "One clear idea: the best wins by too little (margin), too many answers are "
                    "accepted (answers), the rule of thumb decides it (thumb); any of them (idea)."
                )
            ),
            Table(
                (_("theme"), _("puzzles"), "margin", "answers", "thumb", "idea"),
                columns("idea margin", "idea accepted", "idea theme", "idea"),
            ),
            Line(
                _("To cull (no clear idea, or a repeat): {count}; --json lists them.", count=cull)
            ),
        ]
    )


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
    from gintutor.content.houserules import load_rules
    from gintutor.content.puzzlegen import generate, to_yaml
    from gintutor.tutor.puzzles import Theme

    try:
        themes = [Theme(name) for name in theme] if theme else list(Theme)
    except ValueError:
        raise UsageError(
            "--theme: use {themes}", themes=", ".join(t.value for t in Theme)
        ) from None
    processes = workers(jobs)
    rule_set = load_rules(rules)
    knockless = [
        t.value
        for t in themes
        if t in (Theme.KNOCK_OR_PLAY, Theme.LAYOFF_EXPOSURE) and not rule_set.allows_knock
    ]
    if knockless:
        raise UsageError(
            "--theme {theme}: {rules} rules allow no knock below gin, so there are no such "
            "puzzles to find",
            theme=knockless[0],
            rules=rule_set.name,
        )
    if out is not None:
        from gintutor.cli.inputs import output_file

        output_file(out)  # before the work: a missing folder or a device is an error now
        if not force and out.exists():
            # --out puzzles/outs.yaml once turned the shipped pack into 19 lines, exit 0.
            raise UsageError(
                "--out {out}: the file exists; give --force to replace it (the new puzzles "
                "are meant to be added to a pack by hand)",
                out=out,
            )

    from gintutor.content.puzzles import pack_index

    with progress_bar(_("finding puzzles")) as advance:
        total = count * len(themes)
        found = 0

        def report(done_theme: Theme, done: int) -> None:
            nonlocal found
            found += 1
            advance(found, total)

        puzzles = generate(
            {t: count for t in themes},
            rule_set,
            seed=seed,
            progress=report,
            jobs=processes,
            taken_ids=pack_index(),
        )
    text = to_yaml(puzzles)
    if out is None:
        typer.echo(text, nl=False)
    else:
        from gintutor.content.store import write_atomically

        write_atomically(out, text)
        count = len(puzzles)
        typer.echo(
            ngettext(
                "wrote {count} puzzle to {target}",
                "wrote {count} puzzles to {target}",
                count,
                count=count,
                target=out,
            ),
            err=True,
        )


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
    import datetime as dt

    if puzzle_id is not None and (random_pick or date is not None):
        raise UsageError(_("--id picks one puzzle: leave out --random and --date"))
    if random_pick and date is not None:
        raise UsageError(_("--random and --date contradict each other: give one"))
    # --stats: the figures come from the progress file alone, no puzzle is read.
    from gintutor.cli.puzzlestats import open_progress

    progress = open_progress(stats, as_json, no_color, ascii_only)
    if progress is None:
        return
    from gintutor.content.puzzlepack import shipped_pack
    from gintutor.content.store import PUZZLE_PACK, cache_file
    from gintutor.tutor.daily import daily_id, select

    # After the progress file is read: nothing is written beside one that cannot be.
    pack = shipped_pack(cache=cache_file(PUZZLE_PACK))
    today = dt.date.today()
    daily_date: dt.date | None = None
    if puzzle_id is None:
        # Only the ids are needed to pick; then the chosen puzzle alone is read.
        # A close call (labelled so) is never the daily; --random may pick one.
        ids: list[str] = list(pack.index) if random_pick else pack.daily_ids()
        if theme is not None or difficulty is not None:
            allowed = set(ids)
            chosen_ids = select(pack.puzzles(), theme=theme, difficulty=difficulty)
            ids = [p.id for p in chosen_ids if p.id in allowed] or [p.id for p in chosen_ids]
        if random_pick:
            import random

            puzzle_id = random.choice(ids)
        else:
            try:
                daily_date = dt.date.fromisoformat(date) if date else today
            except ValueError:
                raise UsageError(
                    _("--date: {date!r} is not a date like 2026-12-01", date=date)
                ) from None
            puzzle_id = daily_id(ids, daily_date)
    chosen = pack.puzzle(puzzle_id)
    if as_json:
        import json

        from gintutor.tutor.puzzletext import puzzle_data

        if chosen.theme.judged:
            from gintutor.content.verdicts import solve

            solution = solve(chosen, pack.verdicts(chosen))
        else:  # exact numbers only: no verdict to read (nor the hand state machine it names)
            from gintutor.tutor.puzzles import solve_puzzle

            solution = solve_puzzle(chosen)
        typer.echo(json.dumps(puzzle_data(chosen, solution), ensure_ascii=False))
        return
    from gintutor.cli.prompts import Quit, asker_for
    from gintutor.cli.puzzlerun import PuzzleRunner
    from gintutor.cli.puzzletraining import train

    runner = PuzzleRunner(terminal(no_color, ascii_only), asker_for(), progress)
    try:
        # Only today's daily makes the streak (a past date's, or one picked by theme or
        # difficulty, is no daily for it).
        the_daily = daily_date == today and theme is None and difficulty is None
        train(
            runner,
            chosen,
            pack.puzzles,
            daily_date=today if the_daily else None,
            theme=theme,
        )
    except Quit:
        typer.echo("\n" + _("No answer given; come back to it any time."))


def _json_printer() -> Callable[[Analysis], None]:
    import json

    from gintutor.text.export import analysis_data

    def show(result: Analysis) -> None:
        typer.echo(json.dumps(analysis_data(result), ensure_ascii=False))

    return show


def _text_printer(no_color: bool, ascii_only: bool) -> Callable[[Analysis], None]:
    from gintutor.text.blocks import Style
    from gintutor.text.explain import explain_analysis

    screen = terminal(no_color, ascii_only)
    style = Style(ascii_only=ascii_only)
    shown = 0

    def show(result: Analysis) -> None:
        nonlocal shown
        if shown:
            screen.console.print()
            screen.console.print("-" * 40)
        screen.show(explain_analysis(result, style))
        shown += 1

    return show


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
    from gintutor.cli.language import language_value, save_language, saved_language
    from gintutor.text.i18n import LANGUAGE_NAMES, _, active

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
    from gintutor.cli import carousel, match, play, review

    match.register(COMMANDS)
    play.register(COMMANDS)
    review.register(COMMANDS)
    for group in (lessons_app, puzzles_app, settings_app):
        subgroup(COMMANDS, group)
    carousel.register(COMMANDS)


_register_games()


def main() -> None:
    """Run the command line (a crash is an internal error, exit 70: see cli/guard.py)."""
    from gintutor.cli.guard import run_guarded

    _Commands.freeze_start = True
    run_guarded(app)
