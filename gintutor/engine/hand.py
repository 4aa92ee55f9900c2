"""A hand of two-player gin as a state machine, what each player can see, a game to the target.

The procedure is RULES.md §1: the dealer deals 10 cards each (non-dealer first), turns the
upcard and leaves 31 cards in the stock. The non-dealer may take the upcard or pass; then the
dealer; if both pass the non-dealer draws from the stock. A turn is a draw (stock or pile) and a
discard (never the card just taken from the pile), or a knock (a discard and a spread within the
knock limit; gin at 0) or big gin (all 11 cards melded, where recognised). After a knock below
gin the defender lays off onto the spread; the defender's own melds are always the best for
what is left. A discard that leaves the stock at ``void_at_stock`` cards voids the hand.

Cards are bit indices and hands 52-bit masks (``cards.py``); actions and events are frozen
records, and :meth:`HandState.infoset` is everything one player has seen, nothing more.

>>> from gintutor.engine.rules import preset
>>> state = HandState(Deal.shuffled(random.Random(7), dealer=0), preset("standard"))
>>> state.phase, state.to_move, [str(a) for a in state.legal_actions()]
(<Phase.OFFER: 'offer'>, 1, ['pass', 'take'])
>>> _ = state.do(Action.parse("pass")); _ = state.do(Action.parse("pass"))
>>> [str(a) for a in state.legal_actions()]
['draw']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from gintutor.engine.cards import (
    CARDS,
    DECK_MASK,
    Card,
    CardSet,
    mask_cards,
    mask_points,
    parse_cards,
)
from gintutor.engine.game import GameSheet, HandRecord, Match, score_game, score_match
from gintutor.engine.layoffs import Defence, Layoff, best_defence, layoff_plan, layoff_plans
from gintutor.engine.melds import MELD_MASKS, Meld
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import HandScore, Outcome, Side, score_hand
from gintutor.engine.solver import min_deadwood_mask, packings
from gintutor.errors import CardError, GinError, IllegalError, Phrase

HAND_SIZE = 10
PLAYERS = 2
DEALT = 2 * HAND_SIZE
"""Cards dealt to the players; the next card of the deal order is the upcard."""
NO_CARD = -1
_MELDS = frozenset(MELD_MASKS)


class Phase(Enum):
    """Where a hand stands: whose decision of which kind comes next."""

    OFFER = "offer"
    """The first upcard is offered: take it or pass (non-dealer, then dealer)."""
    DRAW = "draw"
    """Draw from the stock or take the top of the discard pile."""
    DISCARD = "discard"
    """Discard, knock or go big gin (11 cards in hand)."""
    DEFEND = "defend"
    """The defender lays off onto the knocker's spread."""
    OVER = "over"
    """Scored or void."""


_PHASE_MOVES = {
    Phase.OFFER: Phrase("the upcard is offered: take it or pass"),
    Phase.DRAW: Phrase("draw from the stock or take the top card of the discard pile"),
    Phase.DISCARD: Phrase("discard a card, knock or go gin"),
    Phase.DEFEND: Phrase("lay off onto the knocker's melds (or lay off none)"),
    Phase.OVER: Phrase("the hand is over"),
}
"""What may be done in each phase, said when something else is tried (the phase's own name
is a code, not a word for the learner)."""


class Kind(Enum):
    """What an action does; the value is its word in an action log."""

    PASS = "pass"
    """Decline the first upcard."""
    TAKE = "take"
    """Take the top card of the discard pile (the upcard on the first turn)."""
    DRAW = "draw"
    """Draw the top card of the stock."""
    DISCARD = "discard"
    """Discard a card and play on."""
    KNOCK = "knock"
    """Discard a card face down and spread: gin when nothing is left unmelded."""
    BIG_GIN = "big-gin"
    """All 11 cards melded after drawing: no discard."""
    LAY_OFF = "lay-off"
    """The defender's layoffs onto the spread (possibly none)."""


@dataclass(frozen=True)
class Action:
    """One decision: the kind, the card (discard, knock), the spread (meld masks) or layoff mask.

    ``repr``/``str`` round-trip through :meth:`parse`:

    >>> str(Action.parse("knock 7c: 2C 3C 4C | 9D TD JD"))
    'knock 7C: 2C 3C 4C | 9D TD JD'
    >>> str(Action.parse("lay-off: 4H 8H")), str(Action.parse("lay-off: -"))
    ('lay-off: 4H 8H', 'lay-off: -')
    """

    kind: Kind
    card: int = NO_CARD
    spread: tuple[int, ...] = ()
    layoffs: int = 0

    @classmethod
    def discard(cls, card: int) -> Action:
        """Discard the card with bit index ``card``."""
        return cls(Kind.DISCARD, card)

    @classmethod
    def knock(cls, card: int, spread: Iterable[int]) -> Action:
        """Knock discarding ``card`` and spreading these meld masks (canonical order)."""
        return cls(Kind.KNOCK, card, tuple(sorted(spread)))

    @property
    def spread_mask(self) -> int:
        """All the cards in the spread's melds."""
        total = 0
        for meld in self.spread:
            total |= meld
        return total

    def __str__(self) -> str:
        word = self.kind.value
        if self.kind is Kind.DISCARD:
            return f"{word} {CARDS[self.card].code}"
        if self.kind in (Kind.KNOCK, Kind.BIG_GIN):
            head = f"{word} {CARDS[self.card].code}" if self.kind is Kind.KNOCK else word
            melds = " | ".join(CardSet(m).text() for m in self.spread)
            return f"{head}: {melds or '-'}"
        if self.kind is Kind.LAY_OFF:
            return f"{word}: {CardSet(self.layoffs).text() or '-'}"
        return word

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action from its log text (see :meth:`__str__`)."""
        head, _, tail = text.partition(":")
        words = head.split()
        if not words:
            raise CardError("{text!r}: empty action", text=text)
        try:
            kind = Kind(words[0].lower())
        except ValueError:
            choices = ", ".join(k.value for k in Kind)
            raise CardError(
                "{text!r}: unknown action {word!r} (use {choices})",
                text=text,
                word=words[0],
                choices=choices,
            ) from None
        card = Card.parse(words[1]).index if len(words) > 1 else NO_CARD
        needs_card = kind in (Kind.DISCARD, Kind.KNOCK)
        if needs_card != (card != NO_CARD) or len(words) > 2:
            raise CardError(
                "{text!r}: {action} takes one card"
                if needs_card
                else "{text!r}: {action} takes none",
                text=text,
                action=kind.value,
            )
        tail = tail.strip()
        if kind is Kind.LAY_OFF:
            return cls(kind, layoffs=0 if tail in ("", "-") else CardSet.parse(tail).mask)
        if kind in (Kind.KNOCK, Kind.BIG_GIN):
            groups = [] if tail in ("", "-") else [g for g in tail.split("|") if g.strip()]
            melds = tuple(sorted(Meld.parse(g).mask for g in groups))
            return cls(kind, card, melds)
        return cls(kind, card)


@dataclass(frozen=True)
class Deal:
    """A shuffled deck and who deals: the order cards come off the deck (bit indices).

    The non-dealer gets ``order[0:20:2]``, the dealer ``order[1:20:2]``, ``order[20]`` is the
    upcard and ``order[21:]`` the stock from the top down.
    """

    dealer: int
    order: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1) or sorted(self.order) != list(range(52)):
            raise CardError("a deal is a dealer (0 or 1) and the 52 cards in some order")

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: int = 0) -> Deal:
        """A deal from a seeded random generator (reproducible)."""
        order = list(range(52))
        rng.shuffle(order)
        return cls(dealer, tuple(order))

    def hand_mask(self, player: int) -> int:
        """The 10 cards dealt to ``player``."""
        start = 1 if player == self.dealer else 0
        mask = 0
        for card in self.order[start:DEALT:2]:
            mask |= 1 << card
        return mask

    @property
    def upcard(self) -> int:
        """The first upcard."""
        return self.order[DEALT]

    def text(self) -> str:
        """Log text: ``dealer N:`` and the 52 codes; :meth:`parse` reads it back."""
        return f"dealer {self.dealer}: " + " ".join(CARDS[c].code for c in self.order)

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read a deal from :meth:`text`."""
        head, _, cards = text.partition(":")
        words = head.split()
        if len(words) != 2 or words[0] != "dealer" or words[1] not in ("0", "1"):
            raise CardError(
                "{start!r}...: a deal starts 'dealer 0:' or 'dealer 1:'", start=text[:20]
            )
        return cls(int(words[1]), tuple(card.index for card in parse_cards(cards)))


@dataclass(frozen=True)
class Seen:
    """One event as a player saw it: who did what, and the card if that player could see it.

    A stock draw shows its card only to the drawer (``card`` is ``NO_CARD`` otherwise).
    """

    player: int
    kind: Kind
    card: int = NO_CARD


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: void, or a knock / gin / big gin with the spread, defence and score."""

    void: bool
    knocker: int | None = None
    spread: tuple[int, ...] = ()
    knocker_deadwood: int = 0
    defence: Defence | None = None
    score: HandScore | None = None

    @property
    def winner(self) -> int | None:
        """The player who scores, ``None`` for a void hand."""
        if self.score is None or self.knocker is None:
            return None
        return self.knocker if self.score.winner is Side.KNOCKER else 1 - self.knocker

    @property
    def outcome(self) -> Outcome | None:
        """Knock, undercut, gin or big gin; ``None`` when void."""
        return None if self.score is None else self.score.outcome

    @property
    def points(self) -> int:
        """The winner's points (0 when void)."""
        return 0 if self.score is None else self.score.points

    def net(self, player: int) -> int:
        """Points from ``player``'s side: won positive, lost negative."""
        winner = self.winner
        if winner is None:
            return 0
        return self.points if winner == player else -self.points

    def record(self) -> HandRecord:
        """The line for the game's score sheet."""
        if self.winner is None or self.outcome is None:
            return HandRecord.void()
        return HandRecord.won(self.winner, self.outcome, self.points)


@dataclass(frozen=True)
class Event:
    """The record of one action: who acted, what, the card drawn from the stock (if any), and
    the hand's result when the action ended it."""

    player: int
    action: Action
    drawn: int = NO_CARD
    result: HandResult | None = None


@dataclass(frozen=True)
class InfoSet:
    """Everything ``player`` knows at a decision: own hand, the pile in order, what the opponent
    took from the pile (and still holds) or passed, every public event, the stock count.

    A bot is a function of this record only; two states that look the same to ``player`` give
    equal information sets.
    """

    player: int
    rules: RuleSet
    dealer: int
    knock_limit: int
    multiplier: int
    upcard: int
    """The hand's first upcard."""
    phase: Phase
    hand: int
    pile: tuple[int, ...]
    """The discard pile, bottom first: its last card is the top."""
    stock_size: int
    taken: int
    """The card just taken from the pile (may not be discarded now), or ``NO_CARD``."""
    opponent_known: int
    """Cards the opponent took from the pile and has not discarded since: surely in its hand."""
    opponent_passed: int
    """Cards the opponent could have taken from the pile and did not."""
    opponent_discards: int
    """Every card the opponent discarded."""
    events: tuple[Seen, ...]
    spread: tuple[int, ...] = ()
    """In the defend phase: the knocker's melds."""

    @property
    def opponent(self) -> int:
        """The other player."""
        return 1 - self.player

    @property
    def pile_mask(self) -> int:
        """Every card in the discard pile."""
        mask = 0
        for card in self.pile:
            mask |= 1 << card
        return mask

    @property
    def top(self) -> int:
        """The top card of the pile, or ``NO_CARD``."""
        return self.pile[-1] if self.pile else NO_CARD

    @property
    def unseen(self) -> int:
        """Cards this player has not seen: the opponent's unknown cards and the stock."""
        return DECK_MASK & ~(self.hand | self.pile_mask | self.opponent_known)

    @property
    def opponent_hidden(self) -> int:
        """How many of the opponent's cards are unknown to this player."""
        return HAND_SIZE - self.opponent_known.bit_count()

    @property
    def first_turn(self) -> bool:
        """True while the first upcard is on offer."""
        return self.phase is Phase.OFFER

    def legal_actions(self) -> list[Action]:
        """The actions open to this player now (knocks listed with every legal spread)."""
        return _legal(
            self.phase,
            self.hand,
            self.taken,
            self.top,
            self.knock_limit,
            self.rules,
            self.spread,
            self.events,
        )


def _legal(
    phase: Phase,
    hand: int,
    taken: int,
    top: int,
    limit: int,
    rules: RuleSet,
    spread: tuple[int, ...],
    events: Sequence[Seen],
) -> list[Action]:
    if phase is Phase.OFFER:
        return [Action(Kind.PASS), Action(Kind.TAKE)]
    if phase is Phase.DRAW:
        both_passed = len(events) == 2 and all(e.kind is Kind.PASS for e in events)
        if both_passed or top == NO_CARD:
            return [Action(Kind.DRAW)]
        return [Action(Kind.DRAW), Action(Kind.TAKE)]
    if phase is Phase.DISCARD:
        actions: list[Action] = []
        if rules.big_gin and min_deadwood_mask(hand) == 0:
            actions += [
                Action(Kind.BIG_GIN, NO_CARD, tuple(sorted(m))) for m, _ in packings(hand, 0)
            ]
        for card in mask_cards(hand):
            if card.index == taken:
                continue
            actions.append(Action.discard(card.index))
            rest = hand ^ card.mask
            if min_deadwood_mask(rest) <= limit:
                actions += [Action.knock(card.index, melds) for melds, _ in packings(rest, limit)]
        return actions
    if phase is Phase.DEFEND:
        plans = {_laid(plan) for plan in layoff_plans(hand, [Meld(m) for m in spread])}
        return [Action(Kind.LAY_OFF, layoffs=mask) for mask in sorted(plans)]
    return []


def _laid(plan: Iterable[Layoff]) -> int:
    mask = 0
    for layoff in plan:
        mask |= layoff.card.mask
    return mask


class HandState:
    """A hand being played: ``verify``/``can``/``do`` each action; ``log`` replays it exactly."""

    def __init__(self, deal: Deal, rules: RuleSet) -> None:
        self.deal = deal
        self.rules = rules
        upcard = CARDS[deal.upcard]
        self.knock_limit = rules.knock_limit_for(upcard)
        self.multiplier = rules.multiplier_for(upcard)
        self.hands = [deal.hand_mask(0), deal.hand_mask(1)]
        self.stock = list(reversed(deal.order[DEALT + 1 :]))
        """The stock, top card last."""
        self.pile = [deal.upcard]
        self.phase = Phase.OFFER
        self.to_move = 1 - deal.dealer
        self.taken = NO_CARD
        self.known = [0, 0]
        self.passed = [0, 0]
        self.discards = [0, 0]
        self.seen: tuple[list[Seen], list[Seen]] = ([], [])
        self.log: list[Action] = []
        self.spread: tuple[int, ...] = ()
        self.knocker_deadwood = 0
        self.result: HandResult | None = None

    @property
    def top(self) -> int:
        """The top card of the discard pile, or ``NO_CARD``."""
        return self.pile[-1] if self.pile else NO_CARD

    @property
    def over(self) -> bool:
        """True once the hand is scored or void."""
        return self.phase is Phase.OVER

    def infoset(self, player: int | None = None) -> InfoSet:
        """What ``player`` (default: the one to move) knows now."""
        p = self.to_move if player is None else player
        return InfoSet(
            player=p,
            rules=self.rules,
            dealer=self.deal.dealer,
            knock_limit=self.knock_limit,
            multiplier=self.multiplier,
            upcard=self.deal.upcard,
            phase=self.phase,
            hand=self.hands[p],
            pile=tuple(self.pile),
            stock_size=len(self.stock),
            taken=self.taken if p == self.to_move else NO_CARD,
            opponent_known=self.known[1 - p],
            opponent_passed=self.passed[1 - p],
            opponent_discards=self.discards[1 - p],
            events=tuple(self.seen[p]),
            spread=self.spread,
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move."""
        return _legal(
            self.phase,
            self.hands[self.to_move],
            self.taken,
            self.top,
            self.knock_limit,
            self.rules,
            self.spread,
            self.seen[0],
        )

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalError` saying why ``action`` is not legal now."""
        phase, kind = self.phase, action.kind
        hand = self.hands[self.to_move]
        allowed = {
            Phase.OFFER: (Kind.PASS, Kind.TAKE),
            Phase.DRAW: (Kind.DRAW, Kind.TAKE),
            Phase.DISCARD: (Kind.DISCARD, Kind.KNOCK, Kind.BIG_GIN),
            Phase.DEFEND: (Kind.LAY_OFF,),
            Phase.OVER: (),
        }[phase]
        if kind not in allowed:
            raise IllegalError(
                "{kind} is not allowed now: {moves}", kind=kind.value, moves=_PHASE_MOVES[phase]
            )
        if phase is Phase.DRAW and kind is Kind.TAKE:
            if not self.pile:
                raise IllegalError("the discard pile is empty")
            if self._both_passed():
                raise IllegalError(
                    "both players passed the upcard: the non-dealer draws from the stock"
                )
        if kind in (Kind.DISCARD, Kind.KNOCK):
            if not 0 <= action.card < 52 or not hand >> action.card & 1:
                raise IllegalError("you don't hold {card}", card=_code(action.card))
            if action.card == self.taken:
                raise IllegalError(
                    "{card} was just taken from the discard pile: it may not be discarded this "
                    "turn",
                    card=_code(action.card),
                )
        if kind in (Kind.KNOCK, Kind.BIG_GIN):
            rest = hand if kind is Kind.BIG_GIN else hand ^ (1 << action.card)
            deadwood = _verify_spread(action.spread, rest)
            if kind is Kind.BIG_GIN:
                if not self.rules.big_gin:
                    raise IllegalError(
                        "{rules} rules do not recognise big gin", rules=self.rules.name
                    )
                if deadwood:
                    raise IllegalError("big gin melds all 11 cards")
            elif deadwood > self.knock_limit:
                raise IllegalError(
                    "the spread leaves {deadwood} deadwood, above the knock limit of {limit}",
                    deadwood=deadwood,
                    limit=self.knock_limit,
                )
        if kind is Kind.LAY_OFF and action.layoffs:
            spread = [Meld(m) for m in self.spread]
            if layoff_plan(CardSet(hand), spread, CardSet(action.layoffs)) is None:
                raise IllegalError(
                    "{cards} cannot all be laid off onto this spread",
                    cards=CardSet(action.layoffs).text(),
                )

    def can(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        try:
            self.verify(action)
        except GinError:
            return False
        return True

    def do(self, action: Action) -> Event:
        """Play ``action`` for the player to move; the record of what happened."""
        self.verify(action)
        player = self.to_move
        opponent = 1 - player
        self.log.append(action)
        kind = action.kind
        drawn = NO_CARD
        result: HandResult | None = None
        hand = self.hands[player]
        if kind is Kind.PASS:
            self.passed[player] |= 1 << self.top
            self._see(player, kind, self.top, self.top)
            if self.to_move == self.deal.dealer:
                self.phase = Phase.DRAW
            self.to_move = opponent
        elif kind is Kind.TAKE:
            card = self.pile.pop()
            self.hands[player] = hand | 1 << card
            self.known[player] |= 1 << card
            self.taken = card
            self._see(player, kind, card, card)
            self.phase = Phase.DISCARD
        elif kind is Kind.DRAW:
            if self.pile:
                self.passed[player] |= 1 << self.top
            drawn = self.stock.pop()
            self.hands[player] = hand | 1 << drawn
            self._see(player, kind, drawn, NO_CARD)
            self.phase = Phase.DISCARD
        elif kind is Kind.DISCARD:
            self._discard(player, action.card)
            if len(self.stock) <= self.rules.void_at_stock:
                result = self._end(HandResult(void=True))
            else:
                self.phase = Phase.DRAW
                self.to_move = opponent
        elif kind in (Kind.KNOCK, Kind.BIG_GIN):
            if kind is Kind.KNOCK:
                self._discard(player, action.card, public=False)
            self._see(player, kind, NO_CARD, NO_CARD)
            self.spread = action.spread
            self.knocker_deadwood = mask_points(self.hands[player] & ~action.spread_mask)
            if self.knocker_deadwood == 0:
                result = self._score(
                    player,
                    best_defence(CardSet(self.hands[opponent]), ()),
                    big_gin=kind is Kind.BIG_GIN,
                )
            else:
                self.phase = Phase.DEFEND
                self.to_move = opponent
        else:
            knocker = opponent
            spread = [Meld(m) for m in self.spread]
            defence = layoff_plan(CardSet(hand), spread, CardSet(action.layoffs))
            assert defence is not None  # verified
            self._see(player, kind, NO_CARD, NO_CARD)
            result = self._score(knocker, defence, big_gin=False)
        return Event(player, action, drawn, result)

    def abandon(self) -> HandResult:
        """End the hand now as void, nobody scoring: not a rule of play, but how a table of
        bots stops a hand that would never end (two bots can pass the same cards back and
        forth for ever; see :data:`gintutor.engine.match.MAX_ACTIONS`)."""
        if self.over:
            raise GinError("the hand is over")
        return self._end(HandResult(void=True))

    def _both_passed(self) -> bool:
        events = self.seen[0]
        return len(events) == 2 and all(e.kind is Kind.PASS for e in events)

    def _see(self, player: int, kind: Kind, own: int, other: int) -> None:
        self.seen[player].append(Seen(player, kind, own))
        self.seen[1 - player].append(Seen(player, kind, other))

    def _discard(self, player: int, card: int, *, public: bool = True) -> None:
        bit = 1 << card
        self.hands[player] ^= bit
        self.known[player] &= ~bit
        self.taken = NO_CARD
        if public:
            self.pile.append(card)
            self.discards[player] |= bit
            self._see(player, Kind.DISCARD, card, card)

    def _score(self, knocker: int, defence: Defence, *, big_gin: bool) -> HandResult:
        score = score_hand(
            self.knocker_deadwood,
            defence.deadwood,
            self.rules,
            big_gin=big_gin,
            multiplier=self.multiplier,
        )
        return self._end(
            HandResult(False, knocker, self.spread, self.knocker_deadwood, defence, score)
        )

    def _end(self, result: HandResult) -> HandResult:
        self.phase = Phase.OVER
        self.result = result
        return result


def _code(card: int) -> str:
    return CARDS[card].code if 0 <= card < 52 else str(card)


def _verify_spread(spread: tuple[int, ...], hand: int) -> int:
    """The deadwood a spread leaves in ``hand``; :class:`IllegalError` if it is not a spread."""
    used = 0
    for meld in spread:
        if meld not in _MELDS:
            raise IllegalError("{cards} is not a meld", cards=CardSet(meld & DECK_MASK).text())
        if meld & used:
            raise IllegalError("a card belongs to at most one meld")
        if meld & ~hand:
            raise IllegalError(
                "the spread uses {cards}, not in the hand", cards=CardSet(meld & ~hand).text()
            )
        used |= meld
    return mask_points(hand & ~used)


def replay(deal: Deal, rules: RuleSet, actions: Iterable[Action | str]) -> HandState:
    """The state after playing ``actions`` (records or log text) from ``deal``."""
    state = HandState(deal, rules)
    for number, item in enumerate(actions, start=1):
        action = item if isinstance(item, Action) else Action.parse(item)
        try:
            state.do(action)
        except IllegalError as error:
            raise IllegalError(
                "action {number} ({action}): {error}", number=number, action=action, error=error
            ) from None
    return state


def log_text(state: HandState) -> str:
    """A hand's log: the deal on the first line, then one action a line."""
    return "\n".join([state.deal.text(), *(str(a) for a in state.log)])


def parse_log(text: str, rules: RuleSet) -> HandState:
    """Replay a hand from :func:`log_text`."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise CardError("an empty hand log: the first line is the deal")
    return replay(Deal.parse(lines[0]), rules, lines[1:])


class GameState:
    """A game to the rule set's target: hands in turn, the dealer alternating (a void hand is
    dealt again by the same dealer, RULES.md §1), scored by :func:`.game.score_game` — or, under
    Hollywood scoring, a match of three games scored at once by :func:`.game.score_match`, over
    when all three are closed.
    """

    def __init__(self, rules: RuleSet, first_dealer: int = 0) -> None:
        self.rules = rules
        self.dealer = first_dealer
        self.results: list[HandResult] = []

    @property
    def sheet(self) -> GameSheet:
        """The score sheet so far (under Hollywood: the first game's)."""
        if self.rules.hollywood:
            return self.match.games[0]
        return score_game([r.record() for r in self.results], self.rules)

    @property
    def match(self) -> Match:
        """Hollywood's three games so far (:class:`GinError` for other rules)."""
        if not self.rules.hollywood:
            raise GinError(
                "{rules} rules score one game, not a Hollywood match", rules=self.rules.name
            )
        return score_match([r.record() for r in self.results], self.rules)

    @property
    def over(self) -> bool:
        """True when a player has reached the target (Hollywood: in all three games)."""
        return self.match.finished if self.rules.hollywood else self.sheet.finished

    @property
    def totals(self) -> tuple[int, int]:
        """Each player's final points, bonuses included (Hollywood: over the three games)."""
        return self.match.final_totals if self.rules.hollywood else self.sheet.final_totals

    @property
    def winner(self) -> int | None:
        """The player who won the game (Hollywood: the match, by total points; ``None`` while
        it goes on or for a tied match)."""
        if not self.rules.hollywood:
            return self.sheet.winner
        if not self.over:
            return None
        first, second = self.totals
        return None if first == second else (0 if first > second else 1)

    def record(self, result: HandResult) -> None:
        """Enter a finished hand and choose the next dealer."""
        if self.over:
            raise GinError("the game is over")
        self.results.append(result)
        if not result.void:
            self.dealer = 1 - self.dealer
