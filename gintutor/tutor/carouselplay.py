"""A Carousel game between the learner (player 1) and bots: turns, edits, hints and the coach.

The session owns the engine's :class:`~gintutor.engine.carousel.game.Round`, the draft of the
learner's play (:class:`~gintutor.engine.carousel.edits.Draft`, with undo), the hints and the
coach; the front end asks, shows what the text layer words, and confirms a coach's warning.
Every action is handed to a :class:`Recorder` as it happens (the saved game).

The hint and ``best`` are the exact solver's best play over the whole table
(:func:`best_for`, what ``carousel analyze`` computes for the same table and hand). The coach
compares the points a play (or not playing) leaves in hand with the best play's, before the
turn's last chance to play is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from gintutor.engine.carousel.cards import Hand, Table, parse_table
from gintutor.engine.carousel.edits import Draft
from gintutor.engine.carousel.game import (
    Action,
    BotLevel,
    GameSheet,
    LogEntry,
    Phase,
    Round,
    RoundResult,
    bot_turn,
    score_game,
)
from gintutor.engine.carousel.rules import STANDARD, CarouselRules
from gintutor.engine.carousel.solver import Play, best_play
from gintutor.errors import GinError, IllegalError

COACH_MARGIN = 5
"""The coach warns when a turn leaves at least this many points more in hand than the best play:
the knock limit, so a smaller gap never costs a knock that the best play would allow."""

MAX_ROUNDS = 200
"""A game ends by this many rounds at the latest (a game to 150 lasts a few rounds; voided
rounds under ``low_tie=void`` could otherwise go on without end)."""


def best_for(
    table: Table, hand: Hand, decks: int, rules: CarouselRules, first_meld: bool
) -> Play | None:
    """The best play of ``hand`` onto the whole ``table`` (``None``: no card can be placed).

    The same call as ``carousel analyze``: the exact solver over every meld of the table.
    """
    return best_play(table, hand, decks, rules, first_meld=first_meld)


def best_now(round_: Round) -> Play | None:
    """The best play of the player to move, over the whole table (``None``: nothing can be
    placed, or only by going out where the rules want a drawn turn first)."""
    play = best_for(round_.table, round_.hand, round_.decks, round_.rules, round_.first_meld)
    if play is not None:
        try:
            round_.verify_play(play.table)
        except IllegalError:
            return None
    return play


class Word(Enum):
    """What the learner may type besides cards and edits."""

    HINT = "hint"
    BEST = "best"
    DRAW = "draw"
    DONE = "done"
    KNOCK = "knock"
    UNDO = "undo"
    HELP = "help"
    TABLE = "table"
    SHEET = "sheet"
    QUIT = "quit"


WORDS = {
    "hint": Word.HINT,
    "?": Word.HINT,
    "best": Word.BEST,
    "draw": Word.DRAW,
    "pass": Word.DRAW,
    "done": Word.DONE,
    "end": Word.DONE,
    "knock": Word.KNOCK,
    "undo": Word.UNDO,
    "help": Word.HELP,
    "table": Word.TABLE,
    "sheet": Word.SHEET,
    "score": Word.SHEET,
    "quit": Word.QUIT,
}


@dataclass(frozen=True)
class Edit:
    """One edit typed at the prompt: ``add``, ``move``, ``new`` or ``split``."""

    kind: str
    cards: tuple[str, ...]
    source: int | None = None
    target: int | None = None

    def apply(self, draft: Draft) -> Draft:
        """The draft after this edit (raises with the reason if it cannot be made)."""
        if self.kind == "add":
            assert self.target is not None
            return draft.add(self.cards, self.target)
        if self.kind == "new":
            return draft.new(self.cards)
        if self.kind == "move":
            assert self.source is not None
            return draft.move(self.cards, self.source, self.target)
        assert self.source is not None
        return draft.split(self.source, self.cards[0])

    def touched(self, before: Draft) -> tuple[int, ...]:
        """The numbers of the melds this edit changed (a new meld gets the next number)."""
        fresh = len(before.melds) + 1
        if self.kind == "add":
            return (self.target or 0,)
        if self.kind == "new":
            return (fresh,)
        if self.kind == "move":
            return (self.source or 0, self.target or fresh)
        return (self.source or 0, fresh)


EDIT_FORMS = {
    "add": "add CARDS to MELD, e.g. add 4S to 3",
    "move": "move CARDS from MELD to MELD (or to new), e.g. move 5S from 1 to 4",
    "new": "new CARDS, e.g. new 7C 7D 7H or new 7C 7D JK=7H",
    "split": "split MELD at CARD, e.g. split 2 at 8S",
}


def parse_edit(text: str) -> Edit | None:
    """The edit ``text`` names, ``None`` if it starts with no edit word; raises if malformed.

    >>> parse_edit("move 5S from 1 to 4")
    Edit(kind='move', cards=('5S',), source=1, target=4)
    >>> parse_edit("add 4s 5s to 3").cards
    ('4s', '5s')
    """
    words = text.replace(",", " ").split()
    if not words or words[0].lower() not in EDIT_FORMS:
        return None
    kind, rest = words[0].lower(), words[1:]
    lowered = [w.lower() for w in rest]

    def number(word: str) -> int:
        if not (word.isascii() and word.isdigit()) or len(word) > 3:
            raise IllegalError(
                "{word!r} is not a meld number; write {form}", word=word, form=EDIT_FORMS[kind]
            )
        return int(word)

    def malformed() -> IllegalError:
        return IllegalError("write {form}", form=EDIT_FORMS[kind])

    if kind == "new":
        if not rest:
            raise malformed()
        return Edit("new", tuple(rest))
    if kind == "add":
        if len(rest) < 3 or lowered[-2] != "to":
            raise malformed()
        return Edit("add", tuple(rest[:-2]), target=number(rest[-1]))
    if kind == "split":
        if len(rest) != 3 or lowered[1] != "at":
            raise malformed()
        return Edit("split", (rest[2],), source=number(rest[0]))
    if "from" not in lowered or "to" not in lowered:
        raise malformed()
    at_from, at_to = lowered.index("from"), lowered.index("to")
    if not 0 < at_from < at_to or at_to != len(rest) - 2 or at_from != at_to - 2:
        raise malformed()
    target = None if lowered[-1] == "new" else number(rest[-1])
    return Edit("move", tuple(rest[:at_from]), source=number(rest[at_from + 1]), target=target)


Reply = Word | Edit | Table
"""What a line typed at a play decision means."""


def read_reply(text: str) -> Reply:
    """A word, an edit, or a whole new table (melds separated by ``|``); raises if none."""
    word = WORDS.get(text.strip().lower())
    if word is not None:
        return word
    edit = parse_edit(text)
    if edit is not None:
        return edit
    try:
        return parse_table(text)
    except GinError as error:
        raise GinError(
            "{error}. Type an edit (add, move, new, split), a whole new table, or help",
            error=error,
        ) from None


@dataclass(frozen=True)
class Hint:
    """A hint at one level: 1 the points you can shed, 2 the cards to place, 3 the whole play."""

    level: int
    play: Play | None
    hand: Hand
    table: Table


@dataclass(frozen=True)
class Warning:
    """The coach's warning: what you are about to do leaves ``left`` points, the best play
    ``best_left`` (``play``); ``passing`` when you place nothing."""

    left: int
    best_left: int
    play: Play
    passing: bool

    @property
    def gap(self) -> int:
        """How many points more the proposal leaves than the best play."""
        return self.left - self.best_left


class Recorder(Protocol):
    """Where the game is saved as it happens."""

    def round(self, number: int, seed: int, first: int) -> None: ...

    def entry(self, number: int, entry: LogEntry, coach: dict[str, Any] | None = None) -> None: ...


class _Nowhere:
    def round(self, number: int, seed: int, first: int) -> None:
        pass

    def entry(self, number: int, entry: LogEntry, coach: dict[str, Any] | None = None) -> None:
        pass


def round_seed(seed: int, number: int) -> int:
    """The deal seed of round ``number`` (from 1) of a game dealt from ``seed``."""
    return seed + number - 1


def first_player(number: int, players: int) -> int:
    """Who moves first in round ``number`` (from 1): the turn passes round the table."""
    return (number - 1) % players


@dataclass(frozen=True)
class Setup:
    """What a game is: players, bot level, seed, one round or a whole game, coach on or off."""

    players: int = 3
    level: BotLevel = BotLevel.GREEDY
    seed: int = 1
    one_round: bool = False
    coach: bool = True
    rules: CarouselRules = STANDARD


class CarouselSession:
    """One learner (player 1, index 0) against bots; see the module."""

    YOU = 0

    def __init__(self, setup: Setup, recorder: Recorder | None = None) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.recorder: Recorder = recorder or _Nowhere()
        self.results: list[RoundResult] = []
        self.round_: Round | None = None
        self.number = 0
        self._logged = 0
        self._draft: Draft | None = None
        self._undo: list[Draft] = []
        self._hints = 0
        self._best: dict[tuple[Table, Hand, bool], Play | None] = {}
        self._notes: dict[int, dict[str, Any]] = {}

    # --- the game ----------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many play (the learner and the bots)."""
        return self.setup.players

    @property
    def sheet(self) -> GameSheet | None:
        """The score sheet of the rounds played (``None`` before the first ends)."""
        return score_game(self.results, self.rules) if self.results else None

    @property
    def game_over(self) -> bool:
        """True when the game (or the one round asked for) is over."""
        if self.in_round:
            return False
        if self.setup.one_round:
            return bool(self.results)
        sheet = self.sheet
        return sheet is not None and (sheet.over or len(self.results) >= MAX_ROUNDS)

    @property
    def in_round(self) -> bool:
        """True while a round is being played."""
        return self.round_ is not None and self.round_.phase is not Phase.ROUND_OVER

    def deal(self) -> Round:
        """Deal the next round (recorded)."""
        self.number += 1
        seed = round_seed(self.setup.seed, self.number)
        first = first_player(self.number, self.players)
        self.round_ = Round.deal(self.players, seed, self.rules, first)
        self._logged = 0
        self._new_decision()
        self.recorder.round(self.number, seed, first)
        return self.round_

    def resume(self, rounds: Sequence[Sequence[LogEntry]]) -> None:
        """Replay saved rounds (their actions in order; the last may be unfinished)."""
        for entries in rounds:
            seed = round_seed(self.setup.seed, self.number + 1)
            self.number += 1
            first = first_player(self.number, self.players)
            round_ = Round.deal(self.players, seed, self.rules, first)
            for entry in entries:
                round_.do(entry)
            self.round_ = round_
            self._logged = len(round_.log)
            if round_.result is not None:
                self.results.append(round_.result)
        self._new_decision()

    def end_round(self) -> RoundResult:
        """The result of the round just over (added to the sheet)."""
        assert self.round_ is not None and self.round_.result is not None
        result = self.round_.result
        if len(self.results) < self.number:
            self.results.append(result)
        return result

    @property
    def round(self) -> Round:
        """The round being played."""
        assert self.round_ is not None
        return self.round_

    @property
    def your_turn(self) -> bool:
        """True when the learner is to act."""
        return self.in_round and self.round.player == self.YOU

    def _record(self, coach: dict[str, Any] | None = None) -> list[LogEntry]:
        """Hand the round's new log entries to the recorder; returns them."""
        entries = self.round.log[self._logged :]
        for entry in entries:
            note = coach if entry.player == self.YOU and entry.action in _DECISIONS else None
            self.recorder.entry(self.number, entry, note)
        self._logged = len(self.round.log)
        return entries

    def bot_turn(self) -> list[LogEntry]:
        """Play a bot's whole turn; returns its actions."""
        bot_turn(self.round, self.setup.level)
        return self._record()

    def auto(self) -> list[LogEntry]:
        """The learner's actions that need no choice: the draw, and ending a turn in which
        knocking is not allowed. Empty when the learner must choose."""
        round_ = self.round
        if round_.can_draw():
            round_.draw()
            self._new_decision()
        elif round_.phase is Phase.TURN_OVER and not round_.can_knock():
            round_.end_turn()
        return self._record()

    @property
    def may_play(self) -> bool:
        """True when the learner may play now (else they may knock or end the turn)."""
        return self.round.can_play()

    # --- the draft ---------------------------------------------------------------------------

    def _new_decision(self) -> None:
        self._draft = None
        self._undo = []
        self._hints = 0

    @property
    def draft(self) -> Draft:
        """The play being made (a fresh draft at the start of each decision)."""
        if self._draft is None:
            self._draft = Draft.begin(self.round.table, self.round.hand)
        return self._draft

    def edit(self, edit: Edit) -> Draft:
        """Make an edit (checked at once: raises with the reason and changes nothing)."""
        if not self.may_play:
            raise IllegalError("you may not play now: knock or type done")
        after = edit.apply(self.draft)
        self._undo.append(self.draft)
        self._draft = after
        return after

    def undo(self) -> Draft:
        """Take back the last edit of this turn."""
        if not self._undo:
            raise IllegalError("nothing to undo in this turn")
        self._draft = self._undo.pop()
        return self._draft

    # --- the solver's view -------------------------------------------------------------------

    def best(self) -> Play | None:
        """The best play now over the whole table (``None``: nothing can be placed)."""
        round_ = self.round
        key = (round_.table, round_.hand, round_.first_meld)
        if key not in self._best:
            if len(self._best) > 64:
                self._best.clear()
            self._best[key] = best_now(round_)
        return self._best[key]

    def hint(self) -> Hint:
        """The next hint of this decision: 1 how much you can shed, 2 which cards, 3 the play."""
        if not self.may_play:
            raise IllegalError("no play to hint at now: knock or type done")
        self._hints = min(self._hints + 1, 3)
        return Hint(self._hints, self.best(), self.round.hand, self.round.table)

    def _last_chance(self) -> bool:
        """True when not playing now uses up this turn's chance to play."""
        round_ = self.round
        return round_.final_turns is not None or round_.draws >= self.rules.draws_per_turn - 1

    def check(self, table: Table | None) -> Warning | None:
        """The coach's warning about playing ``table`` (``None``: placing nothing), or none.

        Placing nothing is judged only when it uses up the turn's last chance to play (waiting
        for a card after the first draw is a choice the coach does not grade)."""
        if not self.setup.coach:
            return None
        play = self.best()
        if play is None:
            return None
        round_ = self.round
        if table is None:
            if not self._last_chance():
                return None
            left = round_.hand.points
        else:
            left = (round_.hand - round_.verify_play(table)).points
        if left - play.points_after < COACH_MARGIN:
            return None
        return Warning(left, play.points_after, play, table is None)

    def _note(self, warned: Warning | None, proposed: Table | None) -> dict[str, Any]:
        play = self.best()
        note: dict[str, Any] = {"best_left": None if play is None else play.points_after}
        if warned is not None:
            note["warned"] = True
        return note

    # --- committing --------------------------------------------------------------------------

    def verify(self, table: Table) -> Hand:
        """The hand cards ``table`` places; raises if it is not a legal play now."""
        return self.round.verify_play(table)

    def finished_draft(self) -> Table:
        """The draft's table, checked as a play (raises naming what is not valid yet)."""
        if not self.draft.changed:
            raise IllegalError("you have placed nothing yet")
        table = self.draft.table()
        self.round.verify_play(table)
        return table

    def play(self, table: Table, warned: Warning | None = None) -> list[LogEntry]:
        """Play ``table`` (the turn is then over: knock or end it)."""
        note = self._note(warned, table)
        self.round.play(table)
        self._new_decision()
        return self._record(note)

    def pass_turn(self, warned: Warning | None = None) -> list[LogEntry]:
        """Place nothing: draw again (or, after the last draw, the turn ends)."""
        note = self._note(warned, None)
        self.round.pass_turn()
        self._new_decision()
        return self._record(note)

    def knock(self) -> list[LogEntry]:
        """Knock (the turn must be over and the hand at most the knock limit)."""
        self.round.knock()
        return self._record()

    def end_turn(self) -> list[LogEntry]:
        """End the turn without knocking."""
        self.round.end_turn()
        self._new_decision()
        return self._record()

    def can_knock_after(self, table: Table) -> bool:
        """Whether playing ``table`` leaves a hand you may knock with."""
        left = self.round.hand - self.round.verify_play(table)
        return len(left) > 0 and left.points <= self.rules.knock_limit

    def completions(self) -> list[str]:
        """Words worth completing at the prompt: commands, your cards, the table's cards."""
        round_ = self.round
        return sorted(
            set(WORDS) - {"?"}
            | set(EDIT_FORMS)
            | {"to", "from", "at"}
            | set(round_.hand.codes())
            | {slot.code for meld in self.draft.melds for slot in meld}
        )


_DECISIONS = (Action.PLAY, Action.PASS)
