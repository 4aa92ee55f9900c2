"""A rule set narrated: its settings as a table and in prose (every number from the data)."""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.rules import Boxes, RuleSet, Shutout
from gintutor.text.blocks import Block, Heading, Line, Table
from gintutor.text.i18n import _, _r, rule_set_description


def setting_text(rules: RuleSet, key: str) -> str:
    """One setting's value as the rules table shows it."""
    value = rules.settings()[key]
    if key == "knock_limit" and rules.oklahoma:
        return _("from upcard")
    if key == "oklahoma_ace" and not rules.oklahoma:
        return "-"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def rules_table(rule_sets: Sequence[RuleSet], keys: Sequence[str]) -> Table:
    """Settings down the side, one column per rule set."""
    rows = tuple((key, *(setting_text(rules, key) for rules in rule_sets)) for key in keys)
    return Table((_("setting"), *(rules.name for rules in rule_sets)), rows)


def _knocking(rules: RuleSet) -> str:
    if rules.oklahoma:
        if rules.knock_limit_for_ace() == 0:
            return _r(
                "Knocking: the first upcard sets the knock limit for the whole hand: its value, "
                "10 for a ten or a court card; an ace means gin only."
            )
        return _r(
            "Knocking: the first upcard sets the knock limit for the whole hand: its value, "
            "10 for a ten or a court card; an ace means a knock limit of 1."
        )
    if rules.knock_limit == 0:
        return _r("Knocking: not allowed below gin: only gin ends a hand.")
    return _r(
        "Knocking: after drawing, knock with at most {limit} deadwood.", limit=rules.knock_limit
    )


def _knock_scores(rules: RuleSet) -> str:
    if rules.tie_is_undercut:
        return _r(
            "Knock: the knocker scores the difference in deadwood after layoffs. Undercut (the "
            "defender has less deadwood): the difference plus {bonus}; a tie counts as an "
            "undercut.",
            bonus=rules.undercut_bonus,
        )
    return _r(
        "Knock: the knocker scores the difference in deadwood after layoffs. Undercut (the "
        "defender has less deadwood): the difference plus {bonus}; a tie is not an undercut "
        "(the knocker scores 0).",
        bonus=rules.undercut_bonus,
    )


def _end_of_game(rules: RuleSet) -> str:
    if rules.game_bonus:
        bonus = _r("End of game: the winner gets {bonus} game bonus.", bonus=rules.game_bonus)
    else:
        bonus = _r("End of game: there is no game bonus.")
    if not rules.box_bonus:
        boxes = _r("There is no box bonus.")
    elif rules.boxes is Boxes.WINNER:
        boxes = _r(
            "The winner also gets {bonus} for every hand they won (the loser gets no boxes; "
            "boxes do not count toward the target).",
            bonus=rules.box_bonus,
        )
    else:
        boxes = _r(
            "Each player gets {bonus} for every hand they won (boxes do not count toward the "
            "target).",
            bonus=rules.box_bonus,
        )
    shutout = {
        Shutout.DOUBLE: _r(
            "If the loser won no hand (a shutout), the winner's hand points are doubled."
        ),
        Shutout.BONUS_200: _r("If the loser won no hand (a shutout), the game bonus becomes 200."),
        Shutout.NONE: _r("If the loser won no hand (a shutout), nothing more is paid."),
    }[rules.shutout]
    return f"{bonus} {boxes} {shutout}"


def explain_rules(rules: RuleSet) -> tuple[Block, ...]:
    """A rule set in prose; every number comes from the rule-set data."""
    blocks: list[Block] = [Heading(_r("{name} rules", name=rules.name))]
    if rules.source:
        source = rule_set_description(rules.name, rules.source)
        blocks.append(Line(_r("Source: {source}.", source=source)))
    blocks.append(Line(_knocking(rules)))
    blocks.append(
        Line(
            _r(
                "Gin: {bonus} bonus plus the defender's whole deadwood; the defender may not lay "
                "off and cannot undercut.",
                bonus=rules.gin_bonus,
            )
        )
    )
    if rules.big_gin:
        blocks.append(
            Line(
                _r(
                    "Big gin: all 11 cards melded after drawing: {bonus} bonus plus the "
                    "defender's deadwood, no discard.",
                    bonus=rules.big_gin_bonus,
                )
            )
        )
    else:
        blocks.append(
            Line(_r("Big gin: not recognised: with 11 melded cards, discard and go gin."))
        )
    if rules.allows_knock and rules.undercut_bonus is not None:
        blocks.append(Line(_knock_scores(rules)))
    if rules.spade_doubles:
        blocks.append(Line(_r("A spade as the first upcard doubles every score of the hand.")))
    blocks.append(
        Line(
            _r(
                "Void hand: when {cards} cards are left in the stock and the player who drew the "
                "card before them discards without knocking, nobody scores.",
                cards=rules.void_at_stock,
            )
        )
    )
    if rules.hollywood:
        blocks.append(
            Line(
                _r(
                    "Hollywood: three games of {target} are scored at once. A player's first "
                    "win goes in game 1, the second in games 1 and 2, the third and later in all "
                    "three open games; each game is settled when a player reaches {target} in "
                    "it.",
                    target=rules.target,
                )
            )
        )
    else:
        blocks.append(
            Line(_r("Game: the first player to reach {target} points wins.", target=rules.target))
        )
    blocks.append(Line(_end_of_game(rules)))
    return tuple(blocks)
