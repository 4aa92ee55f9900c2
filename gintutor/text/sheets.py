"""Score sheets narrated: a game's running totals and bonuses, Hollywood's three games."""

from __future__ import annotations

from collections.abc import Sequence

from gintutor.engine.game import BonusKind, GameSheet, HandRecord, Match
from gintutor.engine.rules import RuleSet
from gintutor.engine.scoring import Outcome
from gintutor.text.blocks import YOU, Block, Heading, Line, Table
from gintutor.text.i18n import N_, _, ngettext, pgettext

_BONUS_TEXT = {
    BonusKind.GAME: N_("game bonus"),
    BonusKind.BOX: N_("box bonus"),
    BonusKind.SHUTOUT: N_("shutout: hand points doubled"),
}

_OUTCOME_WORD = {
    Outcome.KNOCK: N_("knock"),
    Outcome.UNDERCUT: N_("undercut"),
    Outcome.GIN: N_("gin"),
    Outcome.BIG_GIN: N_("big gin"),
}


def player_name(name: str) -> str:
    """A player's name as the sheet shows it (the learner: "You" in the active language)."""
    return _("You") if name == YOU else name


def _record_text(record: HandRecord, players: Sequence[str]) -> str:
    if record.winner is None or record.outcome is None:
        return pgettext("hand result", "void")
    return _(
        "{player} {outcome} {points}",
        player=player_name(players[record.winner]),
        outcome=_(_OUTCOME_WORD[record.outcome]),
        points=record.points,
    )


def _wins_by(name: str, margin: int) -> str:
    if name == YOU:
        return _("You win by {margin}", margin=margin)
    return _("{name} wins by {margin}", name=name, margin=margin)


def explain_sheet(
    sheet: GameSheet, players: Sequence[str], rules: RuleSet, title: str | None = None
) -> list[Block]:
    """One game's sheet: running totals, then the end-of-game bonuses and the result."""
    blocks: list[Block] = [Heading(_("Score sheet") if title is None else title)]
    first, second = player_name(players[0]), player_name(players[1])
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
        blocks.append(Table((_("hand"), _("result"), first, second), rows))
    else:
        blocks.append(Line(_("No hands entered in this game.")))
    if sheet.winner is None:
        blocks.append(
            Line(
                _(
                    "Game in progress: {first} {first_total}, {second} {second_total}; first to "
                    "{target} wins.",
                    first=first,
                    first_total=sheet.totals[0],
                    second=second,
                    second_total=sheet.totals[1],
                    target=sheet.target,
                )
            )
        )
        return blocks
    winner, loser = sheet.winner, 1 - sheet.winner
    name = players[winner]
    if name == YOU:
        blocks.append(Line(_("You reached {target} and win the game.", target=sheet.target)))
    else:
        blocks.append(
            Line(_("{name} reached {target} and wins the game.", name=name, target=sheet.target))
        )
    if sheet.shutout:
        blocks.append(
            Line(
                _(
                    "Shutout: {name} won no hand ({setting}).",
                    name=player_name(players[loser]),
                    setting=rules.shutout.value,
                )
            )
        )
    bonus_rows = []
    for bonus in sheet.bonuses:
        what = _(_BONUS_TEXT[bonus.kind])
        if bonus.kind is BonusKind.BOX:
            what = ngettext(
                "box bonus ({count} hand x {bonus})",
                "box bonus ({count} hands x {bonus})",
                bonus.count,
                count=bonus.count,
                bonus=rules.box_bonus,
            )
        elif bonus.kind is BonusKind.GAME and bonus.setting == "shutout":
            what = _("game bonus (shutout)")
        bonus_rows.append(
            (player_name(players[bonus.player]), what, str(bonus.points), bonus.setting)
        )
    if bonus_rows:
        headers = (_("player"), _("bonus"), _("points"), _("rule"))
        blocks.append(Table(headers, tuple(bonus_rows)))
    finals = sheet.final_totals
    blocks.append(
        Line(
            _(
                "Final: {first} {first_total}, {second} {second_total}: {result}.",
                first=first,
                first_total=finals[0],
                second=second,
                second_total=finals[1],
                result=_wins_by(name, sheet.margin),
            )
        )
    )
    return blocks


def explain_match(match: Match, players: Sequence[str], rules: RuleSet) -> list[Block]:
    """Hollywood: the three games' sheets, then the match totals."""
    blocks: list[Block] = []
    for number, sheet in enumerate(match.games, start=1):
        blocks += explain_sheet(sheet, players, rules, _("Game {number}", number=number))
    finals = match.final_totals
    first, second = player_name(players[0]), player_name(players[1])
    blocks.append(Heading(_("Match")))
    for line in match.unentered:
        record = line.record
        if record.winner is None:
            continue
        values = {"hand": line.hand, "result": _record_text(record, players)}
        if players[record.winner] == YOU:
            text = _(
                "Hand {hand} ({result}) went into no game: your wins up to then were due only in "
                "games that had already closed.",
                **values,
            )
        else:
            text = _(
                "Hand {hand} ({result}) went into no game: {name}'s wins up to then were due "
                "only in games that had already closed.",
                name=players[record.winner],
                **values,
            )
        blocks.append(Line(text))
    totals = {"first": first, "first_total": finals[0], "second": second, "second_total": finals[1]}
    if match.finished:
        lead = 0 if finals[0] >= finals[1] else 1
        blocks.append(
            Line(
                _(
                    "All three games are over: {first} {first_total}, {second} {second_total}: "
                    "{result}.",
                    result=_wins_by(players[lead], abs(finals[0] - finals[1])),
                    **totals,
                )
            )
        )
    else:
        open_games = sum(1 for sheet in match.games if not sheet.finished)
        blocks.append(
            Line(
                ngettext(
                    "{count} game still open; so far {first} {first_total}, {second} "
                    "{second_total}.",
                    "{count} games still open; so far {first} {first_total}, {second} "
                    "{second_total}.",
                    open_games,
                    count=open_games,
                    **totals,
                )
            )
        )
    return blocks
