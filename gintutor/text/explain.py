"""Engine results turned into a plain, structured explanation: a hand's analysis and a showdown.

The blocks and the card style are :mod:`gintutor.text.blocks`; rule sets are narrated by
:mod:`gintutor.text.rules`, score sheets by :mod:`gintutor.text.sheets`. Every number is read
from the engine's records; nothing here computes game logic.
"""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.analysis import Analysis, Overlap
from gintutor.engine.cards import CardSet
from gintutor.engine.knocking import KnockReason, KnockVerdict
from gintutor.engine.layoffs import Defence
from gintutor.engine.melds import Meld, MeldKind
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import HandScore, ItemKind, Outcome, Side
from gintutor.engine.showdown import RejectedSpread, RejectReason, Showdown
from gintutor.engine.solver import Arrangement
from gintutor.text.blocks import Block, Heading, Line, Style, Table, plural


def deadwood_sum(cards: CardSet, style: Style) -> str:
    """The deadwood count with its arithmetic: ``K♣ 10 + 4♦ 4 = 14`` (``none = 0``)."""
    items = [f"{style.card(card)} {card.points}" for card in cards]
    if not items:
        return "none = 0"
    return " + ".join(items) + f" = {cards.points}"


def meld_name(meld: Meld) -> str:
    """``set`` or ``run``."""
    return "set" if meld.kind is MeldKind.SET else "run"


def arrangement_lines(arrangement: Arrangement, style: Style, indent: int = 1) -> list[Block]:
    """The melds of an arrangement, one per line, then its deadwood with the arithmetic."""
    blocks: list[Block] = [
        Line(f"{meld_name(meld)}  {style.meld(meld)}", indent) for meld in arrangement.melds
    ]
    if not arrangement.melds:
        blocks.append(Line("no melds", indent))
    blocks.append(Line(f"deadwood  {deadwood_sum(arrangement.deadwood_cards, style)}", indent))
    return blocks


def knock_sentence(verdict: KnockVerdict, rules: RuleSet) -> str:
    """Why the hand may or may not knock, with the numbers."""
    deadwood, limit = verdict.deadwood, verdict.knock_limit
    if verdict.reason is KnockReason.BIG_GIN:
        return (
            f"Big gin: all 11 cards are melded. Lay them all down without discarding "
            f"({rules.big_gin_bonus} bonus under {rules.name} rules)."
        )
    if verdict.reason is KnockReason.GIN:
        return "Gin: no deadwood at all. Knock and the defender may not lay off or undercut you."
    if verdict.reason is KnockReason.GIN_ONLY:
        return (
            f"{deadwood} deadwood: you cannot knock. The knock limit is 0 here, so only gin "
            f"ends the hand."
        )
    if verdict.reason is KnockReason.WITHIN_LIMIT:
        return f"{deadwood} ≤ {limit}: you can knock."
    return (
        f"{deadwood} > {limit}: you cannot knock; shed {verdict.points_to_shed} more "
        f"{'point' if verdict.points_to_shed == 1 else 'points'}."
    )


def limit_sentence(analysis: Analysis, style: Style) -> str:
    """Where the knock limit comes from."""
    rules = analysis.rules
    if rules.oklahoma and analysis.upcard is not None:
        card = style.card(analysis.upcard)
        if analysis.knock_limit == 0:
            source = f"an ace upcard ({card}) means gin only"
        else:
            source = f"the first upcard {card} sets it"
        return f"Knock limit {analysis.knock_limit} ({rules.name} rules: {source})."
    if analysis.knock_limit == 0:
        return f"Knock limit 0 ({rules.name} rules: gin only)."
    return f"Knock limit {analysis.knock_limit} ({rules.name} rules)."


def overlap_lines(found: Sequence[Overlap], style: Style) -> list[Block]:
    """Why a card that fits both a set and a run goes where it goes."""
    blocks: list[Block] = []
    for overlap in found:
        set_text = style.meld(overlap.as_set.meld)
        run_text = style.meld(overlap.as_run.meld)
        better = overlap.better
        if better is None:
            verdict = "either way is as good"
        else:
            verdict = f"the {'set' if better is MeldKind.SET else 'run'} is better"
        blocks.append(
            Line(
                f"{style.card(overlap.card)} fits a set ({set_text}) and a run ({run_text}): "
                f"melding the set leaves at best {overlap.as_set.deadwood}, the run "
                f"{overlap.as_run.deadwood}; {verdict}."
            )
        )
    return blocks


def explain_melds(analysis: Analysis, style: Style) -> list[Block]:
    """The best arrangement(s) of the hand kept, and the overlapping cards."""
    solution = analysis.solution
    count = len(solution.arrangements)
    blocks: list[Block] = [Heading("Best melds")]
    if count > 1:
        blocks.append(
            Line(f"{count} different arrangements leave the same {solution.deadwood} deadwood:")
        )
    for number, arrangement in enumerate(solution.arrangements, start=1):
        if count > 1:
            blocks.append(Line(f"arrangement {number}", 1))
        blocks += arrangement_lines(arrangement, style, 2 if count > 1 else 1)
    blocks += overlap_lines(analysis.overlaps, style)
    return blocks


def discard_table(analysis: Analysis, style: Style) -> Table:
    """Every legal discard, best first, with the deadwood after it and what it allows."""
    verdict = analysis.verdict
    best = set(verdict.best_discards)
    rows = []
    highlight = set()
    for row, option in enumerate(verdict.discards):
        if option.card in best:
            highlight.add(row)
        if option.reason is KnockReason.GIN:
            allows = "gin"
        elif option.reason is KnockReason.WITHIN_LIMIT:
            allows = "knock"
        else:
            allows = f"no (shed {option.points_to_shed})"
        rows.append((style.card(option.card), str(option.deadwood), allows))
    return Table(("discard", "deadwood after", "knock?"), tuple(rows), frozenset(highlight))


def explain_discards(analysis: Analysis, style: Style) -> list[Block]:
    """The 11-card part: big gin, the discard table, the best discard(s)."""
    verdict = analysis.verdict
    blocks: list[Block] = [Heading("Your discard")]
    if analysis.taken_from_discard is not None:
        blocks.append(
            Line(
                f"{style.card(analysis.taken_from_discard)} was just taken from the discard "
                "pile, so it may not be discarded this turn."
            )
        )
    if verdict.big_gin:
        blocks.append(Line(knock_sentence(verdict, analysis.rules)))
        blocks.append(Line("If you did discard instead, the deadwood left would be:"))
    blocks.append(discard_table(analysis, style))
    if not verdict.big_gin:
        choice = " or ".join(style.card(card) for card in verdict.best_discards)
        blocks.append(
            Line(f"Best discard: {choice}, leaving {verdict.discards[0].deadwood} deadwood.")
        )
        if analysis.all_melded:
            blocks.append(
                Line(
                    f"All 11 cards meld, but {analysis.rules.name} rules do not recognise big "
                    "gin: discard and go gin."
                )
            )
    return blocks


def explain_analysis(analysis: Analysis, style: Style) -> tuple[Block, ...]:
    """The whole explanation of :func:`~gintutor.analysis.analyze`'s result."""
    blocks: list[Block] = [
        Line(f"Hand: {style.cards(analysis.hand)}"),
        Line(limit_sentence(analysis, style)),
    ]
    if analysis.drawn:
        blocks += explain_discards(analysis, style)
        if not analysis.verdict.big_gin:
            best = analysis.verdict.best_discards[0]
            blocks.append(Heading(f"After discarding {style.card(best)}"))
        else:
            blocks.append(Heading("Big gin"))
        blocks += explain_melds(analysis, style)[1:]
    else:
        blocks += explain_melds(analysis, style)
    blocks.append(Heading("Knock?"))
    if analysis.verdict.big_gin:
        blocks.append(Line("Yes: big gin."))
    else:
        blocks.append(Line(knock_sentence(analysis.verdict, analysis.rules)))
    if analysis.showdown is not None:
        blocks += explain_showdown(analysis.showdown, style)
    elif analysis.no_showdown is not None and analysis.opponent is not None:
        blocks.append(Heading("Showdown"))
        blocks.append(Line(no_showdown_sentence(analysis, style)))
    return tuple(blocks)


def no_showdown_sentence(analysis: Analysis, style: Style) -> str:
    """Why an opponent's hand was given but the knock is not played out."""
    verdict = analysis.verdict
    if verdict.reason is KnockReason.GIN_ONLY:
        why = (
            f"only gin may end the hand here (knock limit 0) and you have "
            f"{verdict.deadwood} deadwood"
        )
    else:
        why = (
            f"with {verdict.deadwood} deadwood (above the knock limit of "
            f"{verdict.knock_limit}) you cannot knock"
        )
    opponent = style.cards(analysis.opponent or ())
    return f"No showdown: {why}, so the opponent's hand ({opponent}) is not played out."


def _defence_lines(defence: Defence, style: Style) -> list[Block]:
    blocks: list[Block] = []
    for meld in defence.melds:
        blocks.append(Line(f"{meld_name(meld)}  {style.meld(meld)}", 1))
    if not defence.melds:
        blocks.append(Line("no melds", 1))
    for layoff in defence.layoffs:
        text = f"lays off {style.card(layoff.card)} onto {style.meld(layoff.onto)}"
        if layoff.after is not None:
            text += f" (chained after {style.card(layoff.after)})"
        blocks.append(Line(text, 1))
    blocks.append(Line(f"deadwood  {deadwood_sum(defence.deadwood_cards, style)}", 1))
    return blocks


_ITEM_TEXT = {
    ItemKind.DEADWOOD_DIFFERENCE: "deadwood difference",
    ItemKind.DEFENDER_DEADWOOD: "defender's deadwood",
    ItemKind.GIN_BONUS: "gin bonus",
    ItemKind.BIG_GIN_BONUS: "big gin bonus",
    ItemKind.UNDERCUT_BONUS: "undercut bonus",
    ItemKind.SPADE_DOUBLING: "spade upcard doubles the hand",
}


def score_table(score: HandScore) -> Table:
    """The hand's score item by item, with the rule setting each comes from."""
    rows = []
    for item in score.items:
        what = _ITEM_TEXT[item.kind]
        if item.kind is ItemKind.DEADWOOD_DIFFERENCE:
            high = max(score.knocker_deadwood, score.defender_deadwood)
            low = min(score.knocker_deadwood, score.defender_deadwood)
            what = f"{what} ({high} - {low})"
        rows.append((what, str(item.points), item.setting or "basic rule"))
    rows.append(("total", str(score.points), ""))
    return Table(("item", "points", "rule"), tuple(rows), frozenset({len(rows) - 1}))


_OUTCOME_TEXT = {
    Outcome.KNOCK: "Knock: the knocker has less deadwood and scores the difference.",
    Outcome.UNDERCUT: "Undercut: the defender has less deadwood and scores the difference plus "
    "the undercut bonus.",
    Outcome.GIN: "Gin: the defender may not lay off and cannot undercut.",
    Outcome.BIG_GIN: "Big gin: all 11 cards melded; the defender may not lay off.",
}


_MAX_REJECTED = 3
"""Rejected spreads narrated one by one; any more are counted."""


def _why_spread(result: Showdown, style: Style, mine: bool = True) -> list[Block]:
    """Why the knocker does not make a least-deadwood spread (the showdown's rejected ones)."""
    blocks: list[Block] = []
    for number, rejected in enumerate(result.rejected[:_MAX_REJECTED]):
        blocks.append(Line(_rejected_text(result, rejected, style, mine, first=number == 0)))
    more = len(result.rejected) - _MAX_REJECTED
    if more > 0:
        blocks.append(Line(f"{plural(more, 'other least-deadwood spread')} would score less too."))
    return blocks


def _rejected_text(
    result: Showdown, rejected: RejectedSpread, style: Style, mine: bool, first: bool
) -> str:
    chosen = result.chosen
    you = "you" if mine else "the knocker"
    melds = ", ".join(style.meld(meld) for meld in rejected.spread.melds) or "no melds"
    other_discard = rejected.discard is not None and rejected.discard != chosen.discard
    defence = rejected.defence
    laid = style.cards(layoff.card for layoff in defence.layoffs)
    action = f"spreading {melds}"
    if other_discard and rejected.discard is not None:
        action = f"discarding {style.card(rejected.discard)} and {action}"
    if not first:
        return (
            f"Likewise, {action} ({rejected.spread.deadwood} deadwood) would let the defender "
            f"lay off {laid} ({plural(defence.laid_off_points, 'point')}), and {you} would "
            f"{'score' if rejected.score.winner is Side.KNOCKER else 'lose'} "
            f"{rejected.score.points}."
        )
    if other_discard and chosen.discard is not None and rejected.discard is not None:
        head = f"Why discard {style.card(chosen.discard)}, not {style.card(rejected.discard)}"
    else:
        head = "Why this spread"
    if rejected.extra_deadwood:
        if rejected.held_back:
            holds = "you hold" if mine else "the knocker holds"
            keep = f"{holds} {style.cards(rejected.held_back)} back"
        else:
            keep = f"{you} keep{'' if mine else 's'} more deadwood"
        lead = (
            f"{keep} ({chosen.spread.deadwood} deadwood, not the least "
            f"{rejected.spread.deadwood}): {action}"
        )
    else:
        lead = f"{action} instead (also {rejected.spread.deadwood} deadwood)"
    return (
        f"{head}: {lead} would let the defender lay off {laid} "
        f"({plural(defence.laid_off_points, 'point')}; {defence.deadwood} deadwood left instead "
        f"of {chosen.defence.deadwood}), and {_score_change(rejected, chosen.score, you)}."
    )


def _score_change(rejected: RejectedSpread, chosen: HandScore, you: str) -> str:
    """What the rejected spread would score, against the chosen one (``you``: the knocker)."""
    score = rejected.score
    if rejected.reason is RejectReason.UNDERCUT:
        return (
            f"the defender would undercut {you}: {you} would lose {score.points} instead "
            f"of scoring {chosen.points}"
        )
    verb = "score" if score.winner is Side.KNOCKER else "lose"
    return f"{you} would {verb} {score.points} instead of {chosen.points}"


def explain_showdown(result: Showdown, style: Style, *, mine: bool = True) -> list[Block]:
    """The knock played out: spread, defence, layoffs, result and score items.

    ``mine``: the reader is the knocker ("you"); otherwise the knocker is named as such.
    """
    chosen = result.chosen
    who = "You" if mine else "The knocker"
    blocks: list[Block] = [Heading("Showdown: you knock" if mine else "Showdown")]
    if chosen.discard is not None:
        blocks.append(
            Line(
                f"{who} discards {style.card(chosen.discard)} face down and spreads:"
                if not mine
                else f"You discard {style.card(chosen.discard)} face down and spread:"
            )
        )
    else:
        blocks.append(Line(f"{who} spread{'' if mine else 's'}:"))
    blocks += arrangement_lines(chosen.spread, style)
    blocks += _why_spread(result, style, mine)
    blocks.append(Line("The defender spreads:"))
    blocks += _defence_lines(chosen.defence, style)
    if chosen.score.outcome in (Outcome.GIN, Outcome.BIG_GIN):
        blocks.append(Line("No layoffs after gin."))
    elif not chosen.defence.layoffs:
        blocks.append(Line("The defender lays nothing off."))
    score = chosen.score
    text = _OUTCOME_TEXT[score.outcome]
    if score.outcome is Outcome.UNDERCUT and score.knocker_deadwood == score.defender_deadwood:
        text = (
            "Undercut: a tie goes to the defender under these rules (tie_is_undercut), who "
            "scores the difference (0) plus the undercut bonus."
        )
    elif score.outcome is Outcome.KNOCK and score.knocker_deadwood == score.defender_deadwood:
        text = "A tie, and under these rules a tie is not an undercut: the knocker scores 0."
    whose = "Your" if mine else "The knocker's"
    blocks.append(
        Line(
            f"{whose} deadwood {score.knocker_deadwood}, the defender's "
            f"{score.defender_deadwood}. " + text
        )
    )
    if result.multiplier != 1:
        blocks.append(Line("The first upcard was a spade: every score of this hand is doubled."))
    blocks.append(score_table(score))
    knocker = "you (the knocker)" if mine else "the knocker"
    winner = knocker if score.winner is Side.KNOCKER else "the defender"
    blocks.append(Line(f"{plural(score.points, 'point')} to {winner}."))
    return blocks
