"""Stored coach verdicts of the shipped puzzles (``puzzles/verdicts.json``).

A puzzle verdict is the coach's judgement at the puzzle budget: seconds of CPU per puzzle,
too long for a command that should start at once and for a check of the whole pack, so the
pack ships them. Each is stored under its key (:func:`~gintutor.tutor.puzzles.verdict_key`:
the position as the player knows it, the coach's version and budget, the seed), so a verdict is
used only for exactly that position; ``gintutor puzzles check --write-verdicts`` judges the
positions that have none and rewrites the file, ``--replay`` judges every one again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gintutor.content.paths import VERDICTS_FILE, content_dir
from gintutor.engine.hand import Action, Phase
from gintutor.engine.judgement import Grade, Judged, Verdict
from gintutor.errors import GinError
from gintutor.tutor.puzzles import (
    COACH_VERSION,
    PUZZLE_WORLDS,
    Puzzle,
    Solution,
    solve_puzzle,
    verdict_key,
)

VERSION = 2
"""The file format: 2 keys verdicts by position and stores the coach's judged actions."""


_FIELDS = (
    "action",
    "mean",
    "stderr",
    "loss",
    "loss_stderr",
    "win_chance",
    "win_loss",
    "grade",
    "close",
    "worlds",
)
"""A judged action is stored as a list of these, in this order (one verdict per line). Its
reasons are not stored: they are the coach's narration (a puzzle's text does not use them),
which a new coach may word differently without changing a verdict."""


def _judged(values: list[Any]) -> Judged:
    entry = dict(zip(_FIELDS, values, strict=True))

    def maybe(value: Any) -> float | None:
        return None if value is None else float(value)

    return Judged(
        action=Action.parse(str(entry["action"])),
        mean=float(entry["mean"]),
        stderr=float(entry["stderr"]),
        loss=float(entry["loss"]),
        loss_stderr=float(entry["loss_stderr"]),
        win_chance=maybe(entry["win_chance"]),
        win_loss=maybe(entry["win_loss"]),
        grade=Grade(entry["grade"]),
        close=bool(entry["close"]),
        reasons=(),
        worlds=int(entry["worlds"]),
    )


def verdict_of(entry: dict[str, Any]) -> Verdict:
    """A verdict from its stored form (:func:`entry_of`)."""
    return Verdict(
        player=int(entry["player"]),
        phase=Phase(entry["phase"]),
        judged=tuple(_judged(j) for j in entry["judged"]),
        worlds=int(entry["worlds"]),
        seconds=float(entry["seconds"]),
        opponent=str(entry.get("opponent", _STRONG)),
    )


_STRONG = Verdict.opponent
"""The opponent a verdict assumes unless it says otherwise: an entry names its opponent only
when it is another (the pack's entries, all against the strong player, read as before)."""


def entry_of(verdict: Verdict) -> dict[str, Any]:
    """The stored form of a verdict (JSON: floats round-trip exactly)."""
    named = {} if verdict.opponent == _STRONG else {"opponent": verdict.opponent}
    return {
        **named,
        "player": verdict.player,
        "phase": verdict.phase.value,
        "worlds": verdict.worlds,
        "seconds": round(verdict.seconds, 3),
        "judged": [
            [
                str(j.action),
                j.mean,
                j.stderr,
                j.loss,
                j.loss_stderr,
                j.win_chance,
                j.win_loss,
                j.grade.value,
                j.close,
                j.worlds,
            ]
            for j in verdict.judged
        ],
    }


def load_verdicts() -> dict[str, Any]:
    """The stored verdicts by key; empty when the file is missing, unreadable or of another
    format (every judged puzzle then reports a missing verdict)."""
    try:
        text = content_dir("puzzles").joinpath(VERDICTS_FILE).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    found = data.get("verdicts")
    return found if isinstance(found, dict) else {}


def stored_verdict(puzzle: Puzzle, table: dict[str, Any]) -> Verdict | None:
    """The stored verdict for exactly this puzzle's position, coach and budget, else ``None``."""
    entry = table.get(verdict_key(puzzle))
    if not isinstance(entry, dict):
        return None
    try:
        return verdict_of(entry)
    except (KeyError, TypeError, ValueError, GinError):
        return None


def solve(puzzle: Puzzle, table: dict[str, Any] | None = None) -> Solution:
    """The puzzle's solution, from its stored verdict when there is one (else judged now)."""
    if not puzzle.theme.judged:
        return solve_puzzle(puzzle)
    table = load_verdicts() if table is None else table
    return solve_puzzle(puzzle, stored_verdict(puzzle, table))


def verdicts_text(solutions: Iterable[Solution]) -> str:
    """The verdicts file for these solutions (judged themes only), sorted by key."""
    verdicts = {
        verdict_key(s.puzzle): {"id": s.puzzle.id, **entry_of(s.verdict)}
        for s in solutions
        if s.verdict is not None
    }
    head = {"version": VERSION, "coach": {"version": COACH_VERSION, "worlds": PUZZLE_WORLDS}}
    lines = [f" {json.dumps(key)}: {json.dumps(verdicts[key])}" for key in sorted(verdicts)]
    body = ",\n".join(lines)
    text = json.dumps(head)[:-1] + ', "verdicts": {\n' + body + "\n}}\n"
    return text
