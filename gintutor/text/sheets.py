"""Score sheets narrated: a game's running totals and bonuses, Hollywood's three games."""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.game import BonusKind, GameSheet, HandRecord, Match
from gintutor.engine.rules import RuleSet
from gintutor.text.blocks import YOU, Block, Heading, Line, Table, agree, plural

_BONUS_TEXT = {
    BonusKind.GAME: "game bonus",
    BonusKind.BOX: "box bonus",
    BonusKind.SHUTOUT: "shutout: hand points doubled",
}


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
