"""``gintutor carousel puzzle``'s work: pick the Carousel puzzle (the day's, one by id or of a
difficulty) from the shipped pack, then show it as JSON or play it (declared in
:mod:`gintutor.cli.carousel`; ``--stats`` is :mod:`gintutor.cli.puzzlestats`)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import typer

from gintutor.cli.carouselpuzzlerun import CarouselPuzzleRunner, train_carousel
from gintutor.cli.prompts import Quit, asker_for
from gintutor.cli.puzzlestats import open_progress
from gintutor.cli.shared import terminal
from gintutor.content.cachefile import can_store, code_fingerprint, keep, kept
from gintutor.content.carouselpuzzles import (
    carousel_pack_files,
    check_carousel_puzzles,
    find_carousel_puzzle,
    read_carousel_puzzles,
)
from gintutor.content.packtext import ID_LINE, entry_only
from gintutor.content.problems import problems_error
from gintutor.content.store import CAROUSEL_PUZZLES, cache_file
from gintutor.errors import GinError
from gintutor.text.i18n import _
from gintutor.tutor.carouselpuzzles import CarouselPuzzle, puzzle_data, solve_puzzle
from gintutor.tutor.daily import daily_id


def run_puzzle(
    puzzle_id: str | None, difficulty: int | None, as_json: bool, no_color: bool, ascii_only: bool
) -> None:
    """Show the chosen Carousel puzzle as JSON, or play it and train on from it."""
    progress = open_progress(read_only=as_json)
    cache = cache_file(CAROUSEL_PUZZLES)
    pool: list[CarouselPuzzle] = []

    def puzzles() -> list[CarouselPuzzle]:
        if not pool:
            pool.extend(
                p
                for p in carousel_puzzles(cache)
                if difficulty is None or p.difficulty == difficulty
            )
        return pool

    if difficulty is not None:
        if not puzzles():
            raise GinError(_("no Carousel puzzle of difficulty {level}", level=difficulty))
        chosen = next(p for p in pool if p.id == daily_id((p.id for p in pool), dt.date.today()))
    else:
        chosen = carousel_puzzle(puzzle_id, cache)
    if as_json:
        typer.echo(json.dumps(puzzle_data(solve_puzzle(chosen)), ensure_ascii=False))
        return
    runner = CarouselPuzzleRunner(terminal(no_color, ascii_only), asker_for(), progress)
    try:
        train_carousel(runner, chosen, puzzles)
    except Quit:
        typer.echo("\n" + _("No answer given; come back to it any time."))


def carousel_puzzles(cache: Path | None = None) -> list[CarouselPuzzle]:
    """Every Carousel puzzle of the shipped pack (from the cache file when it holds this
    code's clean reading of it)."""
    files = carousel_pack_files()
    if cache is not None:
        found = _kept_pack(cache, files)
        if found is not None:
            return found
    puzzles, problems = check_carousel_puzzles(files, solve=False)
    if problems:
        raise problems_error(problems)
    return puzzles


def _kept_pack(cache: Path, files: list[tuple[str, str]]) -> list[CarouselPuzzle] | None:
    """The pack as kept in ``cache`` (read and kept there now if it can be written).

    Kept for a measured reason (bench_startup.py's pairing, 6 rounds, load ~5 on 2 cores):
    ``carousel puzzle`` (the daily, EOF) 1.21x the bare Typer + Rich app's least CPU with it,
    1.30x where no cache can be kept."""
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
        raise problems_error(problems)
    keep(cache, key, {puzzle.id: puzzle for puzzle in puzzles})
    return puzzles


def carousel_puzzle(puzzle_id: str | None, cache: Path | None = None) -> CarouselPuzzle:
    """The Carousel puzzle asked for (the day's if ``None``) from the shipped pack.

    With ``cache`` (a file in the data folder) the pack read cleanly before by exactly this
    code is taken from it (no YAML is read), and where it can be written a clean full reading
    is kept there. Otherwise only the puzzle's entry is parsed when it reads cleanly; else the
    whole pack (its problems and errors are the reader's)."""
    files = carousel_pack_files()
    puzzles = None if cache is None else _kept_pack(cache, files)
    if puzzles is None:
        ids = [match.group(1) for _path, text in files for match in ID_LINE.finditer(text)]
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
            raise problems_error(problems)
    if not puzzles:
        raise GinError("the Carousel puzzle pack is missing")
    if puzzle_id is None:
        puzzle_id = daily_id((p.id for p in puzzles), dt.date.today())
    return find_carousel_puzzle(puzzles, puzzle_id)
