"""A game played elsewhere, typed as a text log, read into a :class:`PlayedGame` for review.

The log holds only what *you* saw (the format, with an example, is in the README's ``review``
section and ``examples/game.txt``)::

    # comments start with '#'; blank lines are ignored
    rules: standard                 # optional: a preset or a house-rules file (default standard)
    score: 0 0                      # optional: your score and theirs before the first hand
    hand                            # each hand starts with this line
    dealer: them                    # who dealt: you or them
    dealt: 7C 7D 7H 5H 6H 8H AS 2S 3S KD   # your 10 cards
    upcard: 9S
    you pass                        # then every action in order, 'you ...' or 'them ...':
    them take                       #   pass, take (the upcard / the pile's top card)
    them discard 4D                 #   discard CARD
    you draw 6H                     #   you draw CARD (the card you drew); them draw
    you knock KD: 5H 6H 7H 8H | 7C 7D 7H      # spread optional (default: least deadwood)
    them knock: 2C 3C 4C | 9D TD JD ; deadwood 2H 5S   # what they spread and kept
    them hand: 2C 3C ...            # their 10 cards when they show them after your knock
    you lay-off: 4H                 # layoffs after their knock ('-' for none)
    them lay-off: 8H 9H
    you big-gin / them big-gin: melds

The cards you never saw (the rest of their hand, the stock under the cards drawn) are
completed *arbitrarily but consistently*: every card they discarded or showed was in their
hand, every card they took is known, no card is in two places. Their knock shows 10 of the
11 cards they hold: a card they took from the pile and kept that the knock does not show is
the one they discarded face down (it cannot be the card taken this turn, which may not be
thrown; two such cards missing is a mistake in the log, named as such); otherwise the
face-down card is one you never saw. A big gin and their hand shown after your knock show
every card they took and kept. The completed deal is replayed through the engine, which checks
every action. Your information sets do not depend on the completion (only what you saw enters
them), so the review is the same whichever is chosen. Errors name the line: ``file:line: what
is wrong``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gintutor.content.houserules import load_rules
from gintutor.content.textfile import read_text
from gintutor.engine.bots.common import best_spread
from gintutor.engine.cards import CardSet, mask_cards, parse_cards
from gintutor.engine.game import game_over_after
from gintutor.engine.hand import DEALT, NO_CARD, Action, Deal, HandState, Kind, Phase, replay
from gintutor.engine.melds import Meld
from gintutor.engine.rules import RuleSet
from gintutor.errors import GinError, Phrase
from gintutor.tutor.review import PlayedGame, PlayedHand

YOU, THEM = 0, 1
"""Seats in a logged game: you are seat 0."""
STOCK = 52 - DEALT - 1
_WHO = {"you": YOU, "them": THEM}
_WORDS = ("you", "them")


class LogError(GinError):
    """A game log line that cannot be read or is inconsistent: ``file:line: what is wrong``."""


@dataclass(frozen=True)
class LoggedAction:
    """One action line: who, the action (for the opponent's knock the face-down card is
    completed later), the card you drew, and the line number."""

    line: int
    who: int
    kind: Kind
    card: int = NO_CARD
    spread: tuple[int, ...] | None = None
    cards: int = 0
    """Lay-off cards, or the deadwood the opponent showed with its knock."""


@dataclass
class _Hand:
    """A hand being read: its header lines and its action lines."""

    line: int
    dealer: int | None = None
    dealt: int | None = None
    upcard: int = NO_CARD
    actions: list[LoggedAction] = field(default_factory=list)
    shown: list[tuple[int, int]] = field(default_factory=list)
    """``(line, cards)`` of each ``them hand:`` line."""


def read_game_log(path: Path, *, completion: int = 0) -> PlayedGame:
    """The game in the log file at ``path`` (see the module docstring)."""
    return parse_game_log(read_text(path, Phrase("the game log")), str(path), completion=completion)


def parse_game_log(text: str, name: str = "<log>", *, completion: int = 0) -> PlayedGame:
    """The game in a log's text; ``completion`` picks one completion of the unseen cards
    (0: the first in canonical order; others: seeded random ones).

    >>> game = parse_game_log(EXAMPLE)
    >>> len(game.hands), [str(a) for a in game.hands[0].actions[:3]]
    (1, ['pass', 'pass', 'draw'])
    """
    rules_name = "standard"
    scores = (0, 0)
    hands: list[_Hand] = []
    rules_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue

        def fail(error: object, at: int = number) -> LogError:
            return LogError("{path}:{number}: {error}", path=name, number=at, error=error)

        head, colon, tail = line.partition(":")
        key = head.strip().lower()
        try:
            if key == "hand" or key.startswith("hand "):
                hands.append(_Hand(number))
            elif colon and key in ("rules", "score"):
                if hands:
                    raise fail(Phrase("'{key}:' belongs before the first hand", key=key))
                if key == "rules":
                    rules_name, rules_line = tail.strip(), number
                else:
                    scores = _scores(tail)
            elif not hands:
                raise fail(
                    Phrase(
                        "{line!r}: a log starts with optional 'rules:' and 'score:' lines, "
                        "then 'hand'",
                        line=line,
                    )
                )
            else:
                _hand_line(hands[-1], key, colon, tail, line, number)
        except LogError:
            raise
        except GinError as error:
            raise fail(error) from None
    if not hands:
        raise LogError("{name}: no 'hand' line: the log has no hand", name=name)
    rules = _rules(rules_name, f"{name}:{rules_line}")
    chooser = _chooser(completion)
    played = []
    for index, hand in enumerate(hands):
        last = index == len(hands) - 1
        played.append(_play(hand, rules, name, chooser, must_end=not last))
    if not rules.hollywood:
        ended = [replay(p.deal, rules, p.actions).result for p in played]
        won_at = game_over_after((r.record() for r in ended if r is not None), rules)
        if won_at is not None and won_at < len(played):
            raise LogError(
                "{name}:{line}: hand {hand}: the game was already over after hand {previous} "
                "(a player reached {target}); start a new log for a new game",
                name=name,
                line=hands[won_at].line,
                hand=won_at + 1,
                previous=won_at,
                target=rules.target,
            )
    return PlayedGame(rules, YOU, tuple(played), scores, name)


def _scores(text: str) -> tuple[int, int]:
    words = text.split()
    if len(words) != 2 or not all(w.isascii() and w.isdigit() and len(w) < 7 for w in words):
        raise GinError(
            "score: {text!r}: give your score and theirs, e.g. 'score: 35 20'", text=text.strip()
        )
    return int(words[0]), int(words[1])


def _rules(spec: str, where: str) -> RuleSet:
    try:
        return load_rules(spec)
    except GinError as error:
        raise LogError("{where}: {error}", where=where, error=error) from None


def _cards(text: str) -> int:
    text = text.strip()
    return 0 if text in ("", "-") else CardSet.parse(text).mask


def _one_card(text: str) -> int:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise GinError("{text!r}: give one card", text=text.strip())
    return cards[0].index


def _melds(text: str) -> tuple[int, ...]:
    groups = [g for g in text.split("|") if g.strip()]
    return tuple(sorted(Meld.parse(g).mask for g in groups))


def _hand_line(hand: _Hand, key: str, colon: str, tail: str, line: str, number: int) -> None:
    """Read one line inside a hand."""
    if colon and key == "dealer":
        dealer = tail.strip().lower()
        if dealer not in _WHO:
            raise GinError(
                "dealer: {text!r}: write 'dealer: you' or 'dealer: them'", text=tail.strip()
            )
        hand.dealer = _WHO[dealer]
        return
    if colon and key == "dealt":
        dealt = parse_cards(tail)
        if len(dealt) != 10:
            raise GinError("dealt: your 10 cards, got {count}", count=len(dealt))
        hand.dealt = CardSet.from_cards(dealt).mask
        return
    if colon and key == "upcard":
        hand.upcard = _one_card(tail)
        return
    words = key.split()
    if not words or words[0] not in _WHO:
        raise GinError(
            "{line!r}: expected 'dealer:', 'dealt:', 'upcard:' or an action starting "
            "'you' or 'them'",
            line=line,
        )
    if hand.dealer is None or hand.dealt is None or hand.upcard == NO_CARD:
        raise GinError("a hand's 'dealer:', 'dealt:' and 'upcard:' lines come before its actions")
    who = _WHO[words[0]]
    rest = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
    verb_text, _, after = rest.partition(":")
    verb = verb_text.split()
    if not verb:
        raise GinError(
            "{line!r}: what did {who} do? (pass, take, draw, discard, knock, ...)",
            line=line,
            who=words[0],
        )
    word = verb[0].lower()
    args = verb[1:]
    if word == "hand" and who == THEM and colon:
        shown = parse_cards(after)
        if len(shown) != 10:
            raise GinError("them hand: their 10 cards, got {count}", count=len(shown))
        hand.shown.append((number, CardSet.from_cards(shown).mask))
        return
    try:
        kind = Kind(word)
    except ValueError:
        raise GinError(
            "{line!r}: unknown action {verb!r} (use pass, take, draw, discard, knock, "
            "big-gin, lay-off; or 'them hand:')",
            line=line,
            verb=verb[0],
        ) from None
    card = NO_CARD
    if kind is Kind.DRAW and who == YOU:
        if len(args) != 1:
            raise GinError("you draw CARD: say which card you drew from the stock")
        card = _one_card(args[0])
    elif kind in (Kind.DISCARD,) or (kind is Kind.KNOCK and who == YOU):
        if len(args) != 1:
            raise GinError("{who} {action} CARD: say which card", who=words[0], action=kind.value)
        card = _one_card(args[0])
    elif args:
        raise GinError(
            "{line!r}: {who} {action} takes no card here",
            line=line,
            who=words[0],
            action=kind.value,
        )
    if kind in (Kind.PASS, Kind.TAKE, Kind.DRAW, Kind.DISCARD) and colon and after.strip():
        raise GinError("{line!r}: nothing follows ':' for {action}", line=line, action=kind.value)
    spread: tuple[int, ...] | None = None
    cards = 0
    if kind is Kind.LAY_OFF:
        cards = _cards(after)
    elif kind in (Kind.KNOCK, Kind.BIG_GIN):
        melds_text, _, deadwood_text = after.partition(";")
        if melds_text.strip():
            spread = _melds(melds_text)
        dead = deadwood_text.strip()
        if dead:
            label, _, listed = dead.partition(" ")
            if label.lower() != "deadwood" or who == YOU:
                raise GinError(
                    "{text!r}: after ';' write 'deadwood CARDS' (their knock only)", text=dead
                )
            cards = _cards(listed)
        if who == THEM and spread is None:
            raise GinError("them {action}: MELDS: write the melds they spread", action=kind.value)
    hand.actions.append(LoggedAction(number, who, kind, card, spread, cards))


Chooser = Callable[[list[int]], int]
"""Picks which of the opponent's unknown card slots a card they revealed fills."""


def _chooser(completion: int) -> Chooser:
    if completion == 0:
        return lambda slots: 0
    rng = random.Random(f"completion:{completion}")
    return lambda slots: rng.randrange(len(slots))


class _Completion:
    """The unseen cards filled in as the log reveals them: slots of the opponent's dealt hand
    (``0..9``) and of the stock (``10 + k`` for the k-th card drawn)."""

    def __init__(self, hand: _Hand, name: str, chooser: Chooser) -> None:
        assert hand.dealt is not None
        self.name = name
        self.choose = chooser
        self.slot_card: dict[int, int] = {}
        self.where: dict[int, tuple[Phrase, int]] = {}
        """Card -> (what, line) for every card already placed."""
        for card in mask_cards(hand.dealt):
            self.where[card.index] = (Phrase("in your dealt hand"), hand.line)
        if hand.upcard in self.where:
            raise LogError(
                "{name}:{line}: the upcard is also in your dealt hand", name=name, line=hand.line
            )
        self.where[hand.upcard] = (Phrase("the upcard"), hand.line)
        self.mine = hand.dealt
        self.pile = [hand.upcard]
        self.known = 0
        """Their cards you know they hold."""
        self.open_slots: list[int] = list(range(10))
        """Their held cards you have not seen."""
        self.drawn = 0
        self.took: dict[int, int] = {}
        """Card -> line for every card they took from the pile."""
        self.taken_now = NO_CARD
        """The card they took from the pile this turn (it may not be discarded now)."""
        self.face_down = NO_CARD
        """Their knock's face-down discard when it is a card of theirs you knew."""

    def fail(self, line: int, error: Phrase) -> LogError:
        return LogError("{path}:{number}: {error}", path=self.name, number=line, error=error)

    def place(self, card: int, slot: int, line: int, what: Phrase) -> None:
        if card in self.where:
            seen, at = self.where[card]
            raise self.fail(
                line,
                Phrase(
                    "{card} cannot be {what}: it was {seen} (line {line})",
                    card=_code(card),
                    what=what,
                    seen=seen,
                    line=at,
                ),
            )
        self.slot_card[slot] = card
        self.where[card] = (what, line)

    def claim(self, card: int, line: int, what: Phrase) -> None:
        """The opponent shows it holds ``card``."""
        if self.known >> card & 1:
            return
        if not self.open_slots:
            raise self.fail(
                line,
                Phrase("they cannot hold {card}: every card of theirs is known", card=_code(card)),
            )
        slot = self.open_slots.pop(self.choose(self.open_slots))
        self.place(card, slot, line, what)
        self.known |= 1 << card

    def follow(self, action: LoggedAction) -> None:
        line, card = action.line, action.card
        if action.kind is Kind.TAKE:
            if not self.pile:
                raise self.fail(line, Phrase("the discard pile is empty: nothing to take"))
            top = self.pile.pop()
            if action.who == YOU:
                self.mine |= 1 << top
            else:
                self.known |= 1 << top
                self.took[top] = line
                self.taken_now = top
        elif action.kind is Kind.DRAW:
            if self.drawn >= STOCK:
                raise self.fail(line, Phrase("the stock is empty"))
            slot = 10 + self.drawn
            self.drawn += 1
            if action.who == YOU:
                self.place(card, slot, line, Phrase("drawn from the stock"))
                self.mine |= 1 << card
            else:
                self.open_slots.append(slot)
                self.taken_now = NO_CARD
        elif action.kind in (Kind.DISCARD, Kind.KNOCK):
            if action.who == YOU:
                if not self.mine >> card & 1:
                    raise self.fail(line, Phrase("you don't hold {card}", card=_code(card)))
                self.mine &= ~(1 << card)
            elif action.kind is Kind.DISCARD:
                self.claim(card, line, Phrase("discarded by them"))
                self.known &= ~(1 << card)
            if action.kind is Kind.DISCARD:
                self.pile.append(card)
        if action.who == THEM and action.kind in (Kind.KNOCK, Kind.BIG_GIN, Kind.LAY_OFF):
            shown = action.cards
            for meld in action.spread or ():
                if shown & meld:
                    twice = CardSet(shown & meld).text()
                    raise self.fail(
                        line,
                        Phrase(
                            "{cards}: listed twice in their {action}",
                            cards=twice,
                            action=action.kind.value,
                        ),
                    )
                shown |= meld
            if action.kind is Kind.KNOCK:
                self.knock_shows(shown, line)
            elif action.kind is Kind.BIG_GIN:
                self.all_shown(
                    shown,
                    line,
                    Phrase("their big gin does not show {cards}: a big gin melds all 11 they hold"),
                )
            for one in mask_cards(shown):
                self.claim(one.index, line, Phrase("shown by them"))

    def knock_shows(self, shown: int, line: int) -> None:
        """Check their knock against what you know they hold. They hold 11 cards and show
        10; a known card of theirs that the knock does not show is the face-down discard,
        unless it is the card taken this turn, which may not be thrown."""
        count = shown.bit_count()
        if count != 10:
            raise self.fail(
                line,
                Phrase(
                    "their knock shows {count} of their 11 cards: list the melds they spread "
                    "and, after ';', the deadwood they kept ('; deadwood 2H 5S'), 10 cards in all",
                    count=count,
                ),
            )
        missing = self.known & ~shown
        if missing.bit_count() >= 2:
            raise self.fail(
                line,
                Phrase(
                    "their knock does not show {cards}: they still held them and only one card "
                    "goes face down; list the others among the melds or the deadwood",
                    cards=self.known_cards(missing),
                ),
            )
        if self.taken_now != NO_CARD and missing == 1 << self.taken_now:
            raise self.fail(
                line,
                Phrase(
                    "their knock does not show {card}, the card they took from the pile this "
                    "turn (line {line}): it cannot be the card they discard, so it is among "
                    "their melds or deadwood",
                    card=_code(self.taken_now),
                    line=self.took[self.taken_now],
                ),
            )
        if missing:
            self.face_down = missing.bit_length() - 1
            self.known &= ~missing

    def all_shown(self, shown: int, line: int, complaint: Phrase) -> None:
        """Every known card of theirs is among ``shown`` (their big gin, their hand);
        ``complaint`` (a template of ``{cards}``) says what is wrong if not."""
        missing = self.known & ~shown
        if missing:
            cards = self.known_cards(missing)
            raise self.fail(line, Phrase(complaint.template, **complaint.params, cards=cards))

    def known_cards(self, cards: int) -> Phrase:
        """Known cards of theirs, each with where you learnt they held it."""
        said: list[Phrase] = []
        for one in mask_cards(cards):
            card = one.index
            if card in self.took:
                said.append(
                    Phrase(
                        "{card} (they took it, line {line})", card=_code(card), line=self.took[card]
                    )
                )
            else:
                what, at = self.where[card]
                said.append(
                    Phrase("{card} ({what}, line {line})", card=_code(card), what=what, line=at)
                )
        if len(said) == 2:
            return Phrase("{first} and {second}", first=said[0], second=said[1])
        listed = said[-1]
        for earlier in reversed(said[:-1]):
            listed = Phrase("{first}, {rest}", first=earlier, rest=listed)
        return listed

    def show_hand(self, cards: int, line: int) -> None:
        self.all_shown(
            cards,
            line,
            Phrase("'them hand:' does not show {cards}: they held it and show their 10 cards"),
        )
        for one in mask_cards(cards):
            self.claim(one.index, line, Phrase("shown by them"))

    def knock_card(self) -> int:
        """The card the opponent discarded face down when it knocked: the known card its knock
        does not show, else one it was not seen holding (any will do: nobody saw it)."""
        if self.face_down != NO_CARD:
            return self.face_down
        assert len(self.open_slots) == 1, "knock_shows() counted 10 shown of 11 held"
        return self.fill_slot(self.open_slots[0])

    def fill_slot(self, slot: int) -> int:
        if slot not in self.slot_card:
            free = [c for c in range(52) if c not in self.where]
            card = free[self.choose(free)]
            self.place(card, slot, 0, Phrase("unseen"))
        return self.slot_card[slot]

    def order(self, hand: _Hand) -> tuple[int, ...]:
        """The completed deck order of the deal."""
        assert hand.dealt is not None and hand.dealer is not None
        opponent = [self.fill_slot(slot) for slot in range(10)]
        stock = [self.fill_slot(10 + k) for k in range(STOCK)]
        mine = [card.index for card in mask_cards(hand.dealt)]
        # The non-dealer gets the even places of the first 20, the dealer the odd ones.
        first, second = (mine, opponent) if hand.dealer == THEM else (opponent, mine)
        order = [card for pair in zip(first, second, strict=True) for card in pair]
        return (*order, hand.upcard, *stock)


def _code(card: int) -> str:
    return CardSet(1 << card).text()


def _play(
    hand: _Hand, rules: RuleSet, name: str, chooser: Chooser, *, must_end: bool
) -> PlayedHand:
    """Complete the hand's unseen cards, then replay it through the engine, line by line."""
    if hand.dealer is None or hand.dealt is None or hand.upcard == NO_CARD:
        raise LogError(
            "{name}:{line}: a hand needs 'dealer:', 'dealt:' and 'upcard:' lines",
            name=name,
            line=hand.line,
        )
    completion = _Completion(hand, name, chooser)
    knock_line = 0
    for step in hand.actions:
        completion.follow(step)
        if step.kind in (Kind.KNOCK, Kind.BIG_GIN):
            knock_line = step.line
    for line, cards in hand.shown:
        if not knock_line or line < knock_line:
            raise LogError(
                "{name}:{line}: 'them hand:' shows their cards after a knock", name=name, line=line
            )
        completion.show_hand(cards, line)
    face_down = NO_CARD
    for step in hand.actions:
        if step.who == THEM and step.kind is Kind.KNOCK:
            face_down = completion.knock_card()
    deal = Deal(hand.dealer, completion.order(hand))
    state = HandState(deal, rules)
    played: list[Action] = []
    for logged in hand.actions:
        if state.over:
            raise LogError("{name}:{line}: the hand is already over", name=name, line=logged.line)
        if logged.who != state.to_move:
            yours, theirs = _WRONG_TURN[state.phase]
            said = yours if state.to_move == YOU else theirs
            raise LogError(said.template, name=name, line=logged.line)
        action = _action(logged, state, face_down)
        try:
            state.do(action)
        except GinError as error:
            raise LogError(
                "{path}:{number}: {error}", path=name, number=logged.line, error=error
            ) from None
        played.append(action)
    if must_end and not state.over:
        raise LogError(
            "{name}:{line}: this hand does not end (a knock, gin or a void stock) before the "
            "next 'hand' line",
            name=name,
            line=hand.line,
        )
    return PlayedHand(deal, tuple(played))


_WRONG_TURN = {
    Phase.OFFER: (
        Phrase("{name}:{line}: it is your turn (take or pass the upcard), not theirs"),
        Phrase("{name}:{line}: it is their turn (take or pass the upcard), not yours"),
    ),
    Phase.DRAW: (
        Phrase("{name}:{line}: it is your turn (draw), not theirs"),
        Phrase("{name}:{line}: it is their turn (draw), not yours"),
    ),
    Phase.DISCARD: (
        Phrase("{name}:{line}: it is your turn (discard or knock), not theirs"),
        Phrase("{name}:{line}: it is their turn (discard or knock), not yours"),
    ),
    Phase.DEFEND: (
        Phrase("{name}:{line}: it is your turn (lay off), not theirs"),
        Phrase("{name}:{line}: it is their turn (lay off), not yours"),
    ),
    Phase.OVER: (
        Phrase("{name}:{line}: it is your turn (-), not theirs"),
        Phrase("{name}:{line}: it is their turn (-), not yours"),
    ),
}
"""A log line by the player not to move: whose turn it is and what they do (the phase), as
two whole sentences each (a phase's word alone is translated by its sentence)."""


def _action(logged: LoggedAction, state: HandState, face_down: int) -> Action:
    kind = logged.kind
    if kind is Kind.LAY_OFF:
        return Action(kind, layoffs=logged.cards)
    if kind is Kind.KNOCK:
        card = logged.card if logged.who == YOU else face_down
        spread = logged.spread
        if spread is None:
            spread = best_spread(state.hands[state.to_move] & ~(1 << card))
        return Action.knock(card, spread)
    if kind is Kind.BIG_GIN:
        spread = logged.spread
        if spread is None:
            spread = best_spread(state.hands[state.to_move])
        return Action(kind, NO_CARD, spread)
    if kind is Kind.DISCARD:
        return Action.discard(logged.card)
    return Action(kind)


def log_text(game: PlayedGame) -> str:
    """The log of a played game as its player saw it: :func:`parse_game_log` reads it back
    (with the unseen cards completed afresh), and the player's information sets are the same.
    """
    me = game.player
    lines = [f"rules: {game.rules.name}"]
    if game.scores != (0, 0):
        lines.append(f"score: {game.scores[me]} {game.scores[1 - me]}")
    for number, hand in enumerate(game.hands, start=1):
        deal = hand.deal
        lines += [
            f"hand {number}",
            f"dealer: {'you' if deal.dealer == me else 'them'}",
            f"dealt: {CardSet(deal.hand_mask(me)).text()}",
            f"upcard: {_code(deal.upcard)}",
        ]
        state = HandState(deal, game.rules)
        for action in hand.actions:
            who = state.to_move
            word = "you" if who == me else "them"
            knocker_hand = state.hands[who]
            event = state.do(action)
            if action.kind is Kind.DRAW and who == me:
                lines.append(f"you draw {_code(event.drawn)}")
            elif action.kind in (Kind.KNOCK, Kind.BIG_GIN) and who != me:
                melds = " | ".join(CardSet(m).text() for m in action.spread)
                rest = knocker_hand & ~action.spread_mask
                if action.kind is Kind.KNOCK:
                    rest &= ~(1 << action.card)
                dead = f"; deadwood {CardSet(rest).text()}" if rest else ""
                lines.append(f"them {action.kind.value}: {melds}{dead}")
            else:
                lines.append(f"{word} {action}")
            if action.kind in (Kind.KNOCK, Kind.BIG_GIN) and who == me:
                lines.append(f"them hand: {CardSet(state.hands[1 - me]).text()}")
    return "\n".join(lines) + "\n"


EXAMPLE = """\
rules: standard
hand
dealer: them
dealt: 7C 7D 7H 5H 6H 8H AS 2S 3S KD
upcard: 9S
you pass
them pass
you draw 4H
you discard KD
them draw
them discard QC
you draw 9C
you knock 9C
them hand: 2C 3C 4C 9D TD JD QS JS 5D 6D
them lay-off: -
"""
"""A short log (used by the doctest): you knock with 8 deadwood (8♥) on your second turn."""
