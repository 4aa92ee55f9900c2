"""Saved Carousel games: one append-only JSON-lines file per game, written as it is played.

The file keeps gin's saved games' guarantees because it is written and read by the same code
(:mod:`gintutor.content.gamefile`'s ``LineWriter`` and ``read_lines``): each line written
whole, fsynced before every question, a cut-short last line ignored, a damaged tail kept
beside the file before a resumed game cuts it off, one writer at a time (``flock``), files
0600. The lines:

- ``{"type": "carousel", "version": 1, "id", "created", "players", "bot", "coach", "seed",
  "one_round"}``: the header (the learner is ``"player": 0``);
- ``{"type": "round", "round": N, "seed": S, "first": P}``: round ``N`` is dealt from ``S``
  and player ``P`` (from 0) moves first, both derived from the game's seed;
- ``{"type": "action", "round": N, "player": P, "action": "draw|play|pass|knock|end",
  "detail": ..., "table": ..., "coach": {...}}``: one action, as the engine logs it (the card
  drawn, the cards placed and the new table), with the coach's note on the learner's plays;
- ``{"type": "end", "reason": "finished|resigned"}``.

Results and scores are never stored: :func:`load_carousel_game` replays every round through
the engine (:meth:`~gintutor.engine.carousel.game.Round.do`), which validates the file. The
games live in their own folder (``games/carousel``), apart from gin's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gintutor.content.gamefile import (
    GameFileError,
    LineWriter,
    find_game,
    json_int,
    latest_game,
    read_lines,
)
from gintutor.content.store import CAROUSEL_GAMES, games_folder
from gintutor.engine.carousel.cards import decks_for
from gintutor.engine.carousel.game import Action, BotLevel, LogEntry, Phase, Round
from gintutor.engine.carousel.rules import STANDARD
from gintutor.errors import GinError, Note
from gintutor.tutor.carouselplay import first_player, round_seed

VERSION = 1
KIND = "carousel"
FOLDER = CAROUSEL_GAMES


def carousel_games_folder() -> Path:
    """The folder of saved Carousel games (inside gin's, which lists only its own files)."""
    return games_folder() / FOLDER


@dataclass(frozen=True)
class CarouselHeader:
    """The header line: how many play, the bots' level, the coach, the seed of the deals."""

    id: str
    created: str
    players: int
    bot: BotLevel
    coach: bool
    seed: int
    one_round: bool

    def to_json(self) -> dict[str, Any]:
        """The header line's object."""
        return {
            "type": KIND,
            "version": VERSION,
            "id": self.id,
            "created": self.created,
            "players": self.players,
            "bot": self.bot.value,
            "coach": "on" if self.coach else "off",
            "seed": self.seed,
            "one_round": self.one_round,
        }


@dataclass(frozen=True)
class SavedAction:
    """One action as saved, with the coach's note on the learner's plays (if any)."""

    entry: LogEntry
    coach: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class SavedRound:
    """One round as saved: its number (from 1), its actions in order."""

    number: int
    actions: tuple[SavedAction, ...] = ()

    @property
    def entries(self) -> list[LogEntry]:
        """The actions as the engine logs them."""
        return [saved.entry for saved in self.actions]


@dataclass(frozen=True)
class SavedCarousel:
    """A Carousel game read back from its file (see :class:`~gintutor.content.games.SavedGame`
    for ``end``, ``problems``, ``complete_bytes``, ``damage`` and ``size``)."""

    path: Path
    header: CarouselHeader
    rounds: tuple[SavedRound, ...]
    end: str | None = None
    problems: tuple[str, ...] = ()
    complete_bytes: int = 0
    damage: str | None = None
    size: int = 0
    states: tuple[Round, ...] = field(default=(), compare=False, repr=False)
    """Each round replayed (same order as ``rounds``)."""

    @property
    def id(self) -> str:
        """The game's id (its file name without ``.jsonl``)."""
        return self.header.id

    @property
    def finished(self) -> bool:
        """True when the game was played to its end."""
        return self.end == "finished"


def _header(data: Mapping[str, Any]) -> CarouselHeader:
    if data.get("type") != KIND:
        raise GinError("the first line is not a Carousel game's header")
    if data.get("version") != VERSION:
        raise GinError(
            "version {version!r}: this gintutor reads version {known}",
            version=data.get("version"),
            known=VERSION,
        )
    players = json_int(data, "players", range(2, 6))
    try:
        bot = BotLevel(str(data.get("bot")))
    except ValueError:
        raise GinError("bot {bot!r}: greedy or careful", bot=data.get("bot")) from None
    coach = data.get("coach")
    if coach not in ("on", "off"):
        raise GinError("coach {coach!r}: on or off", coach=coach)
    one_round = data.get("one_round")
    if not isinstance(one_round, bool):
        raise GinError("one_round {one_round!r}: true or false", one_round=one_round)
    return CarouselHeader(
        id=str(data.get("id", "")),
        created=str(data.get("created", "")),
        players=players,
        bot=bot,
        coach=coach == "on",
        seed=json_int(data, "seed"),
        one_round=one_round,
    )


class _Loader:
    """Reads the lines in order, replaying each round as it goes."""

    def __init__(self) -> None:
        self.header: CarouselHeader | None = None
        self.rounds: list[SavedRound] = []
        self.states: list[Round] = []
        self.actions: list[SavedAction] = []
        self.end: str | None = None

    def close_round(self) -> None:
        if self.rounds:
            self.rounds[-1] = SavedRound(self.rounds[-1].number, tuple(self.actions))
        self.actions = []

    def take(self, data: Mapping[str, Any], line: int = 0, start: int = 0) -> None:
        kind = data.get("type")
        if self.header is None:
            self.header = _header(data)
            return
        header = self.header
        if self.end is not None:
            raise GinError("a {kind!r} line after the game's end", kind=kind)
        if kind == "round":
            number = json_int(data, "round")
            if number != len(self.rounds) + 1:
                raise GinError(
                    "round {number} where round {due} was due",
                    number=number,
                    due=len(self.rounds) + 1,
                )
            if self.states and self.states[-1].phase is not Phase.ROUND_OVER:
                raise GinError(
                    "round {number} starts before round {previous} is over",
                    number=number,
                    previous=number - 1,
                )
            seed, first = round_seed(header.seed, number), first_player(number, header.players)
            if data.get("seed") != seed or data.get("first") != first:
                raise GinError(
                    "round {number}: seed {seed!r}, first {first!r}: the game's seed deals it "
                    "from {dealt_seed}, player {player} first",
                    number=number,
                    seed=data.get("seed"),
                    first=data.get("first"),
                    dealt_seed=seed,
                    player=first + 1,
                )
            self.close_round()
            self.rounds.append(SavedRound(number))
            self.states.append(Round.deal(header.players, seed, STANDARD, first))
        elif kind == "action":
            if not self.states:
                raise GinError("an action before the first round")
            number = json_int(data, "round")
            if number != len(self.rounds):
                raise GinError(
                    "an action of round {number} during round {current}",
                    number=number,
                    current=len(self.rounds),
                )
            try:
                action = Action(str(data.get("action")))
            except ValueError:
                raise GinError("unknown action {action!r}", action=data.get("action")) from None
            entry = LogEntry(
                json_int(data, "player", range(header.players)),
                action,
                str(data.get("detail", "")),
                str(data.get("table", "")),
            )
            note = data.get("coach")
            if note is not None and not isinstance(note, dict):
                raise GinError("the coach note is not an object")
            try:
                self.states[-1].do(entry)  # raises if the deal and the rules do not allow it
            except GinError as error:
                raise GinError("round {number}: {error}", number=number, error=error) from None
            self.actions.append(SavedAction(entry, note))
        elif kind == "end":
            reason = data.get("reason")
            if reason not in ("finished", "resigned"):
                raise GinError("end reason {reason!r}: finished or resigned", reason=reason)
            self.end = str(reason)
        else:
            raise GinError("unknown line type {kind!r}", kind=kind)


def load_carousel_game(path: Path) -> SavedCarousel:
    """Read and replay a saved Carousel game; :class:`GameFileError` if nothing can be read.

    As for gin's games, a cut-short last line is ignored and a damaged line ends the reading
    (the rounds before it are kept; both reported in :attr:`SavedCarousel.problems`).
    """
    loader = _Loader()
    read = read_lines(path, loader.take, lambda: loader.header is not None)
    if loader.header is None:
        raise GameFileError("{path}: no game header (an empty or cut-short file)", path=path)
    loader.close_round()
    problems = list(read.problems)
    if read.damage is not None:
        problems.insert(
            0,
            Note(
                "{damage}: the game is read up to the line before it; the file is kept as it is",
                damage=read.damage,
            ),
        )
    return SavedCarousel(
        path,
        loader.header,
        tuple(loader.rounds),
        loader.end,
        tuple(problems),
        read.complete_bytes,
        read.damage,
        read.size,
        tuple(loader.states),
    )


def find_carousel_game(which: str, folder: Path, *, unfinished: bool = False) -> Path:
    """The saved game ``which`` names: ``last`` (the newest; ``unfinished``: the newest not
    over), an id or a file."""
    if which.strip().lower() == "last":
        found = latest_game(folder, unfinished=unfinished)
        if found is None:
            raise GameFileError(
                "no unfinished Carousel game in {folder}: start one with gintutor carousel play"
                if unfinished
                else "no saved Carousel game in {folder}: start one with gintutor carousel play",
                folder=folder,
            )
        return found
    return find_game(folder, which)


class CarouselWriter:
    """Writes a Carousel game as it is played: the session's recorder (see
    :class:`~gintutor.tutor.carouselplay.Recorder`), lines through a gin
    :class:`~gintutor.content.gamefile.LineWriter`."""

    def __init__(self, writer: LineWriter) -> None:
        self.writer = writer

    @property
    def path(self) -> Path:
        """The game file."""
        return self.writer.path

    @classmethod
    def create(
        cls,
        folder: Path,
        *,
        players: int,
        bot: BotLevel,
        coach: bool,
        seed: int,
        one_round: bool,
        now: dt.datetime | None = None,
    ) -> tuple[CarouselWriter, CarouselHeader]:
        """A new game file in ``folder``, its header written."""
        decks_for(players)
        writer, game_id, created = LineWriter.open_new(folder, now)
        header = CarouselHeader(game_id, created, players, bot, coach, seed, one_round)
        writer.line(header.to_json())
        return cls(writer), header

    @classmethod
    def resume(cls, game: SavedCarousel) -> CarouselWriter:
        """Append to a saved game (its lock held; see :meth:`LineWriter.resume`)."""
        return cls(LineWriter.resume(game))

    @property
    def kept_damage(self) -> Path | None:
        """Where resuming kept the file as it was, its damaged tail included."""
        return self.writer.kept_damage

    def round(self, number: int, seed: int, first: int) -> None:
        """A ``round`` line."""
        self.writer.line({"type": "round", "round": number, "seed": seed, "first": first})

    def entry(self, number: int, entry: LogEntry, coach: dict[str, Any] | None = None) -> None:
        """An ``action`` line."""
        data: dict[str, Any] = {
            "type": "action",
            "round": number,
            "player": entry.player,
            "action": entry.action.value,
        }
        if entry.detail:
            data["detail"] = entry.detail
        if entry.table:
            data["table"] = entry.table
        if coach is not None:
            data["coach"] = coach
        self.writer.line(data)

    def end(self, reason: str) -> None:
        """The ``end`` line: ``finished`` or ``resigned``."""
        self.writer.end(reason)

    def sync(self) -> None:
        """The lines written so far on disk."""
        self.writer.sync()

    def close(self) -> None:
        """Close the file, its lines on disk."""
        self.writer.close()

    def __enter__(self) -> CarouselWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
