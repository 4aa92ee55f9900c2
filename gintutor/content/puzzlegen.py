"""``gintutor puzzles generate``: deal positions from real-looking play and keep instructive ones.

Two bots of the ladder (:mod:`gintutor.engine.bots`, ``heuristic`` by default) play hands of
the hand engine; at each decision the position of the player to move, as that player sees it,
is offered to every theme's filter. Each hand has its own seed, so the hands are shared among
processes and the result is the same whatever their number. A theme keeps a position when its best
answer is clear (the runner-up costs at least a theme-specific margin) and, most of the time,
not the natural-looking one (the least deadwood now, or the highest card). The result is YAML
with titles, hints and explanations whose numbers are placeholders filled by the engine.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator

from gintutor.engine.bots import make_bot
from gintutor.engine.cards import CARDS, CardSet
from gintutor.engine.evaluate import Position, p_opponent_melds
from gintutor.engine.hand import NO_CARD, Deal, HandState, InfoSet, Phase
from gintutor.engine.rollout import verdict
from gintutor.engine.rules import RuleSet
from gintutor.engine.solver import min_deadwood_mask
from gintutor.errors import GinError
from gintutor.tutor.puzzles import (
    Puzzle,
    Solution,
    Theme,
    candidates,
    natural_choice,
    solve_puzzle,
)


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


def _snapshots(
    rules: RuleSet, rng: random.Random, players: tuple[str, str]
) -> Iterator[tuple[str, Position]]:
    """Positions of one hand between two bots: ``("upcard", 10 cards and the pile's top)``
    before each draw, ``("discard", 11 cards)`` after it."""
    state = HandState(Deal.shuffled(rng, dealer=rng.randrange(2)), rules)
    if state.knock_limit == 0 and rules.allows_knock:
        return  # an Oklahoma ace: gin only, no knock puzzles to be found
    bots = tuple(make_bot(name) for name in players)
    while not state.over:
        info = state.infoset()
        if info.phase in (Phase.OFFER, Phase.DRAW) and info.top != NO_CARD:
            yield "upcard", _position(info, rules)
        elif info.phase is Phase.DISCARD:
            yield "discard", _position(info, rules)
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
    Theme.OUTS: "Which discard gives you the best chance to knock within your next two draws?",
    Theme.SAFETY: "Which discard is least likely to give the opponent a meld?",
    Theme.KNOCK_OR_PLAY: "Do you knock now or play on? (knock or play-on)",
    Theme.UPCARD: "Do you take the upcard or draw from the stock? (take or draw)",
    Theme.LAYOFF_EXPOSURE: "You will knock. Which card do you discard?",
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
    Theme.OUTS: "After {best} you keep {best.knock_outs:n} cards that let you knock on the next "
    "draw ({best.knock_outs}) and a {best.p_knock_within_2:%} chance to knock within two draws, "
    "with {best.deadwood} deadwood now. {natural} leaves {natural.deadwood} deadwood but only a "
    "{natural.p_knock_within_2:%} chance: lower now is not always faster later.",
    Theme.SAFETY: "The opponent can meld {natural} with a {natural.p_opponent_melds:%} chance, "
    "given what they picked up. {best} is safer ({best.p_opponent_melds:%}) and leaves "
    "{best.deadwood} deadwood against {natural.deadwood}: a small price for not feeding them.",
    Theme.KNOCK_OR_PLAY: "Played out many times with the same cards, {best} averages "
    "{best.mean} points and {second} {second.mean}.",
    Theme.UPCARD: "Played out many times with the same cards, {best} averages {best.mean} "
    "points and {second} {second.mean}.",
    Theme.LAYOFF_EXPOSURE: "Knocking after discarding {best} averages {best.mean} points; "
    "discarding {second} averages {second.mean}: what you leave in your melds decides what the "
    "defender can lay off.",
}

_NATURAL_IS_BEST = {
    Theme.DEADWOOD: "Here the obvious discard is right: {best} leaves {best.deadwood} deadwood; "
    "the next best, {second}, leaves {second.deadwood}.",
    Theme.OUTS: "{best} is both the natural discard and the best: it keeps {best.knock_outs:n} "
    "knock outs and a {best.p_knock_within_2:%} chance to knock within two draws; {second} "
    "gives {second.p_knock_within_2:%}.",
    Theme.SAFETY: "{best} is both cheap and safe: the opponent melds it with a "
    "{best.p_opponent_melds:%} chance, against {second.p_opponent_melds:%} for {second}.",
}


def _difficulty(theme: Theme, margin: float) -> int:
    steps = {
        Theme.DEADWOOD: (8, 5, 3, 2),
        Theme.OUTS: (0.15, 0.10, 0.07, 0.05),
        Theme.SAFETY: (0.6, 0.45, 0.35, 0.3),
    }.get(theme, (15, 10, 6, 4))
    for level, step in enumerate(steps, start=1):
        if margin >= step:
            return level
    return 5


_MARGINS = {
    Theme.DEADWOOD: 2.0,
    Theme.OUTS: 0.04,
    Theme.SAFETY: 0.25,
    Theme.KNOCK_OR_PLAY: 3.0,
    Theme.UPCARD: 3.0,
    Theme.LAYOFF_EXPOSURE: 1.5,
}


def _worth(theme: Theme, solution: Solution, rng: random.Random) -> float | None:
    """The margin that makes the puzzle worth solving, or ``None`` to skip it."""
    rows = solution.rows
    if theme is Theme.LAYOFF_EXPOSURE:
        # Layoffs must decide: among the discards leaving the least deadwood, one is clearly
        # worse than the best because of what the defender could lay off.
        least = min(row.evaluation.deadwood for row in rows if row.evaluation is not None)
        tied = [
            row for row in rows if row.evaluation is not None and row.evaluation.deadwood == least
        ]
        rows = tuple(tied)
        if not any(row.code in solution.accepted for row in tied):
            return None
    runner_up = next((row for row in rows if row.code not in solution.accepted), None)
    if runner_up is None or runner_up.cost < _MARGINS[theme]:
        return None
    natural = natural_choice(solution)
    if theme.exact:
        cost = solution.row(natural).cost
        if cost < _MARGINS[theme] and rng.random() > 0.2:
            return None
        if theme is not Theme.DEADWOOD:
            best = solution.rows[0].evaluation
            natural_eval = solution.row(natural).evaluation
            assert best is not None and natural_eval is not None
            if best.deadwood > natural_eval.deadwood + 8:
                return None
        return max(cost, runner_up.cost)
    # The baseline nearly always knocks and rarely takes: keep fewer of the usual answers so
    # that both answers are common in the pack.
    usual, keep = {Theme.KNOCK_OR_PLAY: ("knock", 0.1), Theme.UPCARD: ("draw", 0.5)}.get(
        theme, ("", 1.0)
    )
    if solution.accepted == (usual,) and rng.random() > keep:
        return None
    return runner_up.cost


def _interesting(theme: Theme, kind: str, position: Position) -> bool:
    """Cheap filters before the evaluation."""
    limit = position.knock_limit
    if theme is Theme.UPCARD:
        return kind == "upcard"
    if kind != "discard":
        return False
    best = min(
        min_deadwood_mask(position.hand.mask & ~c.mask)
        for c in position.hand
        if c != position.took_from_discard
    )
    if theme is Theme.KNOCK_OR_PLAY:
        return 5 <= best <= limit
    if theme is Theme.LAYOFF_EXPOSURE:
        # Several knocking discards that leave the same least deadwood: only what the
        # defender can lay off tells them apart.
        tied = [
            c
            for c in position.hand
            if c != position.took_from_discard
            and min_deadwood_mask(position.hand.mask & ~c.mask) == best
        ]
        return 0 < best <= limit and len(tied) >= 2
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
    players: tuple[str, str] = ("heuristic", "heuristic"),
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


_SCREEN_WORLDS = 80
"""Worlds of the quick rollout that screens a position before the full verdict."""


def _promising(theme: Theme, draft: Puzzle) -> bool:
    """Whether a quick rollout leaves room for a clear best answer (most positions have none).

    The runner-up must plausibly trail the best by the theme's margin: a gap more than two
    standard errors short of it would not survive the full verdict.
    """
    try:
        quick = verdict(draft.position, candidates(draft), _SCREEN_WORLDS, draft.seed)
    except GinError:
        return False
    if len(quick.results) < 2:
        return False
    runner_up = quick.results[1]
    return runner_up.gap + 2 * runner_up.gap_stderr >= _MARGINS[theme]


def _hand_puzzles(
    item: tuple[RuleSet, int, int, tuple[Theme, ...], tuple[str, str]],
) -> list[tuple[Theme, tuple[int, int, int], Puzzle]]:
    """The instructive positions of hand number ``index``: ``(theme, position key, puzzle)``."""
    rules, seed, index, open_themes, players = item
    rng = random.Random(f"{seed}:{index}")
    found: list[tuple[Theme, tuple[int, int, int], Puzzle]] = []
    for kind, position in _snapshots(rules, rng, players):
        fitting = [t for t in open_themes if _interesting(t, kind, position)]
        if not fitting:
            continue
        theme = rng.choice(fitting)
        key = (position.hand.mask, position.dead.mask, position.opponent_known.mask)
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
        )
        if not theme.exact and not _promising(theme, draft):
            continue
        try:
            solution = solve_puzzle(draft)
        except GinError:
            continue
        margin = _worth(theme, solution, rng)
        if margin is None:
            continue
        title = _TITLES[theme][rng.randrange(len(_TITLES[theme]))]
        explanation = draft.explanation
        if theme in _NATURAL_IS_BEST and natural_choice(solution) in solution.accepted:
            explanation = _NATURAL_IS_BEST[theme]
        found.append(
            (
                theme,
                key,
                Puzzle(
                    draft.id,
                    title,
                    theme,
                    _difficulty(theme, margin),
                    position,
                    draft.question,
                    solution.accepted,
                    draft.hints,
                    explanation,
                ),
            )
        )
    return found


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
