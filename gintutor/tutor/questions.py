"""Questions a learner answers, checked by the engine: the answer is never typed into content.

Each question kind knows how to read a learner's answer (:func:`read_answer` raises
:class:`AnswerError` for input that is not an answer at all, e.g. a card not held), how to judge
it (:func:`judge`: right or wrong, and what a wrong answer would mean), the engine's answer
with its explanation (:func:`solve_question`), and what to offer for completion.

>>> from gintutor.engine.rules import preset
>>> q = Question(QuestionKind.DEADWOOD, "Deadwood?", preset("standard"),
...              hand=CardSet.parse("7C 7D 7H 5H 6H 8H AS 2S 3S KD"))
>>> judge(q, "29").message
'29 is what is left after melds such as 7♣ 7♦ 7♥, A♠ 2♠ 3♠; a better arrangement leaves 24.'
>>> judge(q, "24").correct
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from gintutor.engine.analysis import analyze
from gintutor.engine.cards import Card, CardSet, mask_of, parse_cards
from gintutor.engine.game import GameSheet, score_game, score_match
from gintutor.engine.knocking import knock_verdict
from gintutor.engine.layoffs import layoff_plan
from gintutor.engine.melds import Meld, melds_within
from gintutor.engine.rules import SETTING_NAMES, RuleSet
from gintutor.engine.scoring import ItemKind, Side
from gintutor.engine.showdown import Showdown, showdown
from gintutor.engine.solver import arrangements_mask, min_deadwood_mask, solve
from gintutor.errors import GinError
from gintutor.text.explain import (
    Block,
    Line,
    Style,
    arrangement_lines,
    deadwood_sum,
    discard_table,
    explain_sheet,
    explain_showdown,
    knock_sentence,
    setting_text,
)

PLAIN = Style()
"""Cards written with suit symbols."""


class AnswerError(GinError):
    """Input that is not an answer to the question (checked before it counts as a try)."""


class QuestionKind(Enum):
    """What a question asks for."""

    DEADWOOD = "deadwood"
    """The least deadwood count of the hand (any number of cards)."""
    MELDS = "melds"
    """An arrangement of melds that leaves the least deadwood."""
    KNOCK = "knock"
    """May this hand knock (yes or no)?"""
    DISCARD = "discard"
    """The best discard of an 11-card hand."""
    LAYOFFS = "layoffs"
    """Which cards the defender lays off against the knocker's spread."""
    POINTS = "points"
    """How many points the hand scores (knocker against defender)."""
    CHOICE = "choice"
    """Pick the option(s) for which an engine predicate holds."""
    RULE = "rule"
    """The value of a rule-set setting (a number, or yes/no)."""
    GAME = "game"
    """A number from a game's score sheet."""


class Predicate(Enum):
    """What a choice question's correct options have in common (decided by the engine)."""

    MELD = "meld"
    """The option's cards form a meld."""
    NOT_MELD = "not-meld"
    """The option's cards do not form a meld."""
    CAN_KNOCK = "can-knock"
    """The option (a hand) may knock under the question's rules."""
    LEAST_DEADWOOD = "least-deadwood"
    """The option (a hand) has the least deadwood of all the options."""
    SAFE = "safe"
    """The option (a card) makes no meld with the cards the opponent is known to hold."""
    LEGAL_DISCARD = "legal-discard"
    """The option (a card of the hand) may be discarded this turn."""


class GameAsk(Enum):
    """Which number of a score sheet a game question asks for."""

    WINNER_FINAL = "winner-final"
    LOSER_FINAL = "loser-final"
    MARGIN = "margin"
    BOXES = "boxes"
    """The winner's box bonus points."""


@dataclass(frozen=True)
class Question:
    """One question. Which fields matter depends on ``kind``; the loader checks they are set."""

    kind: QuestionKind
    prompt: str
    rules: RuleSet
    hand: CardSet | None = None
    upcard: Card | None = None
    taken: Card | None = None
    defender: CardSet | None = None
    options: tuple[str, ...] = ()
    predicate: Predicate | None = None
    opponent_known: CardSet = field(default_factory=lambda: CardSet(0))
    setting: str | None = None
    entries: tuple[str, ...] = ()
    players: tuple[str, str] = ("A", "B")
    ask: GameAsk | None = None
    game: int = 1
    hints: tuple[str, ...] = ()
    explanation: str | None = None


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: right or wrong, and what the answer means."""

    correct: bool
    message: str


@dataclass(frozen=True)
class Solved:
    """The engine's answer: as a learner would type it, and the explanation behind it."""

    answer: str
    explanation: tuple[Block, ...]


_GROUP_SPLIT = re.compile(r"[|;/]")
_YES = {"y", "yes", "true", "knock", "1"}
_NO = {"n", "no", "false", "0"}


def _cards_held(text: str, held: CardSet, whose: str = "you") -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except GinError as error:
        raise AnswerError(str(error)) from None
    for card in cards:
        if card not in held:
            verb = "don't" if whose == "you" else "doesn't"
            raise AnswerError(f"{whose} {verb} hold {card.code}")
    return cards


def _number(text: str) -> int:
    cleaned = text.strip()
    if not re.fullmatch(r"-?\d+", cleaned):
        raise AnswerError(f"{cleaned!r} is not a number: type a whole number like 14")
    return int(cleaned)


def _yes_no(text: str) -> bool:
    word = text.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise AnswerError(f"{text.strip()!r}: answer yes or no")


def _choice_index(text: str, count: int) -> int:
    word = text.strip().lower()
    if len(word) == 1 and "a" <= word <= chr(ord("a") + count - 1):
        return ord(word) - ord("a")
    if word.isdigit() and 1 <= int(word) <= count:
        return int(word) - 1
    last = chr(ord("a") + count - 1)
    raise AnswerError(f"{text.strip()!r}: answer with a letter from a to {last}")


def read_melds(text: str, hand: CardSet) -> list[Meld]:
    """Melds typed as card groups separated by ``|``, ``;`` or ``/`` (``none`` for no melds)."""
    if text.strip().lower() in ("none", "-", "no melds"):
        return []
    melds: list[Meld] = []
    used = 0
    for group in _GROUP_SPLIT.split(text):
        if not group.strip():
            continue
        cards = _cards_held(group, hand)
        try:
            meld = Meld.parse(cards)
        except GinError as error:
            raise AnswerError(str(error)) from None
        if meld.mask & used:
            twice = next(iter(CardSet(meld.mask & used)))
            raise AnswerError(f"{twice.code} is in two melds: a card belongs to one meld at most")
        used |= meld.mask
        melds.append(meld)
    return melds


def _need(value: object | None, what: str) -> object:
    if value is None:
        raise GinError(f"this question needs {what}")
    return value


def _hand(question: Question) -> CardSet:
    hand = _need(question.hand, "a hand")
    assert isinstance(hand, CardSet)
    return hand


def _defender(question: Question) -> CardSet:
    defender = _need(question.defender, "the defender's hand")
    assert isinstance(defender, CardSet)
    return defender


def question_showdown(question: Question) -> Showdown:
    """The showdown a layoffs or points question is about."""
    return showdown(_hand(question), _defender(question), question.rules, question.upcard,
                    question.taken)


def _option_hand(option: str) -> CardSet:
    return CardSet.from_cards(parse_cards(option))


def correct_options(question: Question) -> list[int]:
    """The indices of the options for which the question's predicate holds."""
    predicate = _need(question.predicate, "a predicate")
    holds: list[bool]
    if predicate in (Predicate.MELD, Predicate.NOT_MELD):
        holds = [_option_hand(o).mask in set(melds_within(_option_hand(o).mask))
                 for o in question.options]
        if predicate is Predicate.NOT_MELD:
            holds = [not h for h in holds]
    elif predicate is Predicate.CAN_KNOCK:
        holds = [knock_verdict(_option_hand(o), question.rules, question.upcard).can_knock
                 for o in question.options]
    elif predicate is Predicate.LEAST_DEADWOOD:
        counts = [min_deadwood_mask(_option_hand(o).mask) for o in question.options]
        holds = [count == min(counts) for count in counts]
    elif predicate is Predicate.SAFE:
        known = question.opponent_known.mask
        holds = [not _gives_meld(_option_hand(o).mask, known) for o in question.options]
    else:
        holds = [Card.parse(o) != question.taken and Card.parse(o) in _hand(question)
                 for o in question.options]
    return [index for index, ok in enumerate(holds) if ok]


def _gives_meld(card_mask: int, known_mask: int) -> bool:
    """True when the card completes a meld with cards the opponent is known to hold."""
    return any(meld & card_mask for meld in melds_within(known_mask | card_mask))


def _option_label(index: int) -> str:
    return chr(ord("a") + index)


def _game_sheet(question: Question) -> GameSheet:
    from gintutor.tutor.scoresheet import parse_entries

    entries = [(f"entry {n}", text) for n, text in enumerate(question.entries, start=1)]
    records = parse_entries(entries, question.players, question.rules)
    if question.rules.hollywood:
        return score_match(records, question.rules).games[question.game - 1]
    return score_game(records, question.rules)


def _game_number(sheet: GameSheet, ask: GameAsk) -> int:
    if sheet.winner is None:
        raise GinError("this game question needs a finished game")
    finals = sheet.final_totals
    if ask is GameAsk.WINNER_FINAL:
        return finals[sheet.winner]
    if ask is GameAsk.LOSER_FINAL:
        return finals[1 - sheet.winner]
    if ask is GameAsk.MARGIN:
        return sheet.margin
    return sum(b.points for b in sheet.bonuses
               if b.player == sheet.winner and b.setting == "box_bonus")


def _rule_value(question: Question) -> object:
    setting = _need(question.setting, "a setting")
    assert isinstance(setting, str)
    if setting == "knock_limit":
        return question.rules.knock_limit_for(question.upcard)
    if setting not in SETTING_NAMES:
        raise GinError(f"unknown setting {setting!r}")
    return question.rules.settings()[setting]


def solve_question(question: Question, style: Style = PLAIN) -> Solved:
    """The engine's answer to the question and the explanation of it."""
    kind = question.kind
    if kind in (QuestionKind.DEADWOOD, QuestionKind.MELDS):
        solution = solve(_hand(question))
        blocks: list[Block] = []
        for number, arrangement in enumerate(solution.arrangements, start=1):
            if len(solution.arrangements) > 1:
                blocks.append(Line(f"arrangement {number}"))
            blocks += arrangement_lines(arrangement, style)
        if kind is QuestionKind.DEADWOOD:
            return Solved(str(solution.deadwood), tuple(blocks))
        text = " | ".join(meld.text() for meld in solution.best.melds) or "none"
        return Solved(text, tuple(blocks))
    if kind is QuestionKind.KNOCK:
        hand = _hand(question)
        verdict = knock_verdict(hand, question.rules, question.upcard, question.taken)
        blocks = []
        if len(hand) == 11:
            analysis = analyze(hand, question.rules, upcard=question.upcard,
                               taken_from_discard=question.taken)
            if question.taken is not None:
                blocks.append(Line(f"{style.card(question.taken)} was just taken from the "
                                   "discard pile, so it may not be discarded."))
            blocks.append(discard_table(analysis, style))
        blocks.append(Line(knock_sentence(verdict, question.rules)))
        return Solved("yes" if verdict.can_knock else "no", tuple(blocks))
    if kind is QuestionKind.DISCARD:
        analysis = analyze(_hand(question), question.rules, upcard=question.upcard,
                           taken_from_discard=question.taken)
        cards = analysis.verdict.best_discards
        return Solved(cards[0].code, (discard_table(analysis, style),
                                      Line(f"Best: {' or '.join(style.card(c) for c in cards)}.")))
    if kind is QuestionKind.LAYOFFS:
        result = question_showdown(question)
        laid = result.defence.laid_off
        return Solved(laid.text() or "none",
                      tuple(explain_showdown(result, style, mine=False)[1:]))
    if kind is QuestionKind.POINTS:
        result = question_showdown(question)
        return Solved(str(result.points), tuple(explain_showdown(result, style, mine=False)[1:]))
    if kind is QuestionKind.CHOICE:
        right = correct_options(question)
        labels = ", ".join(_option_label(i) for i in right)
        return Solved(_option_label(right[0]), (Line(f"Correct: {labels}."),
                                                *_choice_reasons(question, style)))
    if kind is QuestionKind.RULE:
        value = _rule_value(question)
        shown = value if isinstance(value, int) and not isinstance(value, bool) else (
            "yes" if value else "no")
        text = setting_text(question.rules, question.setting or "")
        if question.setting == "knock_limit":
            text = str(value)
        return Solved(str(shown), (Line(f"{question.setting} under {question.rules.name} rules: "
                                        f"{text}."),))
    sheet = _game_sheet(question)
    ask = _need(question.ask, "what to ask (winner-final, loser-final, margin or boxes)")
    assert isinstance(ask, GameAsk)
    return Solved(str(_game_number(sheet, ask)),
                  tuple(explain_sheet(sheet, question.players, question.rules)))


def _choice_reasons(question: Question, style: Style) -> list[Line]:
    """One line per option saying what the engine finds about it."""
    predicate = question.predicate
    lines: list[Line] = []
    for index, option in enumerate(question.options):
        label = _option_label(index)
        if predicate in (Predicate.MELD, Predicate.NOT_MELD):
            try:
                meld = Meld.parse(option)
                why = f"a {'set' if meld.is_set else 'run'}"
            except GinError:
                why = "not a meld"
            lines.append(Line(f"{label}) {style.cards(parse_cards(option))}: {why}", 1))
        elif predicate is Predicate.LEAST_DEADWOOD:
            hand = _option_hand(option)
            lines.append(Line(f"{label}) {style.cards(parse_cards(option))}: "
                              f"{min_deadwood_mask(hand.mask)} deadwood", 1))
        elif predicate is Predicate.CAN_KNOCK:
            hand = _option_hand(option)
            verdict = knock_verdict(hand, question.rules, question.upcard)
            lines.append(Line(f"{label}) {style.cards(parse_cards(option))}: "
                              f"{knock_sentence(verdict, question.rules)}", 1))
        elif predicate is Predicate.SAFE:
            cards = _option_hand(option)
            unsafe = _gives_meld(cards.mask, question.opponent_known.mask)
            lines.append(Line(f"{label}) {style.cards(parse_cards(option))}: "
                              f"{'gives the opponent a meld' if unsafe else 'safe'}", 1))
        else:
            card = Card.parse(option)
            if card == question.taken:
                status = "just taken from the discard pile: not this turn"
            elif card in _hand(question):
                status = "may be discarded"
            else:
                status = "not in the hand"
            lines.append(Line(f"{label}) {style.card(card)}: {status}", 1))
    return lines


def judge(question: Question, text: str, style: Style = PLAIN) -> Feedback:
    """Whether ``text`` answers the question correctly, and what it means if not."""
    kind = question.kind
    if kind is QuestionKind.DEADWOOD:
        value = _number(text)
        hand = _hand(question)
        best = min_deadwood_mask(hand.mask)
        if value == best:
            return Feedback(True, f"Right: {best}.")
        return Feedback(False, _deadwood_meaning(hand, value, best, style))
    if kind is QuestionKind.MELDS:
        hand = _hand(question)
        melds = read_melds(text, hand)
        used = mask_of(card for meld in melds for card in meld)
        left = CardSet(hand.mask & ~used)
        best = min_deadwood_mask(hand.mask)
        if left.points == best:
            return Feedback(True, f"Right: that leaves {deadwood_sum(left, style)}, the least.")
        return Feedback(False, f"That arrangement leaves {left.points}, not {best}.")
    if kind is QuestionKind.KNOCK:
        said = _yes_no(text)
        verdict = knock_verdict(_hand(question), question.rules, question.upcard, question.taken)
        if said == verdict.can_knock:
            return Feedback(True, "Right.")
        return Feedback(False, f"Not quite: you said {'yes' if said else 'no'}. Count the "
                               "deadwood again and compare it with the knock limit.")
    if kind is QuestionKind.DISCARD:
        hand = _hand(question)
        cards = _cards_held(text, hand)
        if len(cards) != 1:
            raise AnswerError("name one card to discard")
        card = cards[0]
        if card == question.taken:
            raise AnswerError(f"{card.code} was just taken from the discard pile: it may not be "
                              "discarded this turn")
        after = min_deadwood_mask(hand.mask & ~card.mask)
        verdict = knock_verdict(hand, question.rules, question.upcard, question.taken)
        if after == verdict.deadwood:
            return Feedback(True, f"Right: discarding {style.card(card)} leaves {after}.")
        return Feedback(False, f"Discarding {style.card(card)} leaves {after}; a better discard "
                               f"leaves {verdict.deadwood}.")
    if kind is QuestionKind.LAYOFFS:
        defender = _defender(question)
        given = CardSet(0) if text.strip().lower() in ("none", "-") else CardSet.from_cards(
            _cards_held(text, defender, "the defender"))
        result = question_showdown(question)
        plan = layoff_plan(defender, result.spread.melds, given)
        if plan is None:
            return Feedback(False, f"{style.cards(given)} cannot all be laid off on "
                                   f"{', '.join(style.meld(m) for m in result.spread.melds)}.")
        if plan.deadwood == result.defence.deadwood:
            return Feedback(True, f"Right: the defender is left with {plan.deadwood}.")
        return Feedback(False, f"Those layoffs leave the defender {plan.deadwood}; the best "
                               f"leaves {result.defence.deadwood}.")
    if kind is QuestionKind.POINTS:
        value = _number(text)
        result = question_showdown(question)
        if value == result.points:
            return Feedback(True, f"Right: {result.points}.")
        return Feedback(False, _points_meaning(result, value))
    if kind is QuestionKind.CHOICE:
        index = _choice_index(text, len(question.options))
        why = _choice_reasons(question, style)[index].text.rstrip(".")
        if index in correct_options(question):
            return Feedback(True, f"Right: {why}.")
        return Feedback(False, f"Not that one: {why}.")
    solved = solve_question(question, style)
    if kind is QuestionKind.RULE and not solved.answer.lstrip("-").isdigit():
        typed = "yes" if _yes_no(text) else "no"
    else:
        typed = str(_number(text))
    if typed == solved.answer:
        return Feedback(True, f"Right: {solved.answer}.")
    if kind is QuestionKind.GAME:
        return Feedback(False, f"Not {typed}: add the hand points, then the game bonus, any "
                               "shutout, and the box bonuses for every hand won.")
    return Feedback(False, f"Not {typed}.")


def _deadwood_meaning(hand: CardSet, value: int, best: int, style: Style) -> str:
    if value == hand.points:
        return f"{value} counts every card; melded cards are not deadwood."
    for arrangement in arrangements_mask(hand.mask, value):
        if arrangement.deadwood == value and arrangement.melds:
            shown = ", ".join(style.meld(meld) for meld in arrangement.melds)
            return (
                f"{value} is what is left after melds such as {shown}; a better arrangement "
                f"leaves {best}."
            )
    if value < best:
        return f"{value} is too low: no arrangement leaves less than {best}."
    return f"Not {value}: count the unmelded cards again."


def _points_meaning(result: Showdown, value: int) -> str:
    score = result.score
    for item in score.items:
        if item.kind is not ItemKind.DEADWOOD_DIFFERENCE and value == score.points - item.points:
            return f"Not {value}: you left out the {item.kind.value} ({item.points})."
    winner = "knocker" if score.winner is Side.KNOCKER else "defender"
    return f"Not {value}: work out who wins (the {winner}?) and add every item."


def completions(question: Question) -> list[str]:
    """What to offer for completion: the cards that make sense, options, yes/no."""
    kind = question.kind
    if kind in (QuestionKind.MELDS, QuestionKind.DISCARD) and question.hand is not None:
        return [card.code for card in question.hand if card != question.taken]
    if kind is QuestionKind.LAYOFFS and question.defender is not None:
        return [card.code for card in question.defender]
    if kind is QuestionKind.KNOCK:
        return ["yes", "no"]
    if kind is QuestionKind.CHOICE:
        return [_option_label(i) for i in range(len(question.options))]
    return []


def option_lines(question: Question, style: Style) -> list[str]:
    """The options of a choice question as ``a) ...`` lines."""
    out = []
    for index, option in enumerate(question.options):
        try:
            text = style.cards(parse_cards(option))
        except GinError:
            text = option
        out.append(f"{_option_label(index)}) {text}")
    return out


def verify_question(question: Question) -> None:
    """Raise :class:`GinError` if the engine cannot answer the question as set."""
    if question.kind is QuestionKind.RULE and question.setting not in (None, "knock_limit"):
        value = question.rules.settings().get(question.setting)
        if value is not None and not isinstance(value, (bool, int)):
            raise GinError(f"setting {question.setting!r} is {value!r}, not a number or yes/no: "
                           "ask about it with a game question")
    solve_question(question)
    if question.kind is QuestionKind.CHOICE and not correct_options(question):
        raise GinError("no option is correct: the engine finds none that fits the predicate")


def same_answer(question: Question, expected: str) -> bool:
    """True when ``expected`` (the content's ``expect:``) is judged correct by the engine."""
    try:
        return judge(question, expected).correct
    except AnswerError:
        return False

