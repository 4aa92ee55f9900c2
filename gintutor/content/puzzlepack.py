"""The shipped puzzle pack as a command needs it: the ids, one puzzle, or all of them.

Reading YAML costs more than a puzzle command's own work (importing PyYAML alone is about a
fifteenth of a start), so once the whole pack has been read cleanly its puzzles are kept in a
cache file (:mod:`.cachefile`): the key and the ids on the first line, then one puzzle a line
with its stored verdict, so one puzzle costs one line's JSON. The key is the size and
modification time of every pack file and of the stored verdicts, and gintutor's code
(:func:`.cachefile.code_fingerprint`: any module changed, or another version, makes it stale).
A cache that is missing, stale or unreadable is passed by: the pack is read as
:mod:`gintutor.content.puzzles` reads it, and a clean full read is stored for the next start
(where the cache can be written; elsewhere only the asked puzzle is read).

Measured (bench_startup.py's pairing, 6 rounds, load ~5 on 2 cores): ``puzzle`` (the daily, EOF)
1.18x the bare Typer + Rich app's least CPU with the cache, 1.42x where none can be kept;
again after issue 24 (3 rounds, load ~10, ``--cold``): every ``puzzle --id ... --json`` and the
daily 1.83-1.96x without the cache, 1.02-1.15x with it. The pack's reader
(:mod:`gintutor.content.puzzles`, with YAML) and the stored verdicts are imported where a
missing puzzle is read: with them (and the coach of :mod:`gintutor.tutor.puzzles`) at the top,
the ``puzzle`` commands measured 1.23-1.38x against 1.02-1.15x.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gintutor.content.cachefile import can_store, code_fingerprint, read_quietly, store_quietly
from gintutor.content.paths import content_dir
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.evaluate import Position
from gintutor.engine.rules import RULE_SETS
from gintutor.errors import GinError
from gintutor.tutor.puzzles import Puzzle, PuzzleKind, Theme, verdict_key

FORMAT = 2
"""The cache's own format: part of its key (2: a puzzle's kind, the close calls' ids)."""


@dataclass
class ShippedPack:
    """The shipped puzzles: ``index`` (id -> file name), :meth:`puzzle`, :meth:`puzzles`."""

    index: dict[str, str]
    _lines: str | None = None
    """The cache's text, when it is used."""
    _read: dict[str, Puzzle] | None = None
    """Every puzzle by id, when the whole pack was read now."""
    _all: list[Puzzle] | None = field(default=None, repr=False)
    close_calls: frozenset[str] | None = None
    """The ids of the puzzles labelled close calls (``None``: not known yet)."""

    def daily_ids(self) -> list[str]:
        """The ids the daily puzzle is chosen from: every puzzle but the close calls."""
        if self.close_calls is None:
            if self._read is not None:
                self.close_calls = frozenset(
                    p.id for p in self._read.values() if p.kind is PuzzleKind.CLOSE_CALL
                )
            else:
                from gintutor.content.puzzles import close_call_ids

                self.close_calls = close_call_ids()
        return [pid for pid in self.index if pid not in self.close_calls]

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with this id (GinError if there is none)."""
        if self._read is not None and puzzle_id in self._read:
            return self._read[puzzle_id]
        if self._lines is not None and puzzle_id in self.index:
            record = _cached_record(self._lines, puzzle_id)
            if record is not None:
                return record[0]
        from gintutor.content.puzzles import load_puzzle

        return load_puzzle(puzzle_id, self.index)

    def verdicts(self, puzzle: Puzzle) -> dict[str, Any]:
        """The stored verdicts table for solving ``puzzle`` (only its own entry when cached)."""
        if self._lines is not None:
            record = _cached_record(self._lines, puzzle.id)
            if record is not None and record[0] == puzzle:
                return {} if record[1] is None else {verdict_key(puzzle): record[1]}
        from gintutor.content.verdicts import load_verdicts

        return load_verdicts()

    def puzzles(self) -> list[Puzzle]:
        """Every shipped puzzle, sorted by id (GinError listing the problems of a bad pack)."""
        if self._all is None:
            if self._read is not None:
                self._all = sorted(self._read.values(), key=lambda p: p.id)
            elif self._lines is not None:
                self._all = self._every_cached()
            else:
                from gintutor.content.puzzles import load_puzzles

                self._all = load_puzzles()
        return self._all

    def _every_cached(self) -> list[Puzzle]:
        """Every puzzle of the cache in one pass, sorted by id (a puzzle whose line cannot be
        read is read from its entry)."""
        assert self._lines is not None
        found: dict[str, Puzzle] = {}
        for line in self._lines.splitlines()[1:]:
            try:
                puzzle = _puzzle_of(json.loads(line))
            except (ValueError, KeyError, TypeError, GinError):
                continue
            found[puzzle.id] = puzzle
        return [found.get(puzzle_id) or self.puzzle(puzzle_id) for puzzle_id in sorted(self.index)]


def shipped_pack(cache: Path | None = None) -> ShippedPack:
    """The shipped pack, from ``cache`` (a file) when it holds exactly this pack read by this
    code; else read now, and stored there if the whole pack reads cleanly. Without ``cache``, or
    where it cannot be written, only the ids are read (each puzzle's entry when asked for)."""
    if cache is None:
        from gintutor.content.puzzles import pack_index

        return ShippedPack(pack_index())
    key = _key()
    if key:
        try:
            text = (read_quietly(cache) or b"").decode("utf-8")
            head = json.loads(text[: text.index("\n")])
            if head["key"] == key and isinstance(head["index"], dict):
                index = {str(k): str(v) for k, v in head["index"].items()}
                close = frozenset(str(pid) for pid in head["close_calls"])
                return ShippedPack(index, text, close_calls=close)
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            pass
    from gintutor.content.puzzles import check_puzzles, pack_index, puzzle_files
    from gintutor.content.verdicts import load_verdicts

    if not key or not can_store(cache):  # the whole pack read for nothing: read what is asked
        return ShippedPack(pack_index())
    puzzles, problems = check_puzzles(puzzle_files(), solve=False)
    if problems:  # reported by the commands that need the puzzles with problems
        return ShippedPack(pack_index())
    read = {puzzle.id: puzzle for puzzle in puzzles}
    index = {puzzle.id: Path(puzzle.path).name for puzzle in puzzles}
    stored = _cache_text(key, index, puzzles, load_verdicts())
    if stored is not None:
        store_quietly(cache, stored)
    return ShippedPack(index, None, read)


def _key() -> str:
    """What the cache is made from ('' when a file cannot be looked at: nothing is cached)."""
    try:
        root = content_dir("puzzles")
        if not isinstance(root, Path):  # inside an archive: no times to compare
            return ""
        packs = sorted(e for e in root.iterdir() if e.name.endswith((".yaml", ".json")))
        parts: list[Any] = [FORMAT]
        for path in packs:
            status = os.stat(path)
            parts.append([str(path), status.st_size, status.st_mtime_ns])
        # Any change to gintutor's code (how a puzzle or a verdict is read) makes it stale.
        parts.append(code_fingerprint())
    except OSError:
        return ""
    return json.dumps(parts)


def _cache_text(
    key: str, index: dict[str, str], puzzles: Iterable[Puzzle], verdicts: dict[str, Any]
) -> str | None:
    """The cache file: the key and the index, then one puzzle a line with its stored verdict
    (``None`` if a puzzle cannot be stored faithfully)."""
    puzzles = list(puzzles)
    close = sorted(p.id for p in puzzles if p.kind is PuzzleKind.CLOSE_CALL)
    lines = [json.dumps({"key": key, "index": index, "close_calls": close})]
    for puzzle in puzzles:
        record = _record(puzzle)
        if record is None or _puzzle_of(record) != puzzle:
            return None
        record["verdict"] = verdicts.get(verdict_key(puzzle)) if puzzle.theme.judged else None
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def _cached_record(text: str, puzzle_id: str) -> tuple[Puzzle, Any] | None:
    """The puzzle on its line of the cache and its stored verdict entry, or ``None`` if it is
    not there or unreadable."""
    start = text.find('\n{"id": ' + json.dumps(puzzle_id) + ",")
    if start < 0:
        return None
    end = text.find("\n", start + 1)
    try:
        record = json.loads(text[start + 1 : end if end >= 0 else len(text)])
        return _puzzle_of(record), record["verdict"]
    except (ValueError, KeyError, TypeError, GinError):
        return None


def _card(card: Card | None) -> int | None:
    return None if card is None else card.index


def _card_at(index: int | None) -> Card | None:
    return None if index is None else Card.from_index(int(index))


def _record(puzzle: Puzzle) -> dict[str, Any] | None:
    """A puzzle as JSON values (``None`` if its rule set is not a named one)."""
    position = puzzle.position
    if RULE_SETS.get(position.rules.name) != position.rules:
        return None
    return {
        "id": puzzle.id,
        "title": puzzle.title,
        "theme": puzzle.theme.value,
        "difficulty": puzzle.difficulty,
        "question": puzzle.question,
        "answers": list(puzzle.answers),
        "hints": list(puzzle.hints),
        "explanation": puzzle.explanation,
        "path": puzzle.path,
        "line": puzzle.line,
        "score": None if puzzle.score is None else list(puzzle.score),
        "opponent_discards": puzzle.opponent_discards.mask,
        "opponent_passed": puzzle.opponent_passed.mask,
        "kind": puzzle.kind.value,
        "hand": position.hand.mask,
        "rules": position.rules.name,
        "took_from_discard": _card(position.took_from_discard),
        "dead": position.dead.mask,
        "opponent_known": position.opponent_known.mask,
        "stock_size": position.stock_size,
        "first_upcard": _card(position.first_upcard),
        "upcard": _card(position.upcard),
    }


def _puzzle_of(record: dict[str, Any]) -> Puzzle:
    """The puzzle stored as ``record`` (:func:`_record`)."""
    score = record["score"]
    stock = record["stock_size"]
    position = Position(
        CardSet(int(record["hand"])),
        RULE_SETS[str(record["rules"])],
        took_from_discard=_card_at(record["took_from_discard"]),
        dead=CardSet(int(record["dead"])),
        opponent_known=CardSet(int(record["opponent_known"])),
        stock_size=None if stock is None else int(stock),
        first_upcard=_card_at(record["first_upcard"]),
        upcard=_card_at(record["upcard"]),
    )
    return Puzzle(
        str(record["id"]),
        str(record["title"]),
        Theme(record["theme"]),
        int(record["difficulty"]),
        position,
        str(record["question"]),
        tuple(str(answer) for answer in record["answers"]),
        tuple(str(hint) for hint in record["hints"]),
        str(record["explanation"]),
        str(record["path"]),
        int(record["line"]),
        None if score is None else (int(score[0]), int(score[1])),
        opponent_discards=CardSet(int(record["opponent_discards"])),
        opponent_passed=CardSet(int(record["opponent_passed"])),
        kind=PuzzleKind(record["kind"]),
    )
