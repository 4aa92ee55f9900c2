"""The Carousel round and game: scoring, the turn state machine, bots.

A round is seeded and replayable: the same seed deals the same cards, and the log records every
action. A turn is: draw; you may play; if you did not, draw again and you may play; if you still
did not, draw a third card and the turn ends without a play. After your turn you may knock with
at most ``knock_limit`` points in hand; playing your last card ends the round at once. When the
stock runs out and nobody knocked, every player has one more turn to play (no draw), then the
lowest hand wins.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from gintutor.engine.cards import CARDS, Card
from gintutor.engine.carousel.cards import (
    JOKER_POINTS,
    Hand,
    Table,
    decks_for,
    parse_hand_cards,
    parse_table,
)
from gintutor.engine.carousel.rules import STANDARD, CarouselRules, FirstMeld, LowTie
from gintutor.engine.carousel.solver import Play, best_play, nearby_melds, verify_play
from gintutor.errors import IllegalError, Phrase

# --- scoring ---------------------------------------------------------------------------------


class Ending(Enum):
    """How a round ended."""

    KNOCK = "knock"
    OUT = "out"
    """A player played all their cards."""
    STOCK = "stock"
    """The stock ran out, every player had one more turn."""


@dataclass(frozen=True)
class RoundResult:
    """What a round left: each player's points in hand, who knocked or went out."""

    points: tuple[int, ...]
    ending: Ending
    player: int | None = None
    """The knocker or the player who went out (None when the stock ran out)."""

    def __post_init__(self) -> None:
        if not 2 <= len(self.points) <= 5:
            raise IllegalError(
                "Carousel is for 2 to 5 players, got {players}", players=len(self.points)
            )
        if any(p < 0 for p in self.points):
            raise IllegalError("points left in hand cannot be negative")
        if (self.player is None) != (self.ending is Ending.STOCK):
            raise IllegalError("a knock or going out names its player; a stock ending none")
        if self.player is not None and not 0 <= self.player < len(self.points):
            raise IllegalError("player {number} is not in the game", number=self.player + 1)


class Impossible(Enum):
    """Why a round result cannot come out of a round (:func:`impossible_entries`)."""

    KNOCK_OVER_LIMIT = "knock over the limit"
    """The knocker holds more than the knock limit."""
    OUT_WITH_POINTS = "out with points"
    """The player who went out holds no cards, so 0 points."""
    EMPTY_NOT_OUT = "0 points without going out"
    """Every other player holds a card, and the lowest card (an ace) counts 1."""
    MORE_THAN_THE_CARDS = "more points than the cards"
    """The hands together hold more points than the decks and jokers in play."""


@dataclass(frozen=True)
class ImpossibleEntry:
    """One entry of a round result the rules make impossible: whose (``None``: the round's
    total), why, and the bound it breaks (the knock limit, 0, 1, or the cards' points)."""

    reason: Impossible
    player: int | None
    bound: int


def deck_points(players: int) -> int:
    """The points of every card and joker in a game of ``players`` (one deck for two, two for
    three to five; jokers 25).

    >>> deck_points(2), deck_points(3)
    (365, 730)
    """
    return decks_for(players) * (sum(card.points for card in CARDS) + JOKER_POINTS)


def impossible_entries(
    result: RoundResult, rules: CarouselRules = STANDARD
) -> tuple[ImpossibleEntry, ...]:
    """The entries of ``result`` that no round under ``rules`` can leave, in player order.

    A knock holds at most the knock limit; the player who went out holds 0 points; any other
    player holds at least one card, so at least 1 point (an ace). So the only winner a result
    names (the player who went out) is below everyone else, and a winner never holds more than
    another. The hands together hold at most the cards' points.

    >>> [e.reason.name for e in impossible_entries(RoundResult((6, 12), Ending.KNOCK, 0))]
    ['KNOCK_OVER_LIMIT']
    >>> out = RoundResult((0, 0, 4), Ending.OUT, 0)
    >>> [(e.reason.name, e.player) for e in impossible_entries(out)]
    [('EMPTY_NOT_OUT', 1)]
    """
    found: list[ImpossibleEntry] = []
    for index, points in enumerate(result.points):
        if index == result.player and result.ending is Ending.OUT:
            if points:
                found.append(ImpossibleEntry(Impossible.OUT_WITH_POINTS, index, 0))
            continue
        if index == result.player and points > rules.knock_limit:
            found.append(ImpossibleEntry(Impossible.KNOCK_OVER_LIMIT, index, rules.knock_limit))
        if points == 0:
            found.append(ImpossibleEntry(Impossible.EMPTY_NOT_OUT, index, 1))
    most = deck_points(len(result.points))
    if sum(result.points) > most:
        found.append(ImpossibleEntry(Impossible.MORE_THAN_THE_CARDS, None, most))
    return tuple(found)


def verify_result(result: RoundResult, rules: CarouselRules = STANDARD) -> None:
    """Raise :class:`~gintutor.errors.IllegalError` naming the first impossible entry of
    ``result`` (see :func:`impossible_entries`)."""
    for entry in impossible_entries(result, rules):
        who = (
            Phrase("the hands")
            if entry.player is None
            else Phrase("player {number}", number=entry.player + 1)
        )
        raise IllegalError(
            "{who}: {reason} ({bound})",
            who=who,
            reason=_IMPOSSIBLE_WORDS[entry.reason],
            bound=entry.bound,
        )


_IMPOSSIBLE_WORDS = {
    Impossible.KNOCK_OVER_LIMIT: Phrase("knock over the limit"),
    Impossible.OUT_WITH_POINTS: Phrase("out with points"),
    Impossible.EMPTY_NOT_OUT: Phrase("0 points without going out"),
    Impossible.MORE_THAN_THE_CARDS: Phrase("more points than the cards"),
}
"""Each reason's words (its value) in an error, translated."""


class ItemKind(Enum):
    """Why a winner scores points."""

    DIFFERENCE = "difference"
    UNDERCUT = "undercut bonus"
    GOING_OUT = "going-out bonus"


@dataclass(frozen=True)
class ScoreItem:
    """Points a winner scores, and why (``against``: the player whose hand pays the
    difference)."""

    player: int
    kind: ItemKind
    points: int
    against: int | None = None


@dataclass(frozen=True)
class RoundScore:
    """The round scored: winners, items with their reasons, points per player."""

    result: RoundResult
    winners: tuple[int, ...]
    items: tuple[ScoreItem, ...]
    scores: tuple[int, ...]
    void: bool = False


def score_round(result: RoundResult, rules: CarouselRules = STANDARD) -> RoundScore:
    """Score a round: the lowest hand wins the differences to every other player.

    +undercut bonus to a winner who did not knock when someone knocked; a tie with the knocker
    goes to the other player(s), each with the bonus; +going-out bonus for playing all cards.
    A tie for lowest without the knocker is scored by ``rules.low_tie``.

    >>> score_round(RoundResult((3, 12, 20), Ending.KNOCK, 0)).scores
    (26, 0, 0)
    >>> score_round(RoundResult((3, 3, 20), Ending.KNOCK, 0)).scores
    (0, 27, 0)
    """
    verify_result(result, rules)
    points = result.points
    low = min(points)
    tied = [i for i, p in enumerate(points) if p == low]
    knocker = result.player if result.ending is Ending.KNOCK else None
    if result.ending is Ending.OUT:
        winners = [result.player or 0]
    elif knocker is not None and knocker in tied:
        winners = [i for i in tied if i != knocker] or [knocker]
    else:
        winners = tied
    if len(winners) > 1 and knocker not in tied and rules.low_tie is LowTie.VOID:
        return RoundScore(result, (), (), (0,) * len(points), void=True)
    items: list[ScoreItem] = []
    for winner in winners:
        for other, p in enumerate(points):
            if other not in winners and p > low:
                items.append(ScoreItem(winner, ItemKind.DIFFERENCE, p - low, other))
        if knocker is not None and winner != knocker:
            items.append(ScoreItem(winner, ItemKind.UNDERCUT, rules.undercut_bonus))
        if result.ending is Ending.OUT:
            items.append(ScoreItem(winner, ItemKind.GOING_OUT, rules.going_out_bonus))
    scores = [0] * len(points)
    for item in items:
        scores[item.player] += item.points
    return RoundScore(result, tuple(winners), tuple(items), tuple(scores))


@dataclass(frozen=True)
class GameSheet:
    """Rounds scored, running totals, and at the end the bonuses and the winner(s)."""

    rounds: tuple[RoundScore, ...]
    running: tuple[tuple[int, ...], ...]
    over: bool
    game_bonus: tuple[int, ...]
    round_bonus: tuple[int, ...]
    finals: tuple[int, ...]
    winners: tuple[int, ...]


def score_game(results: list[RoundResult], rules: CarouselRules = STANDARD) -> GameSheet:
    """Score rounds in order until someone reaches the target (later rounds are an error).

    At the end every player who reached the target gets the game bonus, every other player the
    round bonus for each round they won; the most points wins.

    >>> sheet = score_game([RoundResult((0, 40, 150), Ending.OUT, 0)])
    >>> sheet.over, sheet.finals
    (True, (315, 0, 0))
    """
    if not results:
        raise IllegalError("no rounds to score")
    players = len(results[0].points)
    totals = [0] * players
    rounds: list[RoundScore] = []
    running: list[tuple[int, ...]] = []
    over = False
    for number, result in enumerate(results, start=1):
        if over:
            raise IllegalError(
                "round {number}: the game ended after round {previous}",
                number=number,
                previous=number - 1,
            )
        if len(result.points) != players:
            raise IllegalError(
                "round {number}: {count} players, not {players}",
                number=number,
                count=len(result.points),
                players=players,
            )
        scored = score_round(result, rules)
        rounds.append(scored)
        totals = [t + s for t, s in zip(totals, scored.scores, strict=True)]
        running.append(tuple(totals))
        over = max(totals) >= rules.game_target
    won = Counter(w for r in rounds for w in r.winners)
    game_bonus = tuple(rules.game_bonus if over and t >= rules.game_target else 0 for t in totals)
    round_bonus = tuple(
        rules.round_bonus * won[i] if over and not game_bonus[i] else 0 for i in range(players)
    )
    finals = tuple(t + g + r for t, g, r in zip(totals, game_bonus, round_bonus, strict=True))
    best = max(finals)
    winners = tuple(i for i, f in enumerate(finals) if f == best) if over else ()
    return GameSheet(tuple(rounds), tuple(running), over, game_bonus, round_bonus, finals, winners)


# --- the round -------------------------------------------------------------------------------


class Phase(Enum):
    """Where the current turn is."""

    DRAW = "draw"
    """The player must draw (or, in the last turns after the stock ran out, may play)."""
    MAY_PLAY = "may-play"
    """After a draw: play, or pass (draw again)."""
    TURN_OVER = "turn-over"
    """Played, or drew the last allowed card: knock or end the turn."""
    ROUND_OVER = "round-over"


class Action(Enum):
    """What a log entry records."""

    DRAW = "draw"
    PLAY = "play"
    PASS = "pass"
    KNOCK = "knock"
    END = "end"


@dataclass(frozen=True)
class LogEntry:
    """One action: who, what, and the cards it concerned."""

    player: int
    action: Action
    detail: str = ""
    """The card drawn (``JK`` for a joker), or the hand cards placed."""
    table: str = ""
    """A play's new table (:func:`~gintutor.engine.carousel.cards.parse_table` reads it)."""

    @property
    def cards(self) -> Hand:
        """The card drawn or the cards placed, as a hand (empty for other actions)."""
        if self.action in (Action.DRAW, Action.PLAY):
            return parse_hand_cards(self.detail)
        return Hand()


@dataclass
class Round:
    """One Carousel round as a state machine; build it with :meth:`deal`.

    Only :meth:`draw`, :meth:`play`, :meth:`pass_turn`, :meth:`knock` and :meth:`end_turn` change
    it; each checks the rules and raises :class:`~gintutor.errors.IllegalError` with the reason.
    """

    rules: CarouselRules
    decks: int
    hands: list[Hand]
    stock: list[Card | None]  # None is a joker; the top card is the last
    table: Table = field(default_factory=Table)
    player: int = 0
    phase: Phase = Phase.DRAW
    draws: int = 0
    has_melded: set[int] = field(default_factory=set)
    final_turns: int | None = None
    """Turns left after the stock ran out (None while it has cards)."""
    result: RoundResult | None = None
    log: list[LogEntry] = field(default_factory=list)

    @classmethod
    def deal(
        cls, players: int, seed: int, rules: CarouselRules = STANDARD, first: int = 0
    ) -> Round:
        """Shuffle the decks for ``players`` with ``seed`` and deal ``hand_size`` cards each."""
        decks = decks_for(players)
        deck: list[Card | None] = [c for c in CARDS for _ in range(decks)]
        deck += [None] * decks
        random.Random(seed).shuffle(deck)
        hands = []
        for _ in range(players):
            taken, deck = deck[: rules.hand_size], deck[rules.hand_size :]
            hands.append(_hand_of(taken))
        return cls(rules, decks, hands, deck, player=first)

    @property
    def players(self) -> int:
        """How many play."""
        return len(self.hands)

    @property
    def hand(self) -> Hand:
        """The hand of the player to move."""
        return self.hands[self.player]

    @property
    def first_meld(self) -> bool:
        """True when the player's play must be melds of their own (the first-meld rule)."""
        if self.rules.first_meld is FirstMeld.EACH_PLAYER:
            return self.player not in self.has_melded
        return not self.table.melds

    def can_draw(self) -> bool:
        """True if the player must draw now."""
        return self.phase is Phase.DRAW and self.final_turns is None

    def draw(self) -> Card | None:
        """Draw the top stock card (None for a joker)."""
        if not self.can_draw():
            raise IllegalError("you cannot draw now")
        card = self.stock.pop()
        self.hands[self.player] = self.hand + _hand_of([card])
        self.draws += 1
        self.log.append(LogEntry(self.player, Action.DRAW, "JK" if card is None else card.code))
        self.phase = Phase.MAY_PLAY if self.draws < self.rules.draws_per_turn else Phase.TURN_OVER
        if not self.stock:
            # The stock ran out: this turn ends, then every player has one more turn.
            self.phase = (
                Phase.MAY_PLAY if self.draws < self.rules.draws_per_turn else Phase.TURN_OVER
            )
            self.final_turns = self.players + 1
        return card

    def can_play(self) -> bool:
        """True if the player may play now."""
        return self.phase is Phase.MAY_PLAY or (
            self.phase is Phase.DRAW and self.final_turns is not None
        )

    def verify_play(self, new_table: Table) -> Hand:
        """The hand cards ``new_table`` places; raises if the play is illegal now."""
        if not self.can_play():
            raise IllegalError(
                "you may not play now (after the last draw of a turn you may not meld)"
            )
        placed = verify_play(self.table, self.hand, new_table, self.decks)
        if self.first_meld:
            old = Counter(self.table.melds)
            new = Counter(new_table.melds)
            if old - new:
                raise IllegalError(
                    "the first meld is made of your own cards: leave the table as it is"
                )
        left = self.hand - placed
        if not len(left) and self.rules.going_out_needs_draw and self.draws == 0:
            raise IllegalError("going out needs a turn in which you drew")
        return placed

    def play(self, new_table: Table) -> Hand:
        """Make the play; returns the cards placed. Playing your last card ends the round."""
        placed = self.verify_play(new_table)
        self.table = new_table
        self.hands[self.player] = self.hand - placed
        self.has_melded.add(self.player)
        self.log.append(LogEntry(self.player, Action.PLAY, placed.text(), new_table.text()))
        if not len(self.hand):
            self._finish(Ending.OUT, self.player)
        else:
            self.phase = Phase.TURN_OVER
        return placed

    def pass_turn(self) -> None:
        """Do not play: draw again next (or, in the last turns, end the turn)."""
        if not self.can_play():
            raise IllegalError("nothing to pass now")
        self.log.append(LogEntry(self.player, Action.PASS))
        if self.final_turns is not None and self.phase is Phase.DRAW:
            self.phase = Phase.TURN_OVER
        elif self.stock:
            self.phase = Phase.DRAW
        else:
            self.phase = Phase.TURN_OVER

    def can_knock(self) -> bool:
        """True if the turn is over and the hand holds at most the knock limit."""
        # The player who drew the last card may still knock after that turn.
        last_turns = self.final_turns is not None and self.final_turns <= self.players
        return (
            self.phase is Phase.TURN_OVER
            and not last_turns
            and self.hand.points <= self.rules.knock_limit
        )

    def knock(self) -> RoundResult:
        """Knock: the round ends at once."""
        if not self.can_knock():
            raise IllegalError(
                "you may knock after your turn with at most {limit} points in hand "
                "(you hold {points})",
                limit=self.rules.knock_limit,
                points=self.hand.points,
            )
        self.log.append(LogEntry(self.player, Action.KNOCK))
        return self._finish(Ending.KNOCK, self.player)

    def end_turn(self) -> None:
        """End the turn; the next player is to move (or the round ends after the last turns)."""
        if self.phase is not Phase.TURN_OVER:
            raise IllegalError("the turn is not over yet")
        self.log.append(LogEntry(self.player, Action.END))
        if self.final_turns is not None:
            self.final_turns -= 1
            if self.final_turns == 0:
                self._finish(Ending.STOCK, None)
                return
        self.player = (self.player + 1) % self.players
        self.phase = Phase.DRAW
        self.draws = 0

    def _finish(self, ending: Ending, player: int | None) -> RoundResult:
        self.phase = Phase.ROUND_OVER
        self.result = RoundResult(tuple(h.points for h in self.hands), ending, player)
        return self.result

    def do(self, entry: LogEntry) -> None:
        """Redo a logged action (a saved game replayed); raises if it is not what the deal and
        the rules allow now."""
        if entry.player != self.player or self.phase is Phase.ROUND_OVER:
            raise IllegalError(
                "player {number} acts but it is not their turn", number=entry.player + 1
            )
        if entry.action is Action.DRAW:
            card = self.draw()
            drawn = "JK" if card is None else card.code
            if entry.detail and entry.detail != drawn:
                raise IllegalError(
                    "the deal gives {drawn}, the log says {logged}",
                    drawn=drawn,
                    logged=entry.detail,
                )
        elif entry.action is Action.PLAY:
            self.play(parse_table(entry.table))
        elif entry.action is Action.PASS:
            self.pass_turn()
        elif entry.action is Action.KNOCK:
            self.knock()
        else:
            self.end_turn()


def _hand_of(cards: list[Card | None]) -> Hand:
    return Hand.of([c for c in cards if c is not None], sum(c is None for c in cards))


# --- bots ------------------------------------------------------------------------------------


class BotLevel(Enum):
    """How a bot plays. Bots see only their own hand, the table and the hand sizes."""

    GREEDY = "greedy"
    """Plays the most it can at the first chance; knocks whenever allowed."""
    CAREFUL = "careful"
    """After the first draw plays only a big play (or one that lets it knock or go out);
    knocks only when no opponent holds so few cards that they may be lower."""


def bot_play(round_: Round, level: BotLevel) -> Play | None:
    """The play the bot chooses now (None: pass). Uses a quick search of the nearby melds."""
    hand = round_.hand
    play = best_play(
        round_.table,
        hand,
        round_.decks,
        round_.rules,
        first_meld=round_.first_meld,
        only=nearby_melds(round_.table, hand),
    )
    if play is None:
        return None
    if not len(play.hand_after) and round_.rules.going_out_needs_draw and round_.draws == 0:
        return None
    if level is BotLevel.CAREFUL and round_.draws == 1 and round_.final_turns is None:
        big = play.points_placed >= 15 or play.points_after <= round_.rules.knock_limit
        if not big and len(hand) < 13:
            return None
    return play


def bot_knocks(round_: Round, level: BotLevel) -> bool:
    """Whether the bot knocks now (it must be allowed to)."""
    if not round_.can_knock():
        return False
    if level is BotLevel.GREEDY:
        return True
    others = [len(h) for i, h in enumerate(round_.hands) if i != round_.player]
    return min(others) >= 3 or round_.hand.points == 0


def bot_turn(round_: Round, level: BotLevel) -> None:
    """Play the current player's whole turn as a bot."""
    while round_.phase is not Phase.ROUND_OVER:
        if round_.can_draw():
            round_.draw()
        elif round_.can_play():
            play = bot_play(round_, level)
            if play is None:
                round_.pass_turn()
            else:
                round_.play(play.table)
        elif round_.phase is Phase.TURN_OVER:
            if bot_knocks(round_, level):
                round_.knock()
            else:
                round_.end_turn()
            return
