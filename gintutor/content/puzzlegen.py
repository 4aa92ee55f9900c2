"""``gintutor puzzles generate``: deal positions from real-looking play and keep instructive ones.

The ``expert`` (on a cheap budget, :data:`EXPERT_WORLDS`) plays the ``heuristic`` in hands of
the hand engine; at each decision the position of the player to move, as that player sees it
(with the opponent's discards and passes), is offered to every theme's filter. Each hand has
its own seed, so the hands are shared among processes and the result is the same whatever
their number. Cheap exact filters come first; then the coach screens the position
(:data:`SCREEN_WORLDS`) and a theme keeps it when its best answer is clear (the runner-up costs
at least a theme-specific margin in expected points), few answers are accepted and, for the
discard themes, the best is not simply the least deadwood. The answers written are the
screening verdict's: ``gintutor puzzles check --write-verdicts`` then judges the new positions
at the puzzle budget and reports any answer that changes. The result is YAML with titles,
hints and explanations whose numbers are placeholders filled by the engine.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator

from gintutor.engine.bots import Bot, make_bot
from gintutor.engine.cards import CARDS, CardSet
from gintutor.engine.coach import judge
from gintutor.engine.evaluate import Position, evaluate, p_opponent_melds
from gintutor.engine.hand import NO_CARD, Deal, HandState, InfoSet, Phase
from gintutor.engine.rules import RuleSet
from gintutor.engine.solver import min_deadwood_mask
from gintutor.errors import GinError
from gintutor.tutor.puzzles import (
    Puzzle,
    Solution,
    Theme,
    infoset_of,
    natural_choice,
    solve_puzzle,
)
from gintutor.tutor.puzzletext import EXPLANATIONS, NATURAL_EXPLANATIONS, QUESTIONS

PLAYERS = ("expert", "heuristic")
EXPERT_WORLDS = 16
"""The expert's sampled worlds per decision while dealing positions (cheap: a few ms)."""
SCREEN_WORLDS = 128
"""The coach's worlds when it screens a position (half its own budget at the table)."""
MAX_SCREENS = 3
"""Positions of one hand screened by the coach at most (the costly step)."""
EXACT_TRIES = 4
"""Positions of one hand a ``deadwood`` puzzle may try (exact and cheap)."""
SCREEN_SECONDS = 1e9
"""No time cut, so the output depends on the seed only."""


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
    while not state.over:
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
        "Live cards matter",
    ],
    Theme.SAFETY: [
        "Don't feed the opponent",
        "What did they pick up?",
        "A safe discard",
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
        "The safest knock",
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
        "Compare the pairs you would keep: which of their cards are still live?",
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


_MARGINS = {
    Theme.DEADWOOD: 2.0,
    Theme.OUTS: 1.0,
    Theme.SAFETY: 1.0,
    Theme.KNOCK_OR_PLAY: 2.0,
    Theme.UPCARD: 2.0,
    Theme.LAYOFF_EXPOSURE: 1.0,
}
"""The least the runner-up must cost: deadwood, or expected points in the judged themes."""


def _worth(theme: Theme, solution: Solution, rng: random.Random) -> float | None:
    """The margin that makes the puzzle worth solving, or ``None`` to skip it.

    The runner-up costs at least the theme's margin; a discard theme accepts at most two
    answers, and its best is not just the least deadwood (``layoff-exposure`` never, the others
    four times in five), with the theme's own number agreeing (``outs``: at least the natural
    discard's chance to knock within two draws; ``safety``: safer than it).
    """
    rows = solution.rows
    accepted = solution.accepted
    runner_up = next((row for row in rows if row.code not in accepted), None)
    if runner_up is None or runner_up.cost < _MARGINS[theme]:
        return None
    if theme in (Theme.UPCARD, Theme.KNOCK_OR_PLAY):
        # "draw" and "knock" are the usual answers: keep fewer of them so both are common.
        usual = {Theme.KNOCK_OR_PLAY: "knock", Theme.UPCARD: "draw"}[theme]
        if accepted == (usual,) and rng.random() > 0.5:
            return None
        return runner_up.cost
    if len(accepted) > 2:
        return None
    natural = natural_choice(solution)
    if natural in accepted and (theme is Theme.LAYOFF_EXPOSURE or rng.random() > 0.2):
        return None
    best, plain = solution.rows[0].evaluation, solution.row(natural).evaluation
    if best is None or plain is None:
        return None
    if theme is Theme.OUTS and best.p_knock_within_2 < plain.p_knock_within_2:
        return None
    if theme is Theme.SAFETY and best.p_opponent_melds >= plain.p_opponent_melds:
        return None
    if theme is not Theme.DEADWOOD and best.deadwood > plain.deadwood + 8:
        return None
    return runner_up.cost


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


_BATCH = 8
"""Hands dealt between two looks at which themes still need puzzles."""


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

    Hands are dealt in batches of :data:`_BATCH` (shared by ``jobs`` processes); each theme
    takes its puzzles in deal order, so the output depends only on the seed. Ids continue
    after the highest of ``taken_ids`` (the pack's) in each theme, so they never clash.
    """
    made: dict[Theme, list[Puzzle]] = {theme: [] for theme in wanted}
    seen: set[tuple[int, int, int]] = set()
    numbers = _next_numbers(taken_ids)
    pool = None
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.Pool(jobs)
    try:
        for start in range(0, max_hands, _BATCH):
            open_themes = tuple(t for t, n in wanted.items() if len(made[t]) < n)
            if not open_themes:
                break
            work = [
                (rules, seed, index, open_themes, players)
                for index in range(start, min(start + _BATCH, max_hands))
            ]
            found = pool.map(_hand_puzzles, work) if pool is not None else map(_hand_puzzles, work)
            for drafts in found:
                for theme, key, draft in drafts:
                    if len(made[theme]) >= wanted[theme] or key in seen:
                        continue
                    seen.add(key)
                    numbers[theme] += 1
                    made[theme].append(
                        dataclasses.replace(draft, id=f"{theme.value}-{numbers[theme]:03d}")
                    )
                    if progress is not None:
                        progress(theme, len(made[theme]))
    finally:
        if pool is not None:
            pool.terminate()
    return [puzzle for theme in wanted for puzzle in made[theme]]


def _next_numbers(taken_ids: Iterable[str]) -> dict[Theme, int]:
    """The highest number used in each theme's ids (``outs-049`` is 49)."""
    numbers = dict.fromkeys(Theme, 0)
    for puzzle_id in taken_ids:
        name, _, number = puzzle_id.rpartition("-")
        for theme in Theme:
            if name == theme.value and number.isdigit():
                numbers[theme] = max(numbers[theme], int(number))
    return numbers


def _promising(theme: Theme, position: Position) -> bool:
    """Exact tests before the costly step: a ``deadwood`` runner-up must trail by the margin;
    in ``outs`` or ``safety`` a discard other than the natural one must stand out on the
    theme's own number (4 percentage points more chance to knock within two draws; 25 less
    chance to give a meld), at most 8 more deadwood."""
    if theme is Theme.DEADWOOD:
        # The runner-up must leave at least the margin more deadwood than the best discard.
        left = sorted(
            min_deadwood_mask(position.hand.mask & ~c.mask)
            for c in position.hand
            if c != position.took_from_discard
        )
        return left[1] - left[0] >= _MARGINS[theme]
    if theme not in (Theme.OUTS, Theme.SAFETY):
        return True
    options = evaluate(position).options
    natural = min(options, key=lambda e: (e.deadwood, -e.card.points, -e.card.index))
    near = [e for e in options if e.deadwood <= natural.deadwood + 8]
    if theme is Theme.OUTS:
        return max(e.p_knock_within_2 for e in near) >= natural.p_knock_within_2 + 0.04
    return min(e.p_opponent_melds for e in near) <= natural.p_opponent_melds - 0.25


def _screened(draft: Puzzle) -> Solution | None:
    """The draft solved on the coach's screening verdict (``None`` if it cannot be judged)."""
    try:
        verdict = judge(
            infoset_of(draft), worlds=SCREEN_WORLDS, seconds=SCREEN_SECONDS, seed=draft.seed
        )
        return solve_puzzle(draft, verdict)
    except GinError:
        return None


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


def _hand_puzzles(
    item: tuple[RuleSet, int, int, tuple[Theme, ...], tuple[str, str]],
) -> list[tuple[Theme, tuple[int, int, int], Puzzle]]:
    """The instructive positions of hand number ``index``: ``(theme, position key, puzzle)``.

    The hand is played first; then each open theme, rarest first, takes one of the positions
    that fit it (at random), and the coach screens at most :data:`MAX_SCREENS` of them.
    """
    rules, seed, index, open_themes, players = item
    rng = random.Random(f"{seed}:{index}")
    fits: dict[Theme, list[tuple[Position, InfoSet]]] = {theme: [] for theme in open_themes}
    for kind, position, info in _snapshots(rules, rng, players):
        for theme in open_themes:
            if _interesting(theme, kind, position):
                fits[theme].append((position, info))
    found: list[tuple[Theme, tuple[int, int, int], Puzzle]] = []
    screens = 0
    for theme in _RARITY:
        # An exact theme is cheap: it may try a few positions of the hand; a judged one, one.
        tries = 1 if theme.judged else EXACT_TRIES
        for position, info in rng.sample(fits.get(theme, []), min(tries, len(fits.get(theme, [])))):
            if theme.judged and screens >= MAX_SCREENS:
                break
            if not _promising(theme, position):
                continue
            screens += theme.judged
            puzzle = _draft(theme, position, info, rng)
            if puzzle is not None:
                key = (position.hand.mask, position.dead.mask, position.opponent_known.mask)
                found.append((theme, key, puzzle))
                break
    return found


def _draft(theme: Theme, position: Position, info: InfoSet, rng: random.Random) -> Puzzle | None:
    """The puzzle of this position if the theme finds it instructive, else ``None``."""
    draft = Puzzle(
        f"{theme.value}-new",
        "",
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
    solution = _screened(draft) if theme.judged else solve_puzzle(draft)
    if solution is None:
        return None
    margin = _worth(theme, solution, rng)
    if margin is None:
        return None
    explanation = draft.explanation
    if theme in _NATURAL_IS_BEST and natural_choice(solution) in solution.accepted:
        explanation = _NATURAL_IS_BEST[theme]
    return dataclasses.replace(
        draft,
        title=_TITLES[theme][rng.randrange(len(_TITLES[theme]))],
        difficulty=_difficulty(theme, margin),
        answers=solution.accepted,
        explanation=explanation,
    )


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
