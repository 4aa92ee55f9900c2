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
from gintutor.engine.judgement import Grade, ReasonKind
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.engine.solver import Arrangement
from gintutor.text.blocks import Block, Heading, Line, Style, Table
from gintutor.text.i18n import N_, _, ngettext, number, percent, pgettext
from gintutor.text.sheets import explain_match, explain_sheet

if TYPE_CHECKING:
    # The coach's vocabulary comes with its first verdict, the showdown is narrated at a
    # hand's end: a game starts without either.
    from gintutor.engine.judgement import Grade, Judged, Reason, Verdict
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
    """``knock limit 10``, ``knock limit 3 (from the first upcard 3♦)`` or ``gin only``."""
    if upcard is None:
        if knock_limit:
            return _("knock limit {limit}", limit=knock_limit)
        return _("gin only (no knocking)")
    if knock_limit:
        return _(
            "knock limit {limit} (from the first upcard {card})",
            limit=knock_limit,
            card=style.card(upcard),
        )
    return _("gin only (no knocking) (from the first upcard {card})", card=style.card(upcard))


def hand_start_blocks(start: HandStart, you: int, bot: str, style: Style) -> list[Block]:
    """The deal of a new hand."""
    limit = limit_text(start.knock_limit, start.upcard if start.limit_from_upcard else None, style)
    values = {"bot": bot, "card": style.card(start.upcard), "limit": limit}
    if start.dealer == you:
        dealt = _("You deal; the upcard is {card}; {limit}.", **values)
    else:
        dealt = _("{bot} deals; the upcard is {card}; {limit}.", **values)
    blocks: list[Block] = [Heading(_("Hand {number}", number=start.number)), Line(dealt)]
    if start.multiplier != 1:
        blocks.append(Line(_("The first upcard is a spade: every score of this hand is doubled.")))
    return blocks


def table_blocks(view: TableView, bot: str, style: Style) -> list[Block]:
    """The table at the learner's decision."""
    limit = limit_text(view.knock_limit, view.limit_from_upcard, style)
    blocks: list[Block] = [
        Line(
            _(
                "Stock {stock} · {limit} · score: you {yours}, {bot} {theirs}",
                stock=view.stock_size,
                limit=limit,
                yours=view.scores[0],
                bot=bot,
                theirs=view.scores[1],
            )
        )
    ]
    if view.pile:
        below = view.pile[:-1]
        top = style.card(view.pile[-1])
        if below:
            under = _cards(list(reversed(below)), style)
            pile = _("Pile: {card} on top (under it: {cards})", card=top, cards=under)
        else:
            pile = _("Pile: {card} on top", card=top)
        blocks.append(Line(pile))
    else:
        blocks.append(Line(_("Pile: empty")))
    seen = []  # what the opponent did in the open, as a list of items (not one sentence)
    if view.opponent_took:
        seen.append(_("took {cards} from the pile", cards=_cards(view.opponent_took, style)))
    if view.opponent_passed:
        seen.append(_("passed {cards}", cards=_cards(view.opponent_passed, style)))
    if view.opponent_discards:
        seen.append(_("discarded {cards}", cards=_cards(view.opponent_discards, style)))
    if seen:
        blocks.append(Line(_("{bot}: {items}", bot=bot, items=" · ".join(seen))))
    if view.phase is Phase.DEFEND:
        blocks.append(
            Line(
                _(
                    "{bot} knocked with {deadwood} deadwood and spread:",
                    bot=bot,
                    deadwood=view.knocker_deadwood,
                )
            )
        )
        for arrangement in view.spread:
            blocks.append(Line(" ".join(f"[{style.meld(m)}]" for m in arrangement.melds), 1))
    count = len(view.hand)
    blocks.append(
        Line(
            ngettext(
                "Your hand ({count} card): {cards}  deadwood {deadwood}",
                "Your hand ({count} cards): {cards}  deadwood {deadwood}",
                count,
                count=count,
                cards=grouped_hand(view.arrangement, style),
                deadwood=view.arrangement.deadwood,
            )
        )
    )
    notes = []
    if view.drawn is not None:
        notes.append(_("You drew {card}.", card=style.card(view.drawn)))
    if view.taken is not None:
        notes.append(
            _("You took {card}: you may not discard it this turn.", card=style.card(view.taken))
        )
    if view.can_knock:
        notes.append(_("You may knock.") if view.knock_limit else _("You have gin."))
    if notes:
        blocks.append(Line(" ".join(notes)))
    return blocks


def prompt_text(view: TableView, style: Style) -> str:
    """The question at the prompt."""
    top = view.top
    card = style.card(top) if top is not None else ""
    if view.phase is Phase.OFFER:
        return _("Take the {card} or pass?", card=card)
    if view.phase is Phase.DRAW:
        if any(a.kind is Kind.TAKE for a in view.legal):
            return _("Draw from the stock, or take the {card}?", card=card)
        return _("Draw from the stock?")
    if view.phase is Phase.DEFEND:
        return _("Lay off (Enter-free: 'lay off' for your best, 'lay off none', or cards)?")
    return _("Your discard (a card, knock CARD, gin)?")


_TURNS = {
    (Kind.PASS,): N_("{bot} passes the {card}."),
    (Kind.TAKE,): N_("{bot} takes the {card}."),
    (Kind.DRAW,): N_("{bot} draws from the stock."),
    (Kind.DISCARD,): N_("{bot} discards {discard}."),
    (Kind.KNOCK,): N_("{bot} knocks."),
    (Kind.BIG_GIN,): N_("{bot} goes big gin."),
    (Kind.LAY_OFF,): N_("{bot} spreads and lays off."),
    (Kind.TAKE, Kind.DISCARD): N_("{bot} takes the {card} and discards {discard}."),
    (Kind.DRAW, Kind.DISCARD): N_("{bot} draws from the stock and discards {discard}."),
    (Kind.TAKE, Kind.KNOCK): N_("{bot} takes the {card} and knocks."),
    (Kind.DRAW, Kind.KNOCK): N_("{bot} draws from the stock and knocks."),
    (Kind.TAKE, Kind.BIG_GIN): N_("{bot} takes the {card} and goes big gin."),
    (Kind.DRAW, Kind.BIG_GIN): N_("{bot} draws from the stock and goes big gin."),
}
"""A bot's turn as one sentence: what it drew or took, then what it did (the card taken and
the card discarded are the placeholders)."""


def moves_text(moves: Sequence[Move], bot: str, style: Style) -> list[str]:
    """The bot's turn(s) as sentences: one per turn (a draw and its discard together)."""
    sentences: list[str] = []
    turn: list[Move] = []

    def close() -> None:
        if not turn:
            return
        kinds = tuple(move.kind for move in turn)
        taken = next((m.card for m in turn if m.kind in (Kind.TAKE, Kind.PASS)), None)
        thrown = next((m.card for m in turn if m.kind is Kind.DISCARD), None)
        values = {
            "bot": bot,
            "card": style.card(taken) if taken is not None else "",
            "discard": style.card(thrown) if thrown is not None else "",
        }
        pattern = _TURNS.get(kinds)
        if pattern is not None:
            sentences.append(_(pattern, **values))
        else:  # a turn of another shape: each move its own sentence
            sentences.extend(_(_TURNS[(kind,)], **values) for kind in kinds if (kind,) in _TURNS)
        turn.clear()

    for move in moves:
        turn.append(move)
        if move.kind not in (Kind.TAKE, Kind.DRAW):
            close()
    close()
    return sentences


def action_text(action: Action, style: Style, top: Card | None = None) -> str:
    """An action in words: ``discard 8♦``, ``knock, discarding 7♦ (...)``, ``take the 10♦``
    (``top``: the pile's top card, when known)."""
    kind = action.kind
    if kind is Kind.DISCARD:
        return _("discard {card}", card=style.card(Card.from_index(action.card)))
    if kind is Kind.KNOCK:
        melds = " ".join(f"[{style.cards(CardSet(m))}]" for m in action.spread)
        return _(
            "knock, discarding {card} ({melds})",
            card=style.card(Card.from_index(action.card)),
            melds=melds,
        )
    if kind is Kind.BIG_GIN:
        return pgettext("action", "big gin")
    if kind is Kind.TAKE:
        if top is not None:
            return _("take the {card}", card=style.card(top))
        return _("take the pile card")
    if kind is Kind.DRAW:
        return _("draw from the stock")
    if kind is Kind.PASS:
        return pgettext("action", "pass")
    if kind is Kind.LAY_OFF:
        if action.layoffs:
            return _("lay off {cards}", cards=style.cards(CardSet(action.layoffs)))
        return _("lay off none")
    return kind.value


def reason_text(reason: Reason, style: Style) -> str | None:
    """One reason as a short phrase (``None`` for a fact not worth a phrase). A reason that
    speaks against its row (:data:`~gintutor.engine.judgement.DRAWBACKS`) says so: a row's
    phrases are never read as why it is good when they are what it costs."""
    kind = reason.kind
    cards = style.cards(CardSet(reason.cards))
    other = style.card(Card.from_index(reason.other)) if reason.other >= 0 else ""
    value = reason.value
    if kind is ReasonKind.DEADWOOD_AFTER:
        return _("{value} deadwood after", value=value)
    if kind is ReasonKind.MELDS:
        return _("makes {cards}", cards=cards)
    if kind is ReasonKind.BREAKS_MELD:
        return _("drawback: breaks {cards}", cards=cards)
    if kind is ReasonKind.FEEDS_OPPONENT:
        return _("drawback: connects with the {card} they picked up", card=other)
    if kind is ReasonKind.THEY_PASSED:
        return _("safer: they passed {cards}", cards=cards)
    if kind is ReasonKind.THEY_DISCARDED:
        return _("safer: they threw {cards}", cards=cards)
    if kind is ReasonKind.LIVE_OUTS:
        return ngettext("{count} live out", "{count} live outs", value, count=value)
    if kind is ReasonKind.KNOCK:
        return _("knock with {value}", value=value)
    if kind is ReasonKind.GIN:
        return pgettext("action", "gin")
    if kind is ReasonKind.BIG_GIN:
        return pgettext("action", "big gin")
    if kind is ReasonKind.UNDERCUT_RISK:
        if not value:
            return None
        return _("drawback: undercut in {percent} of deals", percent=percent(value / 100))
    if kind is ReasonKind.LAYS_OFF:
        return _("{value} deadwood left", value=value)
    if kind is ReasonKind.NO_KNOCK:
        return _("drawback: passes up a knock with {value}", value=value)
    if kind is ReasonKind.DRAW_OUTS:
        return ngettext(
            "{count} unseen card would improve the hand",
            "{count} unseen cards would improve the hand",
            value,
            count=value,
        )
    if kind is ReasonKind.CAN_KNOCK:
        if value == 0:
            return _("then you can go gin")
        return _("then you can knock with {value}", value=value)
    return None


def _why(judged: Judged, style: Style) -> str:
    phrases = [reason_text(r, style) for r in judged.reasons if r.kind is not ReasonKind.STOCK_LOW]
    # Every action the coach judges carries a fact (deadwood after, outs, layoffs): a row
    # without a phrase would be a coach bug, shown as the action's points alone.
    return "; ".join(p for p in phrases if p)


def _points(value: float) -> str:
    """Signed points to one decimal, never ``-0.0`` (a value that rounds to zero is 0.0)."""
    rounded = round(value, 1)
    if rounded == 0:
        return number(0.0, 1)
    return number(rounded, 1, signed=True)


def grade_text(grade: Grade) -> str:
    """A coach's grade in words (``best``, ``good``, ``inaccuracy``, ``mistake``, ``blunder``)."""
    words = {
        Grade.BEST: pgettext("grade", "best"),
        Grade.GOOD: pgettext("grade", "good"),
        Grade.INACCURACY: pgettext("grade", "inaccuracy"),
        Grade.MISTAKE: pgettext("grade", "mistake"),
        Grade.BLUNDER: pgettext("grade", "blunder"),
    }
    return words[grade]


def grade_word(judged: Judged, verdict: Verdict) -> str:
    """The grade column: the grade's word, or "close call" where the difference from the best
    is within two standard errors (the best too, when the runner-up is that close): the coach
    shows no grade it cannot tell from sampling noise."""
    return pgettext("grade", "close call") if judged.close else grade_text(judged.grade)


def hint_blocks(verdict: Verdict, style: Style, top: Card | None = None) -> list[Block]:
    """The coach's top three choices, best first, with their expected points and why (``top``:
    the pile's top card), and whom the coach assumes across the table."""
    rows = tuple(
        (
            action_text(j.action, style, top),
            f"{_points(j.mean)} {'+/-' if style.ascii_only else '±'} {number(j.stderr, 1)}",
            grade_word(j, verdict),
            _why(j, style),
        )
        for j in verdict.top(3)
    )
    if verdict.worlds:
        heading = ngettext(
            "Coach: the best choices, in expected points this hand ({count} sampled deal, "
            "against a player like {bot}):",
            "Coach: the best choices, in expected points this hand ({count} sampled deals, "
            "against a player like {bot}):",
            verdict.worlds,
            count=verdict.worlds,
            bot=verdict.opponent,
        )
    else:
        heading = _("Coach: the best choices, in expected points this hand (exact):")
    headers = (_("choice"), _("points"), _("grade"), _("why"))
    blocks: list[Block] = [Line(heading), Table(headers, rows, frozenset({0}))]
    if verdict.close_call:
        second = verdict.judged[1]
        blocks.append(
            Line(
                _(
                    "A close call: {choice} is within two standard errors of the best.",
                    choice=action_text(second.action, style, top),
                )
            )
        )
    stock = next((r for r in verdict.best.reasons if r.kind is ReasonKind.STOCK_LOW), None)
    if stock is not None:
        blocks.append(
            Line(
                ngettext(
                    "Only {count} card left in the stock.",
                    "Only {count} cards left in the stock.",
                    stock.value,
                    count=stock.value,
                )
            )
        )
    return blocks


def flag_text(flag: Flag, style: Style, top: Card | None = None) -> str:
    """The coach's warning: what the choice does wrong, its grade and cost, the better choice
    (``top``: the pile's top card)."""
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
            what = _(
                "throw the {card} that connects with the {took} they picked up",
                card=card,
                took=took,
            )
        elif breaks is not None:
            meld = style.cards(CardSet(breaks.cards))
            what = _("throw the {card} out of your meld {meld}", card=card, meld=meld)
        else:
            what = _("throw the {card}", card=card)
    elif action.kind is Kind.KNOCK:
        risk = reasons.get(ReasonKind.UNDERCUT_RISK)
        if risk is not None and risk.value:
            what = _(
                "knock: you are undercut in {percent} of the likely deals",
                percent=percent(risk.value / 100),
            )
    elif action.kind is Kind.PASS or action.kind is Kind.DRAW:
        melds = next(
            (r for r in flag.best.reasons if r.kind is ReasonKind.MELDS),
            None,
        )
        if melds is not None:
            what = _(
                "{action}, leaving the {card} that makes {cards}",
                action=what,
                card=style.card(Card.from_index(melds.other)),
                cards=style.cards(CardSet(melds.cards)),
            )
    return _(
        "Coach: you are about to {what}. That is a {grade}: it costs about {loss} points on "
        "average against the best choice, {best}.",
        what=what,
        grade=grade_text(judged.grade),
        loss=number(judged.loss, 1),
        best=action_text(flag.best.action, style, top),
    )


def hand_end_blocks(end: HandEnd, bot: str, style: Style, *, explain: bool) -> list[Block]:
    """The end of a hand: both hands face up, the knock played out (fully with ``explain``,
    as ``analyze --opponent`` does), the points."""
    result = end.result
    you = end.you
    blocks: list[Block] = [Heading(_("End of hand {number}", number=end.number))]
    theirs = style.cards(end.hands[1 - you])
    if result.void:
        blocks.append(Line(_("The stock ran down with no knock: the hand is void, nobody scores.")))
        blocks.append(Line(_("Your hand: {cards}", cards=style.cards(end.hands[you])), 1))
        blocks.append(Line(_("{bot}'s hand: {cards}", bot=bot, cards=theirs), 1))
        return blocks
    knocker = result.knocker
    assert knocker is not None and end.showdown is not None
    mine = knocker == you
    outcome = result.outcome
    blocks.append(Line(_ended(outcome, mine, bot)))
    blocks.append(Line(_("{bot}'s hand was: {cards}", bot=bot, cards=theirs), 1))
    # At a hand's end, not at the start of a game (measured with the coach: see
    # tutor/session.py's judge).
    from gintutor.text.explain import arrangement_lines, explain_showdown

    if explain:
        # Its heading is ours, and its last line names the defender: ours names you.
        blocks += explain_showdown(end.showdown, style, mine=mine)[1:-1]
    else:
        chosen = end.showdown.chosen
        blocks.append(Line(_("You spread:") if mine else _("{bot} spread:", bot=bot)))
        blocks += arrangement_lines(chosen.spread, style)
        blocks.append(Line(_("{bot} spread:", bot=bot) if mine else _("You spread:")))
        for meld in chosen.defence.melds:
            blocks.append(Line(f"[{style.meld(meld)}]", 1))
        for layoff in chosen.defence.layoffs:
            blocks.append(
                Line(
                    _(
                        "lays off {card} onto {meld}",
                        card=style.card(layoff.card),
                        meld=style.meld(layoff.onto),
                    ),
                    1,
                )
            )
        blocks.append(Line(_("deadwood {value}", value=chosen.defence.deadwood), 1))
    if end.better is not None and mine:
        melds = ", ".join(style.meld(m) for m in end.better.spread.melds)
        scored = end.showdown.chosen.score.knocker_net
        blocks.append(
            Line(
                _(
                    "Against this hand, spreading {melds} would have scored {better} instead of "
                    "{scored}.",
                    melds=melds,
                    better=end.better.score.knocker_net,
                    scored=scored,
                )
            )
        )
    points = result.points
    how = _(_OUTCOME_WORD[outcome]) if outcome is not None else ""
    if result.winner == you:
        won = ngettext(
            "{points} point to you ({how}).",
            "{points} points to you ({how}).",
            points,
            points=points,
            how=how,
        )
    else:
        won = ngettext(
            "{points} point to {bot} ({how}).",
            "{points} points to {bot} ({how}).",
            points,
            points=points,
            bot=bot,
            how=how,
        )
    blocks.append(Line(won))
    return blocks


_OUTCOME_WORD = {
    Outcome.KNOCK: N_("knock"),
    Outcome.UNDERCUT: N_("undercut"),
    Outcome.GIN: N_("gin"),
    Outcome.BIG_GIN: N_("big gin"),
}


def _ended(outcome: Outcome | None, mine: bool, bot: str) -> str:
    """How the hand ended: ``You knock.``, ``Simple goes gin.``"""
    if outcome is Outcome.GIN:
        return _("You go gin.") if mine else _("{bot} goes gin.", bot=bot)
    if outcome is Outcome.BIG_GIN:
        return _("You go big gin.") if mine else _("{bot} goes big gin.", bot=bot)
    return _("You knock.") if mine else _("{bot} knocks.", bot=bot)


def sheet_blocks(sheet: GameSheet | Match, players: Sequence[str], rules: RuleSet) -> list[Block]:
    """The score sheet (Hollywood: its three games)."""
    if isinstance(sheet, Match):
        return explain_match(sheet, players, rules)
    return explain_sheet(sheet, players, rules)


HELP = (
    ("draw / take / pass", N_("draw from the stock, take the pile's top card, pass the upcard")),
    ("7d / discard 7d", N_("discard the 7♦")),  # no English "or" among the typed words
    ("knock 7d", N_("discard the 7♦ face down and spread your least-deadwood melds")),
    ("knock 7d: 7c 7h 7s | ...", N_("knock with the melds you choose")),
    ("gin", N_("go gin (or big gin) with your best spread")),
    ("lay off / lay off 4h / lay off none", N_("after their knock: your layoffs")),
    ("hint", N_("the coach's top three choices (coach quiet or on)")),
    ("table / sheet", N_("show the table again / the score sheet")),
    ("quit (Ctrl-D)", N_("stop; the game is saved: gintutor play --resume")),
    ("resign", N_("give the game up")),
)
"""What may be typed at the prompt (the words typed stay English: the prompt reads them)."""


def help_blocks() -> list[Block]:
    """What may be typed at the prompt."""
    rows = tuple((typed, _(does)) for typed, does in HELP)
    return [Table((_("type"), _("to")), rows)]
