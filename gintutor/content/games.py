"""Saved games: one append-only JSON-lines file per game, written as it is played.

The format is ``docs/files.md``'s: a ``game`` header line, then for each hand a ``hand`` line
(its deal) and one ``action`` line per action (either player's, with the coach's note on the
learner's), and an ``end`` line when the game is over or abandoned. Invariants:

- Each line is written whole with one ``write`` on a file opened for appending (in the
  system's hands at once), so a kill at any moment loses at most the line being written. The
  lines are fsynced (with a new file's folder) by :meth:`GameWriter.sync` before the learner is
  asked anything and on closing: a crash of the machine loses at most the lines written since
  the last question, and a start pays for one fsync, not one per line (each ~4 ms of wall
  time on this machine; five of them came before the first question).
- A reader ignores a truncated last line (and reports it in :attr:`SavedGame.problems`); a
  writer that resumes the game first cuts that partial line off.
- A damaged line after the header (by hand, by a disk, by two writers) never makes the hands
  before it unreadable: the reader replays up to the last good line and reports the damage
  (:attr:`SavedGame.damage`); a writer that resumes such a game first keeps the whole file
  beside it (``ID.jsonl.damaged-N``), then continues after the last good line.
- One writer at a time: a :class:`GameWriter` holds an exclusive lock on its file (``flock``)
  until it is closed; a second one is refused (:class:`GameOpenError`), never let append.
- Files are created readable by their owner only (0600), like the progress file.
- Hand results and score sheets are never stored: :func:`load_game` replays every deal and
  action through the engine (:func:`~gintutor.engine.hand.replay`), which validates the file.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gintutor.content.store import GAMES
from gintutor.engine.hand import Action, Deal, HandState, Phase, replay
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError, Phrase

if TYPE_CHECKING:  # the coach's vocabulary is read with the first stored verdict (play starts
    # without it: tests/test_startup.py)
    from gintutor.engine.judgement import Judged, Verdict

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, one writer is up to the learner
    fcntl = None  # type: ignore[assignment]

VERSION = 1
FOLDER = GAMES
SUFFIX = ".jsonl"
MAX_BYTES = 16 * 1024 * 1024
"""The largest game file read (a long game is a few hundred lines of ~100 bytes)."""

SYNC = True
"""fsync the lines written at each :meth:`GameWriter.sync` (tests that write thousands of lines
may turn it off)."""

_ID = re.compile(r"^(\d{8}-\d{6})(?:-(\d+))?$")


class GameFileError(GinError):
    """A saved game cannot be read or written: the message names the file and the line."""

    exit_code = 1


class GameNotFoundError(GameFileError):
    """No saved game has the id asked for (a usage problem)."""

    exit_code = 2


class GameOpenError(GameFileError):
    """Another gintutor is writing the game (it holds the file's lock)."""


@dataclass(frozen=True)
class StoredVerdict:
    """The coach's verdict on a decision, as judged during play and kept for the review: the
    coach's valuation ``version`` (:data:`~gintutor.engine.judgement.VERSION` when judged) and
    ``budget`` (worlds, CPU seconds) asked; the verdict names its opponent model and the
    sampled deals it rests on (``worlds``)."""

    version: str
    verdict: Verdict
    budget: tuple[int, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``verdict`` object of a coach note (each action a list, see docs/files.md)."""
        verdict = self.verdict
        data: dict[str, Any] = {
            "version": self.version,
            "opponent": verdict.opponent,
            "phase": verdict.phase.value,
            "worlds": verdict.worlds,
            "seconds": round(verdict.seconds, 3),
        }
        if self.budget is not None:
            data["budget"] = [self.budget[0], self.budget[1]]
        data["judged"] = [
            [
                str(j.action),
                round(j.mean, 3),
                round(j.stderr, 3),
                round(j.loss, 3),
                round(j.loss_stderr, 3),
                None if j.win_chance is None else round(j.win_chance, 4),
                None if j.win_loss is None else round(j.win_loss, 4),
                j.grade.value,
                j.close,
                j.worlds,
                [[r.kind.value, r.cards, r.value, r.other] for r in j.reasons],
            ]
            for j in verdict.judged
        ]
        return data

    @classmethod
    def from_json(cls, data: object, player: int) -> StoredVerdict | None:
        """Read a stored verdict of ``player``'s decision; ``None`` if it is not one this
        gintutor reads (another version's fields): the review then judges the decision again,
        and the game stays readable."""
        from gintutor.engine.judgement import Verdict

        try:
            if not isinstance(data, dict):
                return None
            judged = tuple(_judged_of(row) for row in data["judged"])
            if not judged:
                return None
            budget = data.get("budget")
            verdict = Verdict(
                player,
                Phase(data["phase"]),
                judged,
                int(data["worlds"]),
                float(data["seconds"]),
                str(data["opponent"]),
            )
            return cls(
                str(data["version"]),
                verdict,
                None if budget is None else (int(budget[0]), float(budget[1])),
            )
        except (KeyError, IndexError, TypeError, ValueError):
            return None


def _judged_of(row: list[Any]) -> Judged:
    """One judged action from its stored list (:meth:`StoredVerdict.to_json`)."""
    from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind

    action, mean, stderr, loss, loss_se, win, win_loss, grade, close, worlds, reasons = row
    return Judged(
        Action.parse(str(action)),
        float(mean),
        float(stderr),
        float(loss),
        float(loss_se),
        None if win is None else float(win),
        None if win_loss is None else float(win_loss),
        Grade(grade),
        bool(close),
        tuple(Reason(ReasonKind(k), int(c), int(v), int(o)) for k, c, v, o in reasons),
        int(worlds),
    )


@dataclass(frozen=True)
class CoachNote:
    """What the coach said about one of the learner's actions before it was committed.

    ``flagged``: the committed action was flagged as a mistake or worse (and kept);
    ``best`` and ``loss``: the coach's best action and the committed one's expected loss;
    ``taken_back``: actions the learner proposed, was warned about and took back first;
    ``hints``: how many times the learner asked for a hint at this decision (a line without it:
    none, or a game saved before hints were recorded); ``verdict``: the coach's whole verdict
    on the decision, when it judged one (the review reuses it).
    """

    flagged: bool = False
    best: str | None = None
    loss: float | None = None
    taken_back: tuple[str, ...] = ()
    hints: int = 0
    verdict: StoredVerdict | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The ``coach`` object of an action line."""
        data: dict[str, Any] = {"flagged": self.flagged}
        if self.best is not None:
            data["best"] = self.best
        if self.loss is not None:
            data["loss"] = round(self.loss, 2)
        if self.taken_back:
            data["taken_back"] = list(self.taken_back)
        if self.hints:
            data["hints"] = self.hints
        if self.verdict is not None:
            data["verdict"] = self.verdict.to_json()
        return data

    @classmethod
    def from_json(cls, data: object, player: int = 0) -> CoachNote:
        """Read a ``coach`` object; a :class:`GinError` (or ``TypeError``) if malformed (a
        verdict this gintutor cannot read is left out, not an error)."""
        if not isinstance(data, dict):
            raise GinError("the coach note is not an object")
        best = data.get("best")
        loss = data.get("loss")
        taken = data.get("taken_back", [])
        if best is not None:
            Action.parse(str(best))
        if not isinstance(taken, list):
            raise GinError("taken_back is not a list")
        for text in taken:
            Action.parse(str(text))
        if loss is not None and not isinstance(loss, int | float):
            raise GinError("loss is not a number")
        hints = json_int(data, "hints", range(1_000_000)) if "hints" in data else 0
        return cls(
            bool(data.get("flagged", False)),
            None if best is None else str(best),
            None if loss is None else float(loss),
            tuple(str(t) for t in taken),
            hints,
            None if "verdict" not in data else StoredVerdict.from_json(data["verdict"], player),
        )


@dataclass(frozen=True)
class SavedAction:
    """One action of a hand as saved: who played it, what, and the coach's note (if any)."""

    player: int
    action: Action
    coach: CoachNote | None = None


@dataclass(frozen=True)
class SavedHand:
    """One hand as saved: its number (from 1), the deal, the actions in order."""

    number: int
    deal: Deal
    actions: tuple[SavedAction, ...] = ()

    def replay(self, rules: RuleSet) -> HandState:
        """The hand's state after its saved actions (over when the hand was finished)."""
        return replay(self.deal, rules, [saved.action for saved in self.actions])


@dataclass(frozen=True)
class GameHeader:
    """The ``game`` line: who played what under which rules, and the seed of the deals."""

    id: str
    created: str
    rules: RuleSet
    rules_spec: str | dict[str, str]
    """As stored: a rule-set name, or ``{"name": ..., "house": <house-rules YAML>}``."""
    bot: str
    coach: str
    seed: int
    you: int
    first_dealer: int

    def to_json(self) -> dict[str, Any]:
        """The header line's object."""
        return {
            "type": "game",
            "version": VERSION,
            "id": self.id,
            "created": self.created,
            "rules": self.rules_spec,
            "bot": self.bot,
            "coach": self.coach,
            "seed": self.seed,
            "you": self.you,
            "first_dealer": self.first_dealer,
        }


@dataclass(frozen=True)
class SavedGame:
    """A game read back from its file.

    ``hands`` are replayed and legal; the last may be unfinished. ``finished`` is True once
    the game reached its end (an ``end`` line with reason ``finished``); ``end`` is that
    line's reason (``finished`` or ``resigned``) or ``None`` for a game that can be resumed.
    ``problems`` reports what was ignored (a truncated last line, a damaged tail).
    ``complete_bytes`` is the length of the good whole lines: where a resumed writer appends.
    ``damage`` is ``file:line: what is wrong`` for a damaged line (the game is read up to the
    line before it); ``size`` is the file's length as read.
    """

    path: Path
    header: GameHeader
    hands: tuple[SavedHand, ...]
    end: str | None = None
    problems: tuple[str, ...] = ()
    complete_bytes: int = 0
    states: tuple[HandState, ...] = field(default=(), compare=False, repr=False)
    """Each hand replayed (same order as ``hands``)."""
    damage: str | None = None
    size: int = 0

    @property
    def id(self) -> str:
        """The game's id (its file name without ``.jsonl``)."""
        return self.header.id

    @property
    def rules(self) -> RuleSet:
        """The rule set the game is played under."""
        return self.header.rules

    @property
    def finished(self) -> bool:
        """True when the game was played to its end."""
        return self.end == "finished"


def games_dir(data_dir: Path) -> Path:
    """The folder of saved games inside the data directory."""
    return data_dir / FOLDER


def _id_key(path: Path) -> tuple[str, int]:
    match = _ID.match(path.name.removesuffix(SUFFIX))
    if match is None:
        return ("", 0)
    return (match.group(1), int(match.group(2) or 1))


def list_games(folder: Path) -> list[Path]:
    """The saved game files in ``folder``, oldest first (ids are times; ``-2`` after the plain)."""
    if not folder.is_dir():
        return []
    found = [
        path
        for path in folder.iterdir()
        if path.name.endswith(SUFFIX) and _ID.match(path.name.removesuffix(SUFFIX))
    ]
    return sorted(found, key=_id_key)


def latest_game(folder: Path, *, unfinished: bool = False) -> Path | None:
    """The newest saved game (``unfinished``: the newest that has no ``end`` line)."""
    for path in reversed(list_games(folder)):
        if not unfinished or not _has_end(path):
            return path
    return None


def find_game(folder: Path, name: str) -> Path:
    """A game by id (``20261201-054000``), file name or path; :class:`GameFileError` if none."""
    direct = Path(name)
    if direct.suffix == SUFFIX and direct.is_file():
        return direct
    candidate = folder / (name.removesuffix(SUFFIX) + SUFFIX)
    if _ID.match(name.removesuffix(SUFFIX)) and candidate.is_file():
        return candidate
    known = [p.name.removesuffix(SUFFIX) for p in list_games(folder)][-3:]
    if known:
        raise GameNotFoundError(
            "no saved game {name!r} in {folder} (the latest: {latest})",
            name=name,
            folder=folder,
            latest=", ".join(reversed(known)),
        )
    raise GameNotFoundError(
        "no saved game {name!r} in {folder} (no games saved yet)", name=name, folder=folder
    )


def _has_end(path: Path) -> bool:
    """True when the file's last whole line is an ``end`` line (a cheap look at the tail)."""
    try:
        # Without blocking, and only a regular file's tail: a FIFO or a device in the folder
        # is left to load_game to name, not waited on or read without end.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return False
    with os.fdopen(descriptor, "rb") as stream:
        try:
            stream.seek(0, os.SEEK_END)
            size = stream.tell()
            stream.seek(max(0, size - 4096))
            tail = stream.read(4096)
        except OSError:
            return False
    # Only whole lines count: what follows the last newline is a cut-short line.
    for line in reversed(tail.split(b"\n")[:-1]):
        if line.strip():
            return b'"type": "end"' in line or b'"type":"end"' in line
    return False


def _read_bytes(path: Path) -> bytes:
    """The file's bytes: a regular file of at most :data:`MAX_BYTES` (a FIFO is not waited on,
    a device not read without end)."""
    from gintutor.content.textfile import FileError, read_bytes

    try:
        size = os.stat(path).st_size
    except OSError as error:
        raise GameFileError(
            "{path}: cannot read ({reason})", path=path, reason=error.strerror or error
        ) from None
    if size > MAX_BYTES:
        raise GameFileError(
            "{path}: {size} bytes is too big for a saved game", path=path, size=size
        )
    try:
        return read_bytes(path, Phrase("the saved game"), MAX_BYTES)
    except FileError as error:
        raise GameFileError(error.template, **error.params) from None


def house_rules(name: str, text: str) -> RuleSet:
    """A rule set from house-rules YAML text (a header's ``{"name", "house"}``)."""
    from gintutor.content.houserules import rules_from_text

    try:
        return rules_from_text(name, text)
    except GinError as error:
        raise GinError("the saved house rules: {error}", error=error) from None


def _rules_of(spec: object) -> RuleSet:
    if isinstance(spec, str):
        found = RULE_SETS.get(spec.strip().lower())
        if found is None:
            raise GinError("unknown rule set {spec!r}", spec=spec)
        return found
    if isinstance(spec, dict) and isinstance(spec.get("house"), str):
        return house_rules(str(spec.get("name", "house rules")), spec["house"])
    raise GinError("rules is a rule-set name or {name, house}")


def json_int(data: Mapping[str, Any], key: str, allowed: range | None = None) -> int:
    """A saved line's whole-number field (``allowed``: its range); a :class:`GinError` (a
    ValueError) names it.

    >>> json_int({"player": 2}, "player", range(2))
    Traceback (most recent call last):
    gintutor.errors.GinError: player is 2, not a number from 0 to 1
    """
    value = data.get(key)
    if type(value) is not int or (allowed is not None and value not in allowed):
        if allowed is None:
            raise GinError("{key} is {value!r}, not a number", key=key, value=value)
        raise GinError(
            "{key} is {value!r}, not a number from {low} to {high}",
            key=key,
            value=value,
            low=allowed.start,
            high=allowed.stop - 1,
        )
    return value


def _header(data: Mapping[str, Any]) -> GameHeader:
    if data.get("type") != "game":
        raise GinError("the first line is not the game header")
    if data.get("version") != VERSION:
        raise GinError(
            "version {version!r}: this gintutor reads version {known}",
            version=data.get("version"),
            known=VERSION,
        )
    spec = data.get("rules")
    return GameHeader(
        id=str(data.get("id", "")),
        created=str(data.get("created", "")),
        rules=_rules_of(spec),
        rules_spec=spec if isinstance(spec, str) else dict(spec),  # type: ignore[arg-type]
        bot=str(data.get("bot", "")),
        coach=str(data.get("coach", "off")),
        seed=json_int(data, "seed"),
        you=json_int(data, "you", range(2)),
        first_dealer=json_int(data, "first_dealer", range(2)),
    )


def _lines(raw: bytes) -> Iterator[tuple[int, bytes, int]]:
    """``(line number, line, end offset)`` for every line, the last possibly unterminated."""
    start = 0
    number = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        number += 1
        if end < 0:
            yield number, raw[start:], -1
            return
        yield number, raw[start:end], end + 1
        start = end + 1


class _Loader:
    """Reads the lines in order, replaying each hand as it goes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header: GameHeader | None = None
        self.hands: list[SavedHand] = []
        self.states: list[HandState] = []
        self.actions: list[SavedAction] = []
        self.end: str | None = None
        self.hand_starts: list[tuple[int, int]] = []
        """Each hand line's number and the offset where it starts."""

    def _close_hand(self) -> None:
        if self.hands:
            last = self.hands[-1]
            self.hands[-1] = SavedHand(last.number, last.deal, tuple(self.actions))
        self.actions = []

    def take(self, data: Mapping[str, Any], line: int = 0, start: int = 0) -> None:
        kind = data.get("type")
        if self.header is None:
            self.header = _header(data)
            return
        if self.end is not None:
            raise GinError("a {kind!r} line after the game's end", kind=kind)
        if kind == "hand":
            number = json_int(data, "hand")
            if number != len(self.hands) + 1:
                raise GinError(
                    "hand {number} where hand {due} was due", number=number, due=len(self.hands) + 1
                )
            if self.states and not self.states[-1].over:
                raise GinError(
                    "hand {number} starts before hand {previous} is over",
                    number=number,
                    previous=number - 1,
                )
            self._close_hand()
            deal = Deal.parse(str(data.get("deal", "")))
            self.hands.append(SavedHand(number, deal))
            self.hand_starts.append((line, start))
            self.states.append(HandState(deal, self.header.rules))
        elif kind == "action":
            if not self.states:
                raise GinError("an action before the first hand")
            number = json_int(data, "hand")
            if number != len(self.hands):
                raise GinError(
                    "an action of hand {number} during hand {current}",
                    number=number,
                    current=len(self.hands),
                )
            player = json_int(data, "player", range(2))
            state = self.states[-1]
            if state.over:
                raise GinError("an action after hand {number} was over", number=number)
            if player != state.to_move:
                raise GinError(
                    "player {player} acts but player {to_move} is to move",
                    player=player,
                    to_move=state.to_move,
                )
            action = Action.parse(str(data.get("action", "")))
            note = data.get("coach")
            coach = None if note is None else CoachNote.from_json(note, player)
            state.do(action)  # last: a line refused leaves the hand as it was
            self.actions.append(SavedAction(player, action, coach))
        elif kind == "end":
            reason = data.get("reason")
            if reason not in ("finished", "resigned"):
                raise GinError("end reason {reason!r}: finished or resigned", reason=reason)
            self.end = str(reason)
        else:
            raise GinError("unknown line type {kind!r}", kind=kind)


@dataclass(frozen=True)
class LinesRead:
    """What reading a game file's lines found besides the lines themselves (see
    :func:`read_lines`)."""

    problems: tuple[str, ...]
    complete_bytes: int
    damage: str | None
    size: int


def read_lines(
    path: Path, take: Callable[[Mapping[str, Any], int, int], None], started: Callable[[], bool]
) -> LinesRead:
    """Hand every whole JSON line of the file at ``path`` to ``take(data, line, start)`` in
    order; the reading behind :func:`load_game` (and any other game kept in this format).

    A last line without its newline (the writer was killed mid-line) is ignored and reported.
    A line ``take`` refuses (:class:`ValueError`) or that is not a JSON object ends the reading
    once ``started()`` is true (the header was taken): the lines before it are kept and the
    damage reported; before that, it is a :class:`GameFileError`.
    """
    raw = _read_bytes(path)
    problems: list[str] = []
    complete = 0
    damage: str | None = None
    for number, line, end in _lines(raw):
        if end < 0:
            problems.append(f"{path}:{number}: the last line is cut short (ignored)")
            break
        if line.strip():
            try:
                _take_line(take, path, number, line, complete)
            except GameFileError as error:
                if not started() or number == 1:
                    raise
                damage = str(error)
                break
        complete = end
    return LinesRead(tuple(problems), complete, damage, len(raw))


def load_game(path: Path) -> SavedGame:
    """Read and replay a saved game; :class:`GameFileError` if nothing can be read from it.

    A last line without its newline (the writer was killed mid-line) is ignored and reported.
    A damaged line after the header (not JSON, not legal, out of order, a hand after the game
    was won) ends the reading: the hands before it are kept, and the damage is reported in
    :attr:`SavedGame.damage` and :attr:`SavedGame.problems`.
    """
    loader = _Loader(path)
    read = read_lines(path, loader.take, lambda: loader.header is not None)
    problems = list(read.problems)
    complete, damage = read.complete_bytes, read.damage
    if loader.header is None:
        raise GameFileError("{path}: no game header (an empty or cut-short file)", path=path)
    loader._close_hand()
    hands, states = loader.hands, loader.states
    late = _hand_after_end(loader)
    if late is not None and damage is None:
        hand_line, complete = loader.hand_starts[late - 1]
        damage = (
            f"{path}:{hand_line}: hand {late}: the game was already over after hand {late - 1} "
            f"(a player reached {loader.header.rules.target})"
        )
        hands, states = hands[: late - 1], states[: late - 1]
    if damage is not None:
        problems.insert(
            0,
            f"{damage}: the game is read up to the line before it; the file is kept as it is",
        )
    return SavedGame(
        path,
        loader.header,
        tuple(hands),
        loader.end,
        tuple(problems),
        complete,
        tuple(states),
        damage,
        read.size,
    )


def _take_line(
    take: Callable[[Mapping[str, Any], int, int], None],
    path: Path,
    number: int,
    line: bytes,
    start: int,
) -> None:
    """One whole line to ``take``; :class:`GameFileError` naming the line if it is bad."""
    try:
        data = json.loads(line.decode("utf-8"))
        if not isinstance(data, dict):
            raise GinError("a line is a JSON object")
        take(data, number, start)
    except UnicodeDecodeError as error:
        raise GameFileError(
            "{path}:{number}: not UTF-8 text (byte {byte:#04x} at column {column}): not a line "
            "gintutor wrote",
            path=path,
            number=number,
            byte=line[error.start],
            column=error.start + 1,
        ) from None
    except (ValueError, TypeError) as error:
        raise GameFileError(
            "{path}:{number}: {error}", path=path, number=number, error=error
        ) from None
    except RecursionError:
        raise GameFileError(
            "{path}:{number}: JSON nested too deeply", path=path, number=number
        ) from None


def _hand_after_end(loader: _Loader) -> int | None:
    """The first hand dealt after the game was won (Hollywood games are three at once: the
    session ends them, not a score)."""
    assert loader.header is not None
    rules = loader.header.rules
    if rules.hollywood or len(loader.states) < 2:
        return None
    from gintutor.engine.game import game_over_after

    results = [state.result for state in loader.states]
    last = game_over_after((r.record() for r in results if r is not None), rules)
    return None if last is None or last >= len(loader.states) else last + 1


def new_game_id(folder: Path, now: dt.datetime) -> str:
    """``YYYYMMDD-HHMMSS`` of ``now``, with ``-2``, ``-3``... if that file exists already."""
    base = now.strftime("%Y%m%d-%H%M%S")
    name, count = base, 1
    while (folder / (name + SUFFIX)).exists():
        count += 1
        name = f"{base}-{count}"
    return name


class ReadGame(Protocol):
    """What :meth:`GameWriter.resume` needs of a game file read (a :class:`SavedGame`, or
    another game kept in this format)."""

    @property
    def path(self) -> Path: ...

    @property
    def size(self) -> int: ...

    @property
    def complete_bytes(self) -> int: ...

    @property
    def damage(self) -> str | None: ...


class GameWriter:
    """Appends lines to a game file: each one whole, fsynced at :meth:`sync` (see the module)."""

    def __init__(self, path: Path, descriptor: int, new_in: Path | None = None) -> None:
        self.path = path
        self._fd = descriptor
        self._unsynced = False
        self._new_in = new_in  # the folder of a new file, its entry not yet fsynced
        self.kept_damage: Path | None = None
        """Where :meth:`resume` kept the file as it was, its damaged tail included."""

    @classmethod
    def create(
        cls,
        folder: Path,
        *,
        rules: RuleSet,
        rules_spec: str | dict[str, str],
        bot: str,
        coach: str,
        seed: int,
        you: int,
        first_dealer: int,
        now: dt.datetime | None = None,
    ) -> tuple[GameWriter, GameHeader]:
        """A new game file in ``folder`` (made if missing), its header written."""
        writer, game_id, created = cls.open_new(folder, now)
        header = GameHeader(
            game_id,
            created,
            rules,
            rules_spec,
            bot,
            coach,
            seed,
            you,
            first_dealer,
        )
        writer.line(header.to_json())
        return writer, header

    @classmethod
    def open_new(cls, folder: Path, now: dt.datetime | None = None) -> tuple[GameWriter, str, str]:
        """A new empty game file in ``folder`` (made if missing), created 0600 and locked;
        with its id and creation time (ISO, to the second). The caller writes the header."""
        now = now or dt.datetime.now()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            while True:
                game_id = new_game_id(folder, now)
                path = folder / (game_id + SUFFIX)
                try:
                    descriptor = os.open(
                        path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600
                    )
                except FileExistsError:
                    continue  # another process took the id between the check and the open
                break
        except OSError as error:
            raise GameFileError(
                "{folder}: cannot save the game there ({reason}); set GINTUTOR_HOME to a "
                "folder you can write to",
                folder=folder,
                reason=error.strerror or error,
            ) from None
        _lock(descriptor, path)  # no one else knows the file yet: never refused
        return cls(path, descriptor, new_in=folder), game_id, now.replace(microsecond=0).isoformat()

    @classmethod
    def resume(cls, game: ReadGame) -> GameWriter:
        """Append to a saved game, holding its lock: a damaged tail is first kept beside it
        (its name in :attr:`kept_damage`) and a truncated last line cut off.

        :class:`GameOpenError` if another gintutor holds the game; :class:`GameFileError` if
        the file changed since it was read (read it again).
        """
        try:
            descriptor = os.open(game.path, os.O_RDWR | os.O_APPEND)
        except OSError as error:
            raise GameFileError(
                "{path}: cannot continue the game ({reason})",
                path=game.path,
                reason=error.strerror or error,
            ) from None
        try:
            _lock(descriptor, game.path)
            size = os.fstat(descriptor).st_size
            if game.size and size != game.size:
                raise GameFileError(
                    "{path}: the game changed while it was being read; try again", path=game.path
                )
            kept = None
            if size != game.complete_bytes:
                if game.damage is not None:
                    kept = _keep_damaged(game.path, descriptor)
                os.ftruncate(descriptor, game.complete_bytes)
                os.fsync(descriptor)
        except OSError as error:
            os.close(descriptor)
            raise GameFileError(
                "{path}: cannot continue the game ({reason})",
                path=game.path,
                reason=error.strerror or error,
            ) from None
        except GinError:
            os.close(descriptor)
            raise
        writer = cls(game.path, descriptor)
        writer.kept_damage = kept
        return writer

    def line(self, data: Mapping[str, Any]) -> None:
        """Append ``data`` as one JSON line, whole (on disk at the next :meth:`sync`)."""
        line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
        except OSError as error:
            raise GameFileError(
                "{path}: cannot save ({reason})", path=self.path, reason=error.strerror or error
            ) from None
        self._unsynced = True

    def sync(self) -> None:
        """Put the lines written so far on disk (and a new file's name in its folder)."""
        if not self._unsynced or self._fd < 0:
            return
        if SYNC:
            try:
                os.fsync(self._fd)
            except OSError as error:
                raise GameFileError(
                    "{path}: cannot save ({reason})",
                    path=self.path,
                    reason=error.strerror or error,
                ) from None
            if self._new_in is not None:
                _sync_folder(self._new_in)
        self._new_in = None
        self._unsynced = False

    def hand(self, number: int, deal: Deal) -> None:
        """A ``hand`` line: hand ``number`` (from 1) is dealt ``deal``."""
        self.line({"type": "hand", "hand": number, "deal": deal.text()})

    def action(
        self, hand: int, player: int, action: Action, coach: CoachNote | None = None
    ) -> None:
        """An ``action`` line (with the coach's note on the learner's actions)."""
        data: dict[str, Any] = {
            "type": "action",
            "hand": hand,
            "player": player,
            "action": str(action),
        }
        if coach is not None:
            data["coach"] = coach.to_json()
        self.line(data)

    def end(self, reason: str) -> None:
        """The ``end`` line: ``finished`` (played to the end) or ``resigned``."""
        self.line({"type": "end", "reason": reason})

    def close(self) -> None:
        """Close the file, its lines on disk."""
        if self._fd >= 0:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._fd = -1

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (a crash right after creating it keeps it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _lock(descriptor: int, path: Path) -> None:
    """Take the game file's writer lock; :class:`GameOpenError` if another process holds it."""
    if fcntl is None:
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise GameOpenError(
            "{path}: this game is open in another gintutor; go on playing it there, or close "
            "that one first",
            path=path,
        ) from None


def _keep_damaged(path: Path, descriptor: int) -> Path:
    """A copy of the whole file beside it, ``ID.jsonl.damaged-N`` (not a game file, so never
    listed or resumed), before its damaged tail is cut off."""
    from gintutor.content.store import write_atomically
    from gintutor.content.textfile import FileError

    number = 1
    while (kept := path.with_name(f"{path.name}.damaged-{number}")).exists():
        number += 1
    size = os.fstat(descriptor).st_size
    data = os.pread(descriptor, size, 0)
    try:
        write_atomically(kept, data)
    except FileError as error:
        raise GameFileError(
            "{path}: the game is damaged and a copy could not be kept ({error}); nothing "
            "was changed",
            path=path,
            error=error,
        ) from None
    return kept
