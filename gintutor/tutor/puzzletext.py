"""Puzzles as plain explanation blocks: the position, the table of every option, the outs.

Every number comes from the puzzle's :class:`~gintutor.tutor.puzzles.Solution`; nothing is computed
here but formatting.
"""

from __future__ import annotations

from typing import Any

from gintutor.engine.cards import Card, CardSet, Rank
from gintutor.engine.evaluate import DiscardEval, Out, OutKind
from gintutor.errors import GinError
from gintutor.text.blocks import Block, Heading, Line, Style, Table
from gintutor.text.i18n import _, ngettext, number, percent, pgettext, puzzle_text
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    PuzzleKind,
    Solution,
    Theme,
    fill_explanation,
)

QUESTIONS = {
    Theme.OUTS: "Which discard is worth the most against a strong opponent? (The table will "
    "show each discard's outs and chances to knock.)",
    Theme.SAFETY: "Which discard is worth the most against a strong opponent who reads what "
    "you throw? (The table will show the chance it gives them a meld.)",
    Theme.KNOCK_OR_PLAY: "Knock now or play on: which is worth more against a strong "
    "opponent? (knock or play-on)",
    Theme.UPCARD: "Take the upcard or draw from the stock: which is worth more against a "
    "strong opponent? (take or draw)",
    Theme.LAYOFF_EXPOSURE: "You will knock. With which discard is the knock worth the most, "
    "given what the defender may lay off?",
}
"""The question of each judged theme: what the answer is judged by."""

EXPLANATIONS = {
    Theme.OUTS: "Against a strong opponent {best} is worth {best.mean} points on average and "
    "{natural} {natural.mean}. After {best} you keep {best.knock_outs:n} cards that let you "
    "knock on the next draw and a chance of {best.p_knock_within_2:%} to knock within two draws; "
    "{natural} leaves {natural.deadwood} deadwood now but a chance of "
    "{natural.p_knock_within_2:%}: lower now is not always faster later.",
    Theme.SAFETY: "The opponent can meld {natural} with a chance of {natural.p_opponent_melds:%}, "
    "given what they picked up; {best} gives them {best.p_opponent_melds:%}. Against a strong "
    "opponent {best} is worth {best.mean} points on average and {natural} {natural.mean}: a "
    "little more deadwood is a small price for not feeding them.",
    Theme.KNOCK_OR_PLAY: "Against a strong opponent who reads what you throw, {best} is worth "
    "{best.mean} points on average and {second} {second.mean}.",
    Theme.UPCARD: "Against a strong opponent who reads what you take, {best} is worth "
    "{best.mean} points on average and {second} {second.mean}.",
    Theme.LAYOFF_EXPOSURE: "Knocking after discarding {best} is worth {best.mean} points on "
    "average; discarding {natural}, {natural.natural}, {natural.mean}: what you leave in your "
    "melds decides what the defender can lay off.",
}
"""Explanations written by the generator (numbers are placeholders the engine fills)."""

NATURAL_EXPLANATIONS = {
    Theme.OUTS: "{best}, {best.natural}, is {best.vs_best}: against a strong opponent it is "
    "worth {best.mean} points on average, with {best.knock_outs:n} knock outs and a "
    "{best.p_knock_within_2:%} chance to knock within two draws; {second} is "
    "{second.vs_best}.",
    Theme.SAFETY: "{natural}, {natural.natural}, is {natural.vs_best} against a strong "
    "opponent too: it gives them a meld {natural.p_opponent_melds:%} of the time but keeps "
    "your deadwood at {natural.deadwood}, worth {natural.mean} points on average; {safest}, "
    "{safest.safety_rank}, is {safest.vs_best}. Denying them a meld is not always worth the "
    "deadwood it costs.",
}
"""Explanations when the natural discard (the least deadwood) is the best answer."""


def stars(difficulty: int) -> str:
    """``★★★☆☆`` for difficulty 3."""
    return "★" * difficulty + "☆" * (5 - difficulty)


def setting_out(puzzle: Puzzle, style: Style) -> list[Block]:
    """What the solver sees: the hand and everything known about the other cards."""
    position = puzzle.position

    def cards(found: CardSet) -> str:
        return style.cards(found) if len(found) else pgettext("no cards", "none")

    blocks: list[Block] = [
        Heading(_("Puzzle {id}: {title}", id=puzzle.id, title=puzzle_text("title", puzzle.title))),
        Line(
            _(
                "Theme: {theme} · difficulty {stars} · {rules} rules, knock limit {limit}",
                theme=puzzle.theme.value,
                stars=stars(puzzle.difficulty),
                rules=position.rules.name,
                limit=position.knock_limit,
            )
        ),
        *(
            [Line(_("A close call: more than one answer is as good; find them."))]
            if puzzle.kind is PuzzleKind.CLOSE_CALL
            else []
        ),
        Line(_("Your hand: {cards}", cards=style.cards(position.hand))),
    ]
    if position.upcard is not None:
        blocks.append(Line(_("The upcard offered: {card}", card=style.card(position.upcard))))
    if position.took_from_discard is not None:
        blocks.append(
            Line(
                _(
                    "You just took {card} from the discard pile: you may not discard it this turn.",
                    card=style.card(position.took_from_discard),
                )
            )
        )
    blocks.append(
        Line(_("Discard pile and cards out of play: {cards}", cards=cards(position.dead)))
    )
    blocks.append(
        Line(
            _(
                "The opponent picked up and still holds: {cards}",
                cards=cards(position.opponent_known),
            )
        )
    )
    if position.stock_size is not None:
        blocks.append(Line(_("Cards left in the stock: {count}", count=position.stock_size)))
    if position.first_upcard is not None and position.rules.needs_upcard:
        blocks.append(
            Line(_("First upcard of the hand: {card}", card=style.card(position.first_upcard)))
        )
    if puzzle.score is not None:
        blocks.append(
            Line(
                _(
                    "Score: you {mine}, the opponent {theirs}",
                    mine=puzzle.score[0],
                    theirs=puzzle.score[1],
                )
            )
        )
    blocks.append(Line(puzzle_text("question", puzzle.question)))
    return blocks


def _percent(value: float) -> str:
    return percent(value)


def _headers(judged: bool) -> tuple[str, ...]:
    """The exact table's column headings; outs and safety (judged) show the exact numbers that
    matter to them, then the coach's expected points."""
    if judged:
        return (
            pgettext("puzzle table", "card"),
            pgettext("puzzle table", "dw"),
            pgettext("puzzle table", "outs"),
            pgettext("puzzle table", "knock 1"),
            pgettext("puzzle table", "knock 2"),
            pgettext("puzzle table", "opp. melds"),
            pgettext("puzzle table", "points"),
            pgettext("puzzle table", "grade"),
        )
    return (
        pgettext("puzzle table", "card"),
        pgettext("puzzle table", "deadwood"),
        pgettext("puzzle table", "outs"),
        pgettext("puzzle table", "dw next"),
        pgettext("puzzle table", "knock 1"),
        pgettext("puzzle table", "knock 2"),
        pgettext("puzzle table", "opp. melds"),
        pgettext("puzzle table", "grade"),
    )


def _legend() -> dict[str, str]:
    """What each short heading of the exact table means, by key."""
    return {
        "dw": _("dw: deadwood after the discard."),
        "k": _("k: may knock now."),
        "points": _("points: expected points against a strong opponent (the coach)."),
        "dw next": _("dw next: expected deadwood after the next draw."),
        "knock 1": _(
            "knock 1 / knock 2: chance to be able to knock after the next draw / within two."
        ),
        "opp. melds": _("opp. melds: chance the opponent can meld the discard."),
    }


def grade_label(grade: Grade) -> str:
    """A puzzle grade as the table shows it (``Best``, ``Mistake``...)."""
    labels = {
        Grade.BEST: pgettext("puzzle grade", "Best"),
        Grade.GOOD: pgettext("puzzle grade", "Good"),
        Grade.INACCURACY: pgettext("puzzle grade", "Inaccuracy"),
        Grade.MISTAKE: pgettext("puzzle grade", "Mistake"),
        Grade.BLUNDER: pgettext("puzzle grade", "Blunder"),
    }
    return labels.get(grade, grade.value)


def option_table(solution: Solution, style: Style, chosen: str | None = None) -> Table:
    """Every option, best first, with the theme's measure, the exact numbers and the grade.

    The exact table fits 80 columns; :func:`table_legend` explains its short headers.
    """
    theme = solution.puzzle.theme
    highlight = {i for i, row in enumerate(solution.rows) if row.grade is Grade.BEST}
    rows: list[tuple[str, ...]] = []
    if theme.exact:
        for row in solution.rows:
            e = row.evaluation
            assert e is not None
            mark = " ◀" if chosen == row.code else ""
            cells: tuple[str, ...] = (
                style.card(e.card) + mark,
                str(e.deadwood) + (" " + pgettext("puzzle table", "k") if e.can_knock else ""),
                str(len(e.outs)),
                number(e.expected_deadwood_next, 1),
                _percent(e.p_knock_next),
                _percent(e.p_knock_within_2),
                _percent(e.p_opponent_melds),
            )
            if row.judged is not None:
                cells = (*cells[:3], *cells[4:], number(row.measure, 1, signed=True))
            rows.append((*cells, grade_label(row.grade)))
        return Table(_headers(theme.judged), tuple(rows), frozenset(highlight))
    for row in solution.rows:
        judged = row.judged
        assert judged is not None
        name = _choice_name(row.code, style)
        mark = " ◀" if chosen == row.code else ""
        rows.append(
            (
                name + mark,
                number(row.measure, 1, signed=True),
                f"± {number(judged.stderr, 1)}",
                f"{number(row.cost, 1)} ± {number(row.cost_stderr, 1)}",
                grade_label(row.grade),
            )
        )
    return Table(
        (
            pgettext("puzzle table", "choice"),
            pgettext("puzzle table", "avg points"),
            pgettext("puzzle table", "std. error"),
            pgettext("puzzle table", "behind best"),
            pgettext("puzzle table", "grade"),
        ),
        tuple(rows),
        frozenset(highlight),
    )


def table_legend(solution: Solution) -> str:
    """What the exact table's short headers mean; ``k`` only when some discard may knock,
    ``points`` only when the coach judged the puzzle."""
    knock = any(row.evaluation is not None and row.evaluation.can_knock for row in solution.rows)
    judged = solution.puzzle.theme.judged
    shown = {"k": knock, "points": judged, "dw": judged, "dw next": not judged}
    return " ".join(text for key, text in _legend().items() if shown.get(key, True))


def _choice_name(code: str, style: Style) -> str:
    try:
        return _("discard {card}, knock", card=style.card(Card.parse(code)))
    except GinError:
        return code  # an action word (knock, play-on, take, draw): what the learner types


def rank_plural(rank: Rank) -> str:
    """A rank's name in the plural, as in ``three eights``."""
    words = {
        Rank.ACE: pgettext("rank plural", "aces"),
        Rank.TWO: pgettext("rank plural", "twos"),
        Rank.THREE: pgettext("rank plural", "threes"),
        Rank.FOUR: pgettext("rank plural", "fours"),
        Rank.FIVE: pgettext("rank plural", "fives"),
        Rank.SIX: pgettext("rank plural", "sixes"),
        Rank.SEVEN: pgettext("rank plural", "sevens"),
        Rank.EIGHT: pgettext("rank plural", "eights"),
        Rank.NINE: pgettext("rank plural", "nines"),
        Rank.TEN: pgettext("rank plural", "tens"),
        Rank.JACK: pgettext("rank plural", "jacks"),
        Rank.QUEEN: pgettext("rank plural", "queens"),
        Rank.KING: pgettext("rank plural", "kings"),
    }
    return words[rank]


def out_text(out: Out, style: Style) -> str:
    """``8♠ extends 5♠ 6♠ 7♠, then throw Q♦`` or ``9♠ makes three nines, then throw Q♦``."""
    meld = out.meld
    others = meld.cards - type(meld.cards)(out.card.mask)
    values = {
        "card": style.card(out.card),
        "discard": style.card(out.then_discard),
        "rank": rank_plural(out.card.rank),
        "cards": style.cards(others),
    }
    if meld.is_set and len(meld) == 4:
        text = _("{card} makes four {rank}, then throw {discard}", **values)
    elif meld.is_set:
        text = _("{card} makes three {rank}, then throw {discard}", **values)
    elif out.extends:
        text = _("{card} extends {cards}, then throw {discard}", **values)
    else:
        text = _("{card} makes a run with {cards}, then throw {discard}", **values)
    if out.kind is OutKind.GIN:
        return _("{out} (gin)", out=text)
    if out.kind is OutKind.KNOCK:
        return _("{out} (knock)", out=text)
    return text


def outs_lines(option: DiscardEval, style: Style) -> list[Block]:
    """The outs of one discard, what each does, and the live and dead cards of its pairs."""
    blocks: list[Block] = []
    card = style.card(option.card)
    if option.outs:
        count = len(option.outs)
        blocks.append(
            Line(
                ngettext(
                    "After discarding {card}, {count} unseen card melds on the next draw:",
                    "After discarding {card}, {count} unseen cards meld on the next draw:",
                    count,
                    card=card,
                    count=count,
                )
            )
        )
        blocks += [Line(out_text(out, style), 1) for out in option.outs]
    else:
        blocks.append(
            Line(_("After discarding {card}, no unseen card melds on the next draw.", card=card))
        )
    for pair in option.pairs:
        live = style.cards(pair.live) if len(pair.live) else pgettext("no cards", "none")
        parts = [
            _(
                "pair {cards}: needs {needs}; live: {live}",
                cards=style.cards(pair.cards),
                needs=style.cards(pair.needs),
                live=live,
            )
        ]
        if pair.mine:
            parts.append(_("in your other melds: {cards}", cards=style.cards(pair.mine)))
        if pair.dead:
            parts.append(_("dead: {cards}", cards=style.cards(pair.dead)))
        blocks.append(Line("; ".join(parts), 1))
    return blocks


def feedback(solution: Solution, answer: str, style: Style) -> list[Block]:
    """The grade of the answer, the table of every option, the outs and the explanation."""
    theme = solution.puzzle.theme
    row = solution.row(answer)
    if row.grade is Grade.BEST:
        others = [code for code in solution.accepted if code != row.code]
        verdict = _("Best!")
        if others:
            verdict = _(
                "Best! (equally good: {others})",
                others=", ".join(_choice_label(c, style) for c in others),
            )
    else:
        best = ", ".join(_choice_label(c, style) for c in solution.accepted)
        if theme is Theme.DEADWOOD:
            verdict = _(
                "{grade}: it costs {cost} more deadwood. Best: {best}.",
                grade=grade_label(row.grade),
                cost=number(row.cost),
                best=best,
            )
        else:
            verdict = _(
                "{grade}: it costs {cost} expected points (± {stderr}) against the best. "
                "Best: {best}.",
                grade=grade_label(row.grade),
                cost=number(row.cost, 1),
                stderr=number(row.cost_stderr, 1),
                best=best,
            )
    blocks: list[Block] = [Line(verdict), option_table(solution, style, row.code)]
    if theme.exact:
        blocks.append(Line(table_legend(solution)))
    best_eval = solution.rows[0].evaluation
    if theme.exact and best_eval is not None:
        blocks += outs_lines(best_eval, style)
        if row.evaluation is not None and row.code != solution.rows[0].code:
            blocks += outs_lines(row.evaluation, style)
    if solution.verdict is not None:
        worlds = solution.verdict.worlds
        if theme is Theme.LAYOFF_EXPOSURE:
            text = _(
                "Expected points from up to {worlds} sampled deals: the opponent's hand drawn "
                "from what you have seen and built up by its draws, the same deals for every "
                "choice, each knock scored against the defender's best melds and layoffs "
                "(seeded, reproducible); choices within two standard errors of the best are "
                "equally good.",
                worlds=worlds,
            )
        else:
            text = _(
                "Expected points from up to {worlds} sampled deals: the opponent's hand drawn "
                "from what you have seen and built up by its draws, the same deals for every "
                "choice, the hand played out by the heuristic for both sides (seeded, "
                "reproducible); choices within two standard errors of the best are equally good.",
                worlds=worlds,
            )
        blocks.append(Line(text))
    if solution.puzzle.explanation:
        explanation = puzzle_text("explanation", solution.puzzle.explanation)
        blocks.append(Line(fill_explanation(explanation, solution)))
    return blocks


def _choice_label(code: str, style: Style) -> str:
    try:
        return style.card(Card.parse(code))
    except GinError:
        return code


def option_data(option: DiscardEval) -> dict[str, Any]:
    """One option for ``puzzle --json``."""
    return {
        "card": option.card.code,
        "deadwood": option.deadwood,
        "can_knock": option.can_knock,
        "outs": [out.card.code for out in option.outs],
        "knock_outs": [card.code for card in option.knock_outs],
        "gin_outs": [card.code for card in option.gin_outs],
        "expected_deadwood_next": round(option.expected_deadwood_next, 6),
        "p_knock_next": round(option.p_knock_next, 6),
        "p_knock_within_2": round(option.p_knock_within_2, 6),
        "p_opponent_melds": round(option.p_opponent_melds, 6),
    }


def puzzle_data(puzzle: Puzzle, solution: Solution) -> dict[str, Any]:
    """The ``puzzle --json`` object: the position, the question, the accepted answers and how
    every choice was judged."""
    position = puzzle.position
    data: dict[str, Any] = {
        "id": puzzle.id,
        "title": puzzle.title,
        "theme": puzzle.theme.value,
        "difficulty": puzzle.difficulty,
        "hand": [card.code for card in position.hand],
        "took_from_discard": position.took_from_discard.code
        if position.took_from_discard
        else None,
        "dead": [card.code for card in position.dead],
        "opponent_known": [card.code for card in position.opponent_known],
        "stock_size": position.stock_size,
        "rules": position.rules.name,
        "knock_limit": position.knock_limit,
        "question": puzzle.question,
        "answers": list(solution.accepted),
        "options": [option_data(option) for option in solution.evaluation.options]
        if solution.evaluation is not None
        else [],
    }
    if position.upcard is not None:
        data["upcard"] = position.upcard.code
    if position.first_upcard is not None and position.rules.needs_upcard:
        data["first_upcard"] = position.first_upcard.code
    if puzzle.opponent_discards:
        data["opponent_discards"] = [card.code for card in puzzle.opponent_discards]
    if puzzle.opponent_passed:
        data["opponent_passed"] = [card.code for card in puzzle.opponent_passed]
    if solution.verdict is not None:
        data["verdict"] = [
            {
                "choice": row.code,
                "action": str(row.judged.action),
                "expected_points": round(row.measure, 4),
                "stderr": round(row.judged.stderr, 4),
                "behind_best": round(row.cost, 4),
                "behind_best_stderr": round(row.cost_stderr, 4),
                "equally_good": row.grade is Grade.BEST,
            }
            for row in solution.rows
            if row.judged is not None
        ]
        data["worlds"] = solution.verdict.worlds
        data["seed"] = puzzle.seed
    data["ranking"] = [
        {"choice": row.code, "measure": round(row.measure, 6), "grade": row.grade.value}
        for row in solution.rows
    ]
    return data
