"""The authors' commands' work: ``lessons check``, ``puzzles check``, ``puzzles report`` and
``puzzles generate`` (declared in :mod:`gintutor.cli.app`)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from gintutor.cli.inputs import output_file
from gintutor.cli.shared import UsageError, progress_bar, terminal, workers
from gintutor.content.carouselpuzzles import (
    carousel_pack_files,
    check_carousel_puzzles,
    is_carousel_pack,
)
from gintutor.content.catalogs import Message, coverage, lesson_messages, puzzle_messages
from gintutor.content.houserules import load_rules
from gintutor.content.lessons import (
    check_lessons,
    coached_solutions,
    lesson_files,
    lesson_ids_beside,
)
from gintutor.content.paths import VERDICTS_FILE, content_dir
from gintutor.content.problems import Problem
from gintutor.content.puzzlegen import generate, to_yaml
from gintutor.content.puzzlerules import (
    BASELINE_FILE,
    Violation,
    load_baseline,
    report,
    shrunk_baseline,
)
from gintutor.content.puzzles import check_puzzles, pack_index, puzzle_files
from gintutor.content.store import write_atomically
from gintutor.content.textfile import path_kind, read_text
from gintutor.content.verdicts import load_verdicts, verdicts_text
from gintutor.errors import GinError, Phrase
from gintutor.text.blocks import Line, Table
from gintutor.text.i18n import _, error_text, ngettext
from gintutor.tutor.puzzles import Solution, Theme


class NothingToCheck(GinError):
    """A check found nothing to check (an empty folder): never "all good"."""

    exit_code = 1


def exit_on_problems(problems: list[Problem]) -> None:
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


def _translations(domain: str, messages: list[Message]) -> None:
    """One line per language: how many of ``messages`` its catalog translates (stale ones
    are shown in English until a translator confirms them)."""
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


def check_lesson_files(path: Path | None) -> None:
    """Check the lessons at ``path`` (default: the shipped ones) and say how it went."""
    only: str | None = None
    if path is not None:
        path_kind(path)  # an error for anything but a file or a folder (a dangling link...)
    other_ids: list[str] = []
    if path is not None and path.is_file():
        # Only this file is checked; its prerequisites may name the lessons beside it.

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
    exit_on_problems(problems)
    if not lessons:
        if path is None:
            raise NothingToCheck(
                _("the shipped lessons: no lesson files (*.yaml) found: nothing was checked")
            )
        raise NothingToCheck(
            _("{path}: no lesson files (*.yaml) found: nothing was checked", path=path)
        )
    if path is None:
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


def check_puzzle_files(
    path: Path | None,
    jobs: int,
    write_verdicts: bool,
    replay: bool,
    ignore_baseline: bool,
    shrink_baseline: bool,
) -> None:
    """Check the puzzles at ``path`` (default: the shipped pack) and say how it went."""
    processes = workers(jobs)
    if path is not None:
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

    # The baseline names shipped puzzles: it holds for a shipped file checked alone too.
    baseline = None if ignore_baseline else load_baseline()
    solutions: list[Solution] = []
    found: list[Violation] = []
    table = load_verdicts()
    with progress_bar(_("checking puzzles")) as advance:
        puzzles, problems = check_puzzles(
            files,
            jobs=processes,
            progress=advance,
            stored=table,
            solutions=solutions,
            replay=replay,
            judge_missing=write_verdicts or path is not None,
            baseline=baseline,
            violations=found,
            whole_pack=path is None,
        )
    if shrink_baseline:
        target = Path(str(content_dir("puzzles"))) / BASELINE_FILE
        write_atomically(target, shrunk_baseline(baseline or {}, found))
        problems = [
            p
            for p in problems
            if "the baseline only shrinks" not in p.message
            and "which is not in the pack" not in p.message
        ]
    if write_verdicts:
        # The lessons' coached questions are answered from the same file: judged here too.
        coached, found_in_lessons = coached_solutions(table, replay=replay)
        solutions += coached
        problems += found_in_lessons
        target = Path(str(content_dir("puzzles"))) / VERDICTS_FILE
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
    exit_on_problems(problems)
    if not checked:
        if path is None:
            raise NothingToCheck(_("the shipped pack: no puzzles found: nothing was checked"))
        raise NothingToCheck(_("{path}: no puzzles found: nothing was checked", path=path))
    if path is None:
        _translations(
            "puzzles", [m for where, text in files + carousel for m in puzzle_messages(where, text)]
        )
    typer.echo(
        ngettext("{count} puzzle: all good", "{count} puzzles: all good", checked, count=checked)
    )


def report_puzzles(jobs: int, as_json: bool, no_color: bool, ascii_only: bool) -> None:
    """Show how many shipped puzzles break each rule of ``puzzles check``, by theme."""
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
        typer.echo(json.dumps(table, ensure_ascii=False))
        return

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


def generate_puzzles(
    count: int,
    theme: list[str] | None,
    rules: str,
    seed: int,
    out: Path | None,
    force: bool,
    jobs: int,
) -> None:
    """Write ``count`` new puzzles of each theme (YAML) to ``out`` or standard output."""
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
        output_file(out)  # before the work: a missing folder or a device is an error now
        if not force and out.exists():
            # --out puzzles/outs.yaml once turned the shipped pack into 19 lines, exit 0.
            raise UsageError(
                "--out {out}: the file exists; give --force to replace it (the new puzzles "
                "are meant to be added to a pack by hand)",
                out=out,
            )

    with progress_bar(_("finding puzzles")) as advance:
        total = count * len(themes)
        found = 0

        def found_one(done_theme: Theme, done: int) -> None:
            nonlocal found
            found += 1
            advance(found, total)

        puzzles = generate(
            {t: count for t in themes},
            rule_set,
            seed=seed,
            progress=found_one,
            jobs=processes,
            taken_ids=pack_index(),
        )
    text = to_yaml(puzzles)
    if out is None:
        typer.echo(text, nl=False)
    else:
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
