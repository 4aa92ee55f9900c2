"""Discard puzzles and their grading: the engine decides every answer (format in puzzles/README.md).

``deadwood`` puzzles are ranked by the exact deadwood after each discard. Every other theme is
judged by the coach (:func:`gintutor.engine.coach.judge`) from the information set of the
puzzle position — only what the player knows — at the puzzle budget: the expected points of
every legal action against a strong opponent reasoning from what it has seen. A theme groups
the coach's actions into its choices (``take``/``draw``, ``knock``/``play-on``, the knock
discard, the discard); every choice within two standard errors of the best (a close call) is
accepted. ``outs`` and ``safety`` keep their exact numbers for the table, but the answer is the
discard with the best expected value.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gintutor.engine import judgement
from gintutor.engine.cards import Card, CardSet, mask_points
from gintutor.engine.evaluate import DiscardEval, Evaluation, Position, evaluate
from gintutor.engine.judgement import Judged, Verdict, grade_of
from gintutor.engine.layoffs import layoff_chains
from gintutor.engine.melds import MELDS_THROUGH
from gintutor.engine.solver import min_deadwood_mask, packings
from gintutor.errors import GinError
from gintutor.text.i18n import _, number, percent, pgettext
from gintutor.tutor.puzzleterms import Grade as Grade
from gintutor.tutor.puzzleterms import PuzzleKind as PuzzleKind
from gintutor.tutor.puzzleterms import Theme as Theme

# The hand state machine is imported to judge or solve, not to show a puzzle: the daily's first
# prompt does not load it (measured with it at the top: see cli/puzzlerun.py's _solved).
if TYPE_CHECKING:
    from gintutor.engine.hand import Action, InfoSet, Kind

FIRST_TURN_STOCK = 31
"""Cards in the stock while the first upcard is on offer (52 less two hands and the upcard)."""
PUZZLE_WORLDS = 512
"""Sampled worlds at most per puzzle verdict. Less than the coach's own puzzle budget
(``coach.PUZZLE_WORLDS``) so that judging the whole pack on every core of a shared 2-core
machine stays within about half an hour; the successive halving spends them on the close
actions, and a close call is accepted either way."""
PUZZLE_SECONDS = 1e9
"""No time cut: a puzzle verdict depends on its seed and worlds only, so it can be replayed."""
COACH_VERSION: str = judgement.VERSION
"""The coach's version: part of a stored verdict's key, so a new coach makes it stale."""


_DEADWOOD_STEPS = (2, 5, 10)
"""Deadwood puzzles: the extra deadwood that is still Good / Inaccuracy / Mistake."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle as read from YAML.

    ``opponent_discards`` / ``opponent_passed``: the cards the opponent is known to have
    discarded / passed (they shape the coach's estimate of its hand); empty when not recorded.
    ``kind``: a daily puzzle, or a labelled close call (never the daily). ``opponent``: the
    bot the coach assumes across the table (a name of :data:`gintutor.engine.coach.OPPONENTS`),
    ``None`` for its strong player (``coach.STRONG``): the pack's puzzles leave it ``None``; a
    lesson's question sets it to teach how the opponent changes the answer.
    """

    id: str
    title: str
    theme: Theme
    difficulty: int
    position: Position
    question: str
    answers: tuple[str, ...]
    hints: tuple[str, ...]
    explanation: str
    path: str = ""
    line: int = 0
    score: tuple[int, int] | None = None
    opponent_discards: CardSet = field(default_factory=lambda: CardSet(0))
    opponent_passed: CardSet = field(default_factory=lambda: CardSet(0))
    kind: PuzzleKind = PuzzleKind.DAILY
    opponent: str | None = None

    @property
    def seed(self) -> int:
        """The verdict's seed, from the position itself: the same position always gets the
        same sampled worlds, whatever the puzzle is called or where it is filed."""
        return int(hashlib.sha256(repr(puzzle_key(self)).encode()).hexdigest()[:8], 16)


@dataclass(frozen=True)
class Row:
    """One choice of a puzzle with its measure, its cost against the best and its grade.

    ``judged``: the coach's entry that values the choice (the best action it stands for);
    ``cost_stderr``: the standard error of ``cost`` (judged themes).
    """

    code: str
    measure: float
    cost: float
    grade: Grade
    evaluation: DiscardEval | None = None
    judged: Judged | None = None
    cost_stderr: float = 0.0


@dataclass(frozen=True)
class Solution:
    """The engine's answer to a puzzle: every choice ranked, and the accepted answers."""

    puzzle: Puzzle
    rows: tuple[Row, ...]
    evaluation: Evaluation | None
    verdict: Verdict | None

    @property
    def accepted(self) -> tuple[str, ...]:
        """The answers graded Best (the best, and every close call)."""
        return tuple(row.code for row in self.rows if row.grade is Grade.BEST)

    def row(self, code: str) -> Row:
        """The row of a choice (a card code or an action)."""
        for row in self.rows:
            if row.code == code.upper() or row.code == code.lower():
                return row
        choices = ", ".join(r.code for r in self.rows)
        raise GinError("{code!r} is not one of the choices: {choices}", code=code, choices=choices)


def _deadwood_grade(cost: float) -> Grade:
    good, inaccuracy, mistake = _DEADWOOD_STEPS
    if cost <= 0:
        return Grade.BEST
    if cost <= good:
        return Grade.GOOD
    if cost <= inaccuracy:
        return Grade.INACCURACY
    if cost <= mistake:
        return Grade.MISTAKE
    return Grade.BLUNDER


def choice_codes(puzzle: Puzzle) -> tuple[str, ...]:
    """What may be answered: the actions of ``upcard`` / ``knock-or-play``, the discards that
    knock (``layoff-exposure``), or every legal discard."""
    position = puzzle.position
    if puzzle.theme is Theme.UPCARD:
        return ("take", "draw")
    if puzzle.theme is Theme.KNOCK_OR_PLAY:
        return ("knock", "play-on")
    legal = [card for card in position.hand if card != position.took_from_discard]
    if puzzle.theme is Theme.LAYOFF_EXPOSURE:
        limit = position.knock_limit
        return tuple(
            card.code
            for card in legal
            if min_deadwood_mask(position.hand.mask & ~card.mask) <= limit
        )
    return tuple(card.code for card in legal)


def puzzle_key(puzzle: Puzzle) -> tuple[object, ...]:
    """Everything a verdict depends on in the puzzle: the position, the opponent's recorded
    discards and passes, the game score, and the opponent assumed when it is not the strong
    default (so the key of a puzzle that names none is what it was before puzzles could)."""
    key: tuple[object, ...] = (
        *position_key(puzzle.position),
        puzzle.opponent_discards.mask,
        puzzle.opponent_passed.mask,
        puzzle.score,
    )
    return key if puzzle.opponent is None else (*key, ("opponent", puzzle.opponent))


def verdict_key(puzzle: Puzzle) -> str:
    """The stored verdict's key: the position as the player knows it, the coach's version and
    budget, the seed, and for a theme judged on some actions only, which. A verdict is used
    only for exactly that key."""
    parts: tuple[object, ...] = (puzzle_key(puzzle), COACH_VERSION, PUZZLE_WORLDS, puzzle.seed)
    if puzzle.theme in JUDGED_KINDS:
        parts += (JUDGED_KINDS[puzzle.theme],)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


JUDGED_KINDS: dict[Theme, tuple[str, ...]] = {Theme.LAYOFF_EXPOSURE: ("big-gin", "knock")}
"""The actions the coach judges for a puzzle of these themes (by their words; every legal
action for the others). ``layoff-exposure`` asks which knock is worth the most: its knocks
alone, each valued exactly against every sampled defender, with no play-out of the discards
it does not show."""


def judged_kinds(theme: Theme) -> frozenset[Kind] | None:
    """The kinds of action the coach judges for ``theme`` (``None``: every legal one), as the
    coach takes them (:data:`JUDGED_KINDS`)."""
    from gintutor.engine.hand import Kind

    words = JUDGED_KINDS.get(theme)
    return None if words is None else frozenset(Kind(word) for word in words)


def stock_size(position: Position) -> int:
    """The cards left in the stock (given, or what the counts leave)."""
    if position.stock_size is not None:
        return position.stock_size
    placed = len(position.hand) + len(position.dead) + (position.upcard is not None)
    return 52 - placed - 10


def first_turn(position: Position) -> bool:
    """True when the upcard is the hand's first, on offer before anyone has drawn."""
    return (
        position.upcard is not None
        and stock_size(position) == FIRST_TURN_STOCK
        and (not position.dead)
    )


def infoset_of(puzzle: Puzzle) -> InfoSet:
    """The information set of the player to move in the puzzle: only what the player knows.

    The player is player 0; the dealer is the opponent (so a first-turn upcard is offered to
    the player first). The pile is the dead cards in card order (a puzzle does not record the
    order), with the upcard on top in an ``upcard`` puzzle; no event history is recorded, so
    the opponent's discards and passes come from the puzzle's own fields.

    >>> from gintutor.engine.rules import preset
    >>> p = Position(CardSet.parse("2C 3C 4C 9D TD JD 5H 5S 8D 8S KS"), preset("standard"),
    ...              dead=CardSet.parse("5C 7D"), stock_size=29)
    >>> info = infoset_of(Puzzle("x", "x", Theme.OUTS, 1, p, "?", (), (), ""))
    >>> info.phase, info.stock_size, info.hand == p.hand.mask
    (<Phase.DISCARD: 'discard'>, 29, True)
    """
    from gintutor.engine.hand import NO_CARD, InfoSet, Phase

    position = puzzle.position
    pile = tuple(card.index for card in position.dead)
    taken = position.took_from_discard.index if position.took_from_discard else NO_CARD
    phase = Phase.DISCARD
    if position.upcard is not None:
        pile += (position.upcard.index,)
        phase = Phase.OFFER if first_turn(position) else Phase.DRAW
    if position.first_upcard is not None:
        upcard = position.first_upcard.index
    elif pile:
        upcard = pile[0]
    else:
        upcard = taken if taken != NO_CARD else next(iter(position.hand)).index
    rules = position.rules
    return InfoSet(
        player=0,
        rules=rules,
        dealer=1,
        knock_limit=position.knock_limit,
        multiplier=rules.multiplier_for(position.first_upcard),
        upcard=upcard,
        phase=phase,
        hand=position.hand.mask,
        pile=pile,
        stock_size=stock_size(position),
        taken=taken,
        opponent_known=position.opponent_known.mask,
        opponent_passed=puzzle.opponent_passed.mask,
        opponent_discards=puzzle.opponent_discards.mask,
        events=(),
    )


def judge_puzzle(puzzle: Puzzle) -> Verdict:
    """The coach's verdict on the puzzle position at the puzzle budget (seeded, no time cut),
    against the puzzle's opponent."""
    # The coach and every bot: only when a position is judged afresh, never to show a puzzle
    # (measured with the pack reader: see content/puzzlepack.py).
    from gintutor.engine.coach import judge

    return judge(
        infoset_of(puzzle),
        worlds=PUZZLE_WORLDS,
        seconds=PUZZLE_SECONDS,
        seed=puzzle.seed,
        scores=puzzle.score,
        kinds=judged_kinds(puzzle.theme),
        opponent=puzzle.opponent,
    )


def choice_of(theme: Theme, judged: Judged) -> str | None:
    """The answer a coach action stands for in this theme, or ``None`` when it is none."""
    return answer_of(theme, judged.action)


def answer_of(theme: Theme, action: Action) -> str | None:
    """The answer an action stands for in this theme (a bot's, the coach's), or ``None``."""
    from gintutor.engine.hand import Kind

    kind = action.kind
    if theme is Theme.UPCARD:
        return "take" if kind is Kind.TAKE else "draw" if kind in (Kind.PASS, Kind.DRAW) else None
    if theme is Theme.KNOCK_OR_PLAY:
        if kind in (Kind.KNOCK, Kind.BIG_GIN):
            return "knock"
        return "play-on" if kind is Kind.DISCARD else None
    if theme is Theme.LAYOFF_EXPOSURE:
        return Card.from_index(action.card).code if kind is Kind.KNOCK else None
    if kind in (Kind.DISCARD, Kind.KNOCK):
        return Card.from_index(action.card).code
    return None


def solve_puzzle(puzzle: Puzzle, known: Verdict | None = None) -> Solution:
    """Rank every choice of the puzzle (best first) and grade it.

    ``known``: the coach's verdict already computed for this puzzle (a stored one), used
    instead of judging again.
    """
    theme = puzzle.theme
    position = puzzle.position
    if theme is Theme.DEADWOOD:
        exact = evaluate(position)
        ranked = sorted(exact.options, key=lambda e: (e.deadwood, e.card.index))
        top = ranked[0].deadwood
        rows = tuple(
            Row(e.card.code, e.deadwood, e.deadwood - top, _deadwood_grade(e.deadwood - top), e)
            for e in ranked
        )
        return Solution(puzzle, rows, exact, None)
    codes = choice_codes(puzzle)
    if theme is Theme.LAYOFF_EXPOSURE and not codes:
        raise GinError(
            "no discard lets this hand knock (limit {limit}): a {theme} puzzle needs at least one",
            limit=position.knock_limit,
            theme=theme.value,
        )
    verdict = known or judge_puzzle(puzzle)
    evaluation = _evaluation(position)
    by_card = {e.card.code: e for e in evaluation.options} if evaluation is not None else {}
    return Solution(puzzle, _rows(theme, verdict, codes, by_card), evaluation, verdict)


def _evaluation(position: Position) -> Evaluation | None:
    """The exact numbers shown beside a verdict: of the 11 cards, or after taking the upcard."""
    if len(position.hand) == 11:
        return evaluate(position)
    if position.upcard is None:
        return None
    taken = Position(
        position.hand | CardSet(position.upcard.mask),
        position.rules,
        took_from_discard=position.upcard,
        dead=position.dead,
        opponent_known=position.opponent_known,
        stock_size=position.stock_size,
        first_upcard=position.first_upcard,
    )
    return evaluate(taken)


def _rows(
    theme: Theme, verdict: Verdict, codes: tuple[str, ...], by_card: dict[str, DiscardEval]
) -> tuple[Row, ...]:
    """One row per choice, valued by the best coach action it stands for, best first.

    Costs are measured from the best choice. When the best choice is the coach's best action
    (always, but in ``layoff-exposure`` when playing on beats every knock) the coach's paired
    loss and close call are used; otherwise the two losses' standard errors are combined.
    """
    chosen: dict[str, Judged] = {}
    for judged in verdict.judged:  # a choice is worth its best action
        code = choice_of(theme, judged)
        if code in codes and (code not in chosen or judged.loss < chosen[code].loss):
            chosen[code] = judged
    missing = [code for code in codes if code not in chosen]
    if missing or not chosen:
        raise GinError(
            "the coach's verdict has no action for {missing}"
            if missing
            else "the coach's verdict has no action for any choice",
            missing=", ".join(missing),
        )
    order = sorted(chosen, key=lambda code: (chosen[code].loss, codes.index(code)))
    ref = chosen[order[0]]
    overall = ref.loss == 0 and ref is verdict.best
    rows = []
    for code in order:
        judged = chosen[code]
        cost = judged.loss - ref.loss
        if judged is ref:
            cost_se, close = 0.0, True
        elif overall:
            cost_se, close = judged.loss_stderr, judged.close
        else:
            cost_se = math.hypot(judged.loss_stderr, ref.loss_stderr)
            close = cost <= 2 * cost_se + 1e-9
        win_cost = None
        if judged.win_loss is not None and ref.win_loss is not None:
            win_cost = judged.win_loss - ref.win_loss
        grade = Grade.BEST if close else Grade[grade_of(cost, win_cost).name]
        if grade is Grade.BEST and not close:
            grade = Grade.GOOD
        rows.append(Row(code, judged.mean, cost, grade, by_card.get(code), judged, cost_se))
    return tuple(rows)


def position_key(position: Position) -> tuple[object, ...]:
    """The position as a hashable key (two puzzles with one key are the same puzzle)."""
    return (
        position.hand.mask,
        position.upcard,
        position.took_from_discard,
        position.dead.mask,
        position.opponent_known.mask,
        position.stock_size,
        position.rules.name,
        position.first_upcard,
    )


# --- explanations ------------------------------------------------------------------------------

_FIELD = re.compile(r"\{([A-Za-z0-9_-]+)(?:\.([a-z_0-9]+))?(?::(%|n))?\}")
_EVAL_FIELDS = {
    "deadwood",
    "p_knock_next",
    "p_knock_within_2",
    "p_opponent_melds",
    "expected_deadwood_next",
    "outs",
    "knock_outs",
    "gin_outs",
    "can_knock",
}
_CARD_LISTS = ("outs", "knock_outs", "gin_outs", "layoffs")


def _outs_count(option: DiscardEval) -> int:
    return len(option.outs)


def _knock_outs_count(option: DiscardEval) -> int:
    return len(option.knock_outs)


def _opponent_melds(option: DiscardEval) -> float:
    return option.p_opponent_melds


def _deadwood(option: DiscardEval) -> int:
    return option.deadwood


_RANKED: dict[str, tuple[Callable[[DiscardEval], float], bool]] = {
    # name: (the measure of a discard, True when more is "most")
    "most_outs": (_outs_count, True),
    "most_knock_outs": (_knock_outs_count, True),
    "safest": (_opponent_melds, False),
    "most_used": (_opponent_melds, True),
    "least_deadwood": (_deadwood, False),
}
"""Names that stand for the discard that leads on one exact measure (ties: the theme's rank,
then card order); the matching ``_rank`` fields say whether another discard shares it."""
_RANK_FIELDS = {
    "outs_rank": "most_outs",
    "knock_outs_rank": "most_knock_outs",
    "safety_rank": "safest",
    "used_rank": "most_used",
    "deadwood_rank": "least_deadwood",
}
PHRASE_FIELDS = frozenset({"live", "melds_with", "natural", "vs_best", *_RANK_FIELDS})
"""Fields that render a claim in words ("dead", "the most outs", "tied with K♠"), computed for
the position: prose may make such a claim only through them (``puzzles check``)."""
_POSITION_NUMBERS: dict[str, Callable[[Position], int]] = {
    "stock": stock_size,
    "knock_limit": lambda position: position.knock_limit,
}
"""Numbers of the position itself: ``{stock}`` (cards left in the stock), ``{knock_limit}``."""
NAMES = frozenset({"best", "second", "natural", *_RANKED, *_POSITION_NUMBERS})
"""The names a placeholder may use besides card codes and actions."""

Part = tuple[str, bool]
"""A piece of filled text and whether the engine produced it (a placeholder's value)."""


def meld_partners_mask(card: Card, available: int) -> int:
    """The cards of ``available`` that make a three-card meld with ``card`` and a third card of
    ``available``: what ``card`` can still meld with. ``card`` is *live* when it has any.

    >>> from gintutor.engine.cards import DECK_MASK
    >>> CardSet(meld_partners_mask(Card.parse("QC"), DECK_MASK & ~CardSet.parse("JC").mask)).text()
    'QD QH QS'
    """
    partners = 0
    for meld in MELDS_THROUGH[card.index]:
        others = meld & ~card.mask
        if others.bit_count() == 2 and others & available == others:
            partners |= others
    return partners


def fill_explanation(text: str, solution: Solution) -> str:
    """Fill ``{best}``, ``{best.p_knock_within_2:%}``, ``{KS.outs:n}`` with engine numbers.

    Names: ``best``, ``second`` (rank in the theme), ``natural`` (least deadwood now, then the
    highest card), ``most_outs``, ``most_knock_outs``, ``safest`` (the least chance the opponent
    melds it), ``most_used`` (the most), ``least_deadwood``, a card code or an action; fields as
    in ``puzzle --json``, and ``mean`` (the expected points) and ``loss`` (what it costs against
    the best) in judged themes, ``layoffs`` (the cards a defender may lay off on the spread
    after that discard); ``:%`` a percentage, ``:n`` a count of cards; ``{stock}`` and
    ``{knock_limit}``, the position's own numbers. Claims in words:
    ``live`` (``live`` or ``dead``: can the card still be part of a meld of yours),
    ``partners`` (the unseen cards it can still meld with), ``melds_with`` (the same as a
    phrase), ``outs_rank``, ``knock_outs_rank``, ``safety_rank``, ``used_rank``,
    ``deadwood_rank`` (``the most outs (6)``, ``fewer outs (4) than K♠ (6)``...), ``natural``
    (``the natural discard`` or not) and ``vs_best`` (``tied with K♠``, ``2 deadwood behind
    K♠``, within the noise or behind it).
    """
    return "".join(part for part, _computed in fill_parts(text, solution))


def fill_parts(text: str, solution: Solution) -> list[Part]:
    """The text of :func:`fill_explanation` in pieces, each marked as written or computed."""
    parts: list[Part] = []
    at = 0
    for match in _FIELD.finditer(text):
        parts.append((text[at : match.start()], False))
        parts.append((_value(match, solution), True))
        at = match.end()
    parts.append((text[at:], False))
    return [part for part in parts if part[0]]


def _value(match: re.Match[str], solution: Solution) -> str:
    name, key, fmt = match.group(1), match.group(2), match.group(3)
    if name in _POSITION_NUMBERS and key is None:
        return str(_POSITION_NUMBERS[name](solution.puzzle.position))
    if key is None and name not in NAMES and _is_card_code(name):
        for row in solution.rows:  # a card named in the text need not be a choice
            if row.code == name.upper():
                break
        else:
            return _code_display(name.upper())
    if key in _MELD_FIELDS and name not in NAMES and _is_card_code(name):
        # Any card of the hand (the upcard too, once taken) or unseen, not only a choice.
        return _meld_phrase(solution, Card.parse(name), key, fmt)
    row = _named_row(solution, name)
    if key is None:
        return _code_display(row.code)
    if key in ("mean", "loss"):
        if row.judged is None:
            raise GinError(
                "{placeholder}: no expected points in this puzzle",
                placeholder="{" + f"{name}.{key}" + "}",
            )
        return number(row.measure, 1, signed=True) if key == "mean" else number(row.cost, 1)
    if key == "vs_best":
        return _versus_best(solution, row)
    if key == "natural":
        natural = natural_choice(solution)
        if row.code == natural:
            return _("the natural discard")
        return _("not the natural discard (that is {card})", card=_code_display(natural))
    evaluation = row.evaluation
    if evaluation is None or key not in _EVAL_FIELDS | PHRASE_FIELDS | {"partners", "layoffs"}:
        raise GinError(
            "{placeholder}: no such number for this puzzle", placeholder="{" + f"{name}.{key}" + "}"
        )
    if key in _RANK_FIELDS:
        return _rank_phrase(solution, _RANK_FIELDS[key], evaluation)
    if key in _MELD_FIELDS:
        return _meld_phrase(solution, evaluation.card, key, fmt)
    raw: object = _layoffs(solution, evaluation) if key == "layoffs" else getattr(evaluation, key)
    if key in _CARD_LISTS:
        cards = [o.card if hasattr(o, "card") else o for o in raw]  # type: ignore[attr-defined]
        if fmt == "n":
            return str(len(cards))
        return " ".join(card.display() for card in cards) or _("none")
    if fmt == "%":
        return percent(raw)  # type: ignore[arg-type]
    if isinstance(raw, float):
        return number(raw, 1)
    return str(raw)


_MELD_FIELDS = ("live", "partners", "melds_with")


def layoff_cards(solution: Solution, code: str) -> tuple[Card, ...]:
    """What ``{code.layoffs}`` names: the cards a defender may lay off directly on my spread
    after discarding ``code`` (:func:`_layoffs`)."""
    row = _named_row(solution, code)
    if row.evaluation is None:
        raise GinError(
            "{placeholder}: no such number for this puzzle", placeholder="{" + code + ".layoffs}"
        )
    return _layoffs(solution, row.evaluation)


def _layoffs(solution: Solution, option: DiscardEval) -> tuple[Card, ...]:
    """The cards a defender may lay off on my spread after discarding ``option.card``: the
    unseen cards and those known in their hand that extend a meld directly (a card that fits
    only after another is laid off, a chain, is left out: the defender must hold both), in
    the arrangement of the least deadwood that offers the fewest (the knocker chooses the
    spread)."""
    evaluation = solution.evaluation
    assert evaluation is not None
    position = evaluation.position
    rest = position.hand.mask & ~option.card.mask
    theirs = evaluation.unseen.mask | position.opponent_known.mask
    fewest: int | None = None
    for melds, dead in packings(rest, option.deadwood):
        if mask_points(dead) != option.deadwood:
            continue  # a meld left unspread: more deadwood than the knock shows
        laid = 0
        for meld in melds:
            for chain in layoff_chains(meld, theirs):
                laid |= chain[0]
        if fewest is None or laid.bit_count() < fewest.bit_count():
            fewest = laid
    return tuple(CardSet(fewest or 0))


def _meld_phrase(solution: Solution, card: Card, key: str, fmt: str | None) -> str:
    """``live``/``dead``, the unseen partners or ``can still meld with …`` for ``card``, a card
    of the hand or an unseen one (a card out of play or in their hand melds with nothing of
    mine: naming it is an error, so that no text calls a dead card live)."""
    evaluation = solution.evaluation
    if evaluation is None:
        raise GinError(
            "{placeholder}: no such number for this puzzle",
            placeholder="{" + f"{card.code}.{key}" + "}",
        )
    if not card.mask & _available(solution):
        raise GinError(
            "{placeholder}: {card} is neither in the hand nor unseen",
            placeholder="{" + f"{card.code}.{key}" + "}",
            card=card.display(),
        )
    partners = _partners(solution, card)
    if key == "live":
        available = _available(solution) & ~card.mask
        if meld_partners_mask(card, available):
            return pgettext("card", "live")
        return pgettext("card", "dead")
    if key == "melds_with":
        if not partners:
            return _("can no longer meld with any unseen card")
        return _("can still meld with {cards}", cards=" ".join(c.display() for c in partners))
    if fmt == "n":
        return str(len(partners))
    return " ".join(c.display() for c in partners) or _("none")


def _is_card_code(name: str) -> bool:
    try:
        return len(name) == 2 and Card.parse(name).code == name.upper()
    except GinError:
        return False


def _available(solution: Solution) -> int:
    """The cards that may still end in my melds: my hand (11 cards) and the unseen ones."""
    evaluation = solution.evaluation
    assert evaluation is not None
    return evaluation.position.hand.mask | evaluation.unseen.mask


def _partners(solution: Solution, card: Card) -> tuple[Card, ...]:
    """The unseen cards that can still make a three-card meld with ``card`` (the third card
    mine or unseen)."""
    evaluation = solution.evaluation
    assert evaluation is not None
    mask = meld_partners_mask(card, _available(solution) & ~card.mask) & evaluation.unseen.mask
    return tuple(CardSet(mask))


def _ranked_options(solution: Solution) -> list[DiscardEval]:
    """The discards the exact measures compare: the choices that are discards, best first
    (every discard after taking, in an ``upcard`` or ``knock-or-play`` puzzle)."""
    evaluation = solution.evaluation
    if evaluation is None:
        return []
    by_code = {e.card.code: e for e in evaluation.options}
    ranked = [by_code[row.code] for row in solution.rows if row.code in by_code]
    return ranked or list(evaluation.options)


def _leaders(solution: Solution, name: str) -> list[DiscardEval]:
    """The discards that lead on the measure of ``name`` (:data:`_RANKED`), first the one the
    name stands for."""
    measure, most = _RANKED[name]
    options = _ranked_options(solution)
    if not options:
        raise GinError(
            "{placeholder}: no discards to compare in this puzzle", placeholder="{" + name + "}"
        )
    values = [float(measure(e)) for e in options]
    top = max(values) if most else min(values)
    return [e for e, v in zip(options, values, strict=True) if abs(v - top) < 1e-9]


def _rank_words(name: str) -> tuple[str, str]:
    """What a ranked measure's leader has (``the most outs ({value})``) and what a card behind
    it has (``fewer outs ({value}) than {card} ({top})``), in the active language."""
    words = {
        "most_outs": (
            _("the most outs ({value})"),
            _("fewer outs ({value}) than {card} ({top})"),
        ),
        "most_knock_outs": (
            _("the most knock outs ({value})"),
            _("fewer knock outs ({value}) than {card} ({top})"),
        ),
        "safest": (
            _("the safest discard ({value})"),
            _("less safe ({value}) than {card} ({top})"),
        ),
        "most_used": (
            _("the card they can most often use ({value})"),
            _("less often of use to them ({value}) than {card} ({top})"),
        ),
        "least_deadwood": (
            _("the least deadwood ({value})"),
            _("more deadwood ({value}) than {card} ({top})"),
        ),
    }
    return words[name]


def _rank_phrase(solution: Solution, name: str, option: DiscardEval) -> str:
    """``the most outs (6)``, ``the most outs (6), with K♠``, ``fewer outs (4) than K♠ (6)``."""
    measure, _most = _RANKED[name]
    leaders = _leaders(solution, name)
    lead, behind = _rank_words(name)

    def shown(e: DiscardEval) -> str:
        value = measure(e)
        return percent(value) if isinstance(value, float) else str(value)

    if any(e.card == option.card for e in leaders):
        others = [e.card.display() for e in leaders if e.card != option.card]
        text = lead.format(value=shown(option))
        if others:
            return _("{leader}, with {others}", leader=text, others=" ".join(others))
        return text
    top = leaders[0]
    return behind.format(value=shown(option), card=top.card.display(), top=shown(top))


def _versus_best(solution: Solution, row: Row) -> str:
    """How the choice stands against the best: ``the best``, ``tied with K♠``, ``within the
    noise of K♠ (1.2 ± 0.9 expected points behind)``, ``2 deadwood behind K♠``."""
    best = solution.rows[0]
    if row.code == best.code:
        return _("the best")
    name = _code_display(best.code)
    if abs(row.cost) < 1e-9:
        return _("tied with {card}", card=name)
    if row.judged is None:
        return _("{amount} deadwood behind {card}", amount=number(row.cost), card=name)
    amount = _("{cost} ± {stderr}", cost=number(row.cost, 1), stderr=number(row.cost_stderr, 1))
    if row.grade is Grade.BEST:
        return _(
            "within the noise of {card} ({amount} expected points behind)",
            card=name,
            amount=amount,
        )
    return _("{amount} expected points behind {card}", amount=amount, card=name)


def _code_display(code: str) -> str:
    try:
        return Card.parse(code).display()
    except GinError:
        return code


def natural_choice(solution: Solution) -> str:
    """The natural-looking answer: the least deadwood now, ties to the highest card (for
    ``deadwood`` puzzles the highest card)."""
    evaluation = solution.evaluation
    if evaluation is None or solution.puzzle.theme in (Theme.UPCARD, Theme.KNOCK_OR_PLAY):
        return solution.rows[0].code
    options = evaluation.options
    if solution.puzzle.theme is Theme.DEADWOOD:
        natural = max(options, key=lambda e: (e.card.points, e.card.index))
    else:
        codes = {row.code for row in solution.rows}
        natural = min(
            (e for e in options if e.card.code in codes),
            key=lambda e: (e.deadwood, -e.card.points, -e.card.index),
        )
    return natural.card.code


def _named_row(solution: Solution, name: str) -> Row:
    rows = solution.rows
    if name == "best":
        return rows[0]
    if name == "second":
        return rows[1] if len(rows) > 1 else rows[0]
    if name in _RANKED:
        code = _leaders(solution, name)[0].card.code
    else:
        code = natural_choice(solution) if name == "natural" else name
    for row in rows:
        if row.code == code or row.code == code.upper():
            return row
    if solution.evaluation is not None:
        for option in solution.evaluation.options:
            if option.card.code == code.upper():
                return Row(code.upper(), 0.0, 0.0, Grade.BEST, evaluation=option)
    raise GinError("{placeholder}: not a choice of this puzzle", placeholder="{" + name + "}")
