"""Do the coach's in-game warnings agree with the full review? (issue 20's noise-floor target)

A learner bot (default ``simple``) plays seeded hands against an opponent bot (default
``simple``); at each of the learner's decisions with a choice the coach judges as ``play`` and
``review`` do, all against the bot at the table, on independent seeds:

- **at once**: the table's budget (``coachplayer.TABLE_ROLLOUTS`` play-outs, about the 0.4 CPU
  seconds of ``coach.COACH_SECONDS``), what a learner who acts at once gets;
- **thinking**: what the coach judging in the background (``session.PONDER_LIMIT``) has done
  when a learner who thinks ``--think`` CPU seconds acts: ``TABLE_ROLLOUTS * think / 0.4``
  play-outs (the same rate), at most ``PONDER_LIMIT`` times the table's budget;
- **review**: the review's budget (``coach.REVIEW_ROLLOUTS``), the reference.

The warning rule is play's (:func:`gintutor.engine.judgement.warns`), and for comparison the
grade alone (Mistake or worse and not a close call, the rule before it). Printed for each table
budget: **confirmed**, of the in-game warnings the share the review grades Mistake or Blunder
too (target >= 95%); **warned**, of the review's Blunders the share play warned about
(target >= 90%); each with its 95% Wilson interval, and the deals per in-game verdict. A
diagnostic besides: of the warnings, the share whose loss the review's own estimate puts over a
Mistake's bound (2.5 points) before its grade takes one standard error off.
Play-outs are capped by count, so a run is the same on any load (seeded by ``--seed``).
``--save FILE`` keeps every judged decision (JSON lines) and ``--load FILE`` prints the figures
from such a file without judging again.

    nice -n 10 python benchmarks/bench_warnings.py --hands 40 --think 5 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass

from gintutor.engine.bots import make_bot
from gintutor.engine.bots.coachplayer import TABLE_ROLLOUTS
from gintutor.engine.coach import (
    COACH_SECONDS,
    COACH_WORLDS,
    REVIEW_ROLLOUTS,
    REVIEW_WORLDS,
    judge,
)
from gintutor.engine.hand import Action, Deal, HandState, InfoSet, Phase
from gintutor.engine.judgement import ERRORS, POINT_THRESHOLDS, Grade, Judged, warns
from gintutor.engine.match import wilson
from gintutor.engine.rules import preset
from gintutor.engine.workers import Workers
from gintutor.tutor.session import PONDER_LIMIT

BUDGETS = ("at once", "thinking", "review")
MISTAKE_BOUND = POINT_THRESHOLDS[2]
"""A loss above this many points is a Mistake's size (the grade then takes one standard error
off it: :mod:`gintutor.engine.coach`)."""


@dataclass(frozen=True)
class Row:
    """The played action as one verdict judged it."""

    grade: str
    close: bool
    loss: float
    loss_stderr: float
    deals: int
    kind: str = ""
    """The kind of the action played (take, draw, discard, knock, ...; empty in older files)."""
    worlds: int = 0
    """The deals the action played was itself played out on (0 in older files: unknown)."""

    def judged(self) -> Judged:
        return Judged(
            Action.parse("draw"),
            0.0,
            0.0,
            self.loss,
            self.loss_stderr,
            None,
            None,
            Grade(self.grade),
            self.close,
            (),
            self.worlds or self.deals,
        )


def _row(judged: Judged, deals: int) -> Row:
    return Row(
        judged.grade.value,
        judged.close,
        judged.loss,
        judged.loss_stderr,
        deals,
        judged.action.kind.value,
        judged.worlds,
    )


def _judged(
    info: InfoSet,
    action: Action,
    rollouts: int,
    worlds: int,
    seed: str,
    opp: str,
    keep: Action | None = None,
) -> Row:
    """The played action's row in the verdict."""
    verdict = judge(
        info,
        worlds=worlds,
        seconds=float("inf"),
        rollouts=rollouts,
        seed=random.Random(seed).getrandbits(32),
        opponent=opp,
        keep=keep,
    )
    return _row(verdict.of(action), verdict.worlds)


def play_hand(args: tuple[str, str, str, int, float]) -> list[dict[str, Row]]:
    """Hand ``k`` of the run: every learner decision with a choice, judged at each budget."""
    learner_name, opponent_name, seed, k, think = args
    bots = [make_bot(learner_name), make_bot(opponent_name)]
    rngs = [random.Random(f"warn:{seed}:{k}:{seat}") for seat in (0, 1)]
    state = HandState(Deal.shuffled(random.Random(f"warn:{seed}:{k}"), k % 2), preset("standard"))
    thinking = min(round(TABLE_ROLLOUTS * think / COACH_SECONDS), TABLE_ROLLOUTS * PONDER_LIMIT)
    found: list[dict[str, Row]] = []
    ply = 0
    while not state.over:
        seat = state.to_move
        info = state.infoset(seat)
        action = bots[seat].act(info, rngs[seat])
        if seat == 0 and len(info.legal_actions()) > 1 and info.phase is not Phase.DEFEND:
            where = f"{seed}:{k}:{ply}"
            rows: dict[str, Row] = {}
            for budget, rollouts, worlds, tag in (
                ("at once", TABLE_ROLLOUTS, COACH_WORLDS, "table"),
                ("thinking", thinking, COACH_WORLDS * PONDER_LIMIT, "think"),
                ("review", REVIEW_ROLLOUTS, REVIEW_WORLDS, "review"),
            ):
                rows[budget] = _judged(
                    info,
                    action,
                    rollouts,
                    worlds,
                    f"{tag}:{where}",
                    opponent_name,
                    keep=action if budget == "review" else None,  # as the review judges
                )
            found.append(rows)
        state.do(action)
        ply += 1
    return found


def _is_error(row: Row | Judged) -> bool:
    """The grade says Mistake or Blunder (not a close call): the review's verdict on an action,
    and the warning rule before ``warns`` (one standard error's benefit of the doubt)."""
    grade = row.grade if isinstance(row.grade, Grade) else Grade(row.grade)
    return grade in ERRORS and not row.close


def report(decisions: list[dict[str, Row]]) -> None:
    """The figures for each table budget against the review."""
    print(f"decisions judged: {len(decisions)}")
    blunders = [d for d in decisions if d["review"].grade == "blunder" and not d["review"].close]
    for budget in BUDGETS[:2]:
        deals = [d[budget].deals for d in decisions]
        print(
            f"{budget}: deals per verdict median {statistics.median(deals):.0f}, "
            f"min {min(deals)}, max {max(deals)}"
        )
        apart = [
            d
            for d in decisions
            if abs(d[budget].loss - d["review"].loss)
            > 2 * (d[budget].loss_stderr ** 2 + d["review"].loss_stderr ** 2) ** 0.5
        ]
        kinds = ", ".join(sorted({d["review"].kind or "?" for d in apart}))
        print(
            f"  losses more than two combined standard errors from the review's: "
            f"{len(apart)}/{len(decisions)} ({kinds or '-'})"
        )
        rules: list[tuple[str, Callable[[Judged], bool]]] = [
            ("play's rule", warns),
            ("the grade alone", _is_error),
        ]
        for rule, warning in rules:
            warned = [d for d in decisions if warning(d[budget].judged())]
            confirmed = sum(_is_error(d["review"]) for d in warned)
            caught = sum(warning(d[budget].judged()) for d in blunders)
            sized = sum(d["review"].loss > MISTAKE_BOUND for d in warned)
            print(f"  {rule}:")
            for name, hits, total in (
                ("warnings confirmed by the review", confirmed, len(warned)),
                ("review blunders warned in play", caught, len(blunders)),
                ("warnings the review's estimate puts over a mistake's bound", sized, len(warned)),
            ):
                low, high = wilson(hits, total) if total else (0.0, 1.0)
                share = hits / total if total else float("nan")
                print(f"    {name}: {hits}/{total} = {share:.1%} (95% CI {low:.1%} to {high:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--think", type=float, default=5.0, help="CPU seconds the learner thinks")
    parser.add_argument("--learner", default="simple")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="keep every judged decision in this file (JSON lines)")
    parser.add_argument("--load", help="print the figures of a saved run, judging nothing")
    args = parser.parse_args()
    decisions: list[dict[str, Row]] = []
    if args.load:
        with open(args.load, encoding="utf-8") as lines:
            for line in lines:
                decisions.append({k: Row(**v) for k, v in json.loads(line).items()})
        report(decisions)
        return
    tasks = [(args.learner, args.opponent, args.seed, k, args.think) for k in range(args.hands)]
    saved = open(args.save, "w", encoding="utf-8") if args.save else None  # noqa: SIM115
    with Workers(args.jobs) as workers:
        for hand in workers.imap_unordered(play_hand, tasks):
            decisions += hand
            if saved is not None:
                for decision in hand:
                    saved.write(json.dumps({k: asdict(v) for k, v in decision.items()}) + "\n")
                saved.flush()
    if saved is not None:
        saved.close()
    print(
        f"learner {args.learner} against {args.opponent}, {args.hands} hands, seed {args.seed}, "
        f"thinking {args.think:g} CPU s"
    )
    report(decisions)


if __name__ == "__main__":
    main()
