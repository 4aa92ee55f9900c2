"""Saved gin games: one append-only JSON-lines file per game, written as it is played.

The format is ``docs/files.md``'s: a ``game`` header line, then for each hand a ``hand`` line
(its deal) and one ``action`` line per action (either player's, with the coach's note on the
learner's), and an ``end`` line when the game is over or abandoned. The file itself (lines
written whole and fsynced before every question, a cut-short or damaged tail, one writer at a
time, mode 0600) is :mod:`gintutor.content.gamefile`'s, shared with Carousel's games. Here:

- A reader ignores a truncated last line (and reports it in :attr:`SavedGame.problems`).
- A damaged line after the header never makes the hands before it unreadable: the reader
  replays up to the last good line and reports the damage (:attr:`SavedGame.damage`).
- Hand results and score sheets are never stored: :func:`load_game` replays every deal and
  action through the engine (:func:`~gintutor.engine.hand.replay`), which validates the file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gintutor.content.gamefile import GameFileError, LineWriter, json_int, read_lines
from gintutor.content.houserules import rules_from_text
from gintutor.content.store import GAMES
from gintutor.engine.game import game_over_after
from gintutor.engine.hand import Action, Deal, HandState, Phase, replay
from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind, Verdict
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.errors import GinError, Note

if TYPE_CHECKING:  # the coach's vocabulary is read with the first stored verdict (play starts
    # without it: tests/test_startup.py)
    from gintutor.engine.judgement import Judged, Verdict

VERSION = 1
FOLDER = GAMES


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


def house_rules(name: str, text: str) -> RuleSet:
    """A rule set from house-rules YAML text (a header's ``{"name", "house"}``)."""
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
        damage = Note(
            "{path}:{line}: hand {hand}: the game was already over after hand {previous} "
            "(a player reached {target})",
            path=path,
            line=hand_line,
            hand=late,
            previous=late - 1,
            target=loader.header.rules.target,
        )
        hands, states = hands[: late - 1], states[: late - 1]
    if damage is not None:
        problems.insert(
            0,
            Note(
                "{damage}: the game is read up to the line before it; the file is kept as it is",
                damage=damage,
            ),
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


def _hand_after_end(loader: _Loader) -> int | None:
    """The first hand dealt after the game was won (Hollywood games are three at once: the
    session ends them, not a score)."""
    assert loader.header is not None
    rules = loader.header.rules
    if rules.hollywood or len(loader.states) < 2:
        return None

    results = [state.result for state in loader.states]
    last = game_over_after((r.record() for r in results if r is not None), rules)
    return None if last is None or last >= len(loader.states) else last + 1


class GameWriter(LineWriter):
    """Appends a gin game's lines (header, hands, actions) to its file, a :class:`LineWriter`."""

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
