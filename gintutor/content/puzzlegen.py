"""``gintutor puzzles generate``: deal positions from real-looking play and keep instructive ones.

The ``expert`` (on a cheap budget, :data:`EXPERT_WORLDS`) plays the ``heuristic`` in hands of
the hand engine (:data:`PLAYERS` names them); at each decision the position of the player to
move, as that player sees it (with the opponent's discards and passes), is offered to every
theme's filter. Each position goes through stages, cheapest first, and most are dropped early:

1. exact filters (:func:`_interesting`, :func:`_promising`): the theme's own numbers, e.g. a
   ``layoff-exposure`` knock whose least-deadwood discard is not also the least exposed to
   layoffs (:func:`_exposure`);
2. for ``upcard`` and ``knock-or-play``, a pre-screen by the coach on a small budget
   (:data:`PRESCREEN_WORLDS`): dropped when even an optimistic reading (two standard errors
   in the position's favour) leaves no clear answer, when the usual answer is clearly best
   and the theme already has enough of those, or when the rule of thumb may decide it;
3. the coach's verdict at the puzzle budget (:func:`~gintutor.tutor.puzzles.judge_puzzle`, the
   verdict ``puzzles check`` stores and compares with): the theme keeps the position when its
   best answer is clear (the runner-up costs at least a theme-specific margin in expected
   points), few answers are accepted and, for the discard themes, the best is not simply the
   least deadwood. The answers written are this verdict's.

Each hand has its own seed and sees the themes still open :data:`LAG` hands before it, so the
hands are shared among processes and the result depends on the seed only, whatever their
number. The result is YAML with titles, hints and explanations whose numbers are placeholders
filled by the engine.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterable, Iterator

from gintutor.content.puzzlerules import (
    MIN_MARGIN,
    completes_meld,
    fact_violations,
    history_problems,
    idea_violations,
    title_violations,
)
from gintutor.content.puzzles import read_puzzles
from gintutor.engine.bots import Bot, make_bot
from gintutor.engine.cards import CARD_POINTS, CARDS, Card, CardSet
from gintutor.engine.coach import judge
from gintutor.engine.evaluate import Position, evaluate, p_opponent_melds
from gintutor.engine.hand import HAND_SIZE, NO_CARD, Deal, HandState, InfoSet, Phase
from gintutor.engine.layoffs import layoff_chains
from gintutor.engine.melds import MELD_MASKS
from gintutor.engine.rules import RULE_SETS, RuleSet
from gintutor.engine.solver import min_deadwood_mask, packings
from gintutor.errors import GinError
from gintutor.tutor.puzzles import (
    Puzzle,
    Row,
    Solution,
    Theme,
    infoset_of,
    judged_kinds,
    layoff_cards,
    meld_partners_mask,
    natural_choice,
    solve_puzzle,
)
from gintutor.tutor.puzzletext import EXPLANATIONS, NATURAL_EXPLANATIONS, QUESTIONS

PLAYERS = ("expert", "heuristic")
"""The bots whose hands are dealt, by name: positions from strong play against sound play."""
EXPERT_WORLDS = 16
"""The expert's sampled worlds per decision while dealing positions (cheap: a few ms)."""
PRESCREEN_WORLDS = 32
"""The coach's worlds when it pre-screens a position (about a tenth of the puzzle budget)."""
PRESCREENED = (Theme.UPCARD, Theme.KNOCK_OR_PLAY, Theme.LAYOFF_EXPOSURE)
"""The themes the coach pre-screens: two choices, whose usual answer is often clearly best
even on few worlds, and ``layoff-exposure``, whose knocks alone are screened (exact against
each sampled defender, no play-outs: a few ms) for the least-deadwood knock clearly best,
which the theme never keeps (since coach version 2 most drafts: 3 of 77 in one run). A
discard theme's close calls (a standard error of 3-5 points at 32 worlds, against a margin of
1) show only at the puzzle budget: measured on 18 ``safety`` and ``outs`` positions, the
pre-screen passed all 18 and the full verdict kept 6."""
PRESCREEN_Z = 2.0
"""The pre-screen reads each cost this many standard errors in the position's favour."""
EXAMINED = 6
"""Positions of one hand that a theme's exact filters examine at most (``outs`` and ``safety``
evaluate every discard: about 40 ms a position)."""
TRIES = 2
"""Positions of one hand that a judged theme sends to the coach at most."""
EXACT_TRIES = 4
"""Positions of one hand a ``deadwood`` puzzle may try (exact and cheap)."""
NO_TIME_CUT = 1e9
"""No CPU-time cut in the coach: the output depends on the seed only."""
SCAN_PLAYERS = ("heuristic", "heuristic")
"""The bots of the extra hands scanned for ``layoff-exposure`` knocks (a few ms a hand)."""
SCAN_HANDS = 16
"""Extra hands per hand scanned for ``layoff-exposure`` while it is open: a knock whose
layoffs decide comes about once in a few hundred hands, too rare for the expert's hands."""
MAX_ACTIONS = 400
"""Actions after which a hand is given up: two bots may take each other's discards forever
(the stock never shrinks); a hand played to the stock's end takes about a hundred."""
LAG = 16
"""Hand ``i`` searches the themes still open after hands ``0 .. i - LAG``: a fixed lag, so
processes can deal ahead and the output does not depend on how many there are."""


def _position(info: InfoSet, rules: RuleSet) -> Position:
    """The puzzle position a player faces at an information set (only what they know)."""
    top = info.top
    draw = info.phase in (Phase.OFFER, Phase.DRAW)
    pile = info.pile_mask & ~(1 << top) if draw and top != NO_CARD else info.pile_mask
    return Position(
        CardSet(info.hand),
        rules,
        dead=CardSet(pile),
        opponent_known=CardSet(info.opponent_known),
        stock_size=info.stock_size,
        first_upcard=CARDS[info.upcard],
        upcard=CARDS[top] if draw and top != NO_CARD else None,
        took_from_discard=CARDS[info.taken] if not draw and info.taken != NO_CARD else None,
    )


def _bot(name: str) -> Bot:
    return make_bot(name, worlds=EXPERT_WORLDS) if name == "expert" else make_bot(name)


def _snapshots(
    rules: RuleSet, rng: random.Random, players: tuple[str, str]
) -> Iterator[tuple[str, Position, InfoSet]]:
    """Positions of one hand between two bots: ``("upcard", 10 cards and the pile's top)``
    before each draw, ``("discard", 11 cards)`` after it, with the information set."""
    state = HandState(Deal.shuffled(rng, dealer=rng.randrange(2)), rules)
    if state.knock_limit == 0 and rules.allows_knock:
        return  # an Oklahoma ace: gin only, no knock puzzles to be found
    bots = tuple(_bot(name) for name in players)
    for _ in range(MAX_ACTIONS):
        if state.over:
            return
        info = state.infoset()
        if info.phase in (Phase.OFFER, Phase.DRAW) and info.top != NO_CARD:
            yield "upcard", _position(info, rules), info
        elif info.phase is Phase.DISCARD:
            yield "discard", _position(info, rules), info
        state.do(bots[state.to_move].act(info, rng))


_TITLES: dict[Theme, list[str]] = {
    Theme.DEADWOOD: [
        "Not the obvious card",
        "Which card goes?",
        "Heavy card, wrong card",
        "Count before you throw",
        "Keep the meld whole",
        "The cheapest hand",
    ],
    Theme.OUTS: [
        "Count your outs",
        "Keep the door open",
        "Which pair to break?",
        "Two draws to a knock",
        "Flexible beats tidy",
        "Count the cards still out",
    ],
    Theme.SAFETY: [
        "Don't feed the opponent",
        "What did they pick up?",
        "What can they use?",
        "Read the pickup",
        "Keep it away from them",
        "Dangerous card",
    ],
    Theme.KNOCK_OR_PLAY: [
        "Knock now or wait?",
        "Is it time to knock?",
        "Knock or play on?",
        "The knock decision",
        "Strike now?",
        "One more turn?",
    ],
    Theme.UPCARD: [
        "Take it or leave it?",
        "The upcard",
        "Pick up or draw?",
        "Is that card worth it?",
        "Show your hand or draw blind?",
        "Take the card?",
    ],
    Theme.LAYOFF_EXPOSURE: [
        "Knock with which card?",
        "Spread carefully",
        "Nothing to lay off",
        "Which knock holds up?",
        "Choose your knock discard",
        "Close the ends",
    ],
}
_QUESTIONS = {
    Theme.DEADWOOD: "Which card do you discard to leave the least deadwood?",
    Theme.OUTS: QUESTIONS[Theme.OUTS],
    Theme.SAFETY: QUESTIONS[Theme.SAFETY],
    Theme.KNOCK_OR_PLAY: QUESTIONS[Theme.KNOCK_OR_PLAY],
    Theme.UPCARD: QUESTIONS[Theme.UPCARD],
    Theme.LAYOFF_EXPOSURE: QUESTIONS[Theme.LAYOFF_EXPOSURE],
}
_HINTS = {
    Theme.DEADWOOD: [
        "Deadwood is what is left after your best melds: try each discard.",
        "The highest card may belong to a meld or a near-meld.",
    ],
    Theme.OUTS: [
        "Outs are the unseen cards that let you meld or knock on the next draw.",
        "Compare the pairs you would keep: which of their cards are still unseen?",
    ],
    Theme.SAFETY: [
        "A discard is dangerous when the opponent holds two cards that meld with it.",
        "Look at the cards the opponent picked up from the discard pile.",
    ],
    Theme.KNOCK_OR_PLAY: [
        "Knocking now banks points; playing on risks being caught, or undercut, but may reach gin.",
        "How low is your deadwood, and how soon could the opponent knock?",
    ],
    Theme.UPCARD: [
        "Taking the upcard shows the opponent what you collect; drawing keeps options open.",
        "Does the upcard make a meld, or only lower your count a little?",
    ],
    Theme.LAYOFF_EXPOSURE: [
        "When you knock, the defender lays off on your melds: open ends "
        "and three-card sets invite layoffs.",
        "Which discard leaves melds the defender cannot build on?",
    ],
}
_EXPLANATIONS = {
    Theme.DEADWOOD: "Discarding {best} leaves {best.deadwood} deadwood. The tempting {natural} "
    "leaves {natural.deadwood}: it does more work in your melds than its value suggests.",
    Theme.OUTS: EXPLANATIONS[Theme.OUTS],
    Theme.SAFETY: EXPLANATIONS[Theme.SAFETY],
    Theme.KNOCK_OR_PLAY: EXPLANATIONS[Theme.KNOCK_OR_PLAY],
    Theme.UPCARD: EXPLANATIONS[Theme.UPCARD],
    Theme.LAYOFF_EXPOSURE: EXPLANATIONS[Theme.LAYOFF_EXPOSURE],
}

_NATURAL_IS_BEST = {
    Theme.DEADWOOD: "Here the obvious discard is right: {best} leaves {best.deadwood} deadwood; "
    "the next best, {second}, leaves {second.deadwood}.",
    **NATURAL_EXPLANATIONS,
}


def _difficulty(theme: Theme, margin: float) -> int:
    steps = (8, 5, 3, 2) if theme is Theme.DEADWOOD else (8.0, 5.0, 3.0, 1.5)
    for level, step in enumerate(steps, start=1):
        if margin >= step:
            return level
    return 5


_MARGINS = dict.fromkeys(Theme, MIN_MARGIN)
"""The least the runner-up must cost: deadwood, or expected points in the judged themes. It is
the daily puzzle's :data:`~gintutor.content.puzzlerules.MIN_MARGIN` in every theme: a margin of
1 (``outs``, ``safety``, ``layoff-exposure`` until 2026-12-03) let the pre-screen pass drafts
that :func:`_titled` then dropped, each after a verdict at the puzzle budget."""


@dataclasses.dataclass(frozen=True)
class _Coins:
    """A candidate's chance draws, made before any verdict so the stream never depends on one:
    ``usual`` keeps a ``knock``/``draw`` answer."""

    usual: bool

    @classmethod
    def draw(cls, rng: random.Random) -> _Coins:
        usual = rng.random() <= 0.5
        # A second coin once kept a best least-deadwood discard one time in five (the daily
        # rule now never does); it is still drawn, so a seed deals the candidates it dealt.
        rng.random()
        return cls(usual)


def _worth(theme: Theme, solution: Solution, coins: _Coins, z: float = 0.0) -> float | None:
    """The margin that makes the puzzle worth solving, or ``None`` to skip it.

    The runner-up costs at least the theme's margin; a discard theme accepts at most two
    answers, and its best is not just the least deadwood, with the theme's own number agreeing
    (:func:`_agrees`); an ``upcard`` answer is not the rule of thumb's (:func:`_thumb_within`).
    ``z`` > 0 is the pre-screen's optimistic reading of a small verdict, each cost ``z``
    standard errors in the position's favour: it is dropped when more choices than the theme
    accepts are surely within the margin of the best, when a usual or natural answer is the
    one accepted (clearly best even on few worlds), when the rule of thumb's ``upcard`` answer
    is surely within the margin, or when no choice that may be best agrees with the theme.
    """
    rows, accepted = solution.rows, solution.accepted
    most = 1 if theme in (Theme.UPCARD, Theme.KNOCK_OR_PLAY) else 2
    if z:
        near = [row for row in rows if row.cost + z * row.cost_stderr < _MARGINS[theme]]
        margin = max((row.cost + z * row.cost_stderr for row in rows[1:]), default=0.0)
        if len(near) > most:
            return None
    else:
        runner_up = next((row for row in rows if row.code not in accepted), None)
        margin = runner_up.cost if runner_up is not None else 0.0
    if margin < _MARGINS[theme]:
        return None
    if theme in (Theme.UPCARD, Theme.KNOCK_OR_PLAY):
        # "draw" and "knock" are the usual answers: keep fewer of them so both are common.
        usual = {Theme.KNOCK_OR_PLAY: "knock", Theme.UPCARD: "draw"}[theme]
        if accepted == (usual,) and not coins.usual:
            return None
        if theme is Theme.UPCARD and _thumb_within(solution, z):
            return None
        return margin
    natural = natural_choice(solution)
    # The natural discard accepted is the rule of thumb deciding: never a daily puzzle
    # (:func:`~gintutor.content.puzzlerules.idea_violations`).
    if accepted == (natural,) if z else natural in accepted:
        return None
    plain = solution.row(natural)
    if z:
        maybe_best = [row for row in rows if row.cost - z * row.cost_stderr <= 0]
        return margin if any(_agrees(theme, row, plain) for row in maybe_best) else None
    if len(accepted) > most or not _agrees(theme, rows[0], plain):
        return None
    return margin


def _thumb_within(solution: Solution, z: float) -> bool:
    """True when the ``upcard`` rule of thumb (take the card when it completes a meld with two
    of the hand, else draw) is accepted, or, on a pre-screen (``z`` > 0), may be: its cost read
    ``z`` standard errors in the position's favour is under the margin. Such a draft fails the
    daily puzzle's rule (:func:`~gintutor.content.puzzlerules.idea_violations`), which
    :func:`_titled` applied only after the verdict at the puzzle budget: 32 of the 67 upcard
    puzzles of the pack on 2026-12-03 were drafts the rule now drops."""
    position = solution.puzzle.position
    if position.upcard is None:
        return False
    thumb = solution.row("take" if completes_meld(position.upcard, position.hand) else "draw")
    if not z:
        return thumb.code in solution.accepted
    return thumb.cost + z * thumb.cost_stderr < _MARGINS[Theme.UPCARD]


def _agrees(theme: Theme, best: Row, plain: Row) -> bool:
    """True when the theme's own number agrees with the best choice against the natural one:
    ``outs``, at least its chance to knock within two draws; ``safety``, less chance to give a
    meld; every judged discard theme, at most 8 more deadwood."""
    ours, theirs = best.evaluation, plain.evaluation
    if ours is None or theirs is None:
        return False
    if theme is Theme.OUTS and ours.p_knock_within_2 < theirs.p_knock_within_2:
        return False
    if theme is Theme.SAFETY and ours.p_opponent_melds >= theirs.p_opponent_melds:
        return False
    return theme is Theme.DEADWOOD or ours.deadwood <= theirs.deadwood + 8


def _interesting(theme: Theme, kind: str, position: Position) -> bool:
    """Cheap filters before the evaluation."""
    limit = position.knock_limit
    if theme is Theme.UPCARD:
        # Only a card that lowers the deadwood (with the best discard after it) is a question:
        # any other is left for the stock by everyone.
        if kind != "upcard" or position.upcard is None:
            return False
        hand = position.hand.mask
        taken = hand | position.upcard.mask
        after = min(min_deadwood_mask(taken & ~c.mask) for c in position.hand)
        return after < min_deadwood_mask(hand)
    if kind != "discard":
        return False
    best = min(
        min_deadwood_mask(position.hand.mask & ~c.mask)
        for c in position.hand
        if c != position.took_from_discard
    )
    if theme is Theme.KNOCK_OR_PLAY:
        return min(5, limit) <= best <= limit and best > 0
    if theme is Theme.LAYOFF_EXPOSURE:
        # Several discards that knock: what the defender can lay off may tell them apart.
        knocking = [
            c
            for c in position.hand
            if c != position.took_from_discard
            and min_deadwood_mask(position.hand.mask & ~c.mask) <= limit
        ]
        return 0 < best <= limit and len(knocking) >= 2
    if theme is Theme.SAFETY:
        # At the void point the discard can no longer feed anyone.
        stock = position.stock_size or 0
        if not position.opponent_known or best <= limit or stock <= position.rules.void_at_stock:
            return False
        natural = min(
            (c for c in position.hand if c != position.took_from_discard),
            key=lambda c: (min_deadwood_mask(position.hand.mask & ~c.mask), -c.points, -c.index),
        )
        danger = p_opponent_melds(natural, position, position.hand.mask & ~natural.mask)
        return danger >= 0.3
    return best > limit


HandWork = tuple[RuleSet, int, int, tuple[Theme, ...], tuple[str, str]]
"""One hand to search: the rules, the seed, the hand's number, the open themes, the players."""
Found = tuple[Theme, tuple[int, int, int], Puzzle]
"""A puzzle found in a hand, with its position's key (a position is written once)."""


def generate(
    wanted: dict[Theme, int],
    rules: RuleSet,
    seed: int = 2026,
    progress: Callable[[Theme, int], None] | None = None,
    max_hands: int = 200_000,
    *,
    jobs: int = 1,
    players: tuple[str, str] = PLAYERS,
    taken_ids: Iterable[str] = (),
) -> list[Puzzle]:
    """Deal hands until every theme has its count of instructive puzzles.

    Hand ``i`` searches the themes still open after the hands up to ``i - LAG`` (:data:`LAG`),
    and each theme takes its puzzles in deal order: ``jobs`` processes deal ahead, and the
    output depends only on the seed. Ids continue after the highest of ``taken_ids`` (the
    pack's) in each theme, so they never clash.
    """
    verify_rules(rules)
    made: dict[Theme, list[Puzzle]] = {theme: [] for theme in wanted}
    seen: set[tuple[int, int, int]] = set()
    numbers = _next_numbers(taken_ids)

    def still_open() -> tuple[Theme, ...]:
        return tuple(t for t, n in wanted.items() if len(made[t]) < n)

    def take(found: list[Found]) -> None:
        for theme, key, draft in found:
            if len(made[theme]) >= wanted[theme] or key in seen:
                continue
            seen.add(key)
            numbers[theme] += 1
            made[theme].append(dataclasses.replace(draft, id=f"{theme.value}-{numbers[theme]:03d}"))
            if progress is not None:
                progress(theme, len(made[theme]))

    opened = [still_open()]  # opened[k]: the themes still open once hands 0 .. k - 1 are taken
    workers = None
    if jobs > 1:
        from gintutor.engine.workers import Workers  # 30 ms of imports only a -j run pays

        workers = Workers(jobs)
    ahead = LAG if workers is not None else 1  # hands dealt but not taken: no idle process
    pending: dict[int, Callable[[], list[Found]]] = {}
    done = 0
    try:
        for index in range(max_hands):
            # Deal ahead while the open themes of hand ``index`` are known (the lag).
            while pending and (len(pending) >= ahead or index - LAG >= len(opened)):
                take(pending.pop(done)())
                done += 1
                opened.append(still_open())
            if not still_open():
                break
            item = (rules, seed, index, opened[max(0, index - LAG)], players)
            if workers is not None:
                pending[index] = workers.submit(_hand_puzzles, item)
            else:
                pending[index] = functools.partial(list, _hand_puzzles(item))
        while pending and still_open():
            take(pending.pop(done)())
            done += 1
    finally:
        if workers is not None:
            workers.close()
    return [puzzle for theme in wanted for puzzle in made[theme]]


def verify_rules(rules: RuleSet) -> None:
    """Raise :class:`GinError` unless ``rules`` is one of the presets: a puzzle names its rule
    set (``rules: classic``) and is read back under that name, so under house rules every draft
    failed to read back and the search dealt its 200,000 hands for nothing (hours, no output).
    """
    if RULE_SETS.get(rules.name.strip().lower()) != rules:
        raise GinError(
            "--rules: house rules ({rules}) cannot be written into a puzzle, which names "
            "a preset rule set: use one of {names}",
            rules=rules.name,
            names=", ".join(RULE_SETS),
        )


def _next_numbers(taken_ids: Iterable[str]) -> dict[Theme, int]:
    """The highest number used in each theme's ids (``outs-049`` is 49)."""
    numbers = dict.fromkeys(Theme, 0)
    for puzzle_id in taken_ids:
        name, _, number = puzzle_id.rpartition("-")
        for theme in Theme:
            if name == theme.value and number.isascii() and number.isdigit() and len(number) < 10:
                numbers[theme] = max(numbers[theme], int(number))
    return numbers


def _promising(theme: Theme, position: Position) -> bool:
    """Exact tests before the costly step: a ``deadwood`` runner-up must trail by the margin;
    in ``outs`` or ``safety`` a discard other than the natural one must stand out on the
    theme's own number (4 percentage points more chance to knock within two draws; 25 less
    chance to give a meld), at most 8 more deadwood; in ``layoff-exposure`` a knock discard
    other than the natural one must save more in layoffs than it adds in deadwood
    (:func:`_layoffs_may_decide`)."""
    if theme is Theme.DEADWOOD:
        # The runner-up must leave at least the margin more deadwood than the best discard.
        left = sorted(
            min_deadwood_mask(position.hand.mask & ~c.mask)
            for c in position.hand
            if c != position.took_from_discard
        )
        return left[1] - left[0] >= _MARGINS[theme]
    if theme is Theme.LAYOFF_EXPOSURE:
        return _layoffs_may_decide(position)
    if theme not in (Theme.OUTS, Theme.SAFETY):
        return True
    options = evaluate(position).options
    natural = min(options, key=lambda e: (e.deadwood, -e.card.points, -e.card.index))
    near = [e for e in options if e.deadwood <= natural.deadwood + 8]
    if theme is Theme.OUTS:
        return max(e.p_knock_within_2 for e in near) >= natural.p_knock_within_2 + 0.04
    return min(e.p_opponent_melds for e in near) <= natural.p_opponent_melds - 0.25


def _exposure(hand_mask: int, deadwood: int, position: Position) -> float:
    """The expected points the defender lays off directly onto the knocker's melds (the least
    over the hand's arrangements at ``deadwood``): each card that extends a meld, counted at
    its points times the chance the defender holds it (certain for a card known in the
    defender's hand, its share of the hidden cards for any other unseen card)."""
    known = position.opponent_known.mask
    unseen = position.unseen.mask
    hidden = max(0, HAND_SIZE - known.bit_count())
    share = hidden / max(1, unseen.bit_count())
    best = float("inf")
    for melds, _ in packings(hand_mask, deadwood):
        total = 0.0
        for meld in melds:
            for chain in layoff_chains(meld, known | unseen):
                bit = chain[0]
                weight = 1.0 if bit & known else share
                total += weight * CARD_POINTS[bit.bit_length() - 1]
        best = min(best, total)
    return best


LAYOFF_EDGE = 0.25
"""The least (in points) by which a knock discard's saved layoffs must exceed its extra
deadwood over the natural knock (:func:`_layoffs_may_decide`). Measured on 298 knocks from
heuristic hands whose natural discard was not the least exposed, each judged at the puzzle
budget: the 10 kept had an edge of 0.88 or more, and only 28 of the 298 had 0.25 or more."""


def _layoffs_may_decide(position: Position) -> bool:
    """True when a knock discard other than the natural one (the least deadwood, ties to the
    highest card) may beat it by what the defender can lay off: its melds' expected direct
    layoffs (:func:`_exposure`) are lower than the natural knock's by at least its extra
    deadwood and :data:`LAYOFF_EDGE`. Otherwise the natural knock is best on both counts, and
    the position teaches nothing about layoffs."""
    limit = position.knock_limit
    knocks = []
    for card in position.hand:
        if card == position.took_from_discard:
            continue
        rest = position.hand.mask & ~card.mask
        deadwood = min_deadwood_mask(rest)
        if deadwood <= limit:
            knocks.append((deadwood, -card.points, -card.index, rest))
    if len(knocks) < 2:
        return False
    knocks.sort()
    (least, _, _, natural_rest), *others = knocks
    natural = _exposure(natural_rest, least, position)
    return any(
        deadwood - least + LAYOFF_EDGE <= natural
        and natural - _exposure(rest, deadwood, position) >= deadwood - least + LAYOFF_EDGE
        for deadwood, _, _, rest in others
    )


def _knock_scan(rules: RuleSet, seed: int, index: int) -> list[tuple[Position, InfoSet]]:
    """The ``layoff-exposure`` candidates of :data:`SCAN_HANDS` extra hands between
    :data:`SCAN_PLAYERS`, dealt from hand ``index``'s seed: knocks whose layoffs may decide."""
    found = []
    for scan in range(SCAN_HANDS):
        rng = random.Random(f"{seed}:{index}:scan:{scan}")
        for kind, position, info in _snapshots(rules, rng, SCAN_PLAYERS):
            if _interesting(Theme.LAYOFF_EXPOSURE, kind, position) and _layoffs_may_decide(
                position
            ):
                found.append((position, info))
    return found


_RARITY = (
    Theme.KNOCK_OR_PLAY,
    Theme.LAYOFF_EXPOSURE,
    Theme.SAFETY,
    Theme.OUTS,
    Theme.UPCARD,
    Theme.DEADWOOD,
)
"""The order themes are served in a hand: the rarest positions first (an upcard comes at every
draw, a knock at most once or twice a hand)."""


def _hand_puzzles(item: HandWork) -> list[Found]:
    """The instructive positions of hand number ``index``: ``(theme, position key, puzzle)``.

    The hand is played first; then each open theme takes at most one of the positions that fit
    it, trying a few (:data:`TRIES`, at random) through the stages of :func:`_draft`. Each
    theme draws from its own generator, so what one theme finds never moves another's.
    """
    rules, seed, index, open_themes, players = item
    rng = random.Random(f"{seed}:{index}")
    fits: dict[Theme, list[tuple[Position, InfoSet]]] = {theme: [] for theme in open_themes}
    for kind, position, info in _snapshots(rules, rng, players):
        for theme in open_themes:
            if _interesting(theme, kind, position):
                fits[theme].append((position, info))
    if Theme.LAYOFF_EXPOSURE in open_themes:
        fits[Theme.LAYOFF_EXPOSURE] += _knock_scan(rules, seed, index)
    found: list[Found] = []
    for theme in _RARITY:
        if not fits.get(theme):
            continue
        theme_rng = random.Random(f"{seed}:{index}:{theme.value}")
        tries = TRIES if theme.judged else EXACT_TRIES
        candidates = theme_rng.sample(fits[theme], min(EXAMINED, len(fits[theme])))
        for position, info in candidates:
            coins = _Coins.draw(theme_rng)
            if not _promising(theme, position):
                continue
            puzzle = _draft(theme, position, info, coins, theme_rng)
            if puzzle is not None:
                key = (position.hand.mask, position.dead.mask, position.opponent_known.mask)
                found.append((theme, key, puzzle))
                break
            tries -= 1
            if not tries:
                break
    return found


def _draft(
    theme: Theme, position: Position, info: InfoSet, coins: _Coins, rng: random.Random
) -> Puzzle | None:
    """The puzzle of this position if the theme finds it instructive, else ``None``.

    The :data:`PRESCREENED` themes are pre-screened on :data:`PRESCREEN_WORLDS` first; the
    answers are those of the verdict at the puzzle budget.
    """
    draft = Puzzle(
        f"{theme.value}-new",
        _TITLES[theme][rng.randrange(len(_TITLES[theme]))],
        theme,
        3,
        position,
        _QUESTIONS[theme],
        (),
        tuple(_HINTS[theme]),
        _EXPLANATIONS[theme],
        opponent_discards=CardSet(info.opponent_discards),
        opponent_passed=CardSet(info.opponent_passed),
    )
    # Judged as ``puzzles check`` reads it back: a verdict is seeded and keyed by exactly the
    # position written (the YAML keeps no first upcard where the rules do not need one).
    read, problems = read_puzzles(to_yaml([draft]), "generated")
    if problems or len(read) != 1 or history_problems(read[0]):
        return None  # a position the puzzle cannot state (say, the dealer offered the upcard)
    draft = dataclasses.replace(read[0], path="", line=0)
    try:
        if theme in PRESCREENED:
            quick = judge(
                infoset_of(draft),
                worlds=PRESCREEN_WORLDS,
                seconds=NO_TIME_CUT,
                seed=draft.seed,
                kinds=judged_kinds(theme),  # what the verdict judges
            )
            if _worth(theme, solve_puzzle(draft, quick), coins, z=PRESCREEN_Z) is None:
                return None
        solution = solve_puzzle(draft)
    except GinError:
        return None
    margin = _worth(theme, solution, coins)
    if margin is None:
        return None
    explanation = draft.explanation
    if theme in _NATURAL_IS_BEST and natural_choice(solution) in solution.accepted:
        explanation = _NATURAL_IS_BEST[theme]
    elif theme is Theme.DEADWOOD:
        explanation = _deadwood_explanation(draft.position.hand, solution)
    elif theme is Theme.UPCARD:
        explanation = _upcard_explanation(draft.position, solution) or explanation
    elif theme is Theme.KNOCK_OR_PLAY:
        explanation = _knock_explanation(draft.position, solution) or explanation
    elif theme is Theme.LAYOFF_EXPOSURE:
        explanation = _layoff_explanation(draft.position, solution) or explanation
    elif theme is Theme.OUTS:
        explanation = _outs_explanation(draft.position, solution) or explanation
    elif theme is Theme.SAFETY:
        explanation = _safety_explanation(draft.position, solution) or explanation
    written = dataclasses.replace(
        draft,
        difficulty=_difficulty(theme, margin),
        answers=solution.accepted,
        explanation=explanation,
    )
    return _titled(dataclasses.replace(written, hints=_hints(written, solution)), solution)


def _deadwood_explanation(hand: CardSet, solution: Solution) -> str:
    """The explanation of a ``deadwood`` puzzle whose highest card is not the answer: the meld
    that card sits in once the best card is thrown (it always sits in one: were it loose,
    throwing it instead would leave no more deadwood), and what each throw leaves."""
    from gintutor.engine.solver import solve

    natural = Card.parse(natural_choice(solution))
    best = solution.rows[0].code
    melds = solve(CardSet(hand.mask & ~Card.parse(best).mask)).best.melds
    home = next(meld for meld in melds if natural.mask & meld.cards.mask)
    kept = " and ".join(meld.cards.display() for meld in melds)
    if home.cards.mask & ~natural.mask in MELD_MASKS:  # a set of four, or a run's end
        return (
            f"The {{natural}} is as heavy as any card you hold, but it is part of "
            f"{home.cards.display()}, "
            "where it counts nothing. Throw it and you are left with {natural.deadwood} "
            f"deadwood; throw {{best}} instead, keep {kept}, and only {{best.deadwood}} is "
            "left. A card's points count only while it is loose: throwing a melded card saves "
            "nothing."
        )
    return (
        f"The {{natural}} is as heavy as any card you hold, but it is part of "
        f"{home.cards.display()}. "
        "Throw it and that meld breaks: you are left with {natural.deadwood} deadwood. Throw "
        f"{{best}} instead, keep {kept}, and only {{best.deadwood}} is left. A card's points "
        "count only while it is loose: throwing {natural} saves its points but costs you the "
        "meld."
    )


def _upcard_explanation(position: Position, solution: Solution) -> str | None:
    """The explanation of an ``upcard`` puzzle the rule of thumb gets wrong, or ``None`` when
    the thumb's answer is accepted: a card that completes no meld but is worth taking (it
    lowers the count, and what it can still meld with), or one that completes a meld but is
    worth leaving. Numbers and claims are placeholders; card names come from the position."""
    upcard = position.upcard
    if upcard is None or len(solution.accepted) != 1:
        return None
    answer = solution.accepted[0]
    partners = CardSet(meld_partners_mask(upcard, position.hand.mask))
    code = "{" + upcard.code + "}"
    if answer == "take" and not partners:
        now = min_deadwood_mask(position.hand.mask)
        taken = position.hand.mask | upcard.mask
        if min(min_deadwood_mask(taken & ~c.mask) for c in position.hand) >= now:
            return None  # no drop in the count to point at
        return (
            f"The {code} completes no meld with two of your cards, so the rule of thumb says "
            "draw. Take it anyway and throw {least_deadwood}: you are left with "
            f"{{least_deadwood.deadwood}} deadwood, and the {code} {{{upcard.code}.melds_with}}. "
            "Against a strong opponent {take} averages {take.mean} points and {draw} "
            "{draw.mean}: a blind draw gives up a sure drop in your count for the chance of a "
            "better card."
        )
    if answer == "draw" and partners:
        return (
            f"The {code} completes a meld with your {partners.display()}, so the rule of thumb "
            "says take it. Here drawing is worth more: {draw} averages {draw.mean} points "
            "against {take.mean} for {take}. After taking it you would throw {least_deadwood} "
            "and hold {least_deadwood.deadwood} deadwood, and the opponent would know which "
            "cards you collect: the meld does not pay for what it shows and what the stock may "
            "still bring."
        )
    return None


def _knock_explanation(position: Position, solution: Solution) -> str | None:
    """The explanation of a ``knock-or-play`` puzzle with one answer: the knock's discard and
    spread, what a defender may lay off on it and the cards that would give gin (all
    placeholders), weighed as the verdict weighs them; ``None`` when the knock has no discard
    (the verdict judged no knock)."""
    knock = next((row for row in solution.rows if row.code == "knock"), None)
    evaluation = solution.evaluation
    if knock is None or knock.judged is None or evaluation is None or len(solution.accepted) != 1:
        return None
    card = Card.from_index(knock.judged.action.card)
    code, melds = card.code, _melds_after(position.hand, card.code)
    if solution.accepted == ("knock",):
        return (
            f"Throw the {{{code}}} and you knock with {{{code}.deadwood}}, spreading {melds}. "
            f"Cards a defender can lay off on them: {{{code}.layoffs}}; cards that would give "
            f"you gin: {{{code}.gin_outs}}. Knocking averages {{knock.mean}} points against "
            "{play-on.mean} for playing on: every turn you wait lets the opponent lower their "
            "count or knock first."
        )
    return (
        f"Throw the {{{code}}} and you could knock with {{{code}.deadwood}}, spreading {melds}. "
        f"Cards a defender could lay off on them: {{{code}.layoffs}}; cards that would give you "
        f"gin: {{{code}.gin_outs}}. Playing on averages {{play-on.mean}} points against "
        "{knock.mean} for knocking: "
        + (
            "the knock banks less now than waiting for gin is worth."
            if any(o.card == card and o.gin_outs for o in evaluation.options)
            else "a knock here risks an undercut, and playing on lets you lower your count first."
        )
    )


def _layoff_explanation(position: Position, solution: Solution) -> str | None:
    """The explanation of a ``layoff-exposure`` puzzle whose natural knock (the least deadwood)
    is not accepted: each knock's spread, count and direct layoffs (placeholders), and, when
    the best knock offers fewer layoff points, that the natural one gave the defender more to
    lay off (and saved count only when its count is really lower: the two may tie); ``None``
    when the natural knock is accepted."""
    natural, best = natural_choice(solution), solution.rows[0].code
    if natural in solution.accepted:
        return None
    hand = position.hand
    offered = {
        code: sum(c.points for c in layoff_cards(solution, code)) for code in (natural, best)
    }
    left = {code: min_deadwood_mask(hand.mask & ~Card.parse(code).mask) for code in (natural, best)}
    saved = left[natural] < left[best]
    if offered[best] < offered[natural]:
        ending = (
            "a learner who knocked with {natural} saved a little count but left the defender "
            "more to lay off."
            if saved
            else "the count is the same, but a learner who knocked with {natural} left the "
            "defender more to lay off."
        )
    else:
        ending = (
            "the lower count is not the better knock here."
            if saved
            else "the count is the same, and the knock after {best} is worth more."
        )
    return (
        "Knock after {natural}, {natural.natural}, and you spread "
        f"{_melds_after(hand, natural)} with {{natural.deadwood}} deadwood; cards a defender "
        "can lay off on it: {natural.layoffs}. Knock after {best} instead and you spread "
        f"{_melds_after(hand, best)} with {{best.deadwood}}; cards they can lay off: "
        "{best.layoffs}. Against a strong opponent that knock averages {best.mean} points "
        "and the knock after {natural} {natural.mean}: " + ending
    )


def _outs_explanation(position: Position, solution: Solution) -> str | None:
    """The explanation of an ``outs`` puzzle whose natural discard (the least deadwood) is not
    accepted: what each of the two discards keeps (melds and loose cards, named), its knock
    outs and chance to knock within two draws (placeholders), and the two means."""
    natural, best = natural_choice(solution), solution.rows[0].code
    if natural in solution.accepted:
        return None
    hand = position.hand

    def keeps(code: str) -> str:
        return f"{_melds_after(hand, code)} with {_loose_after(hand, code)} loose"

    return (
        f"Throw {{natural}}, {{natural.natural}}, and you keep {keeps(natural)}: "
        "{natural.deadwood} deadwood, {natural.knock_outs:n} knock outs and a chance of "
        "{natural.p_knock_within_2:%} to knock within two draws. Throw {best} and you keep "
        f"{keeps(best)}: {{best.deadwood}} deadwood, {{best.knock_outs:n}} knock outs "
        "({best.knock_outs}) and a chance of {best.p_knock_within_2:%}. Against a strong "
        "opponent {best} averages {best.mean} points and {natural} {natural.mean}: "
        + (
            "a lower count now is not always the faster knock."
            if _faster(solution, best, natural)
            else "the outs do not decide it here: the play-outs weigh what each hand risks "
            "against the opponent."
        )
    )


def _safety_explanation(position: Position, solution: Solution) -> str | None:
    """The explanation of a ``safety`` puzzle whose natural discard is not accepted: the cards
    the opponent picked up that the natural discard melds with (named, when there are any),
    each discard's chance to give them a meld and deadwood (placeholders), and the means."""
    natural = natural_choice(solution)
    if natural in solution.accepted or not position.opponent_known:
        return None
    card = Card.parse(natural)
    theirs = position.opponent_known.mask
    fits = CardSet(meld_partners_mask(card, theirs | position.unseen.mask) & theirs)
    known = position.opponent_known.display()
    opening = (
        f"The opponent picked up {known}, and {{natural}}, {{natural.natural}}, goes with "
        f"their {fits.display()}: "
        if fits
        else f"The opponent picked up {known}: "
    )
    return (
        opening + "they can meld {natural} with a chance of {natural.p_opponent_melds:%}. {best} "
        "gives them a chance of {best.p_opponent_melds:%} and leaves you {best.deadwood} "
        "deadwood against {natural.deadwood}. Against a strong opponent {best} averages "
        "{best.mean} points and {natural} {natural.mean}: a little more deadwood is a small "
        "price for not feeding them."
    )


def _faster(solution: Solution, code: str, other: str) -> bool:
    """True when discarding ``code`` leaves at least the chance to knock within two draws that
    discarding ``other`` does."""
    chance = {
        row.code: row.evaluation.p_knock_within_2
        for row in solution.rows
        if row.evaluation is not None
    }
    return chance.get(code, 0.0) >= chance.get(other, 0.0)


def _hints(puzzle: Puzzle, solution: Solution) -> tuple[str, ...]:
    """Two hints written for this position (cards named, numbers as placeholders): the first
    names the idea to look for here, the second the deciding comparison, naming the tempting
    natural choice or the best one, never another. Each names the melds of this hand, so no
    two puzzles share a hint; claims about cards are asked, not stated (the facts rule).

    When the natural choice is the best one, the comparison is between the best and its
    strongest rival (:func:`_rival`), the two named in card order so that the order does not
    tell which is the answer: a card compared with itself leads nowhere."""
    position = puzzle.position
    theme = puzzle.theme
    best = solution.rows[0].code
    natural = natural_choice(solution)

    def name(code: str) -> str:
        return Card.parse(code).display()

    if theme is Theme.UPCARD and position.upcard is not None:
        upcard = position.upcard.display()
        melds = _melds_after(position.hand, "")
        loose = _loose_after(position.hand, "")
        if best == "take":
            return (
                f"You hold {melds}, with {loose} loose. Does the {upcard} join your cards, "
                "or only lower your count?",
                f"Take the {upcard} and throw one of {loose}: how far does your count drop, "
                "against what one blind draw is likely to do?",
            )
        return (
            f"You hold {melds}, with {loose} loose. What would the {upcard} really add?",
            f"What does taking the {upcard} tell the opponent, and could a blind draw help "
            f"{loose} as much?",
        )
    if theme is Theme.KNOCK_OR_PLAY:
        knock = next((r for r in solution.rows if r.code == "knock"), None)
        card = (
            Card.from_index(knock.judged.action.card)
            if knock is not None and knock.judged is not None
            else None
        )
        after = f"After the {card.display()}" if card is not None else "Knocking now"
        code = card.code if card is not None else best
        melds = _melds_after(position.hand, code)
        first = (
            f"{after} you could knock with {{{code}.deadwood}}, spreading {melds}. How low is "
            "an opponent likely to be with {stock} cards left in the stock?"
        )
        if best == "knock":
            loose = _loose_after(position.hand, code)
            return (
                first,
                f"Waiting costs turns: how few unseen cards would help {loose}, and how much "
                "lower is the defender likely to get meanwhile?",
            )
        return (
            first,
            f"What could the defender lay off on {melds}, and how close are you to gin if "
            "you wait?",
        )
    melds = _melds_after(position.hand, best)
    first = _first_hint(puzzle, natural, best, melds)
    if natural != best:
        one, other = natural, best
    else:
        rival = _rival(solution)
        if rival is None:  # one choice only: nothing to compare it with
            return first, _HINTS[theme][1]
        one, other = sorted((best, rival), key=lambda code: Card.parse(code).index)
    if theme is Theme.DEADWOOD:
        kept = melds if other == best else _melds_after(position.hand, other)
        return (
            first,
            f"Throwing the {name(one)} leaves {{{one}.deadwood}}: what does the "
            f"{name(other)} leave, with {kept} kept?",
        )
    if theme is Theme.OUTS:
        if natural != best:
            return (
                first,
                f"Compare the {name(one)} with the {name(other)}: which keeps more ways to "
                f"knock, with {_loose_after(position.hand, best)} left to improve?",
            )
        return (
            first,
            f"Compare the {name(one)} with the {name(other)}: which keeps more ways to knock? "
            f"Throwing the {name(one)} leaves {{{one}.deadwood}} deadwood, the "
            f"{name(other)} {{{other}.deadwood}}.",
        )
    if theme is Theme.SAFETY:
        known = position.opponent_known.display() or "nothing"
        second = (
            f"Compare the {name(one)} with the {name(other)}: which of them goes with "
            f"{known}, and what does keeping the other cost you?"
        )
        if natural == best:
            second += (
                f" Throwing the {name(one)} leaves {{{one}.deadwood}} deadwood, the "
                f"{name(other)} {{{other}.deadwood}}."
            )
        return first, second
    return (
        first,
        f"Compare knocking after the {name(one)} with knocking after the {name(other)}: "
        "what can the defender lay off on each?",
    )


def _first_hint(puzzle: Puzzle, natural: str, best: str, melds: str) -> str:
    """The first hint of a discard theme: the idea to look for in this hand."""
    position = puzzle.position
    name = Card.parse(natural).display()
    if puzzle.theme is Theme.DEADWOOD:
        return (
            f"Which melds does {position.hand.display()} hold once a card goes? Is the "
            f"{name}, your highest card, in one of them?"
        )
    if puzzle.theme is Theme.OUTS:
        return (
            f"Beside {melds}, which loose cards can still become a meld? Count the unseen "
            f"cards that would let you knock after throwing the {name}."
        )
    if puzzle.theme is Theme.SAFETY:
        known = position.opponent_known.display() or "nothing"
        return (
            f"You keep {melds}; {_loose_after(position.hand, best)} and the "
            f"{Card.parse(best).display()} are loose. The opponent picked up {known}: which "
            "of them could they meld?"
        )
    return f"Whatever you throw, you spread {melds}: which of them are open to layoffs?"


def _rival(solution: Solution) -> str | None:
    """The best answer's strongest rival: the best-valued choice that is not accepted (the
    runner-up the verdict's margin is measured to), else the next row; ``None`` when the
    puzzle has one choice."""
    rows = solution.rows
    rejected = next((row.code for row in rows if row.code not in solution.accepted), None)
    if rejected is not None:
        return rejected
    return rows[1].code if len(rows) > 1 else None


def _loose_after(hand: CardSet, code: str) -> str:
    """The cards left out of the hand's best arrangement once ``code`` is thrown, as text."""
    from gintutor.engine.solver import solve

    rest = CardSet(hand.mask & ~Card.parse(code).mask) if code and code in hand.codes else hand
    return solve(rest).best.deadwood_cards.display() or "nothing"


def _melds_after(hand: CardSet, code: str) -> str:
    """The melds of the hand's best arrangement once ``code`` is thrown, as text."""
    from gintutor.engine.solver import solve

    rest = CardSet(hand.mask & ~Card.parse(code).mask) if code and code in hand.codes else hand
    melds = solve(rest).best.melds
    return " and ".join(meld.cards.display() for meld in melds) or "no meld"


def _titled(puzzle: Puzzle, solution: Solution) -> Puzzle | None:
    """The puzzle under its drawn title, or the theme's next title that agrees with the
    verdict (:func:`~gintutor.content.puzzlerules.title_violations`); ``None`` if it has no
    one clear idea (:func:`~gintutor.content.puzzlerules.idea_violations`) or its words break
    a rule whatever the title."""
    titles = _TITLES[puzzle.theme]
    start = titles.index(puzzle.title)
    if idea_violations(puzzle, solution):
        return None  # no one clear idea: not a daily puzzle
    for title in titles[start:] + titles[:start]:
        titled = dataclasses.replace(puzzle, title=title)
        if not fact_violations(titled, solution) and not title_violations(titled, solution):
            return titled
    return None


def _cards(cards: CardSet) -> str:
    return " ".join(card.code for card in cards)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_yaml(puzzles: list[Puzzle]) -> str:
    """Puzzles as a YAML file in the documented format."""
    lines = ["puzzles:"]
    for p in puzzles:
        pos = p.position
        lines += [
            f"  - id: {p.id}",
            f"    title: {_quote(p.title)}",
            f"    theme: {p.theme.value}",
            f"    difficulty: {p.difficulty}",
            "    position:",
            f"      hand: {_quote(_cards(pos.hand))}",
        ]
        if pos.upcard is not None:
            lines.append(f"      upcard: {pos.upcard.code}")
        if pos.took_from_discard is not None:
            lines.append(f"      took_from_discard: {pos.took_from_discard.code}")
        lines.append(f"      dead: {_quote(_cards(pos.dead))}")
        lines.append(f"      opponent_known: {_quote(_cards(pos.opponent_known))}")
        if p.opponent_discards:
            lines.append(f"      opponent_discards: {_quote(_cards(p.opponent_discards))}")
        if p.opponent_passed:
            lines.append(f"      opponent_passed: {_quote(_cards(p.opponent_passed))}")
        lines.append(f"      stock_size: {pos.stock_size}")
        lines.append(f"      rules: {pos.rules.name}")
        if pos.rules.needs_upcard and pos.first_upcard is not None:
            lines.append(f"      first_upcard: {pos.first_upcard.code}")
        lines.append(f"    question: {_quote(p.question)}")
        lines.append(f"    answers: [{', '.join(p.answers)}]")
        lines.append("    hints:")
        lines += [f"      - {_quote(hint)}" for hint in p.hints]
        lines.append(f"    explanation: {_quote(p.explanation)}")
    return "\n".join(lines) + "\n"
