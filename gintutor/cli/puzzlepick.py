"""``gintutor puzzle``'s work: pick the puzzle (the day's, one by id, one at random, by theme
or difficulty), then show it as JSON or play it (the command is declared in
:mod:`gintutor.cli.app`; ``--stats`` is :mod:`gintutor.cli.puzzlestats`)."""

from __future__ import annotations

import datetime as dt
import json
import random

import typer

from gintutor.cli.prompts import Quit, asker_for
from gintutor.cli.puzzlerun import PuzzleRunner
from gintutor.cli.puzzlestats import open_progress
from gintutor.cli.puzzletraining import train
from gintutor.cli.shared import UsageError, terminal
from gintutor.content.puzzlepack import shipped_pack
from gintutor.content.store import PUZZLE_PACK, cache_file
from gintutor.text.i18n import _
from gintutor.tutor.daily import daily_id, select
from gintutor.tutor.puzzles import solve_puzzle
from gintutor.tutor.puzzletext import puzzle_data


def run_puzzle(
    date: str | None,
    puzzle_id: str | None,
    random_pick: bool,
    theme: str | None,
    difficulty: int | None,
    as_json: bool,
    no_color: bool,
    ascii_only: bool,
) -> None:
    """Show the chosen puzzle as JSON, or play it and train on from it."""
    progress = open_progress(read_only=as_json)
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
        if chosen.theme.judged:
            # Not at the top: the daily's first prompt needs no verdict (see puzzlerun._solved).
            from gintutor.content.verdicts import solve

            solution = solve(chosen, pack.verdicts(chosen))
        else:  # exact numbers only: no verdict to read
            solution = solve_puzzle(chosen)
        typer.echo(json.dumps(puzzle_data(chosen, solution), ensure_ascii=False))
        return
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
