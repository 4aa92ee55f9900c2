"""The rules a puzzle's words and position must keep, beyond a legal position and right answers.

Each rule names what it finds per puzzle (:class:`Violation`); ``puzzles check`` reports them as
``file:line: …``, except those the pack's baseline (``puzzles/baseline.json``) lists as known,
and a baseline entry that no longer fires is itself a problem, so the baseline only shrinks.

- ``facts``: a title, hint or explanation states a number, a percentage or a claim about cards
  (dead, live, can still meld with, most, least, safest, ties, the natural discard) in words
  that no placeholder computed (:func:`~gintutor.tutor.puzzles.fill_parts`). Card names are
  names, not facts.
- ``title``: a title that contradicts the verdict ("Not the obvious card" over an accepted
  natural discard; "Keep the meld whole" where an accepted answer breaks one).
- ``history``: a position no game reaches (:func:`history_problems`).
- ``hint``: a hint that leads away from the answer (:func:`hint_violations`).
- ``idea``: a daily puzzle has one clear idea (:func:`idea_violations`): its best answer beats
  every answer not accepted by at least :data:`MIN_MARGIN` points (and by more than two
  standard errors), at most :data:`MAX_ACCEPTED` answers are accepted, and the theme's idea
  decides it. A close call is a puzzle of its own kind (``kind: close-call``), never the daily,
  and accepts at most :data:`MAX_CLOSE_CALL_ACCEPTED` answers.
- ``duplicate``: a near-duplicate of another puzzle of the pack (:func:`near_duplicates`).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gintutor.content.paths import content_dir
from gintutor.content.problems import Problem
from gintutor.engine.cards import Card, CardSet
from gintutor.engine.evaluate import Position
from gintutor.engine.solver import solve
from gintutor.errors import GinError, Note, Number
from gintutor.tutor.puzzles import (
    FIRST_TURN_STOCK,
    Puzzle,
    PuzzleKind,
    Solution,
    Theme,
    fill_explanation,
    fill_parts,
    first_turn,
    meld_partners_mask,
    natural_choice,
    puzzle_key,
    stock_size,
)

BASELINE_FILE = "baseline.json"
RULES = ("facts", "title", "history", "hint", "idea", "duplicate")
"""The rules, in the order they are reported."""


@dataclass(frozen=True)
class Violation:
    """One rule a puzzle breaks: where (``field``: ``title``, ``hints[0]``, ``explanation``,
    ``position``) and why, in a whole sentence."""

    puzzle: Puzzle
    rule: str
    field: str
    message: str
    detail: str = ""
    """What was found (the claim in words), so that a baseline names this violation alone."""

    @property
    def key(self) -> str:
        """How the baseline lists it: ``facts explanation 'dead'``."""
        return " ".join(part for part in (self.rule, self.field, self.detail) if part)


# --- facts in words --------------------------------------------------------------------------

_CARD_NAME = re.compile(r"(?<![\w{])(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![\w}])")
"""A card written out (``9C``, ``10♣``): a name, not a fact."""
_CLAIMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\d"), "{best.deadwood}, {best.knock_outs:n} or {best.p_knock_within_2:%}"),
    (re.compile(r"%"), "{best.p_knock_within_2:%} or {best.p_opponent_melds:%}"),
    (re.compile(r"\bcan (?:still )?meld with\b", re.I), "{KS.melds_with}"),
    (re.compile(r"\b(?:dead|live)\b", re.I), "{KS.live} or {KS.melds_with}"),
    (
        re.compile(
            r"\bcan (?:never|no longer|not) (?:make|form|join) an? (?:set|run|meld)\b", re.I
        ),
        "{KS.melds_with} or {KS.partners}",
    ),
    (
        re.compile(r"\b(?:most|least|fewest|fewer)\b", re.I),
        "{KS.outs_rank}, {KS.knock_outs_rank}, {KS.used_rank} or {KS.deadwood_rank}",
    ),
    (re.compile(r"\b(?:safest|safer|safe|riskiest)\b", re.I), "{KS.safety_rank}"),
    (re.compile(r"\b(?:ties|tie|tied|equally)\b", re.I), "{KS.vs_best}"),
    (re.compile(r"\b(?:natural|obvious)\b", re.I), "{natural} and {KS.natural}"),
    # How often something happens is a chance the coach measures, not the writer's guess.
    (
        re.compile(r"\b(?:almost (?:never|always)|hardly ever|rarely|seldom|usually)\b", re.I),
        "{knock.mean} or {best.p_opponent_melds:%} (or no claim)",
    ),
    (
        re.compile(
            r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
            r"fourteen|fifteen|twenty|thirty)\s+(?:more\s+)?(?:points?|deadwood)\b",
            re.I,
        ),
        "{best.deadwood} or {KS.loss}",
    ),
)
"""What prose may not claim on its own, and the placeholders that compute it."""
_NUMBERS = (_CLAIMS[0][1], _CLAIMS[1][1])
_TITLE_FREE = ("{natural} and {KS.natural}",)
_ARTICLE = re.compile(r"\b[Aa] $")
_SENTENCE = re.compile(r"[^.?!]+(?:[.?!]+|$)")
"""Claims a title may make (the ``title`` rule holds them against the verdict)."""


def fact_violations(puzzle: Puzzle, solution: Solution) -> list[Violation]:
    """A violation for each title, hint or explanation that claims in words what no placeholder
    computed (the title is shown before the answer and has no placeholders)."""
    found: list[Violation] = []
    texts = [("title", [(puzzle.title, False)])]
    texts += [(f"hints[{i}]", fill_parts(hint, solution)) for i, hint in enumerate(puzzle.hints)]
    texts.append(("explanation", fill_parts(puzzle.explanation, solution)))
    for name, parts in texts:
        for (before, computed), (after, filled) in itertools.pairwise(parts):
            if not computed and filled and _ARTICLE.search(before) and after[:1].isdigit():
                found.append(
                    Violation(
                        puzzle,
                        "facts",
                        name,
                        Note(
                            "{field} puts 'a' before a number ('a {after}'): write 'a chance "
                            "of {{…}}' so that 8% and 11% read right.",
                            field=_field_words(name),
                            after=after,
                        ),
                        "'a' before a number",
                    )
                )
        written = " … ".join(_CARD_NAME.sub(" ", text) for text, computed in parts if not computed)
        statements = " ".join(s for s in _SENTENCE.findall(written) if not s.endswith("?"))
        for pattern, fix in _CLAIMS:
            if name == "title" and fix in _TITLE_FREE:
                continue
            # A question claims nothing about a card (it may not state a number either).
            match = pattern.search(written if fix in _NUMBERS else statements)
            if match is not None:
                found.append(
                    Violation(
                        puzzle,
                        "facts",
                        name,
                        Note(
                            "{field} states {claim!r} in words, not from the engine: write it "
                            "with a placeholder such as {fix}.",
                            field=_field_words(name),
                            claim=match.group(0),
                            fix=fix,
                        ),
                        "a number" if fix == _NUMBERS[0] else repr(match.group(0).lower()),
                    )
                )
    return found


def _field_words(name: str) -> Note:
    """The field a violation is in, as a message names it (``the title``, ``hint 2``)."""
    if name.startswith("hints["):
        return Note("hint {number}", number=int(name[6:-1]) + 1)
    return Note("the title") if name == "title" else Note("the explanation")


# --- titles against the verdict ---------------------------------------------------------------

_NOT_NATURAL = re.compile(
    r"not the (?:obvious|natural)|wrong card|keep the (?:meld|run|set) whole", re.I
)
_NATURAL = re.compile(r"(?:obvious|natural) (?:card|discard|one) is right", re.I)
_ACTIONS = (
    (re.compile(r"^(?:take it|take the|grab|pick it up)\b", re.I), "take"),
    (re.compile(r"^(?:leave it|draw blind|pass)\b", re.I), "draw"),
    (re.compile(r"^(?:knock now|strike now|knock!)", re.I), "knock"),
    (re.compile(r"^(?:play on|keep playing|wait)\b", re.I), "play-on"),
)


def title_violations(puzzle: Puzzle, solution: Solution) -> list[Violation]:
    """A violation when the title says the opposite of the verdict: the obvious card is wrong
    (or a meld must stay whole) where the natural discard is accepted, the obvious card is right
    where it is not, or a title that orders an action (no question mark) that is not accepted."""
    title = puzzle.title
    accepted = set(solution.accepted)
    problems: list[Note] = []
    if puzzle.theme not in (Theme.UPCARD, Theme.KNOCK_OR_PLAY):
        natural = natural_choice(solution)
        if _NOT_NATURAL.search(title) and natural in accepted:
            problems.append(
                Note(
                    "the title {title!r} says the obvious card is wrong, but the natural "
                    "discard {natural} is accepted.",
                    title=title,
                    natural=natural,
                )
            )
        if _NATURAL.search(title) and natural not in accepted:
            problems.append(
                Note(
                    "the title {title!r} says the obvious card is right, but the natural "
                    "discard {natural} is not accepted.",
                    title=title,
                    natural=natural,
                )
            )
    if "?" not in title:
        for pattern, action in _ACTIONS:
            if pattern.search(title) and action not in accepted:
                problems.append(
                    Note(
                        "the title {title!r} says {action}, but the accepted answers are "
                        "{accepted}.",
                        title=title,
                        action=action,
                        accepted=", ".join(sorted(accepted)),
                    )
                )
    return [Violation(puzzle, "title", "title", text) for text in problems]


# --- hints that lead ---------------------------------------------------------------------------


def hint_violations(puzzle: Puzzle, solution: Solution) -> list[Violation]:
    """A violation for each hint that names loose choices (cards it could discard, not kept in
    a meld by the best answer) of which none is accepted: a hint leads to an accepted answer,
    or names the cards to keep, or the tempting (natural) card with the reason against it.
    A hint that names another card with the reason against it is reported too: the rule
    cannot read reasons, so such a hint should name the answer as well."""
    accepted = set(solution.accepted)
    choices = {row.code for row in solution.rows}
    tempting = natural_choice(solution)
    kept = _kept_in_melds(puzzle, solution)
    found = []
    for index, hint in enumerate(puzzle.hints):
        named = _named_cards(fill_explanation(hint, solution)) & choices
        astray = named - accepted - kept - {tempting}
        if astray and not named & accepted:
            found.append(
                Violation(
                    puzzle,
                    "hint",
                    f"hints[{index}]",
                    Note(
                        "hint {number} names {astray} and no accepted answer ({accepted}): a "
                        "hint leads to an accepted answer, or names the tempting card with the "
                        "reason against it.",
                        number=index + 1,
                        astray=", ".join(sorted(astray)),
                        accepted=", ".join(sorted(accepted)),
                    ),
                )
            )
    return found


def shared_hints(puzzles: list[Puzzle]) -> list[Violation]:
    """A ``hint`` violation for each hint that other puzzles of the pack share word for word:
    a hint is written for its position (hint 1 names the idea to look for in it, hint 2 the
    deciding comparison), not a theme's stock sentence."""
    users: dict[str, list[Puzzle]] = {}
    for puzzle in puzzles:
        for hint in set(puzzle.hints):
            users.setdefault(hint, []).append(puzzle)
    found = []
    for puzzle in puzzles:
        for index, hint in enumerate(puzzle.hints):
            others = len(users[hint]) - 1
            if others:
                found.append(
                    Violation(
                        puzzle,
                        "hint",
                        f"hints[{index}]",
                        Note(
                            "hint {number} is word for word the hint of {others} other "
                            "puzzle(s): write it for this position.",
                            number=index + 1,
                            others=others,
                        ),
                        "shared",
                    )
                )
    return found


def _kept_in_melds(puzzle: Puzzle, solution: Solution) -> set[str]:
    """The cards the best answer keeps in a meld (in some least-deadwood arrangement of the
    hand after it): a hint that names them says what to keep, not what to throw."""
    best = solution.rows[0].code
    hand = puzzle.position.hand
    if len(hand) != 11 or best not in hand.codes:
        return set()
    rest = CardSet(hand.mask & ~Card.parse(best).mask)
    return {card.code for a in solve(rest).arrangements for card in a.melded}


def _named_cards(text: str) -> set[str]:
    """The codes of the cards ``text`` names (``9C``, ``10♣``, ``Q♦``)."""
    named = set()
    for match in _CARD_NAME.finditer(text):
        try:
            named.add(Card.parse(match.group(0)).code)
        except GinError:
            continue
    return named


# --- impossible histories ---------------------------------------------------------------------


def history_problems(puzzle: Puzzle) -> list[str]:
    """Why no game reaches the position (empty when one can), in whole sentences.

    The turns are counted from the stock: ``31 - stock`` stock draws since the first upcard
    was turned. Every turn is a draw (from the stock or the pile) and a discard, the two
    players alternate (the dealer, the opponent, may take the first upcard before the
    non-dealer's first turn), the opponent passes a pile card only before drawing from the
    stock (or once on the first upcard), and it cannot hold a card it picked up, or have
    thrown a card, in turns it did not have.
    """
    position = puzzle.position
    known = len(position.opponent_known)
    thrown = len(puzzle.opponent_discards)
    passed = len(puzzle.opponent_passed)
    took = position.took_from_discard is not None
    draws = FIRST_TURN_STOCK - stock_size(position)
    if first_turn(position):
        if known or thrown or passed:
            return [
                Note(
                    "the upcard is the hand's first (stock {stock}, no discard yet): nobody has "
                    "drawn, so the opponent cannot have picked up, thrown or passed anything "
                    "({known} picked up, {thrown} thrown, {passed} passed).",
                    stock=FIRST_TURN_STOCK,
                    known=known,
                    thrown=thrown,
                    passed=passed,
                )
            ]
        return []
    problems: list[str] = []
    mid_turn = position.upcard is None  # 11 cards: I have drawn and not yet discarded
    if mid_turn and not took and draws < 1:
        problems.append(
            Note(
                "no card has left the stock (stock {stock}), so this turn's draw was the "
                "discard pile's: give took_from_discard.",
                stock=stock_size(position),
            )
        )
    elif not _turns_fit(draws, known, thrown, passed, took, mid_turn):
        problems.append(
            Note(
                "{draws} stock draws cannot fit the opponent's history: {known} cards picked up "
                "and still held, {thrown} thrown and {passed} passed need more turns than the "
                "stock allows.",
                draws=draws,
                known=known,
                thrown=thrown,
                passed=passed,
            )
        )
    return problems


def _turns_fit(draws: int, known: int, thrown: int, passed: int, took: bool, mid: bool) -> bool:
    """True when some count of turns fits: each player's turns are its stock draws plus its
    pickups; the opponent's pickups hold its known cards, its stock draws its passes (less the
    first upcard's), its turns its discards; my current draw is a pickup when I took."""
    for opponent in range(0, 60):
        for mine in (opponent, opponent + 1) if mid else (opponent - 1, opponent):
            if mine < 0 or (mid and mine < 1):
                continue
            my_stock_min = 1 if mid and not took else 0
            my_pickups_min = 1 if mid and took else 0
            for my_stock in range(my_stock_min, min(mine - my_pickups_min, draws) + 1):
                their_stock = draws - my_stock
                their_pickups = opponent - their_stock
                if their_pickups < known or their_stock < max(0, passed - 1):
                    continue
                if opponent >= thrown:
                    return True
    return False


def history_violations(puzzle: Puzzle) -> list[Violation]:
    """:func:`history_problems` as violations of the ``history`` rule."""
    return [Violation(puzzle, "history", "position", text) for text in history_problems(puzzle)]


# --- one clear idea ----------------------------------------------------------------------------

MIN_MARGIN = 2.0
"""What the best answer of a daily puzzle must win by against every answer not accepted: in
expected points (judged themes; the coach's grades call 2 points an inaccuracy, below it a
learner cannot tell the lesson from the noise of one hand) or in deadwood (``deadwood``: two
points is the "Good" grade's bound, so a smaller edge grades the wrong answer as good)."""
MAX_ACCEPTED = 3
"""A daily puzzle accepts at most this many answers: more, and it asks nothing."""
MAX_CLOSE_CALL_ACCEPTED = 4
"""A close call accepts at most this many answers: it teaches that a few choices weigh the
same, not that nearly any discard will do (at coach version 3, 14 close calls accepted 5 to 11
of their 10 or 11 discards; their texts argued for one or two of them)."""

_THEME_IDEAS = {
    Theme.DEADWOOD: Note("the highest card is accepted: counting does not decide it."),
    Theme.OUTS: Note("the least-deadwood discard is accepted: the outs do not decide it."),
    Theme.SAFETY: Note("the least-deadwood discard is accepted: safety does not decide it."),
    Theme.LAYOFF_EXPOSURE: Note(
        "the least-deadwood knock is accepted: the layoffs do not decide it."
    ),
}


def idea_violations(puzzle: Puzzle, solution: Solution) -> list[Violation]:
    """A violation for each way a daily puzzle lacks one clear idea (``idea margin``, ``idea
    accepted``, ``idea theme``); a close call must be one (``idea close-call``) and accept at
    most :data:`MAX_CLOSE_CALL_ACCEPTED` answers (``idea accepted``).

    The theme's idea decides it when the rule of thumb does not: in ``deadwood``, ``outs``,
    ``safety`` and ``layoff-exposure`` the natural discard (the least deadwood; the highest
    card in ``deadwood``) is not accepted; in ``upcard`` the answer is not "take it when it
    completes a meld (with two cards of the hand), draw when it does not". ``knock-or-play``
    has no rule of thumb checked.
    """
    accepted = set(solution.accepted)
    others = [row for row in solution.rows if row.code not in accepted]
    margin = min((row.cost for row in others), default=0.0)
    won_by = _amount(puzzle.theme, margin)
    if puzzle.kind is PuzzleKind.CLOSE_CALL:
        if len(accepted) > MAX_CLOSE_CALL_ACCEPTED:
            return [
                Violation(
                    puzzle,
                    "idea",
                    "answers",
                    Note(
                        "{count} answers are accepted (at most {most} make a close call): drop it.",
                        count=len(accepted),
                        most=MAX_CLOSE_CALL_ACCEPTED,
                    ),
                    "accepted",
                )
            ]
        if len(accepted) == 1 and margin >= MIN_MARGIN:
            return [
                Violation(
                    puzzle,
                    "idea",
                    "answers",
                    Note(
                        "it is labelled a close call, but only {card} is accepted and it wins "
                        "by {amount}: make it a daily puzzle.",
                        card=solution.accepted[0],
                        amount=won_by,
                    ),
                    "close-call",
                )
            ]
        return []
    found = []
    closest = min(others, key=lambda row: row.cost, default=None)
    if closest is None or margin < MIN_MARGIN:
        against = (
            Note("every answer is accepted")
            if closest is None
            else Note("the best beats {card} by only {amount}", card=closest.code, amount=won_by)
        )
        found.append(
            Violation(
                puzzle,
                "idea",
                "answers",
                Note(
                    "{against} (at least {least} makes a daily puzzle): label it kind: "
                    "close-call, or drop it.",
                    against=against,
                    least=Number(MIN_MARGIN, 0 if MIN_MARGIN.is_integer() else 1),
                ),
                "margin",
            )
        )
    elif any(row.cost <= 2 * row.cost_stderr for row in others):
        found.append(
            Violation(
                puzzle,
                "idea",
                "answers",
                Note("an answer not accepted is within two standard errors of the best."),
                "margin",
            )
        )
    if len(accepted) > MAX_ACCEPTED:
        found.append(
            Violation(
                puzzle,
                "idea",
                "answers",
                Note(
                    "{count} answers are accepted (at most {most} make a daily puzzle).",
                    count=len(accepted),
                    most=MAX_ACCEPTED,
                ),
                "accepted",
            )
        )
    reason = _theme_not_deciding(puzzle, solution)
    if reason:
        found.append(Violation(puzzle, "idea", "answers", reason, "theme"))
    return found


def _amount(theme: Theme, margin: float) -> Note:
    """What a best answer wins by: deadwood (``deadwood``) or expected points, one decimal."""
    if theme is Theme.DEADWOOD:
        return Note("{amount} deadwood", amount=Number(margin, 1))
    return Note("{amount} expected points", amount=Number(margin, 1))


def _theme_not_deciding(puzzle: Puzzle, solution: Solution) -> str:
    """Why the theme's idea does not decide the puzzle, a sentence ('' when it does)."""
    accepted = set(solution.accepted)
    if puzzle.theme in _THEME_IDEAS:
        return _THEME_IDEAS[puzzle.theme] if natural_choice(solution) in accepted else ""
    if puzzle.theme is Theme.UPCARD and puzzle.position.upcard is not None:
        thumb = "take" if completes_meld(puzzle.position.upcard, puzzle.position.hand) else "draw"
        if thumb in accepted:
            return Note(
                "the rule of thumb (take the upcard when it completes a meld) answers {thumb}, "
                "which is accepted: it decides the puzzle.",
                thumb=thumb,
            )
    return ""


def completes_meld(card: Card, hand: CardSet) -> bool:
    """True when ``card`` makes a three-card meld with two cards of ``hand``.

    >>> completes_meld(Card.parse("7H"), CardSet.parse("5H 6H KS"))
    True
    >>> completes_meld(Card.parse("7H"), CardSet.parse("5H 8H KS"))
    False
    """
    return bool(meld_partners_mask(card, hand.mask))


# --- near-duplicates --------------------------------------------------------------------------

_SUIT_ORDERS = tuple(itertools.permutations(range(4)))


def _relabelled(mask: int, order: tuple[int, ...]) -> int:
    """The cards of ``mask`` with suit ``s`` renamed ``order[s]``."""
    return sum(((mask >> (13 * suit)) & 0x1FFF) << (13 * order[suit]) for suit in range(4))


def near_duplicate_reason(a: Puzzle, b: Puzzle) -> str:
    """Why ``b`` repeats ``a`` ('' when it does not): the same deal a turn or two later (the
    hands share all but two cards, what ``a`` saw dead is dead or held in ``b``, the stocks
    are at most four apart), or the same hand up to relabelling the suits or one card.

    Two puzzles of different themes on one deal are no duplicates: they ask different things.
    """
    if a.theme is not b.theme or puzzle_key(a) == puzzle_key(b):
        return ""  # the same position is reported as such by the check
    pa, pb = a.position, b.position
    hand_a, hand_b = pa.hand.mask, pb.hand.mask
    seen_b = pb.dead.mask | hand_b | pb.opponent_known.mask | _upcard_mask(pb)
    seen_a = pa.dead.mask | hand_a | pa.opponent_known.mask | _upcard_mask(pa)
    stock_gap = abs(stock_size(pa) - stock_size(pb))
    shared = (hand_a & hand_b).bit_count()
    close = stock_gap <= 4 and shared >= min(len(pa.hand), len(pb.hand)) - 2
    if close and (pa.dead.mask & ~seen_b == 0 or pb.dead.mask & ~seen_a == 0):
        return Note("the same deal a turn or two apart")
    if len(pa.hand) == len(pb.hand):
        differ = {
            order: (hand_a & ~_relabelled(hand_b, order)).bit_count() for order in _SUIT_ORDERS
        }
        fewest = min(differ.values())
        if fewest == 0:
            return Note("the same hand with the suits relabelled")
        if differ[(0, 1, 2, 3)] == 1:
            return Note("the same hand but one card")
        if fewest == 1:
            return Note("the same hand but one card, with the suits relabelled")
    return ""


def _upcard_mask(position: Position) -> int:
    return position.upcard.mask if position.upcard is not None else 0


def near_duplicates(puzzles: list[Puzzle]) -> list[Violation]:
    """A ``duplicate`` violation for each puzzle that repeats one with a smaller id."""
    ordered = sorted(puzzles, key=lambda p: p.id)
    found = []
    for index, later in enumerate(ordered):
        for earlier in ordered[:index]:
            reason = near_duplicate_reason(earlier, later)
            if reason:
                found.append(
                    Violation(
                        later,
                        "duplicate",
                        "position",
                        Note(
                            "it repeats {id} ({reason}): keep one of the two.",
                            id=earlier.id,
                            reason=reason,
                        ),
                        earlier.id,
                    )
                )
                break
    return found


# --- all rules, and the baseline -------------------------------------------------------------


def violations(puzzle: Puzzle, solution: Solution | None) -> list[Violation]:
    """Every rule ``puzzle`` breaks (those needing the solution only when it is given)."""
    found = history_violations(puzzle)
    if solution is not None:
        found = fact_violations(puzzle, solution) + title_violations(puzzle, solution) + found
        found += hint_violations(puzzle, solution) + idea_violations(puzzle, solution)
    return found


Baseline = dict[str, list[str]]
"""The known violations of the shipped pack: puzzle id -> their keys (:attr:`Violation.key`)."""


def load_baseline() -> Baseline:
    """The shipped pack's baseline (empty when there is none)."""
    try:
        text = content_dir("puzzles").joinpath(BASELINE_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    return {str(k): [str(rule) for rule in v] for k, v in data["known"].items()}


def baseline_text(found: Iterable[Violation]) -> str:
    """The baseline file listing ``found`` (one puzzle a line, so a diff shows each change)."""
    known: dict[str, set[str]] = {}
    for violation in found:
        known.setdefault(violation.puzzle.id, set()).add(violation.key)
    lines = [
        f"  {json.dumps(pid)}: {json.dumps(sorted(keys), ensure_ascii=False)}"
        for pid, keys in sorted(known.items())
    ]
    note = (
        "Known violations of the puzzle rules (gintutor/content/puzzlerules.py): fix a puzzle "
        "and remove its entry; never add one."
    )
    return (
        "{\n"
        + f'  "note": {json.dumps(note)},\n'
        + '  "known": {\n'
        + ",\n".join("  " + line for line in lines)
        + "\n  }\n}\n"
    )


def shrunk_baseline(baseline: Baseline, found: Iterable[Violation]) -> str:
    """The baseline file with only the entries ``found`` still breaks (nothing is added)."""
    return baseline_text(v for v in found if v.key in baseline.get(v.puzzle.id, ()))


def _pack_wide(key: str) -> bool:
    """True for a violation found against the whole pack (a repeat, a shared hint)."""
    return key.startswith("duplicate") or key.endswith(" shared")


def apply_baseline(
    found: list[Violation],
    baseline: Baseline,
    checked: Iterable[Puzzle],
    whole_pack: bool,
    unsolved: frozenset[str] = frozenset(),
) -> tuple[list[Violation], list[tuple[Puzzle | None, str]]]:
    """The violations the baseline does not list, and the baseline's stale entries (a puzzle
    that now keeps a rule it is listed for, or, checking the whole pack, an id not in it) as
    ``(puzzle, message)``. The ``unsolved`` puzzles' rules that need a solution were not
    checked: their entries are not stale."""
    by_id = {puzzle.id: puzzle for puzzle in checked}
    broken = {(v.puzzle.id, v.key) for v in found}
    new = [v for v in found if v.key not in baseline.get(v.puzzle.id, ())]
    stale: list[tuple[Puzzle | None, str]] = []
    for pid, rules in sorted(baseline.items()):
        puzzle = by_id.get(pid)
        if puzzle is None:
            if whole_pack:
                stale.append(
                    (
                        None,
                        Note(
                            "the baseline lists {id}, which is not in the pack: remove it.",
                            id=pid,
                        ),
                    )
                )
            continue
        for key in rules:
            if pid in unsolved and not key.startswith("history"):
                continue
            if not whole_pack and _pack_wide(key):
                continue  # a repeat or a shared hint is known only against the whole pack
            if (pid, key) not in broken:
                stale.append(
                    (
                        puzzle,
                        Note(
                            "{id} no longer breaks the rule the baseline lists as {key!r}: "
                            "remove it from puzzles/{file} (the baseline only shrinks).",
                            id=pid,
                            key=key,
                            file=BASELINE_FILE,
                        ),
                    )
                )
    return new, stale


def field_line(text: str, puzzle_line: int, field: str) -> int:
    """The line of ``field`` (``title``, ``hints[1]``, ``explanation``, ``position``) in the
    puzzle entry that starts at ``puzzle_line`` of ``text`` (the entry's line if not found)."""
    lines = text.splitlines()
    key, _, index = field.partition("[")
    for number in range(puzzle_line, len(lines)):
        line = lines[number]
        if number > puzzle_line and line.lstrip().startswith("- id:"):
            break
        if line.lstrip().startswith(f"{key}:"):
            if not index:
                return number + 1
            wanted = int(index[:-1])
            items = [
                n
                for n in range(number + 1, len(lines))
                if lines[n].lstrip().startswith("- ")
                and len(lines[n]) - len(lines[n].lstrip()) > len(line) - len(line.lstrip())
            ]
            return items[wanted] + 1 if wanted < len(items) else number + 1
    return puzzle_line


def rule_problems(
    found: list[Violation],
    stale: list[tuple[Puzzle | None, str]],
    texts: dict[str, str],
) -> list[Problem]:
    """The violations and stale baseline entries as ``file:line`` problems."""
    problems = []
    for violation in found:
        puzzle = violation.puzzle
        line = field_line(texts.get(puzzle.path, ""), puzzle.line - 1, violation.field)
        problems.append(
            Problem(
                puzzle.path,
                line,
                Note(
                    "{id}: [{rule}] {message}",
                    id=puzzle.id,
                    rule=violation.rule,
                    message=violation.message,
                ),
            )
        )
    for listed, message in stale:
        path = listed.path if listed else f"puzzles/{BASELINE_FILE}"
        problems.append(Problem(path, listed.line if listed else 1, message))
    return problems


REPORTED = (
    "facts",
    "title",
    "history",
    "hint",
    "idea margin",
    "idea accepted",
    "idea theme",
    "idea",
    "duplicate",
)
"""The columns of :func:`report`: each rule, and the idea rule's parts."""


def report(found: list[Violation], puzzles: Iterable[Puzzle]) -> dict[str, Any]:
    """Per theme: the puzzles, how many break each rule (and each part of the idea rule), how
    many keep every rule, and the ids that break the idea rule or repeat another (the cull
    list)."""
    table: dict[str, dict[str, Any]] = {}
    broken: dict[str, set[str]] = {}
    for violation in found:
        marks = broken.setdefault(violation.puzzle.id, set())
        marks.add(violation.rule)
        if violation.rule == "idea":
            marks.add(f"idea {violation.detail}")
    for puzzle in puzzles:
        row = table.setdefault(
            puzzle.theme.value,
            {"puzzles": 0, "clean": 0, **{rule: 0 for rule in REPORTED}, "cull": []},
        )
        marks = broken.get(puzzle.id, set())
        row["puzzles"] += 1
        row["clean"] += not marks
        for rule in REPORTED:
            row[rule] += rule in marks
        if "idea" in marks or "duplicate" in marks:
            row["cull"].append(puzzle.id)
    return dict(sorted(table.items()))
