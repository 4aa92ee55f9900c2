"""A rule set narrated: its settings as a table and in prose (every number from the data)."""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.rules import Boxes, RuleSet, Shutout
from gintutor.text.blocks import Block, Heading, Line, Table


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
