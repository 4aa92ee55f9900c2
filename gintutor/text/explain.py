"""Engine results turned into a plain, structured explanation (no Rich, no colour).

An explanation is a tuple of blocks (:class:`Heading`, :class:`Line`, :class:`Table`); the
presentation layer decides how they look. Card text comes from :class:`Style`, so the same
explanation reads ``10♦`` on a terminal and ``10D`` with ``--ascii``. Every number is read from
the engine's records; nothing here computes game logic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gintutor.engine.analysis import Analysis, Overlap
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.game import BonusKind, GameSheet, HandRecord, Match
from gintutor.engine.knocking import KnockReason, KnockVerdict
from gintutor.engine.layoffs import Defence
from gintutor.engine.melds import Meld, MeldKind
from gintutor.engine.rules import Boxes, RuleSet, Shutout
from gintutor.engine.scoring import HandScore, ItemKind, Outcome, Side
from gintutor.engine.showdown import RejectedSpread, RejectReason, Showdown
from gintutor.engine.solver import Arrangement


@dataclass(frozen=True)
class Heading:
    """A section title."""

    text: str


@dataclass(frozen=True)
class Line:
    """A paragraph of prose; ``indent`` nests it under the line before."""

    text: str
    indent: int = 0


@dataclass(frozen=True)
class Table:
    """Rows of cells under headers; ``highlight`` marks the rows to emphasise (best choices)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    highlight: frozenset[int] = frozenset()


Block = Heading | Line | Table


@dataclass(frozen=True)
class Style:
    """How cards are written: suit symbols (``10♦``) or ASCII letters (``10D``)."""

    ascii_only: bool = False

    def card(self, card: Card) -> str:
        """One card."""
        return card.display(ascii_only=self.ascii_only)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces (``none`` for none)."""
        text = " ".join(self.card(card) for card in cards)
        return text or "none"

    def meld(self, meld: Meld) -> str:
        """A meld's cards."""
        return self.cards(meld)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


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


def setting_text(rules: RuleSet, key: str) -> str:
    """One setting's value as the rules table shows it."""
    value = rules.settings()[key]
    if key == "knock_limit" and rules.oklahoma:
        return "from upcard"
    if key == "oklahoma_ace" and not rules.oklahoma:
        return "-"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def rules_table(rule_sets: Sequence[RuleSet], keys: Sequence[str]) -> Table:
    """Settings down the side, one column per rule set."""
    rows = tuple((key, *(setting_text(rules, key) for rules in rule_sets)) for key in keys)
    return Table(("setting", *(rules.name for rules in rule_sets)), rows)


def explain_rules(rules: RuleSet) -> tuple[Block, ...]:
    """A rule set in prose; every number comes from the rule-set data."""
    blocks: list[Block] = [Heading(f"{rules.name} rules")]
    if rules.source:
        blocks.append(Line(f"Source: {rules.source}."))
    if rules.oklahoma:
        ace = "gin only" if rules.knock_limit_for_ace() == 0 else "a knock limit of 1"
        blocks.append(
            Line(
                "Knocking: the first upcard sets the knock limit for the whole hand: its value, "
                f"10 for a ten or a court card; an ace means {ace}."
            )
        )
    elif rules.knock_limit == 0:
        blocks.append(Line("Knocking: not allowed below gin: only gin ends a hand."))
    else:
        blocks.append(
            Line(f"Knocking: after drawing, knock with at most {rules.knock_limit} deadwood.")
        )
    blocks.append(
        Line(
            f"Gin: {rules.gin_bonus} bonus plus the defender's whole deadwood; the defender may "
            "not lay off and cannot undercut."
        )
    )
    if rules.big_gin:
        blocks.append(
            Line(
                f"Big gin: all 11 cards melded after drawing: {rules.big_gin_bonus} bonus plus "
                "the defender's deadwood, no discard."
            )
        )
    else:
        blocks.append(Line("Big gin: not recognised: with 11 melded cards, discard and go gin."))
    if rules.allows_knock and rules.undercut_bonus is not None:
        tie = (
            "a tie counts as an undercut"
            if rules.tie_is_undercut
            else "a tie is not an undercut (the knocker scores 0)"
        )
        blocks.append(
            Line(
                "Knock: the knocker scores the difference in deadwood after layoffs. Undercut "
                f"(the defender has less deadwood): the difference plus {rules.undercut_bonus}; "
                f"{tie}."
            )
        )
    if rules.spade_doubles:
        blocks.append(Line("A spade as the first upcard doubles every score of the hand."))
    blocks.append(
        Line(
            f"Void hand: when {rules.void_at_stock} cards are left in the stock and the player "
            "who drew the card before them discards without knocking, nobody scores."
        )
    )
    if rules.hollywood:
        blocks.append(
            Line(
                f"Hollywood: three games of {rules.target} are scored at once. A player's first "
                "win goes in game 1, the second in games 1 and 2, the third and later in all "
                "three open games; each game is settled when a player reaches "
                f"{rules.target} in it."
            )
        )
    else:
        blocks.append(Line(f"Game: the first player to reach {rules.target} points wins."))
    shutout = {
        Shutout.DOUBLE: "the winner's hand points are doubled",
        Shutout.BONUS_200: "the game bonus becomes 200",
        Shutout.NONE: "nothing more is paid",
    }[rules.shutout]
    game_bonus = (
        f"the winner gets {rules.game_bonus} game bonus"
        if rules.game_bonus
        else "there is no game bonus"
    )
    if not rules.box_bonus:
        boxes = "there is no box bonus"
    elif rules.boxes is Boxes.WINNER:
        boxes = (
            f"the winner also gets {rules.box_bonus} for every hand they won (the loser "
            "gets no boxes; boxes do not count toward the target)"
        )
    else:
        boxes = (
            f"each player gets {rules.box_bonus} for every hand they won (boxes do not "
            "count toward the target)"
        )
    blocks.append(
        Line(
            f"End of game: {game_bonus}; {boxes}; if the loser won no hand (a shutout), {shutout}."
        )
    )
    return tuple(blocks)


_BONUS_TEXT = {
    BonusKind.GAME: "game bonus",
    BonusKind.BOX: "box bonus",
    BonusKind.SHUTOUT: "shutout: hand points doubled",
}


YOU = "You"
"""The learner's name on a sheet: the verbs agree with it ("You win", "Ann wins")."""


def agree(name: str, verb: str) -> str:
    """The present tense of ``verb`` with ``name`` as its subject.

    >>> agree("You", "win"), agree("Simple", "win")
    ('win', 'wins')
    """
    return verb if name == YOU else f"{verb}s"


def _possessive(name: str) -> str:
    return "your" if name == YOU else f"{name}'s"


def _record_text(record: HandRecord, players: Sequence[str]) -> str:
    if record.winner is None or record.outcome is None:
        return "void"
    return f"{players[record.winner]} {record.outcome.value.replace('_', ' ')} {record.points}"


def explain_sheet(
    sheet: GameSheet, players: Sequence[str], rules: RuleSet, title: str = "Score sheet"
) -> list[Block]:
    """One game's sheet: running totals, then the end-of-game bonuses and the result."""
    blocks: list[Block] = [Heading(title)]
    rows = tuple(
        (
            str(line.hand),
            _record_text(line.record, players),
            str(line.totals[0]),
            str(line.totals[1]),
        )
        for line in sheet.lines
    )
    if rows:
        blocks.append(Table(("hand", "result", players[0], players[1]), rows))
    else:
        blocks.append(Line("No hands entered in this game."))
    if sheet.winner is None:
        blocks.append(
            Line(
                f"Game in progress: {players[0]} {sheet.totals[0]}, {players[1]} "
                f"{sheet.totals[1]}; first to {sheet.target} wins."
            )
        )
        return blocks
    winner, loser = sheet.winner, 1 - sheet.winner
    name = players[winner]
    blocks.append(Line(f"{name} reached {sheet.target} and {agree(name, 'win')} the game."))
    if sheet.shutout:
        blocks.append(Line(f"Shutout: {players[loser]} won no hand ({rules.shutout.value})."))
    bonus_rows = []
    for bonus in sheet.bonuses:
        what = _BONUS_TEXT[bonus.kind]
        if bonus.kind is BonusKind.BOX:
            what = f"box bonus ({plural(bonus.count, 'hand')} x {rules.box_bonus})"
        elif bonus.kind is BonusKind.GAME and bonus.setting == "shutout":
            what = "game bonus (shutout)"
        bonus_rows.append((players[bonus.player], what, str(bonus.points), bonus.setting))
    if bonus_rows:
        blocks.append(Table(("player", "bonus", "points", "rule"), tuple(bonus_rows)))
    finals = sheet.final_totals
    blocks.append(
        Line(
            f"Final: {players[0]} {finals[0]}, {players[1]} {finals[1]}: "
            f"{name} {agree(name, 'win')} by {sheet.margin}."
        )
    )
    return blocks


def explain_match(match: Match, players: Sequence[str], rules: RuleSet) -> list[Block]:
    """Hollywood: the three games' sheets, then the match totals."""
    blocks: list[Block] = []
    for number, sheet in enumerate(match.games, start=1):
        blocks += explain_sheet(sheet, players, rules, f"Game {number}")
    finals = match.final_totals
    blocks.append(Heading("Match"))
    for line in match.unentered:
        record = line.record
        if record.winner is None:
            continue
        blocks.append(
            Line(
                f"Hand {line.hand} ({_record_text(record, players)}) went into no game: "
                f"{_possessive(players[record.winner]).capitalize()} wins up to then were due "
                "only in games that had "
                "already closed."
            )
        )
    if match.finished:
        lead = 0 if finals[0] >= finals[1] else 1
        blocks.append(
            Line(
                f"All three games are over: {players[0]} {finals[0]}, {players[1]} "
                f"{finals[1]}: {players[lead]} {agree(players[lead], 'win')} by "
                f"{abs(finals[0] - finals[1])}."
            )
        )
    else:
        open_games = sum(1 for sheet in match.games if not sheet.finished)
        blocks.append(
            Line(
                f"{plural(open_games, 'game')} still open; so far {players[0]} {finals[0]}, "
                f"{players[1]} {finals[1]}."
            )
        )
    return blocks
