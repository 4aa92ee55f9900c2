"""Carousel results as plain explanation blocks and JSON export dicts (no Rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gintutor.engine.carousel.cards import Hand, Meld, Table
from gintutor.engine.carousel.game import Action, Ending, Impossible, ItemKind
from gintutor.engine.carousel.rules import CarouselRules, FirstMeld, LowTie, Objective
from gintutor.engine.carousel.solver import MoveKind, Play
from gintutor.text.blocks import Block, Heading, Line, Style
from gintutor.text.blocks import Table as TextTable
from gintutor.text.i18n import _, _r, error_text, ngettext, pgettext

if TYPE_CHECKING:
    # The game and its scoring are imported by the functions that score (analyze and rules
    # need neither).
    from gintutor.engine.carousel.edits import Draft
    from gintutor.engine.carousel.game import (
        GameSheet,
        ImpossibleEntry,
        LogEntry,
        RoundResult,
        RoundScore,
    )


def meld_text(meld: Meld, style: Style) -> str:
    """A meld's cards: ``7♥ 8♥ 9♥`` (a joker as ``JK=7♥``)."""
    return meld.display(ascii_only=style.ascii_only)


def hand_text(hand: Hand, style: Style) -> str:
    """A hand's cards (``none`` when empty)."""
    return hand.display(ascii_only=style.ascii_only) or _("none")


def kind_text(meld: Meld) -> str:
    """A meld's kind in words: ``group`` or ``sequence``."""
    if meld.kind.value == "group":
        return pgettext("carousel meld", "group")
    return pgettext("carousel meld", "sequence")


def table_lines(table: Table, style: Style, indent: int = 1) -> list[Block]:
    """The table, meld by meld."""
    if not table.melds:
        return [Line(_("(empty table)"), indent)]
    return [Line(f"{kind_text(meld):<8}  {meld_text(meld, style)}", indent) for meld in table]


def explain_play(
    table: Table, hand: Hand, play: Play | None, rules: CarouselRules, style: Style
) -> list[Block]:
    """The best play explained: new table, moves, what stays in hand, whether you may knock."""
    blocks: list[Block] = [
        Heading(_("Table")),
        *table_lines(table, style),
        Line(
            _("Hand: {cards} ({points} points)", cards=hand_text(hand, style), points=hand.points)
        ),
    ]
    if play is None:
        blocks += [Heading(_("Best play")), Line(_("No card of this hand can be placed."))]
        return blocks
    blocks += [
        Heading(_("Best play")),
        Line(
            ngettext(
                "Place {cards}: {points} points, {count} card.",
                "Place {cards}: {points} points, {count} cards.",
                play.cards_placed,
                cards=hand_text(play.placed, style),
                points=play.points_placed,
                count=play.cards_placed,
            )
        ),
        Heading(_("New table")),
        *table_lines(play.table, style),
    ]
    if play.moves:
        blocks.append(Heading(_("Moves")))
        for move in play.moves:
            card = move.slot.display(ascii_only=style.ascii_only)
            source = meld_text(move.from_meld, style)
            target = meld_text(move.to_meld, style)
            if move.kind is MoveKind.FREED:
                old = move.before.display(ascii_only=style.ascii_only)
                text = _(
                    "{old} freed by the real card, used again as {card} in {target}",
                    old=old,
                    card=card,
                    target=target,
                )
            else:
                text = _(
                    "{card} from {source} to {target}", card=card, source=source, target=target
                )
            blocks.append(Line(text, 1))
    else:
        blocks.append(Line(_("No table card moves.")))
    values = {
        "cards": hand_text(play.hand_after, style),
        "points": play.points_after,
        "limit": rules.knock_limit,
    }
    if not len(play.hand_after):
        verdict = _(
            "Left in hand: {cards} ({points} points): you go out (limit {limit}).", **values
        )
    elif play.points_after <= rules.knock_limit:
        verdict = _(
            "Left in hand: {cards} ({points} points): you may knock (limit {limit}).", **values
        )
    else:
        verdict = _(
            "Left in hand: {cards} ({points} points): you may not knock (limit {limit}).", **values
        )
    blocks.append(Line(verdict))
    return blocks


def play_data(table: Table, hand: Hand, play: Play | None, rules: CarouselRules) -> dict[str, Any]:
    """JSON export: ``table``, ``hand`` and ``play`` (None when nothing can be placed)."""
    data: dict[str, Any] = {
        "table": [meld.text().split() for meld in table],
        "hand": hand.codes(),
        "play": None,
    }
    if play is not None:
        data["play"] = {
            "placed": play.placed.codes(),
            "table": [meld.text().split() for meld in play.table],
            "moves": [
                {
                    "kind": m.kind.value,
                    "card": m.slot.code,
                    "before": m.before.code,
                    "from": m.from_meld.text().split(),
                    "to": m.to_meld.text().split(),
                }
                for m in play.moves
            ],
            "hand_after": play.hand_after.codes(),
            "points_after": play.points_after,
            "can_knock": play.points_after <= rules.knock_limit,
        }
    return data


def _melding(rules: CarouselRules) -> tuple[str, str]:
    """Who opens with melds of their own: the rule's sentence and its setting's line."""
    if rules.first_meld is FirstMeld.ROUND:
        return (
            _r(
                "Melding: the first player to meld in the round (the table is empty then) must "
                "lay down melds of their own cards. Otherwise you may rearrange the whole table, "
                "adding at least one card from your hand; no card goes from the table to a hand, "
                "and every table card ends the turn in a valid meld."
            ),
            _r(
                "First meld: the first player to meld in the round (the table is empty then) "
                "(first_meld={value}).",
                value=rules.first_meld.value,
            ),
        )
    return (
        _r(
            "Melding: every player's first melding turn must lay down melds of their own cards. "
            "Otherwise you may rearrange the whole table, adding at least one card from your "
            "hand; no card goes from the table to a hand, and every table card ends the turn in "
            "a valid meld."
        ),
        _r(
            "First meld: every player's first melding turn (first_meld={value}).",
            value=rules.first_meld.value,
        ),
    )


def _settings(rules: CarouselRules) -> list[str]:
    """The lines of the settings where the source text is silent."""
    if rules.low_tie is LowTie.SHARE:
        tie = _r(
            "Tie for lowest without the knocker: every tied player wins and scores the "
            "differences (low_tie={value}).",
            value=rules.low_tie.value,
        )
    else:
        tie = _r(
            "Tie for lowest without the knocker: nobody scores the round (low_tie={value}).",
            value=rules.low_tie.value,
        )
    if rules.going_out_needs_draw:
        going_out = _r("Going out needs a turn with a draw: yes (going_out_needs_draw).")
    else:
        going_out = _r("Going out needs a turn with a draw: no (going_out_needs_draw).")
    if rules.objective is Objective.POINTS_THEN_CARDS:
        order = _r(
            "The solver's best play: most points, then most cards, then fewest table cards "
            "moved (objective={value}). A card is moved when its new meld does not continue its "
            "old one; each old meld continues in at most one new meld.",
            value=rules.objective.value,
        )
    else:
        order = _r(
            "The solver's best play: most cards, then most points, then fewest table cards "
            "moved (objective={value}). A card is moved when its new meld does not continue its "
            "old one; each old meld continues in at most one new meld.",
            value=rules.objective.value,
        )
    return [tie, _melding(rules)[1], going_out, order]


def explain_rules(rules: CarouselRules) -> list[Block]:
    """The Carousel rules in prose, with the settings the source text leaves open."""
    return [
        Heading(_r("Carousel (manipulation rummy)")),
        Line(
            _r(
                "2 to 5 players. Two players use one 53-card deck (52 cards and a joker); three "
                "or more use two (identical cards exist). 10 cards each; the rest is the stock. "
                "There is no discard pile."
            )
        ),
        Line(
            _r(
                "A turn: draw, then you may meld. If you did not, draw again and you may meld. "
                "If you still did not, draw a third card: after the {draws}rd draw you may not "
                "meld this turn.",
                draws=rules.draws_per_turn,
            )
        ),
        Line(
            _r(
                "Melds: a group of 3 or 4 cards of one rank, never two identical cards; a "
                "sequence of 3 or more cards of one suit, the ace high or low (A-2-3, Q-K-A) but "
                "never round the corner (K-A-2)."
            )
        ),
        Line(_melding(rules)[0]),
        Line(
            _r(
                "Jokers stand for the card you declare (written JK=7H). A joker keeps its card "
                "unless the real card replaces it; the freed joker stays on the table and is "
                "used again. A joker is the card it stands for: the table never shows more "
                "copies of a card than the decks hold."
            )
        ),
        Line(
            _r(
                "Values in hand: joker 25, J Q K 10, 2-10 face value, ace 1. After your turn "
                "you may knock with {limit} points or fewer; playing all your cards ends the "
                "round too.",
                limit=rules.knock_limit,
            )
        ),
        Line(
            _r(
                "Scoring: the lowest hand wins the difference to each other player. A winner "
                "who did not knock (when someone did) adds {undercut}; the knocker loses ties, "
                "and two tied others both win with the bonus. Going out adds {going_out}. When "
                "the stock runs out unknocked, everyone has one more turn to meld (no draw), "
                "then the lowest hand wins.",
                undercut=rules.undercut_bonus,
                going_out=rules.going_out_bonus,
            )
        ),
        Line(
            _r(
                "Game: to {target}. Whoever reaches it gets {game_bonus}; every other player "
                "{round_bonus} per round won; most points wins.",
                target=rules.game_target,
                game_bonus=rules.game_bonus,
                round_bonus=rules.round_bonus,
            )
        ),
        Heading(_r("Settings where the source text is silent")),
        *(Line(line) for line in _settings(rules)),
    ]


def explain_sheet(sheet: GameSheet, names: list[str], *, one_round: bool = False) -> list[Block]:
    """The score sheet: each round's scores and running totals, then bonuses and winners
    (``one_round``: a single round was played, not a game)."""
    rows = []
    for number, (scored, running) in enumerate(
        zip(sheet.rounds, sheet.running, strict=True), start=1
    ):
        ending = scored.result.ending.value  # the word a score line is written with
        note = _("{ending} (void)", ending=ending) if scored.void else ending
        rows.append(
            (
                str(number),
                note,
                *(f"{s} ({t})" for s, t in zip(scored.scores, running, strict=True)),
            )
        )
    blocks: list[Block] = [TextTable((_("round"), _("ending"), *names), tuple(rows))]
    if sheet.over:
        finals = [
            _("{name} {points} (bonus {bonus})", name=n, points=f, bonus=g + r)
            for n, f, g, r in zip(
                names, sheet.finals, sheet.game_bonus, sheet.round_bonus, strict=True
            )
        ]
        blocks.append(Line(_("Game over: {scores}", scores=", ".join(finals))))
        winners = _and([names[i] for i in sheet.winners])
        blocks.append(Line(_("Winner: {names}", names=winners)))
    elif one_round:
        blocks.append(Line(_("One round played: no game bonuses.")))
    else:
        blocks.append(Line(_("The game goes on (nobody has reached the target yet).")))
    return blocks


def _and(names: list[str]) -> str:
    """Names joined as the active language says ``A and B`` (``A and B and C`` in English)."""
    joined = names[0] if names else ""
    for name in names[1:]:
        joined = _("{first} and {second}", first=joined, second=name)
    return joined


def impossible_text(entry: ImpossibleEntry, players: int) -> str:
    """Why a round result's entry is impossible, as a sentence (without the entry)."""
    if entry.reason is Impossible.KNOCK_OVER_LIMIT:
        return _("a knock holds at most {limit} points (the knock limit)", limit=entry.bound)
    if entry.reason is Impossible.OUT_WITH_POINTS:
        return _("a player who went out holds no cards: write 0 points or leave them out")
    if entry.reason is Impossible.EMPTY_NOT_OUT:
        return _(
            "only the player who went out holds 0 points; every other hand holds a card, "
            "at least {least} point (an ace)",
            least=entry.bound,
        )
    return _(
        "the hands hold more points than the cards of a {players}-player game ({most} in "
        "all, jokers 25)",
        players=players,
        most=entry.bound,
    )


def round_text(result: RoundResult, names: list[str]) -> str:
    """A round result as :func:`parse_rounds` reads it: ``A knock 3, B 12, C 20``."""
    parts = []
    for index, (name, points) in enumerate(zip(names, result.points, strict=True)):
        word = f" {result.ending.value}" if index == result.player else ""
        parts.append(f"{name}{word} {points}")
    return ", ".join(parts)


def explain_round(scored: RoundScore, names: list[str]) -> list[Block]:
    """A round scored item by item: who won, each difference and bonus with its reason."""
    result = scored.result
    name = names[result.player or 0]
    how = {
        Ending.KNOCK: _("{name} knocked", name=name),
        Ending.OUT: _("{name} went out", name=name),
        Ending.STOCK: _("the stock ran out"),
    }[result.ending]
    left = ", ".join(f"{n} {p}" for n, p in zip(names, result.points, strict=True))
    blocks: list[Block] = [Line(_("Points left in hand ({how}): {left}.", how=how, left=left))]
    if scored.void:
        blocks.append(Line(_("A tie for the lowest hand without a knocker: nobody scores.")))
        return blocks
    won = _and([names[w] for w in scored.winners])
    blocks.append(
        Line(
            ngettext(
                "Lowest hand: {names} wins.",
                "Lowest hand: {names} win.",
                len(scored.winners),
                names=won,
            )
        )
    )
    for winner in scored.winners:
        parts = []
        for item in scored.items:
            if item.player != winner:
                continue
            if item.kind is ItemKind.DIFFERENCE and item.against is not None:
                parts.append(
                    _("{points} from {name}", points=item.points, name=names[item.against])
                )
            elif item.kind is ItemKind.UNDERCUT:
                parts.append(_("{points} undercut bonus", points=item.points))
            elif item.kind is ItemKind.GOING_OUT:
                parts.append(_("{points} going-out bonus", points=item.points))
            else:
                parts.append(_("{points} difference", points=item.points))
        total = scored.scores[winner]
        blocks.append(Line(f"{names[winner]}: {' + '.join(parts) or '0'} = {total}", 1))
    return blocks


# --- playing ---------------------------------------------------------------------------------
# Every sentence is whole, with named placeholders, so that a catalog can translate it.


def draft_lines(draft: Draft, style: Style, touched: tuple[int, ...] = ()) -> list[Block]:
    """The table being played, meld by meld with its number; a meld not valid yet says why."""
    lines: list[Block] = []
    for shown in draft.shown():
        cards = " ".join(slot.display(ascii_only=style.ascii_only) for slot in shown.slots)
        values = {
            "mark": "*" if shown.number in touched else " ",
            "number": f"{shown.number:>2}",
            "cards": cards,
        }
        if shown.meld is not None:
            text = _("{mark}{number}  {kind}  {cards}").format(
                kind=f"{kind_text(shown.meld):<8}", **values
            )
        else:
            text = _("{mark}{number}  ?         {cards}  (not a meld yet: {why})").format(
                why=error_text(shown.problem), **values
            )
        lines.append(Line(text, 1))
    if not lines:
        lines.append(Line(_("(empty table)"), 1))
    if draft.freed:
        lines.append(
            Line(
                ngettext(
                    "A freed joker waits to be placed again: add JK=CARD to a meld.",
                    "{count} freed jokers wait to be placed again: add JK=CARD to a meld.",
                    draft.freed,
                    count=draft.freed,
                ),
                1,
            )
        )
    return lines


def play_view(
    draft: Draft,
    stock: int,
    names: list[str],
    sizes: list[int],
    totals: tuple[int, ...] | None,
    style: Style,
    touched: tuple[int, ...] = (),
) -> list[Block]:
    """The table view of a play decision: numbered melds, the stock, each player's cards and
    score, your hand."""
    totals = totals or (0,) * len(names)
    players = "; ".join(
        ngettext(
            "{name} {count} card, score {score}",
            "{name} {count} cards, score {score}",
            size,
            count=size,
            name=name,
            score=total,
        )
        for name, size, total in zip(names, sizes, totals, strict=True)
    )
    return [
        Heading(_("Table")),
        *draft_lines(draft, style, touched),
        Line(ngettext("Stock: {count} card.", "Stock: {count} cards.", stock, count=stock)),
        Line(_("Players: {players}.").format(players=players)),
        Line(
            _("Your hand: {cards} ({points} points)").format(
                cards=hand_text(draft.hand, style), points=draft.hand.points
            )
        ),
    ]


def hint_blocks(
    level: int, play: Play | None, table: Table, hand: Hand, rules: CarouselRules, style: Style
) -> list[Block]:
    """A hint at its level: 1 the points you can shed (and going out or knocking), 2 the cards
    to place, 3 the whole play (``play``: the best play of ``hand`` onto ``table``)."""
    if play is None:
        return [Line(_("Hint: no card of your hand can be placed now: draw (type draw or best)."))]
    if level == 1:
        text = ngettext(
            "Hint: you can shed {count} point this turn; {left} points would stay in hand.",
            "Hint: you can shed {count} points this turn; {left} points would stay in hand.",
            play.points_placed,
            count=play.points_placed,
            left=play.points_after,
        )
        if not len(play.hand_after):
            text += " " + _("You can go out.")
        elif play.points_after <= rules.knock_limit:
            text += " " + _("You could knock then (at most {limit} points).").format(
                limit=rules.knock_limit
            )
        return [Line(text), Line(_("(hint again: which cards)"), 1)]
    if level == 2:
        moved = len(play.moves)
        text = _("Hint: place {cards}.").format(cards=hand_text(play.placed, style))
        if moved:
            text += " " + ngettext(
                "It takes moving {count} table card.",
                "It takes moving {count} table cards.",
                moved,
                count=moved,
            )
        return [Line(text), Line(_("(hint again: the whole play; best plays it)"), 1)]
    return explain_play(table, hand, play, rules, style)[3:]


def warning_text(left: int, best_left: int, passing: bool) -> str:
    """The coach's warning, with both point counts and the gap (``passing``: placing nothing)."""
    values = {"left": left, "best": best_left, "gap": left - best_left}
    if passing:
        return _(
            "Coach: placing nothing ends your chance to play this turn with {left} points in "
            "hand; the best play leaves {best} ({gap} fewer)."
        ).format(**values)
    return _(
        "Coach: this play leaves {left} points in hand; the best play leaves {best} ({gap} fewer)."
    ).format(**values)


def entry_text(entry: LogEntry, name: str, style: Style, you: bool) -> str | None:
    """One action in words (``None`` for the bookkeeping that needs none)."""
    if entry.action is Action.DRAW:
        if not you:
            return None
        return _("You draw {card}.").format(card=hand_text(entry.cards, style))
    if entry.action is Action.PLAY:
        placed = hand_text(entry.cards, style)
        if you:
            return _("You play {cards}.").format(cards=placed)
        return _("{name} plays {cards}.").format(name=name, cards=placed)
    if entry.action is Action.PASS and you:
        return _("You place nothing.")
    if entry.action is Action.KNOCK:
        return _("You knock.") if you else _("{name} knocks.").format(name=name)
    return None


def bot_turn_text(entries: list[LogEntry], name: str, cards_left: int, style: Style) -> str:
    """A bot's whole turn in one sentence: how many cards it drew, what it played."""
    draws = sum(entry.action is Action.DRAW for entry in entries)
    played = [e for e in entries if e.action is Action.PLAY]
    knocked = any(e.action is Action.KNOCK for e in entries)
    drew = ngettext("draws {count} card", "draws {count} cards", draws, count=draws)
    left = ngettext("{count} card left", "{count} cards left", cards_left, count=cards_left)
    if played:
        cards = hand_text(sum((e.cards for e in played), Hand()), style)
        if knocked:
            return _("{name} {drew}, plays {cards} and knocks; {left}.").format(
                name=name, drew=drew, cards=cards, left=left
            )
        return _("{name} {drew}, plays {cards}; {left}.").format(
            name=name, drew=drew, cards=cards, left=left
        )
    if knocked:
        return _("{name} {drew}, plays nothing and knocks; {left}.").format(
            name=name, drew=drew, left=left
        )
    return _("{name} {drew} and plays nothing; {left}.").format(name=name, drew=drew, left=left)


def round_over_blocks(
    result: RoundResult, hands: list[Hand], names: list[str], style: Style
) -> list[Block]:
    """What the round left in each hand, and how it ended."""
    if result.ending is Ending.KNOCK:
        how = _("Round over: {name} knocked.").format(name=names[result.player or 0])
    elif result.ending is Ending.OUT:
        how = _("Round over: {name} went out.").format(name=names[result.player or 0])
    else:
        how = "Round over: the stock ran out."
    return [
        Line(how),
        *(
            Line(
                _("{name}: {cards} ({points} points)").format(
                    name=name, cards=hand_text(hand, style), points=hand.points
                ),
                1,
            )
            for name, hand in zip(names, hands, strict=True)
        ),
    ]


def play_help_blocks(rules: CarouselRules) -> list[Block]:
    """What the learner may type during a Carousel turn."""
    return [
        Heading(_("What you can type")),
        Line(_("add 4S to 3: put cards from your hand into meld 3 (a joker: add JK=4S to 3)."), 1),
        Line(_("move 5S from 1 to 4: move table cards from meld 1 to meld 4 (or: to new)."), 1),
        Line(_("new 7C 7D 7H: lay down a new meld (a joker: new 7C 7D JK=7H)."), 1),
        Line(_("split 2 at 8S: cut sequence 2 in two; 8S starts the new meld."), 1),
        Line(_("undo: take back the last edit of this turn."), 1),
        Line(_("done: make the play and end your turn (placing nothing: draw again)."), 1),
        Line(
            _("knock: make the play and knock (at most {limit} points left).").format(
                limit=rules.knock_limit
            ),
            1,
        ),
        Line(_("draw: place nothing and draw again."), 1),
        Line(_("best: make the best play (placing nothing when none exists)."), 1),
        Line(_("hint: a hint; again for more (how much, which cards, the whole play)."), 1),
        Line(_("A whole new table also works: 7C 7D 7H | 8S 9S TS."), 1),
        Line(_("table, sheet, help, quit."), 1),
    ]
