"""Stored rollout verdicts of the shipped puzzles (``puzzles/verdicts.json``).

A rollout verdict takes a few tenths of a second, too long for a command that should start at
once, so the pack ships them: ``gintutor puzzles check --write-verdicts`` writes the file and
``gintutor puzzles check`` replays every verdict and reports any stored one that differs. A
verdict whose key (:func:`~gintutor.tutor.puzzles.verdict_key`) no longer matches its puzzle is
not used: the puzzle is solved afresh.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gintutor.content.paths import content_dir
from gintutor.engine.cards import Card
from gintutor.engine.rollout import Action, Candidate, CandidateResult, Verdict
from gintutor.errors import GinError
from gintutor.tutor.puzzles import Puzzle, Solution, solve_puzzle, verdict_key

FILE_NAME = "verdicts.json"
VERSION = 1


def _candidate(code: str) -> Candidate:
    try:
        return Candidate(Action(code))
    except ValueError:
        return Candidate(Action.KNOCK, Card.parse(code))


def _verdict(entry: dict[str, Any]) -> Verdict:
    results = tuple(
        CandidateResult(
            _candidate(str(r["choice"])),
            float(r["mean"]),
            float(r["stderr"]),
            float(r["gap"]),
            float(r["gap_stderr"]),
        )
        for r in entry["results"]
    )
    return Verdict(results, int(entry["worlds"]), int(entry["seed"]))


def _entry(puzzle: Puzzle, verdict: Verdict) -> dict[str, Any]:
    return {
        "key": verdict_key(puzzle),
        "worlds": verdict.worlds,
        "seed": verdict.seed,
        "results": [
            {
                "choice": r.candidate.code,
                "mean": r.mean,
                "stderr": r.stderr,
                "gap": r.gap,
                "gap_stderr": r.gap_stderr,
            }
            for r in verdict.results
        ],
    }


def load_verdicts() -> dict[str, Any]:
    """The stored verdicts by puzzle id; empty when the file is missing or unreadable."""
    try:
        text = content_dir("puzzles").joinpath(FILE_NAME).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    found = data.get("verdicts")
    return found if isinstance(found, dict) else {}


def stored_verdict(puzzle: Puzzle, table: dict[str, Any]) -> Verdict | None:
    """The stored verdict of ``puzzle`` if it is still its verdict (same key), else ``None``."""
    entry = table.get(puzzle.id)
    if not isinstance(entry, dict) or entry.get("key") != verdict_key(puzzle):
        return None
    try:
        return _verdict(entry)
    except (KeyError, TypeError, ValueError, GinError):
        return None


def solve(puzzle: Puzzle, table: dict[str, Any] | None = None) -> Solution:
    """The puzzle's solution, using its stored verdict when there is one."""
    if puzzle.theme.exact:
        return solve_puzzle(puzzle)
    table = load_verdicts() if table is None else table
    return solve_puzzle(puzzle, stored_verdict(puzzle, table))


def verdicts_text(solutions: Iterable[Solution]) -> str:
    """The verdicts file for these solutions (rollout themes only), sorted by id."""
    verdicts = {
        s.puzzle.id: _entry(s.puzzle, s.verdict)
        for s in sorted(solutions, key=lambda s: s.puzzle.id)
        if s.verdict is not None
    }
    return json.dumps({"version": VERSION, "verdicts": verdicts}, indent=1, sort_keys=True) + "\n"
