"""Puzzles as plain explanation blocks: the position, the table of every option, the outs.

Every number comes from the puzzle's :class:`~gintutor.tutor.puzzles.Solution`; nothing is computed
here but formatting.
"""

from __future__ import annotations

from typing import Any

from gintutor.engine.cards import Rank
from gintutor.engine.evaluate import DiscardEval, Out, OutKind
from gintutor.text.blocks import Block, Heading, Line, Style, Table
from gintutor.text.i18n import number, percent, puzzle_text
from gintutor.tutor.puzzles import (
    Grade,
    Puzzle,
    PuzzleKind,
    Solution,
    Theme,
    fill_explanation,
    theme_unit,
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
    blocks: list[Block] = [
        Heading(f"Puzzle {puzzle.id}: {puzzle_text('title', puzzle.title)}"),
        Line(
            f"Theme: {puzzle.theme.value} · difficulty {stars(puzzle.difficulty)} · "
            f"{position.rules.name} rules, knock limit {position.knock_limit}"
        ),
        *(
            [Line("A close call: more than one answer is as good; find them.")]
            if puzzle.kind is PuzzleKind.CLOSE_CALL
            else []
        ),
        Line(f"Your hand: {style.cards(position.hand)}"),
    ]
    if position.upcard is not None:
        blocks.append(Line(f"The upcard offered: {style.card(position.upcard)}"))
    if position.took_from_discard is not None:
        blocks.append(
            Line(
                f"You just took {style.card(position.took_from_discard)} from the "
                "discard pile: you may not discard it this turn."
            )
        )
    blocks.append(Line(f"Discard pile and cards out of play: {style.cards(position.dead)}"))
    blocks.append(
        Line(f"The opponent picked up and still holds: {style.cards(position.opponent_known)}")
    )
    if position.stock_size is not None:
        blocks.append(Line(f"Cards left in the stock: {position.stock_size}"))
    if position.first_upcard is not None and position.rules.needs_upcard:
        blocks.append(Line(f"First upcard of the hand: {style.card(position.first_upcard)}"))
    if puzzle.score is not None:
        blocks.append(Line(f"Score: you {puzzle.score[0]}, the opponent {puzzle.score[1]}"))
    blocks.append(Line(puzzle_text("question", puzzle.question)))
    return blocks


def _percent(value: float) -> str:
    return percent(value)


_EXACT_HEADERS = (
    "card",
    "deadwood",
    "outs",
    "dw next",
    "knock 1",
    "knock 2",
    "opp. melds",
    "grade",
)
_JUDGED_HEADERS = ("card", "dw", "outs", "knock 1", "knock 2", "opp. melds", "points", "grade")
"""Outs and safety: the exact numbers that matter to them, then the coach's expected points."""
_EXACT_LEGEND = {
    "dw": "dw: deadwood after the discard.",
    "k": "k: may knock now.",
    "points": "points: expected points against a strong opponent (the coach).",
    "dw next": "dw next: expected deadwood after the next draw.",
    "knock 1": "knock 1 / knock 2: chance to be able to knock after the next draw / within two.",
    "opp. melds": "opp. melds: chance the opponent can meld the discard.",
}


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
                str(e.deadwood) + (" k" if e.can_knock else ""),
                str(len(e.outs)),
                number(e.expected_deadwood_next, 1),
                _percent(e.p_knock_next),
                _percent(e.p_knock_within_2),
                _percent(e.p_opponent_melds),
            )
            if row.judged is not None:
                cells = (*cells[:3], *cells[4:], number(row.measure, 1, signed=True))
            rows.append((*cells, row.grade.value))
        headers = _JUDGED_HEADERS if theme.judged else _EXACT_HEADERS
        return Table(headers, tuple(rows), frozenset(highlight))
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
                row.grade.value,
            )
        )
    return Table(
        ("choice", "avg points", "std. error", "behind best", "grade"),
        tuple(rows),
        frozenset(highlight),
    )


def table_legend(solution: Solution) -> str:
    """What the exact table's short headers mean; ``k`` only when some discard may knock,
    ``points`` only when the coach judged the puzzle."""
    knock = any(row.evaluation is not None and row.evaluation.can_knock for row in solution.rows)
    judged = solution.puzzle.theme.judged
    shown = {"k": knock, "points": judged, "dw": judged, "dw next": not judged}
    return " ".join(text for key, text in _EXACT_LEGEND.items() if shown.get(key, True))


def _choice_name(code: str, style: Style) -> str:
    from gintutor.engine.cards import Card
    from gintutor.errors import GinError

    try:
        return f"discard {style.card(Card.parse(code))}, knock"
    except GinError:
        return code


RANK_PLURALS = {
    Rank.ACE: "aces",
    Rank.TWO: "twos",
    Rank.THREE: "threes",
    Rank.FOUR: "fours",
    Rank.FIVE: "fives",
    Rank.SIX: "sixes",
    Rank.SEVEN: "sevens",
    Rank.EIGHT: "eights",
    Rank.NINE: "nines",
    Rank.TEN: "tens",
    Rank.JACK: "jacks",
    Rank.QUEEN: "queens",
    Rank.KING: "kings",
}


def out_text(out: Out, style: Style) -> str:
    """``8♠ extends 5♠ 6♠ 7♠`` or ``9♠ makes a set of 9s, then throw Q♦``."""
    meld = out.meld
    others = meld.cards - type(meld.cards)(out.card.mask)
    if meld.is_set:
        action = f"makes {'four' if len(meld) == 4 else 'three'} {RANK_PLURALS[out.card.rank]}"
    else:
        action = ("extends " if out.extends else "makes a run with ") + style.cards(others)
    tail = f", then throw {style.card(out.then_discard)}"
    label = {OutKind.GIN: " (gin)", OutKind.KNOCK: " (knock)", OutKind.MELD: ""}[out.kind]
    return f"{style.card(out.card)} {action}{tail}{label}"


def outs_lines(option: DiscardEval, style: Style) -> list[Block]:
    """The outs of one discard, what each does, and the live and dead cards of its pairs."""
    blocks: list[Block] = []
    if option.outs:
        blocks.append(
            Line(
                f"After discarding {style.card(option.card)}, "
                f"{len(option.outs)} unseen cards meld on the next draw:"
            )
        )
        blocks += [Line(out_text(out, style), 1) for out in option.outs]
    else:
        blocks.append(
            Line(
                f"After discarding {style.card(option.card)}, no unseen card melds "
                "on the next draw."
            )
        )
    for pair in option.pairs:
        text = f"pair {style.cards(pair.cards)}: needs {style.cards(pair.needs)}; live: "
        text += style.cards(pair.live)
        if pair.mine:
            text += f"; in your other melds: {style.cards(pair.mine)}"
        if pair.dead:
            text += f"; dead: {style.cards(pair.dead)}"
        blocks.append(Line(text, 1))
    return blocks


_GRADE_TEXT = {
    Grade.BEST: "Best!",
    Grade.GOOD: "Good",
    Grade.INACCURACY: "Inaccuracy",
    Grade.MISTAKE: "Mistake",
    Grade.BLUNDER: "Blunder",
}


def feedback(solution: Solution, answer: str, style: Style) -> list[Block]:
    """The grade of the answer, the table of every option, the outs and the explanation."""
    theme = solution.puzzle.theme
    row = solution.row(answer)
    unit = theme_unit(theme)
    if row.grade is Grade.BEST:
        verdict = _GRADE_TEXT[row.grade]
        others = [code for code in solution.accepted if code != row.code]
        if others:
            verdict += f" (equally good: {', '.join(_choice_label(c, style) for c in others)})"
    else:
        if theme is Theme.DEADWOOD:
            cost = f"{number(row.cost)} more deadwood"
        else:
            cost = f"{number(row.cost, 1)} {unit} (± {number(row.cost_stderr, 1)}) against the best"
        best = ", ".join(_choice_label(c, style) for c in solution.accepted)
        verdict = f"{_GRADE_TEXT[row.grade]}: it costs {cost}. Best: {best}."
    blocks: list[Block] = [Line(verdict), option_table(solution, style, row.code)]
    if theme.exact:
        blocks.append(Line(table_legend(solution)))
    best_eval = solution.rows[0].evaluation
    if theme.exact and best_eval is not None:
        blocks += outs_lines(best_eval, style)
        if row.evaluation is not None and row.code != solution.rows[0].code:
            blocks += outs_lines(row.evaluation, style)
    if solution.verdict is not None:
        how = (
            "each knock scored against the defender's best melds and layoffs"
            if theme is Theme.LAYOFF_EXPOSURE
            else "the hand played out by the heuristic for both sides"
        )
        blocks.append(
            Line(
                f"Expected points from up to {solution.verdict.worlds} sampled deals: the "
                "opponent's hand drawn from what you have seen and built up by its draws, the "
                f"same deals for every choice, {how} (seeded, reproducible); choices within two "
                "standard errors of the best are equally good."
            )
        )
    if solution.puzzle.explanation:
        explanation = puzzle_text("explanation", solution.puzzle.explanation)
        blocks.append(Line(fill_explanation(explanation, solution)))
    return blocks


def _choice_label(code: str, style: Style) -> str:
    from gintutor.engine.cards import Card
    from gintutor.errors import GinError

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
