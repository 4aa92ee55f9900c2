"""The chance to win the game from a score, by self-play hand results and a dynamic programme.

How the table is built (``benchmarks/build_winchance.py``, seeded, shipped in
:mod:`gintutor.engine.wintables`):

1. **Self-play.** Many hands are played between two ``heuristic`` bots with the rollout
   parameters (:data:`~gintutor.engine.bots.playout.FAST`, the coach's own playing policy,
   three times faster than the full heuristic) under one rule set
   per *knock regime* (the only settings that change how the hand is played): ``knock-10``
   (standard), ``gin-only`` (straight) and ``oklahoma`` (the knock limit from the upcard, the
   spade doubling). Each hand is kept as a raw result: the knock limit, whether the knocker
   dealt, the knocker's and the defender's deadwood after layoffs, big gin, the multiplier (or
   void). Hand ``i`` is dealt from the seed ``winchance:REGIME:i``, so any hand can be replayed.
2. **Rescoring.** For a rule set, every raw result is scored by its own bonuses
   (:func:`~gintutor.engine.scoring.score_hand`): the distribution of the hand's points for the
   non-dealer, and the chance of a void hand. A fixed knock limit other than 10 or 0 uses the
   Oklahoma hands dealt with that limit; big gin where it is not recognised counts as gin.
3. **Dynamic programme.** ``N[a][b]``, the chance that the player who does *not* deal the next
   hand, at ``a`` points against ``b``, reaches the target first: after a scored hand the deal
   passes (``1 - N`` from the other side), a void hand is dealt again (solved in closed form),
   filled from the highest total down. Box, game and shutout bonuses change the margin, not who
   reaches the target, so they play no part.

Approximations: hands are independent of the score (nobody plays to the score), both players
play like the ``heuristic``; a knock that scores 0 (a tie where ties are not undercuts) counts
as void; Hollywood: the chance of the first game still open, scored on its own.

>>> from gintutor.engine.rules import preset
>>> rules = preset("standard")
>>> game_win_chance(0, 0, rules)
0.5
>>> game_win_chance(100, 40, rules), game_win_chance(40, 100, rules)
(1.0, 0.0)
>>> game_win_chance(80, 20, rules) > 0.8
True
"""

from __future__ import annotations

import hashlib
import random
from operator import mul

from gintutor.engine.bots.heuristic import HeuristicBot
from gintutor.engine.bots.playout import FAST
from gintutor.engine.hand import Deal, HandState
from gintutor.engine.rules import RuleSet, preset
from gintutor.engine.scoring import Outcome, score_hand
from gintutor.engine.wintables import RESULTS
from gintutor.errors import GinError

REGIMES: dict[str, str] = {"knock-10": "standard", "gin-only": "straight", "oklahoma": "oklahoma"}
"""Each knock regime and the preset its hands are played under."""
FINGERPRINT_HANDS = 12
"""The shipped fingerprint covers this many first hands of each regime (a test replays them)."""
VOID = -1
"""``knocker_dealt`` of a raw result for a void hand."""
MAX_ACTIONS = 400
"""A hand still open after this many actions counts as void: the bots can pass one card back
and forth from the pile for ever (as the rollouts' 200-turn cap does)."""
"""``knocker_dealt`` of a raw result for a void hand."""

RawResult = tuple[int, int, int, int, int, int]
"""``(knock limit, knocker dealt (1/0, VOID), knocker deadwood, defender deadwood, big gin,
multiplier)``."""


def regime_of(rules: RuleSet) -> str:
    """The knock regime whose self-play hands stand for ``rules``."""
    if rules.oklahoma or rules.knock_limit not in (0, 10):
        return "oklahoma"
    return "knock-10" if rules.knock_limit == 10 else "gin-only"


def play_results(regime: str, first: int, count: int) -> list[RawResult]:
    """The raw results of self-play hands ``first .. first+count-1`` of ``regime``."""
    rules = preset(REGIMES[regime])
    bots = [HeuristicBot(FAST), HeuristicBot(FAST)]
    out: list[RawResult] = []
    for index in range(first, first + count):
        deal = Deal.shuffled(random.Random(f"winchance:{regime}:{index}"), dealer=0)
        rngs = [random.Random(f"winchance:{regime}:{index}:{seat}") for seat in (0, 1)]
        state = HandState(deal, rules)
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            mover = state.to_move
            state.do(bots[mover].act(state.infoset(mover), rngs[mover]))
        result = state.result
        if result is None or result.void or result.knocker is None or result.defence is None:
            out.append((state.knock_limit, VOID, 0, 0, 0, state.multiplier))
        else:
            out.append(
                (
                    state.knock_limit,
                    int(result.knocker == deal.dealer),
                    result.knocker_deadwood,
                    result.defence.deadwood,
                    int(result.outcome is Outcome.BIG_GIN),
                    state.multiplier,
                )
            )
    return out


def fingerprint(results: list[RawResult]) -> str:
    """A short hash of raw results in order."""
    return hashlib.sha256(repr(results).encode()).hexdigest()[:16]


def hand_distribution(rules: RuleSet) -> tuple[dict[int, float], float]:
    """``({points: chance}, void chance)``: the next hand's points from the non-dealer's side
    (won +, lost -) under ``rules``, from the shipped self-play results."""
    regime = regime_of(rules)
    rows = shipped_results(regime)
    fixed = None if rules.oklahoma or regime != "oklahoma" else rules.knock_limit
    counts: dict[int, int] = {}
    void = 0
    total = 0
    for limit, dealt, knocker, defender, big, multiplier, count in rows:
        if fixed is not None and limit != fixed:
            continue
        total += count
        if dealt == VOID:
            void += count
            continue
        score = score_hand(
            knocker,
            defender,
            rules,
            big_gin=bool(big) and rules.big_gin and knocker == 0,
            multiplier=multiplier if rules.spade_doubles else 1,
        )
        net = score.knocker_net if not dealt else -score.knocker_net
        if net == 0:
            void += count
        else:
            counts[net] = counts.get(net, 0) + count
    if not total:
        raise GinError(
            "no self-play hands for {rules} rules (knock limit {limit})",
            rules=rules.name,
            limit=fixed,
        )
    return {points: n / total for points, n in sorted(counts.items())}, void / total


_SHIPPED: dict[str, tuple[tuple[int, ...], ...]] = {}


def shipped_results(regime: str) -> tuple[tuple[int, ...], ...]:
    """The shipped self-play results of ``regime``: raw results with their numbers of hands."""
    found = _SHIPPED.get(regime)
    if found is None:
        found = _SHIPPED[regime] = tuple(
            tuple(int(x) for x in token.split(",")) for token in RESULTS[regime].split()
        )
    return found


def _key(rules: RuleSet) -> tuple[object, ...]:
    return (
        regime_of(rules),
        rules.knock_limit if not rules.oklahoma else -1,
        rules.gin_bonus,
        rules.big_gin_bonus,
        rules.undercut_bonus,
        rules.tie_is_undercut,
        rules.spade_doubles,
        rules.target,
    )


_TABLES: dict[tuple[object, ...], list[list[float]]] = {}
"""Tables computed so far, by the settings that shape them (rule sets sharing them share)."""


def _table_for(rules: RuleSet) -> list[list[float]]:
    key = _key(rules)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = win_table(rules)
    return table


def win_table(rules: RuleSet) -> list[list[float]]:
    """``N[a][b]`` for ``0 <= a, b < target``: the chance that the player who does not deal the
    next hand, at ``a`` points against ``b``, reaches the target first."""
    target = rules.target
    dist, void = hand_distribution(rules)
    won = [0.0] * (target + 1)
    lost = [0.0] * (target + 1)
    for points, chance in dist.items():
        if points > 0:
            won[min(points, target)] += chance
        else:
            lost[min(-points, target)] += chance
    scored = 1.0 - void
    top_won = max((p for p in dist if p > 0), default=0)
    top_lost = max((-p for p in dist if p < 0), default=0)
    won_any = sum(won)
    lost_upto = [0.0] * (target + 1)
    for y in range(1, target + 1):
        lost_upto[y] = lost_upto[y - 1] + lost[y]
    table = [[0.0] * target for _ in range(target)]
    columns = [[0.0] * target for _ in range(target)]
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(total, target - 1) + 1):
            b = total - a
            # Only the points a hand can score count: the slices stop at the highest seen.
            reach = min(target - a, top_won + 1)
            wins = won_any - sum(map(mul, won[1:reach], table[b][a + 1 : a + reach]))
            reach = min(target - b, top_lost + 1)
            losses = lost_upto[target - b - 1] - sum(
                map(mul, lost[1:reach], columns[a][b + 1 : b + reach])
            )
            value = (wins + losses) / scored
            table[a][b] = value
            columns[b][a] = value
    return table


def game_win_chance(
    my_score: int, opponent_score: int, rules: RuleSet, *, my_deal: bool | None = None
) -> float:
    """The chance to win the game from ``my_score`` against ``opponent_score`` (before the next
    hand): 1 at the target, 0 when the opponent is there. ``my_deal``: True when this player
    deals the next hand, False when the opponent does, ``None`` (default) the mean of both.

    Symmetric: with ``my_deal=None``, ``P(a, b) + P(b, a) = 1``.
    """
    if my_score < 0 or opponent_score < 0:
        raise GinError(
            "scores are never negative: {mine}, {theirs}", mine=my_score, theirs=opponent_score
        )
    target = rules.target
    if my_score >= target:
        return 1.0
    if opponent_score >= target:
        return 0.0
    table = _table_for(rules)
    receiving = table[my_score][opponent_score]
    dealing = 1.0 - table[opponent_score][my_score]
    if my_deal is None:
        return (receiving + dealing) / 2
    return dealing if my_deal else receiving


def wintables_source(results: dict[str, list[RawResult]], command: str) -> str:
    """The source of :mod:`gintutor.engine.wintables` for these self-play results."""
    lines = [
        '"""Self-play hand results behind the game-win chance (generated: do not edit).',
        "",
        "Regenerate with (see :mod:`gintutor.engine.winchance`):",
        "",
        f"    {command}",
        '"""',
        "",
        "HANDS: dict[str, int] = {",
    ]
    lines += [f'    "{regime}": {len(rows)},' for regime, rows in results.items()]
    lines += ["}", "FINGERPRINTS: dict[str, str] = {"]
    lines += [
        f'    "{regime}": "{fingerprint(rows[:FINGERPRINT_HANDS])}",'
        for regime, rows in results.items()
    ]
    lines += [
        "}",
        '"""The hash of the first ``FINGERPRINT_HANDS`` results of each regime, in order."""',
        "RESULTS: dict[str, str] = {",
    ]
    for regime, rows in results.items():
        counts: dict[RawResult, int] = {}
        for row in rows:
            counts[row] = counts.get(row, 0) + 1
        tokens = [",".join(map(str, (*row, n))) for row, n in sorted(counts.items())]
        lines.append(f'    "{regime}": (')
        for start in range(0, len(tokens), 5):
            lines.append(f'        "{" ".join(tokens[start : start + 5])} "')
        lines.append("    ),")
    lines += [
        "}",
        '"""Each distinct raw result and its number of hands, ``limit,knocker dealt,knocker',
        "deadwood,defender deadwood,big gin,multiplier,hands``, space-separated (a string",
        'compiles fast; :func:`gintutor.engine.winchance.shipped_results` reads it)."""',
        "",
    ]
    return "\n".join(lines)
