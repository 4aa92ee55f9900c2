"""A game review as explanation blocks and as JSON-ready data; the coach's reasons narrated.

The records are :mod:`gintutor.tutor.review`'s (this layer sits below the tutor, so it reads
them through the protocols below). Every number shown is read from the records: the coach's
values, losses and standard errors, the grades and reasons, the summaries; nothing here
judges anything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any, Protocol

from gintutor.engine.cards import Card, CardSet
from gintutor.engine.hand import NO_CARD, Action, HandResult, InfoSet, Kind, Phase
from gintutor.engine.judgement import Grade, Judged, Reason, ReasonKind
from gintutor.engine.scoring import Outcome
from gintutor.text.blocks import Block, Heading, Line, Style, Table
from gintutor.text.i18n import N_, _, error_text, ngettext, number, percent, pgettext
from gintutor.text.play import grade_text


class DecisionRecord(Protocol):
    """What the text layer reads of a reviewed decision."""

    @property
    def hand(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def action(self) -> Action: ...
    @property
    def best(self) -> Action: ...
    @property
    def value(self) -> float: ...
    @property
    def best_value(self) -> float: ...
    @property
    def loss(self) -> float: ...
    @property
    def loss_stderr(self) -> float: ...
    @property
    def win_loss(self) -> float | None: ...
    @property
    def grade(self) -> Grade: ...
    @property
    def close(self) -> bool: ...
    @property
    def reasons(self) -> tuple[Reason, ...]: ...
    @property
    def best_reasons(self) -> tuple[Reason, ...]: ...
    @property
    def forced(self) -> bool: ...
    @property
    def top(self) -> int: ...
    @property
    def drawn(self) -> int: ...
    @property
    def luck(self) -> float | None: ...
    @property
    def hints(self) -> int: ...
    @property
    def taken_back(self) -> tuple[Action, ...]: ...
    @property
    def reused(self) -> bool: ...
    @property
    def worlds(self) -> int: ...
    @property
    def table(self) -> tuple[Judged, ...]: ...
    @property
    def info(self) -> InfoSet | None: ...
    @property
    def is_error(self) -> bool: ...


class SummaryRecord(Protocol):
    """What the text layer reads of a summary."""

    @property
    def decisions(self) -> int: ...
    @property
    def grades(self) -> tuple[tuple[Grade, int], ...]: ...
    @property
    def errors(self) -> int: ...
    @property
    def error_grades(self) -> tuple[tuple[Grade, int], ...]: ...
    @property
    def error_rate(self) -> float: ...
    @property
    def mean_loss(self) -> float: ...
    @property
    def worst(self) -> Sequence[DecisionRecord]: ...
    @property
    def rating(self) -> Enum | None: ...
    @property
    def luck(self) -> float: ...
    @property
    def draws(self) -> int: ...
    @property
    def deal_luck(self) -> float: ...
    @property
    def total_luck(self) -> float: ...
    @property
    def hints(self) -> int: ...
    @property
    def taken_back(self) -> int: ...
    @property
    def interval(self) -> tuple[float, float] | None: ...
    @property
    def bands(self) -> tuple[Enum, Enum] | None: ...
    @property
    def assisted(self) -> bool: ...
    @property
    def rated_from(self) -> int: ...


class HandRecord(Protocol):
    """What the text layer reads of a reviewed hand."""

    @property
    def number(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def decisions(self) -> Sequence[DecisionRecord]: ...
    @property
    def result(self) -> HandResult | None: ...
    @property
    def net(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int] | None: ...
    @property
    def summary(self) -> SummaryRecord: ...


class GameRecord(Protocol):
    """What the text layer reads of a game review."""

    @property
    def source(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def hands(self) -> Sequence[HandRecord]: ...
    @property
    def summary(self) -> SummaryRecord: ...
    @property
    def worlds(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def opponent(self) -> str: ...
    @property
    def opponent_source(self) -> Enum: ...
    @property
    def reused(self) -> int: ...
    @property
    def reuse_worlds(self) -> int | None: ...


def _cards(mask: int, style: Style) -> str:
    return style.cards(CardSet(mask))


def _card(card: int, style: Style) -> str:
    return style.card(Card.at(card)) if card != NO_CARD else "?"


def action_text(action: Action, top: int, style: Style, drawn: int = NO_CARD) -> str:
    """An action in words: ``take 9♠``, ``draw (4♥)``, ``discard K♣``, ``knock 8♥ (…)``."""
    kind = action.kind
    if kind is Kind.PASS:
        return _("pass {card}", card=_card(top, style)) if top != NO_CARD else _("pass")
    if kind is Kind.TAKE:
        return _("take {card}", card=_card(top, style)) if top != NO_CARD else _("take")
    if kind is Kind.DRAW:
        if drawn != NO_CARD:
            return _("draw ({card})", card=_card(drawn, style))
        return _("draw from the stock")
    if kind is Kind.DISCARD:
        return _("discard {card}", card=_card(action.card, style))
    spread = "; ".join(_cards(meld, style) for meld in action.spread)
    if kind is Kind.KNOCK:
        return _("knock {card} ({spread})", card=_card(action.card, style), spread=spread)
    if kind is Kind.BIG_GIN:
        return _("big gin ({spread})", spread=spread)
    if action.layoffs:
        return _("lay off {cards}", cards=_cards(action.layoffs, style))
    return _("lay off nothing")


def reason_text(reason: Reason, style: Style) -> str:
    """One coach reason as a short phrase.

    >>> reason_text(Reason(ReasonKind.DEADWOOD_AFTER, 0, 7), Style(ascii_only=True))
    'leaves 7 deadwood'
    """
    kind, value = reason.kind, reason.value
    cards = _cards(reason.cards, style) if reason.cards else ""
    other = _card(reason.other, style) if reason.other != NO_CARD else ""
    if kind is ReasonKind.DEADWOOD_AFTER:
        return _("leaves {value} deadwood", value=value)
    if kind is ReasonKind.MELDS:
        return _("{card} makes the meld {cards}", card=other, cards=cards)
    if kind is ReasonKind.BREAKS_MELD:
        return _("breaks the meld {cards}", cards=cards)
    if kind is ReasonKind.FEEDS_OPPONENT:
        return _("connects with the {card} they picked up ({cards})", card=other, cards=cards)
    if kind is ReasonKind.THEY_PASSED:
        return _("safer: they passed {cards}", cards=cards)
    if kind is ReasonKind.THEY_DISCARDED:
        return _("safer: they discarded {cards}", cards=cards)
    if kind is ReasonKind.LIVE_OUTS:
        return ngettext(
            "{count} live card would make a new meld",
            "{count} live cards would make a new meld",
            value,
            count=value,
        )
    if kind is ReasonKind.KNOCK:
        return _("knocks with {value} deadwood ({cards})", value=value, cards=cards)
    if kind is ReasonKind.GIN:
        return _("goes gin")
    if kind is ReasonKind.BIG_GIN:
        return pgettext("action", "big gin")
    if kind is ReasonKind.UNDERCUT_RISK:
        return _("undercut in {percent} of the hands they may hold", percent=percent(value / 100))
    if kind is ReasonKind.LAYS_OFF:
        return _("leaves {value} deadwood after the layoffs", value=value)
    if kind is ReasonKind.STOCK_LOW:
        return ngettext(
            "only {count} card left in the stock",
            "only {count} cards left in the stock",
            value,
            count=value,
        )
    if kind is ReasonKind.NO_KNOCK:
        return _("plays on although a knock with {value} deadwood was open", value=value)
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
    return kind.value.replace("-", " ")  # a kind added to the coach after this was written


def reasons_text(reasons: Iterable[Reason], style: Style) -> str:
    """The reasons joined with semicolons (``-`` for none)."""
    return "; ".join(reason_text(r, style) for r in reasons) or "-"


def _points(value: float) -> str:
    return number(value, 1)


def _signed(value: float) -> str:
    """Signed to one decimal, never ``-0.0`` (a value that rounds to zero is 0.0)."""
    rounded = round(value, 1)
    return number(0.0, 1) if rounded == 0 else number(rounded, 1, signed=True)


def _grade_text(decision: DecisionRecord) -> str:
    if decision.close and decision.best != decision.action:
        return pgettext("grade", "close call")
    if decision.close and decision.grade is not Grade.BEST:
        return _("{grade} (close)", grade=grade_text(decision.grade))
    return grade_text(decision.grade)


_RESULTS = {
    (True, Outcome.KNOCK, True): N_("you knock; you won {points}"),
    (True, Outcome.KNOCK, False): N_("you knock; you lost {points}"),
    (True, Outcome.UNDERCUT, True): N_("you undercut; you won {points}"),
    (True, Outcome.UNDERCUT, False): N_("you undercut; you lost {points}"),
    (True, Outcome.GIN, True): N_("you gin; you won {points}"),
    (True, Outcome.GIN, False): N_("you gin; you lost {points}"),
    (True, Outcome.BIG_GIN, True): N_("you went big gin; you won {points}"),
    (True, Outcome.BIG_GIN, False): N_("you went big gin; you lost {points}"),
    (False, Outcome.KNOCK, True): N_("they knock; you won {points}"),
    (False, Outcome.KNOCK, False): N_("they knock; you lost {points}"),
    (False, Outcome.UNDERCUT, True): N_("they undercut; you won {points}"),
    (False, Outcome.UNDERCUT, False): N_("they undercut; you lost {points}"),
    (False, Outcome.GIN, True): N_("they gin; you won {points}"),
    (False, Outcome.GIN, False): N_("they gin; you lost {points}"),
    (False, Outcome.BIG_GIN, True): N_("they went big gin; you won {points}"),
    (False, Outcome.BIG_GIN, False): N_("they went big gin; you lost {points}"),
}
"""A hand's result as the review heading says it: (you knocked, how, you won)."""


def _result_text(hand: HandRecord, player: int) -> str:
    result = hand.result
    if result is None:
        return _("not finished")
    if result.void:
        return _("void (the stock ran out)")
    key = (result.knocker == player, result.outcome, hand.net > 0)
    if result.outcome is None or key not in _RESULTS:
        mine = result.knocker == player
        if hand.net > 0:
            return (
                _("you won {points}", points=abs(hand.net))
                if mine
                else _("they ended it; you won {points}", points=abs(hand.net))
            )
        return (
            _("you lost {points}", points=abs(hand.net))
            if mine
            else _("they ended it; you lost {points}", points=abs(hand.net))
        )
    return _(_RESULTS[key], points=abs(hand.net))


def decision_table(decisions: Sequence[DecisionRecord], style: Style) -> Table:
    """Each decision with a choice: turn, what was played, the best, the loss, the grade."""
    rows: list[tuple[str, ...]] = []
    highlight: set[int] = set()
    for decision in decisions:
        if decision.forced:
            continue
        if decision.is_error:
            highlight.add(len(rows))
        played = action_text(decision.action, decision.top, style, decision.drawn)
        best = (
            "="
            if decision.best == decision.action
            else action_text(decision.best, decision.top, style)
        )
        same = decision.best == decision.action
        loss = "0" if same else _points(decision.loss)
        stderr = "" if same else _points(decision.loss_stderr)
        rows.append((str(decision.turn), played, best, loss, stderr, _grade_text(decision)))
    headers = (_("turn"), _("you played"), _("best"), _("loss"), _("se"), _("grade"))
    return Table(headers, tuple(rows), frozenset(highlight))


def decision_lines(decision: DecisionRecord, style: Style) -> list[Block]:
    """Why a decision lost points: what it did and what the best would have done."""
    played = action_text(decision.action, decision.top, style, decision.drawn)
    best = action_text(decision.best, decision.top, style)
    values = {
        "turn": decision.turn,
        "played": played,
        "grade": grade_text(decision.grade),
        "loss": _points(decision.loss),
        "stderr": _points(decision.loss_stderr),
        "best": best,
    }
    if decision.close:
        head = _(
            "Turn {turn}, {played}: {grade} (a close call: within two standard errors), {loss} "
            "± {stderr} points worse than {best}.",
            **values,
        )
    else:
        head = _(
            "Turn {turn}, {played}: {grade}, {loss} ± {stderr} points worse than {best}.", **values
        )
    return [
        Line(head),
        Line(
            _("{action}: {reasons}.", action=played, reasons=reasons_text(decision.reasons, style)),
            1,
        ),
        Line(
            _(
                "{action}: {reasons}.",
                action=best,
                reasons=reasons_text(decision.best_reasons, style),
            ),
            1,
        ),
    ]


def help_lines(decisions: Sequence[DecisionRecord], style: Style) -> list[Block]:
    """The coach's help at each decision that had some: hints asked, actions taken back."""
    lines: list[Block] = []
    for decision in decisions:
        played = action_text(decision.action, decision.top, style, decision.drawn)
        if decision.hints:
            lines.append(
                Line(
                    ngettext(
                        "Turn {turn}, {played}: {count} hint asked first.",
                        "Turn {turn}, {played}: {count} hints asked first.",
                        decision.hints,
                        turn=decision.turn,
                        played=played,
                        count=decision.hints,
                    )
                )
            )
        if decision.taken_back:
            back = ", ".join(action_text(a, decision.top, style) for a in decision.taken_back)
            lines.append(
                Line(
                    _(
                        "Turn {turn}, {played}: warned, you first took back {actions}.",
                        turn=decision.turn,
                        played=played,
                        actions=back,
                    )
                )
            )
    return lines


def summary_lines(summary: SummaryRecord, style: Style, what: str = "hand") -> list[Block]:
    """Decisions, errors by grade, error rate, mean loss, rating, luck."""
    counts = ", ".join(
        _("{count} {grade}", count=n, grade=grade_text(grade)) for grade, n in summary.grades if n
    )
    lines: list[Block] = [
        Line(
            _(
                "{decisions} ({counts}); {errors} (error rate {rate}), mean loss {loss} points "
                "per decision.",
                decisions=ngettext(
                    "{count} decision",
                    "{count} decisions",
                    summary.decisions,
                    count=summary.decisions,
                ),
                counts=counts or _("none"),
                errors=ngettext(
                    "{count} error", "{count} errors", summary.errors, count=summary.errors
                ),
                rate=percent(summary.error_rate),
                loss=number(summary.mean_loss, 2),
            )
        ),
        Line(
            ngettext(
                "Luck: {luck} points from {draws} stock draw, {deal} from the deal (total "
                "{total}).",
                "Luck: {luck} points from {draws} stock draws, {deal} from the deal (total "
                "{total}).",
                summary.draws,
                luck=_signed(summary.luck),
                draws=summary.draws,
                deal=_signed(summary.deal_luck),
                total=_signed(summary.total_luck),
            )
        ),
    ]
    if summary.assisted:
        lines.insert(1, Line(_help_text(summary.hints, summary.taken_back)))
    if what == "game":
        lines.insert(1, Line(rating_text(summary)))
    return lines


def _help_text(hints: int, taken_back: int) -> str:
    return _(
        "Help: {hints} and {taken_back}.",
        hints=ngettext("{count} hint asked", "{count} hints asked", hints, count=hints),
        taken_back=ngettext(
            "{count} warned action taken back",
            "{count} warned actions taken back",
            taken_back,
            count=taken_back,
        ),
    )


def rating_text(summary: SummaryRecord) -> str:
    """The rating line: the band, the error rate's 95% interval and the bands at its ends,
    *assisted* for a game played with help; too few decisions: no band."""
    if summary.rating is None or summary.interval is None or summary.bands is None:
        return ngettext(
            "Rating: too few decisions to rate ({count}; a rating needs {least}).",
            "Rating: too few decisions to rate ({count}; a rating needs {least}).",
            summary.decisions,
            count=summary.decisions,
            least=summary.rated_from,
        )
    values = {
        "band": band_text(summary.rating),
        "level": percent(0.95),
        "low": percent(summary.interval[0]),
        "high": percent(summary.interval[1]),
        "better": band_text(summary.bands[0]),
        "worse": band_text(summary.bands[1]),
    }
    if summary.assisted:
        if summary.bands[0] == summary.bands[1]:
            return _(
                "Rating: {band}, assisted (played with the coach's help), by the error rate "
                "({level} interval {low} to {high}, within the band).",
                **values,
            )
        return _(
            "Rating: {band}, assisted (played with the coach's help), by the error rate ({level} "
            "interval {low} to {high}: {better} to {worse}).",
            **values,
        )
    if summary.bands[0] == summary.bands[1]:
        return _(
            "Rating: {band}, by the error rate ({level} interval {low} to {high}, within the "
            "band).",
            **values,
        )
    return _(
        "Rating: {band}, by the error rate ({level} interval {low} to {high}: {better} to "
        "{worse}).",
        **values,
    )


def band_text(band: Enum) -> str:
    """A rating band in words (the band's value is its English word)."""
    words = {
        "Beginner": pgettext("rating", "Beginner"),
        "Casual player": pgettext("rating", "Casual player"),
        "Intermediate": pgettext("rating", "Intermediate"),
        "Advanced": pgettext("rating", "Advanced"),
        "Expert": pgettext("rating", "Expert"),
        "World class": pgettext("rating", "World class"),
    }
    value = str(band.value)
    return words.get(value, value)


def opponent_text(opponent: str, source: str) -> str:
    """Whom the review's coach assumes across the table, and why (``source``: ``table``,
    ``chosen`` or ``strong``)."""
    if source == "table":
        return _(
            "The coach assumes an opponent who plays like {bot}, the bot at the table (its "
            "policy, never its cards).",
            bot=opponent,
        )
    if source == "chosen":
        return _(
            "The coach assumes an opponent who plays like {bot} (chosen with --opponent-model).",
            bot=opponent,
        )
    return _(
        "The coach assumes a strong opponent who plays like {bot} (the game was not played "
        "against a gintutor bot; choose another with --opponent-model).",
        bot=opponent,
    )


def explain_review(review: GameRecord, style: Style) -> tuple[Block, ...]:
    """The whole review: each hand's decisions and summary, then the game's."""
    if review.source:
        title = _("Review of {source}", source=error_text(review.source))
    else:
        title = _("Review of the game")
    blocks: list[Block] = [
        Heading(title),
        Line(
            _(
                "{rules} rules; every decision judged by the coach on up to {worlds} sampled "
                "deals of the unseen cards (seed {seed}). Loss: expected points given up against "
                "the best action; se: its standard error.",
                rules=review.rules,
                worlds=review.worlds,
                seed=review.seed,
            )
        ),
        Line(opponent_text(review.opponent, str(review.opponent_source.value))),
    ]
    if review.reused:
        total = sum(len(hand.decisions) for hand in review.hands)
        blocks.append(
            Line(
                ngettext(
                    "{count} of {total} verdicts were given during the game (the same coach "
                    "version, at least {least} sampled deals) and are reused; the rest were "
                    "judged now.",
                    "{count} of {total} verdicts were given during the game (the same coach "
                    "version, at least {least} sampled deals) and are reused; the rest were "
                    "judged now.",
                    review.reused,
                    count=review.reused,
                    total=total,
                    least=review.reuse_worlds or 0,
                )
            )
        )
    for hand in review.hands:
        values = {
            "number": hand.number,
            "result": _result_text(hand, review.player),
            "you": hand.scores[0] if hand.scores else 0,
            "they": hand.scores[1] if hand.scores else 0,
        }
        you_dealt = hand.dealer == review.player
        if hand.scores and you_dealt:
            heading = _("Hand {number} (you dealt, score {you}-{they}): {result}", **values)
        elif hand.scores:
            heading = _("Hand {number} (they dealt, score {you}-{they}): {result}", **values)
        elif you_dealt:
            heading = _("Hand {number} (you dealt): {result}", **values)
        else:
            heading = _("Hand {number} (they dealt): {result}", **values)
        blocks.append(Heading(heading))
        if not any(not d.forced for d in hand.decisions):
            blocks.append(Line(_("No decision with a choice.")))
        else:
            blocks.append(decision_table(hand.decisions, style))
        for decision in hand.decisions:
            if decision.is_error:
                blocks += decision_lines(decision, style)
        blocks += help_lines(hand.decisions, style)
        blocks += summary_lines(hand.summary, style)
    summary = review.summary
    blocks.append(Heading(_("The game")))
    blocks += summary_lines(summary, style, "game")
    if summary.worst:
        blocks.append(Line(_("The costliest decisions:")))
        for decision in summary.worst:
            played = action_text(decision.action, decision.top, style, decision.drawn)
            best = action_text(decision.best, decision.top, style)
            blocks.append(
                Line(
                    _(
                        "hand {hand}, turn {turn}: {played} instead of {best} ({loss} points, "
                        "{grade})",
                        hand=decision.hand,
                        turn=decision.turn,
                        played=played,
                        best=best,
                        loss=_points(decision.loss),
                        grade=grade_text(decision.grade),
                    ),
                    1,
                )
            )
    return tuple(blocks)


def step_blocks(
    decision: DecisionRecord, index: int, total: int, opponent: str, style: Style
) -> list[Block]:
    """One decision as ``review --step`` shows it, like an analysis board: where it is, the
    position the player saw (hand, the pile's top, what the opponent took and passed, the
    stock), what was played and the best, and every action valued with its reasons."""
    played = action_text(decision.action, decision.top, style, decision.drawn)
    blocks: list[Block] = [
        Heading(
            _(
                "Decision {index} of {total}: hand {hand}, turn {turn}",
                index=index,
                total=total,
                hand=decision.hand,
                turn=decision.turn,
            )
        )
    ]
    info = decision.info
    if info is not None:
        nothing = _("nothing")
        blocks += [
            Line(_("Your hand: {cards}", cards=_cards(info.hand, style))),
            Line(
                _("Pile top: {card}", card=_card(info.top, style))
                if info.top != NO_CARD
                else _("Pile: empty")
            ),
            Line(
                _(
                    "They took {took}; they passed {passed}.",
                    took=_cards(info.opponent_known, style) if info.opponent_known else nothing,
                    passed=(
                        _cards(info.opponent_passed, style) if info.opponent_passed else nothing
                    ),
                )
            ),
            Line(
                ngettext(
                    "Stock: {count} card.",
                    "Stock: {count} cards.",
                    info.stock_size,
                    count=info.stock_size,
                )
            ),
        ]
    if decision.best == decision.action:
        blocks.append(
            Line(_("You played {played}: {grade}.", played=played, grade=_grade_text(decision)))
        )
    else:
        blocks.append(
            Line(
                _(
                    "You played {played}: {grade}, {loss} ± {stderr} points worse than the "
                    "best, {best}.",
                    played=played,
                    grade=_grade_text(decision),
                    loss=_points(decision.loss),
                    stderr=_points(decision.loss_stderr),
                    best=action_text(decision.best, decision.top, style),
                )
            )
        )
    if decision.table:
        blocks.append(Line(verdict_heading(decision.worlds, opponent, decision.reused)))
        blocks.append(judged_table(decision, style))
    return blocks


def verdict_heading(worlds: int, opponent: str, reused: bool) -> str:
    """What a decision's table rests on: sampled deals (or exact), the opponent model, and
    whether the verdict was given during the game."""
    if not worlds:
        return _("Every action, in expected points this hand (exact):")
    if reused:
        return ngettext(
            "Every action, in expected points this hand ({count} sampled deal, against a "
            "player like {bot}; given during the game):",
            "Every action, in expected points this hand ({count} sampled deals, against a "
            "player like {bot}; given during the game):",
            worlds,
            count=worlds,
            bot=opponent,
        )
    return ngettext(
        "Every action, in expected points this hand ({count} sampled deal, against a player "
        "like {bot}):",
        "Every action, in expected points this hand ({count} sampled deals, against a player "
        "like {bot}):",
        worlds,
        count=worlds,
        bot=opponent,
    )


def judged_table(decision: DecisionRecord, style: Style) -> Table:
    """Every legal action of a decision, best first: its points ± se, the loss, the grade and
    the coach's reasons; the action played is highlighted."""
    rows: list[tuple[str, ...]] = []
    highlight: set[int] = set()
    plus = "+/-" if style.ascii_only else "±"
    for rank, judged in enumerate(decision.table):
        if judged.action == decision.action:
            highlight.add(rank)
        if rank and judged.close:
            grade = pgettext("grade", "close call")
        else:
            grade = grade_text(judged.grade)
        rows.append(
            (
                action_text(judged.action, decision.top, style),
                f"{_signed(judged.mean)} {plus} {number(judged.stderr, 1)}",
                "" if not rank else _points(judged.loss),
                grade,
                reasons_text(judged.reasons, style),
            )
        )
    headers = (_("choice"), _("points"), _("loss"), _("grade"), _("why"))
    return Table(headers, tuple(rows), frozenset(highlight))


def _codes(mask: int) -> list[str]:
    return CardSet(mask).codes


def reason_data(reason: Reason) -> dict[str, Any]:
    """``{kind, cards, value, other}`` (cards as codes)."""
    return {
        "kind": reason.kind.value,
        "cards": _codes(reason.cards),
        "value": reason.value,
        "other": Card.at(reason.other).code if reason.other != NO_CARD else None,
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def decision_data(decision: DecisionRecord) -> dict[str, Any]:
    """One decision for ``--json``."""
    return {
        "hand": decision.hand,
        "turn": decision.turn,
        "phase": decision.phase.value,
        "action": str(decision.action),
        "best": str(decision.best),
        "loss": _round(decision.loss),
        "loss_stderr": _round(decision.loss_stderr),
        "grade": decision.grade.value,
        "reasons": [reason_data(r) for r in decision.reasons],
        "close": decision.close,
        "error": decision.is_error,
        "forced": decision.forced,
        "value": _round(decision.value),
        "best_value": _round(decision.best_value),
        "win_loss": _round(decision.win_loss),
        "best_reasons": [reason_data(r) for r in decision.best_reasons],
        "top": Card.at(decision.top).code if decision.top != NO_CARD else None,
        "drawn": Card.at(decision.drawn).code if decision.drawn != NO_CARD else None,
        "luck": _round(decision.luck),
        "hints": decision.hints,
        "taken_back": [str(a) for a in decision.taken_back],
        "reused": decision.reused,
        "worlds": decision.worlds,
    }


def summary_data(summary: SummaryRecord) -> dict[str, Any]:
    """A hand's or the game's summary for ``--json``."""
    return {
        "decisions": summary.decisions,
        "errors": {grade.value: n for grade, n in summary.error_grades},
        "grades": {grade.value: n for grade, n in summary.grades},
        "error_count": summary.errors,
        "error_rate": _round(summary.error_rate),
        "mean_loss": _round(summary.mean_loss),
        "worst": [
            {
                "hand": d.hand,
                "turn": d.turn,
                "action": str(d.action),
                "best": str(d.best),
                "loss": _round(d.loss),
                "grade": d.grade.value,
            }
            for d in summary.worst
        ],
        "rating": summary.rating.value if summary.rating is not None else None,
        "rating_interval": (
            None
            if summary.interval is None or summary.bands is None
            else {
                "error_rate": [_round(summary.interval[0]), _round(summary.interval[1])],
                "bands": [summary.bands[0].value, summary.bands[1].value],
            }
        ),
        "rating_min_decisions": summary.rated_from,
        "assisted": summary.assisted,
        "hints": summary.hints,
        "taken_back": summary.taken_back,
        "luck": {
            "draws": _round(summary.luck),
            "stock_draws": summary.draws,
            "deal": _round(summary.deal_luck),
            "total": _round(summary.total_luck),
        },
    }


def review_data(review: GameRecord) -> dict[str, Any]:
    """The whole review for ``--json``: per decision, per hand and for the game."""
    return {
        "source": review.source,
        "rules": review.rules,
        "player": review.player,
        "worlds": review.worlds,
        "seed": review.seed,
        "opponent": {"model": review.opponent, "source": review.opponent_source.value},
        "reused": review.reused,
        "hands": [
            {
                "hand": hand.number,
                "dealer": "you" if hand.dealer == review.player else "them",
                "scores": list(hand.scores) if hand.scores else None,
                "net": hand.net,
                "result": (
                    None
                    if hand.result is None
                    else ("void" if hand.result.void else _outcome(hand.result))
                ),
                "decisions": [decision_data(d) for d in hand.decisions],
                "summary": summary_data(hand.summary),
            }
            for hand in review.hands
        ],
        "summary": summary_data(review.summary),
    }


def _outcome(result: HandResult) -> str:
    return result.outcome.value if result.outcome is not None else "void"
