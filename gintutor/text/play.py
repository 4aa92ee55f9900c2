"""A game against the computer as explanation blocks: the table, the bot's moves, the coach's
hint and warning, the end of a hand and the score sheet.

The records here are what the screen shows; the game session (``tutor/session.py``) builds
them from the engine and the coach, and these functions only narrate them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.game import GameSheet, Match
from gintutor.engine.hand import Action, HandResult, Kind, Phase
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.engine.solver import Arrangement
from gintutor.text.blocks import Block, Heading, Line, Style, Table, plural
from gintutor.text.i18n import number
from gintutor.text.sheets import explain_match, explain_sheet

if TYPE_CHECKING:
    # The coach's vocabulary comes with its first verdict, the showdown is narrated at a
    # hand's end: a game starts without either.
    from gintutor.engine.judgement import Judged, Reason, Verdict
    from gintutor.engine.showdown import Showdown, SpreadOutcome

# -- the records ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandStart:
    """A new hand: its number, who deals, the upcard, the knock limit and where it comes from."""

    number: int
    dealer: int
    upcard: Card
    knock_limit: int
    limit_from_upcard: bool
    multiplier: int


@dataclass(frozen=True)
class Move:
    """One action of the bot as the learner saw it: the card only when it was face up."""

    player: int
    kind: Kind
    card: Card | None = None
    """The card taken, passed or discarded (never the card drawn from the stock)."""


@dataclass(frozen=True)
class TableView:
    """What the learner sees at a decision: their hand in its best melds, the pile, the stock,
    what the opponent took and passed, the knock limit, the legal actions."""

    hand_number: int
    phase: Phase
    you_deal: bool
    hand: CardSet
    arrangement: Arrangement
    """The least-deadwood arrangement of the cards held (10, or 11 after drawing)."""
    drawn: Card | None
    """The card just drawn from the stock."""
    taken: Card | None
    """The card just taken from the pile (it may not be discarded now)."""
    can_knock: bool
    """After drawing: some discard leaves deadwood within the knock limit."""
    pile: tuple[Card, ...]
    """The discard pile, bottom first (the last is the top)."""
    stock_size: int
    opponent_took: CardSet
    """Cards the opponent took from the pile and still holds."""
    opponent_passed: CardSet
    opponent_discards: CardSet
    knock_limit: int
    limit_from_upcard: Card | None
    multiplier: int
    scores: tuple[int, int]
    """The learner's and the opponent's running totals."""
    spread: tuple[Arrangement, ...] = ()
    """In the defend phase: the knocker's melds."""
    knocker_deadwood: int = 0
    legal: tuple[Action, ...] = ()

    @property
    def top(self) -> Card | None:
        """The top card of the pile."""
        return self.pile[-1] if self.pile else None


@dataclass(frozen=True)
class Flag:
    """The coach's warning before a choice is committed: the choice, the best, the verdict."""

    action: Action
    judged: Judged
    best: Judged
    verdict: Verdict


@dataclass(frozen=True)
class HandEnd:
    """A hand's end: the result, both hands face up (seat order), the knock as a showdown
    record, a spread that would have scored more against this defender, the score so far."""

    number: int
    you: int
    result: HandResult
    hands: tuple[CardSet, CardSet]
    showdown: Showdown | None
    better: SpreadOutcome | None
    sheet: GameSheet | Match
    game_over: bool


# -- narration ------------------------------------------------------------------------------


def _cards(cards: CardSet | Sequence[Card], style: Style) -> str:
    return style.cards(cards)


def grouped_hand(arrangement: Arrangement, style: Style) -> str:
    """A hand as its melds in brackets then the deadwood cards: ``[7♣ 7♦ 7♠] [4♥ 5♥ 6♥] K♣``."""
    parts = [f"[{style.meld(meld)}]" for meld in arrangement.melds]
    parts += [style.card(card) for card in arrangement.deadwood_cards]
    return " ".join(parts)


def limit_text(knock_limit: int, upcard: Card | None, style: Style) -> str:
    """``knock limit 10``, ``knock limit 3 (the first upcard 3♦)`` or ``gin only``."""
    text = f"knock limit {knock_limit}" if knock_limit else "gin only (no knocking)"
    if upcard is not None:
        text += f" (from the first upcard {style.card(upcard)})"
    return text


def hand_start_blocks(start: HandStart, you: int, bot: str, style: Style) -> list[Block]:
    """The deal of a new hand."""
    dealer = "You deal" if start.dealer == you else f"{bot} deals"
    limit = limit_text(start.knock_limit, start.upcard if start.limit_from_upcard else None, style)
    blocks: list[Block] = [
        Heading(f"Hand {start.number}"),
        Line(f"{dealer}; the upcard is {style.card(start.upcard)}; {limit}."),
    ]
    if start.multiplier != 1:
        blocks.append(Line("The first upcard is a spade: every score of this hand is doubled."))
    return blocks


def table_blocks(view: TableView, bot: str, style: Style) -> list[Block]:
    """The table at the learner's decision."""
    limit = limit_text(view.knock_limit, view.limit_from_upcard, style)
    blocks: list[Block] = [
        Line(
            f"Stock {view.stock_size} · {limit} · score: you {view.scores[0]}, "
            f"{bot} {view.scores[1]}"
        )
    ]
    if view.pile:
        below = view.pile[:-1]
        pile = f"Pile: {style.card(view.pile[-1])} on top"
        if below:
            pile += f" (under it: {_cards(list(reversed(below)), style)})"
        blocks.append(Line(pile))
    else:
        blocks.append(Line("Pile: empty"))
    seen = []
    if view.opponent_took:
        seen.append(f"took {_cards(view.opponent_took, style)} from the pile")
    if view.opponent_passed:
        seen.append(f"passed {_cards(view.opponent_passed, style)}")
    if view.opponent_discards:
        seen.append(f"discarded {_cards(view.opponent_discards, style)}")
    if seen:
        blocks.append(Line(f"{bot} {'; '.join(seen)}."))
    if view.phase is Phase.DEFEND:
        blocks.append(Line(f"{bot} knocked with {view.knocker_deadwood} deadwood and spread:"))
        for arrangement in view.spread:
            blocks.append(Line(" ".join(f"[{style.meld(m)}]" for m in arrangement.melds), 1))
    count = len(view.hand)
    blocks.append(
        Line(
            f"Your hand ({count} cards): {grouped_hand(view.arrangement, style)}  "
            f"deadwood {view.arrangement.deadwood}"
        )
    )
    notes = []
    if view.drawn is not None:
        notes.append(f"You drew {style.card(view.drawn)}.")
    if view.taken is not None:
        notes.append(f"You took {style.card(view.taken)}: you may not discard it this turn.")
    if view.can_knock:
        notes.append("You may knock." if view.knock_limit else "You have gin.")
    if notes:
        blocks.append(Line(" ".join(notes)))
    return blocks


def prompt_text(view: TableView, style: Style) -> str:
    """The question at the prompt."""
    top = view.top
    card = style.card(top) if top is not None else ""
    if view.phase is Phase.OFFER:
        return f"Take the {card} or pass?"
    if view.phase is Phase.DRAW:
        if any(a.kind is Kind.TAKE for a in view.legal):
            return f"Draw from the stock, or take the {card}?"
        return "Draw from the stock?"
    if view.phase is Phase.DEFEND:
        return "Lay off (Enter-free: 'lay off' for your best, 'lay off none', or cards)?"
    return "Your discard (a card, knock CARD, gin)?"


def moves_text(moves: Sequence[Move], bot: str, style: Style) -> list[str]:
    """The bot's turn(s) as sentences: one per turn (a draw and its discard together)."""
    sentences: list[str] = []
    parts: list[str] = []

    def close() -> None:
        if parts:
            sentences.append(f"{bot} " + " and ".join(parts) + ".")
            parts.clear()

    for move in moves:
        card = style.card(move.card) if move.card is not None else ""
        if move.kind is Kind.PASS:
            parts.append(f"passes the {card}")
            close()
        elif move.kind is Kind.TAKE:
            parts.append(f"takes the {card}")
        elif move.kind is Kind.DRAW:
            parts.append("draws from the stock")
        elif move.kind is Kind.DISCARD:
            parts.append(f"discards {card}")
            close()
        elif move.kind is Kind.KNOCK:
            parts.append("knocks")
            close()
        elif move.kind is Kind.BIG_GIN:
            parts.append("goes big gin")
            close()
        elif move.kind is Kind.LAY_OFF:
            parts.append("spreads and lays off")
            close()
    close()
    return sentences


def action_text(action: Action, style: Style, top: Card | None = None) -> str:
    """An action in words: ``discard 8♦``, ``knock, discarding 7♦ (...)``, ``take the 10♦``
    (``top``: the pile's top card, when known)."""
    kind = action.kind
    if kind is Kind.DISCARD:
        return f"discard {style.card(Card.from_index(action.card))}"
    if kind is Kind.KNOCK:
        melds = " ".join(f"[{style.cards(CardSet(m))}]" for m in action.spread)
        return f"knock, discarding {style.card(Card.from_index(action.card))} ({melds})"
    if kind is Kind.BIG_GIN:
        return "big gin"
    if kind is Kind.TAKE:
        return f"take the {style.card(top)}" if top is not None else "take the pile card"
    if kind is Kind.DRAW:
        return "draw from the stock"
    if kind is Kind.PASS:
        return "pass"
    if kind is Kind.LAY_OFF:
        return (
            f"lay off {style.cards(CardSet(action.layoffs))}" if action.layoffs else "lay off none"
        )
    return kind.value


def reason_text(reason: Reason, style: Style) -> str | None:
    """One reason as a short phrase (``None`` for a fact not worth a phrase)."""
    from gintutor.engine.judgement import ReasonKind

    kind = reason.kind
    cards = style.cards(CardSet(reason.cards))
    other = style.card(Card.from_index(reason.other)) if reason.other >= 0 else ""
    if kind is ReasonKind.DEADWOOD_AFTER:
        return f"{reason.value} deadwood after"
    if kind is ReasonKind.MELDS:
        return f"makes {cards}"
    if kind is ReasonKind.BREAKS_MELD:
        return f"breaks {cards}"
    if kind is ReasonKind.FEEDS_OPPONENT:
        return f"connects with the {other} they picked up"
    if kind is ReasonKind.THEY_PASSED:
        return f"they passed {cards}"
    if kind is ReasonKind.THEY_DISCARDED:
        return f"they threw {cards}"
    if kind is ReasonKind.LIVE_OUTS:
        return f"{plural(reason.value, 'live out')}"
    if kind is ReasonKind.KNOCK:
        return f"knock with {reason.value}"
    if kind is ReasonKind.GIN:
        return "gin"
    if kind is ReasonKind.BIG_GIN:
        return "big gin"
    if kind is ReasonKind.UNDERCUT_RISK:
        return f"undercut in {reason.value}% of deals" if reason.value else None
    if kind is ReasonKind.LAYS_OFF:
        return f"{reason.value} deadwood left"
    if kind is ReasonKind.NO_KNOCK:
        return f"passes up a knock with {reason.value}"
    return None


def _why(judged: Judged, style: Style) -> str:
    from gintutor.engine.judgement import ReasonKind

    phrases = [reason_text(r, style) for r in judged.reasons if r.kind is not ReasonKind.STOCK_LOW]
    return "; ".join(p for p in phrases if p) or "-"


def _points(value: float) -> str:
    return number(value, 1, signed=True)


def hint_blocks(verdict: Verdict, style: Style, top: Card | None = None) -> list[Block]:
    """The coach's top three choices with their expected points and why (``top``: the pile's
    top card)."""
    from gintutor.engine.judgement import ReasonKind

    rows = tuple(
        (
            action_text(j.action, style, top),
            f"{_points(j.mean)} {'+/-' if style.ascii_only else '±'} {number(j.stderr, 1)}",
            j.grade.value,
            _why(j, style),
        )
        for j in verdict.top(3)
    )
    sample = f"{verdict.worlds} sampled deals" if verdict.worlds else "exact"
    blocks: list[Block] = [
        Line(f"Coach: the best choices, in expected points this hand ({sample}):"),
        Table(("choice", "points", "grade", "why"), rows, frozenset({0})),
    ]
    if verdict.close_call:
        second = verdict.judged[1]
        blocks.append(
            Line(
                f"A close call: {action_text(second.action, style, top)} is within two standard "
                "errors of the best."
            )
        )
    stock = next((r for r in verdict.best.reasons if r.kind is ReasonKind.STOCK_LOW), None)
    if stock is not None:
        blocks.append(Line(f"Only {plural(stock.value, 'card')} left in the stock."))
    return blocks


def flag_text(flag: Flag, style: Style, top: Card | None = None) -> str:
    """The coach's warning: what the choice does wrong, its grade and cost, the better choice
    (``top``: the pile's top card)."""
    from gintutor.engine.judgement import ReasonKind

    action = flag.action
    judged = flag.judged
    reasons = {r.kind: r for r in judged.reasons}
    what = action_text(action, style, top)
    if action.kind is Kind.DISCARD:
        card = style.card(Card.from_index(action.card))
        feeds = reasons.get(ReasonKind.FEEDS_OPPONENT)
        breaks = reasons.get(ReasonKind.BREAKS_MELD)
        if feeds is not None:
            took = style.card(Card.from_index(feeds.other))
            what = f"throw the {card} that connects with the {took} they picked up"
        elif breaks is not None:
            what = f"throw the {card} out of your meld {style.cards(CardSet(breaks.cards))}"
        else:
            what = f"throw the {card}"
    elif action.kind is Kind.KNOCK:
        risk = reasons.get(ReasonKind.UNDERCUT_RISK)
        if risk is not None and risk.value:
            what = f"knock: you are undercut in {risk.value}% of the likely deals"
    elif action.kind is Kind.PASS or action.kind is Kind.DRAW:
        melds = next(
            (r for r in flag.best.reasons if r.kind is ReasonKind.MELDS),
            None,
        )
        if melds is not None:
            card = style.card(Card.from_index(melds.other))
            what = f"{what}, leaving the {card} that makes {style.cards(CardSet(melds.cards))}"
    best = action_text(flag.best.action, style, top)
    return (
        f"Coach: you are about to {what}. That is a {judged.grade.value}: it costs about "
        f"{number(judged.loss, 1)} points on average against the best choice, {best}."
    )


def hand_end_blocks(end: HandEnd, bot: str, style: Style, *, explain: bool) -> list[Block]:
    """The end of a hand: both hands face up, the knock played out (fully with ``explain``,
    as ``analyze --opponent`` does), the points."""
    result = end.result
    you = end.you
    blocks: list[Block] = [Heading(f"End of hand {end.number}")]
    if result.void:
        blocks.append(Line("The stock ran down with no knock: the hand is void, nobody scores."))
        blocks.append(Line(f"Your hand: {style.cards(end.hands[you])}", 1))
        blocks.append(Line(f"{bot}'s hand: {style.cards(end.hands[1 - you])}", 1))
        return blocks
    knocker = result.knocker
    assert knocker is not None and end.showdown is not None
    mine = knocker == you
    outcome = result.outcome
    blocks.append(Line(f"{'You' if mine else bot} {_verb(outcome, mine)}."))
    blocks.append(Line(f"{bot}'s hand was: {style.cards(end.hands[1 - you])}", 1))
    from gintutor.text.explain import arrangement_lines, explain_showdown

    if explain:
        # Its heading is ours, and its last line names the defender: ours names you.
        blocks += explain_showdown(end.showdown, style, mine=mine)[1:-1]
    else:
        chosen = end.showdown.chosen
        blocks.append(Line(f"{'You' if mine else bot} spread:"))
        blocks += arrangement_lines(chosen.spread, style)
        defender = "You" if not mine else bot
        blocks.append(Line(f"{defender} spread:"))
        for meld in chosen.defence.melds:
            blocks.append(Line(f"[{style.meld(meld)}]", 1))
        for layoff in chosen.defence.layoffs:
            blocks.append(
                Line(f"lays off {style.card(layoff.card)} onto {style.meld(layoff.onto)}", 1)
            )
        blocks.append(Line(f"deadwood {chosen.defence.deadwood}", 1))
    if end.better is not None and mine:
        melds = ", ".join(style.meld(m) for m in end.better.spread.melds)
        scored = end.showdown.chosen.score.knocker_net
        blocks.append(
            Line(
                f"Against this hand, spreading {melds} would have scored "
                f"{end.better.score.knocker_net} instead of {scored}."
            )
        )
    winner = result.winner
    points = result.points
    who = "you" if winner == you else bot
    blocks.append(Line(f"{plural(points, 'point')} to {who} ({_outcome(outcome)})."))
    return blocks


def _verb(outcome: Outcome | None, mine: bool) -> str:
    if outcome is Outcome.GIN:
        return "go gin" if mine else "goes gin"
    if outcome is Outcome.BIG_GIN:
        return "go big gin" if mine else "goes big gin"
    return "knock" if mine else "knocks"


def _outcome(outcome: Outcome | None) -> str:
    return "" if outcome is None else outcome.value.replace("_", " ")


def sheet_blocks(sheet: GameSheet | Match, players: Sequence[str], rules: RuleSet) -> list[Block]:
    """The score sheet (Hollywood: its three games)."""
    if isinstance(sheet, Match):
        return explain_match(sheet, players, rules)
    return explain_sheet(sheet, players, rules)


HELP = (
    ("draw / take / pass", "draw from the stock, take the pile's top card, pass the upcard"),
    ("7d (or discard 7d)", "discard the 7♦"),
    ("knock 7d", "discard the 7♦ face down and spread your least-deadwood melds"),
    ("knock 7d: 7c 7h 7s | ...", "knock with the melds you choose"),
    ("gin", "go gin (or big gin) with your best spread"),
    ("lay off / lay off 4h / lay off none", "after their knock: your layoffs"),
    ("hint", "the coach's top three choices (coach quiet or on)"),
    ("table / sheet", "show the table again / the score sheet"),
    ("quit (Ctrl-D)", "stop; the game is saved: gintutor play --resume"),
    ("resign", "give the game up"),
)


def help_blocks() -> list[Block]:
    """What may be typed at the prompt."""
    return [Table(("type", "to"), HELP)]
