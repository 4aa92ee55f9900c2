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
from gintutor.text.blocks import Block, Heading, Line, Style, Table
from gintutor.text.i18n import N_, _, either, ngettext, pgettext


def deadwood_sum(cards: CardSet, style: Style) -> str:
    """The deadwood count with its arithmetic: ``K♣ 10 + 4♦ 4 = 14`` (``none = 0``)."""
    items = [f"{style.card(card)} {card.points}" for card in cards]
    if not items:
        return _("none = 0")
    return " + ".join(items) + f" = {cards.points}"


def meld_name(meld: Meld) -> str:
    """``set`` or ``run``."""
    return pgettext("meld", "set") if meld.kind is MeldKind.SET else pgettext("meld", "run")


def arrangement_lines(arrangement: Arrangement, style: Style, indent: int = 1) -> list[Block]:
    """The melds of an arrangement, one per line, then its deadwood with the arithmetic."""
    blocks: list[Block] = [
        Line(f"{meld_name(meld)}  {style.meld(meld)}", indent) for meld in arrangement.melds
    ]
    if not arrangement.melds:
        blocks.append(Line(_("no melds"), indent))
    blocks.append(
        Line(_("deadwood  {sum}", sum=deadwood_sum(arrangement.deadwood_cards, style)), indent)
    )
    return blocks


def knock_sentence(verdict: KnockVerdict, rules: RuleSet) -> str:
    """Why the hand may or may not knock, with the numbers."""
    deadwood, limit = verdict.deadwood, verdict.knock_limit
    if verdict.reason is KnockReason.BIG_GIN:
        return _(
            "Big gin: all 11 cards are melded. Lay them all down without discarding "
            "({bonus} bonus under {rules} rules).",
            bonus=rules.big_gin_bonus,
            rules=rules.name,
        )
    if verdict.reason is KnockReason.GIN:
        return _("Gin: no deadwood at all. Knock and the defender may not lay off or undercut you.")
    if verdict.reason is KnockReason.GIN_ONLY:
        return _(
            "{deadwood} deadwood: you cannot knock. The knock limit is 0 here, so only gin "
            "ends the hand.",
            deadwood=deadwood,
        )
    if verdict.reason is KnockReason.WITHIN_LIMIT:
        return _("{deadwood} ≤ {limit}: you can knock.", deadwood=deadwood, limit=limit)
    return ngettext(
        "{deadwood} > {limit}: you cannot knock; shed {points} more point.",
        "{deadwood} > {limit}: you cannot knock; shed {points} more points.",
        verdict.points_to_shed,
        deadwood=deadwood,
        limit=limit,
        points=verdict.points_to_shed,
    )


def limit_sentence(analysis: Analysis, style: Style) -> str:
    """Where the knock limit comes from."""
    rules = analysis.rules
    limit = analysis.knock_limit
    if rules.oklahoma and analysis.upcard is not None:
        card = style.card(analysis.upcard)
        if analysis.knock_limit == 0:
            return _(
                "Knock limit {limit} ({rules} rules: an ace upcard ({card}) means gin only).",
                limit=limit,
                rules=rules.name,
                card=card,
            )
        return _(
            "Knock limit {limit} ({rules} rules: the first upcard {card} sets it).",
            limit=limit,
            rules=rules.name,
            card=card,
        )
    if analysis.knock_limit == 0:
        return _("Knock limit 0 ({rules} rules: gin only).", rules=rules.name)
    return _("Knock limit {limit} ({rules} rules).", limit=limit, rules=rules.name)


def overlap_lines(found: Sequence[Overlap], style: Style) -> list[Block]:
    """Why a card that fits both a set and a run goes where it goes."""
    blocks: list[Block] = []
    for overlap in found:
        values = {
            "card": style.card(overlap.card),
            "set": style.meld(overlap.as_set.meld),
            "run": style.meld(overlap.as_run.meld),
            "set_deadwood": overlap.as_set.deadwood,
            "run_deadwood": overlap.as_run.deadwood,
        }
        if overlap.better is None:
            text = _(
                "{card} fits a set ({set}) and a run ({run}): melding the set leaves at best "
                "{set_deadwood}, the run {run_deadwood}; either way is as good.",
                **values,
            )
        elif overlap.better is MeldKind.SET:
            text = _(
                "{card} fits a set ({set}) and a run ({run}): melding the set leaves at best "
                "{set_deadwood}, the run {run_deadwood}; the set is better.",
                **values,
            )
        else:
            text = _(
                "{card} fits a set ({set}) and a run ({run}): melding the set leaves at best "
                "{set_deadwood}, the run {run_deadwood}; the run is better.",
                **values,
            )
        blocks.append(Line(text))
    return blocks


def explain_melds(analysis: Analysis, style: Style) -> list[Block]:
    """The best arrangement(s) of the hand kept, and the overlapping cards."""
    solution = analysis.solution
    count = len(solution.arrangements)
    blocks: list[Block] = [Heading(_("Best melds"))]
    if count > 1:
        blocks.append(
            Line(
                ngettext(
                    "{count} different arrangement leaves the same {deadwood} deadwood:",
                    "{count} different arrangements leave the same {deadwood} deadwood:",
                    count,
                    count=count,
                    deadwood=solution.deadwood,
                )
            )
        )
    for number, arrangement in enumerate(solution.arrangements, start=1):
        if count > 1:
            blocks.append(Line(_("arrangement {number}", number=number), 1))
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
            allows = pgettext("discard table", "gin")
        elif option.reason is KnockReason.WITHIN_LIMIT:
            allows = pgettext("discard table", "knock")
        else:
            allows = _("no (shed {points})", points=option.points_to_shed)
        rows.append((style.card(option.card), str(option.deadwood), allows))
    headers = (_("discard"), _("deadwood after"), _("knock?"))
    return Table(headers, tuple(rows), frozenset(highlight))


def explain_discards(analysis: Analysis, style: Style) -> list[Block]:
    """The 11-card part: big gin, the discard table, the best discard(s)."""
    verdict = analysis.verdict
    blocks: list[Block] = [Heading(_("Your discard"))]
    if analysis.taken_from_discard is not None:
        blocks.append(
            Line(
                _(
                    "{card} was just taken from the discard pile, so it may not be discarded "
                    "this turn.",
                    card=style.card(analysis.taken_from_discard),
                )
            )
        )
    if verdict.big_gin:
        blocks.append(Line(knock_sentence(verdict, analysis.rules)))
        blocks.append(Line(_("If you did discard instead, the deadwood left would be:")))
    blocks.append(discard_table(analysis, style))
    if not verdict.big_gin:
        choice = either([style.card(card) for card in verdict.best_discards])
        blocks.append(
            Line(
                _(
                    "Best discard: {choice}, leaving {deadwood} deadwood.",
                    choice=choice,
                    deadwood=verdict.discards[0].deadwood,
                )
            )
        )
        if analysis.all_melded:
            blocks.append(
                Line(
                    _(
                        "All 11 cards meld, but {rules} rules do not recognise big gin: discard "
                        "and go gin.",
                        rules=analysis.rules.name,
                    )
                )
            )
    return blocks


def explain_analysis(analysis: Analysis, style: Style) -> tuple[Block, ...]:
    """The whole explanation of :func:`~gintutor.analysis.analyze`'s result."""
    blocks: list[Block] = [
        Line(_("Hand: {cards}", cards=style.cards(analysis.hand))),
        Line(limit_sentence(analysis, style)),
    ]
    if analysis.drawn:
        blocks += explain_discards(analysis, style)
        if not analysis.verdict.big_gin:
            best = analysis.verdict.best_discards[0]
            blocks.append(Heading(_("After discarding {card}", card=style.card(best))))
        else:
            blocks.append(Heading(_("Big gin")))
        blocks += explain_melds(analysis, style)[1:]
    else:
        blocks += explain_melds(analysis, style)
    blocks.append(Heading(_("Knock?")))
    if analysis.verdict.big_gin:
        blocks.append(Line(_("Yes: big gin.")))
    else:
        blocks.append(Line(knock_sentence(analysis.verdict, analysis.rules)))
    if analysis.showdown is not None:
        blocks += explain_showdown(analysis.showdown, style)
    elif analysis.no_showdown is not None and analysis.opponent is not None:
        blocks.append(Heading(_("Showdown")))
        blocks.append(Line(no_showdown_sentence(analysis, style)))
    return tuple(blocks)


def no_showdown_sentence(analysis: Analysis, style: Style) -> str:
    """Why an opponent's hand was given but the knock is not played out."""
    verdict = analysis.verdict
    opponent = style.cards(analysis.opponent or ())
    if verdict.reason is KnockReason.GIN_ONLY:
        return _(
            "No showdown: only gin may end the hand here (knock limit 0) and you have "
            "{deadwood} deadwood, so the opponent's hand ({opponent}) is not played out.",
            deadwood=verdict.deadwood,
            opponent=opponent,
        )
    return _(
        "No showdown: with {deadwood} deadwood (above the knock limit of {limit}) you cannot "
        "knock, so the opponent's hand ({opponent}) is not played out.",
        deadwood=verdict.deadwood,
        limit=verdict.knock_limit,
        opponent=opponent,
    )


def _defence_lines(defence: Defence, style: Style) -> list[Block]:
    blocks: list[Block] = []
    for meld in defence.melds:
        blocks.append(Line(f"{meld_name(meld)}  {style.meld(meld)}", 1))
    if not defence.melds:
        blocks.append(Line(_("no melds"), 1))
    for layoff in defence.layoffs:
        card, onto = style.card(layoff.card), style.meld(layoff.onto)
        if layoff.after is None:
            text = _("lays off {card} onto {meld}", card=card, meld=onto)
        else:
            text = _(
                "lays off {card} onto {meld} (chained after {after})",
                card=card,
                meld=onto,
                after=style.card(layoff.after),
            )
        blocks.append(Line(text, 1))
    blocks.append(Line(_("deadwood  {sum}", sum=deadwood_sum(defence.deadwood_cards, style)), 1))
    return blocks


_ITEM_TEXT = {
    ItemKind.DEADWOOD_DIFFERENCE: N_("deadwood difference"),
    ItemKind.DEFENDER_DEADWOOD: N_("defender's deadwood"),
    ItemKind.GIN_BONUS: N_("gin bonus"),
    ItemKind.BIG_GIN_BONUS: N_("big gin bonus"),
    ItemKind.UNDERCUT_BONUS: N_("undercut bonus"),
    ItemKind.SPADE_DOUBLING: N_("spade upcard doubles the hand"),
}


def item_text(kind: ItemKind) -> str:
    """A score item's name: ``gin bonus``."""
    return _(_ITEM_TEXT[kind])


def score_table(score: HandScore) -> Table:
    """The hand's score item by item, with the rule setting each comes from."""
    rows = []
    for item in score.items:
        what = item_text(item.kind)
        if item.kind is ItemKind.DEADWOOD_DIFFERENCE:
            high = max(score.knocker_deadwood, score.defender_deadwood)
            low = min(score.knocker_deadwood, score.defender_deadwood)
            what = _("deadwood difference ({high} - {low})", high=high, low=low)
        rows.append((what, str(item.points), item.setting or _("basic rule")))
    rows.append((_("total"), str(score.points), ""))
    headers = (_("item"), _("points"), _("rule"))
    return Table(headers, tuple(rows), frozenset({len(rows) - 1}))


_OUTCOME_TEXT = {
    Outcome.KNOCK: N_("Knock: the knocker has less deadwood and scores the difference."),
    Outcome.UNDERCUT: N_(
        "Undercut: the defender has less deadwood and scores the difference plus the undercut "
        "bonus."
    ),
    Outcome.GIN: N_("Gin: the defender may not lay off and cannot undercut."),
    Outcome.BIG_GIN: N_("Big gin: all 11 cards melded; the defender may not lay off."),
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
        text = ngettext(
            "{count} other least-deadwood spread would score less too.",
            "{count} other least-deadwood spreads would score less too.",
            more,
            count=more,
        )
        blocks.append(Line(text))
    return blocks


def _points(count: int) -> str:
    return ngettext("{count} point", "{count} points", count, count=count)


def _rejected_text(
    result: Showdown, rejected: RejectedSpread, style: Style, mine: bool, first: bool
) -> str:
    """One rejected spread: what it is, what the defender would lay off, what it would score.

    The sentence's clauses are each translated whole (a translator reorders them in the
    frame's message); who "you" is decides each clause's wording.
    """
    chosen = result.chosen
    melds = ", ".join(style.meld(meld) for meld in rejected.spread.melds) or _("no melds")
    other_discard = rejected.discard is not None and rejected.discard != chosen.discard
    defence = rejected.defence
    laid = style.cards(layoff.card for layoff in defence.layoffs)
    if other_discard and rejected.discard is not None:
        action = _(
            "discarding {card} and spreading {melds}",
            card=style.card(rejected.discard),
            melds=melds,
        )
    else:
        action = _("spreading {melds}", melds=melds)
    score = rejected.score
    wins = score.winner is Side.KNOCKER
    if not first:
        values = {
            "action": action,
            "deadwood": rejected.spread.deadwood,
            "laid": laid,
            "laid_points": _points(defence.laid_off_points),
            "points": score.points,
        }
        if mine and wins:
            return _(
                "Likewise, {action} ({deadwood} deadwood) would let the defender lay off "
                "{laid} ({laid_points}), and you would score {points}.",
                **values,
            )
        if mine:
            return _(
                "Likewise, {action} ({deadwood} deadwood) would let the defender lay off "
                "{laid} ({laid_points}), and you would lose {points}.",
                **values,
            )
        if wins:
            return _(
                "Likewise, {action} ({deadwood} deadwood) would let the defender lay off "
                "{laid} ({laid_points}), and the knocker would score {points}.",
                **values,
            )
        return _(
            "Likewise, {action} ({deadwood} deadwood) would let the defender lay off "
            "{laid} ({laid_points}), and the knocker would lose {points}.",
            **values,
        )
    if other_discard and chosen.discard is not None and rejected.discard is not None:
        head = _(
            "Why discard {chosen}, not {rejected}",
            chosen=style.card(chosen.discard),
            rejected=style.card(rejected.discard),
        )
    else:
        head = _("Why this spread")
    if rejected.extra_deadwood:
        least = {"deadwood": chosen.spread.deadwood, "least": rejected.spread.deadwood}
        if rejected.held_back:
            held = style.cards(rejected.held_back)
            if mine:
                keep = _(
                    "you hold {cards} back ({deadwood} deadwood, not the least {least})",
                    cards=held,
                    **least,
                )
            else:
                keep = _(
                    "the knocker holds {cards} back ({deadwood} deadwood, not the least {least})",
                    cards=held,
                    **least,
                )
        elif mine:
            keep = _("you keep more deadwood ({deadwood} deadwood, not the least {least})", **least)
        else:
            keep = _(
                "the knocker keeps more deadwood ({deadwood} deadwood, not the least {least})",
                **least,
            )
        lead = _("{keep}: {action}", keep=keep, action=action)
    else:
        lead = _(
            "{action} instead (also {deadwood} deadwood)",
            action=action,
            deadwood=rejected.spread.deadwood,
        )
    return _(
        "{head}: {lead} would let the defender lay off {laid} ({laid_points}; {left} deadwood "
        "left instead of {chosen_left}), and {change}.",
        head=head,
        lead=lead,
        laid=laid,
        laid_points=_points(defence.laid_off_points),
        left=defence.deadwood,
        chosen_left=chosen.defence.deadwood,
        change=_score_change(rejected, chosen.score, mine),
    )


def _score_change(rejected: RejectedSpread, chosen: HandScore, mine: bool) -> str:
    """What the rejected spread would score, against the chosen one (``mine``: the reader is
    the knocker)."""
    score = rejected.score
    values = {"points": score.points, "chosen": chosen.points}
    if rejected.reason is RejectReason.UNDERCUT:
        if mine:
            return _(
                "the defender would undercut you: you would lose {points} instead of scoring "
                "{chosen}",
                **values,
            )
        return _(
            "the defender would undercut the knocker: the knocker would lose {points} instead "
            "of scoring {chosen}",
            **values,
        )
    wins = score.winner is Side.KNOCKER
    if mine and wins:
        return _("you would score {points} instead of {chosen}", **values)
    if mine:
        return _("you would lose {points} instead of {chosen}", **values)
    if wins:
        return _("the knocker would score {points} instead of {chosen}", **values)
    return _("the knocker would lose {points} instead of {chosen}", **values)


def explain_showdown(result: Showdown, style: Style, *, mine: bool = True) -> list[Block]:
    """The knock played out: spread, defence, layoffs, result and score items.

    ``mine``: the reader is the knocker ("you"); otherwise the knocker is named as such.
    """
    chosen = result.chosen
    blocks: list[Block] = [Heading(_("Showdown: you knock") if mine else _("Showdown"))]
    if chosen.discard is not None:
        card = style.card(chosen.discard)
        if mine:
            text = _("You discard {card} face down and spread:", card=card)
        else:
            text = _("The knocker discards {card} face down and spreads:", card=card)
        blocks.append(Line(text))
    else:
        blocks.append(Line(_("You spread:") if mine else _("The knocker spreads:")))
    blocks += arrangement_lines(chosen.spread, style)
    blocks += _why_spread(result, style, mine)
    blocks.append(Line(_("The defender spreads:")))
    blocks += _defence_lines(chosen.defence, style)
    if chosen.score.outcome in (Outcome.GIN, Outcome.BIG_GIN):
        blocks.append(Line(_("No layoffs after gin.")))
    elif not chosen.defence.layoffs:
        blocks.append(Line(_("The defender lays nothing off.")))
    score = chosen.score
    text = _(_OUTCOME_TEXT[score.outcome])
    if score.outcome is Outcome.UNDERCUT and score.knocker_deadwood == score.defender_deadwood:
        text = _(
            "Undercut: a tie goes to the defender under these rules (tie_is_undercut), who "
            "scores the difference (0) plus the undercut bonus."
        )
    elif score.outcome is Outcome.KNOCK and score.knocker_deadwood == score.defender_deadwood:
        text = _("A tie, and under these rules a tie is not an undercut: the knocker scores 0.")
    deadwood = {"knocker": score.knocker_deadwood, "defender": score.defender_deadwood}
    if mine:
        sides = _("Your deadwood {knocker}, the defender's {defender}.", **deadwood)
    else:
        sides = _("The knocker's deadwood {knocker}, the defender's {defender}.", **deadwood)
    blocks.append(Line(f"{sides} {text}"))
    if result.multiplier != 1:
        blocks.append(Line(_("The first upcard was a spade: every score of this hand is doubled.")))
    blocks.append(score_table(score))
    points = score.points
    if score.winner is not Side.KNOCKER:
        winner = ngettext(
            "{points} point to the defender.",
            "{points} points to the defender.",
            points,
            points=points,
        )
    elif mine:
        winner = ngettext(
            "{points} point to you (the knocker).",
            "{points} points to you (the knocker).",
            points,
            points=points,
        )
    else:
        winner = ngettext(
            "{points} point to the knocker.",
            "{points} points to the knocker.",
            points,
            points=points,
        )
    blocks.append(Line(winner))
    return blocks
