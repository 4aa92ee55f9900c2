"""``gintutor puzzles generate`` end to end: wall and CPU time, per theme and for all six.

Run from the project root (in the environment where ``gintutor`` is installed)::

    python benchmarks/bench_generate.py                    # --count 10, every theme together
    python benchmarks/bench_generate.py --per-theme        # and each theme on its own
    python benchmarks/bench_generate.py --jobs 1 --jobs 2  # the same seed on 1 and 2 processes
    python benchmarks/bench_generate.py --stages --count 3 # where the time goes, stage by stage

Each run is the installed command (``python -m gintutor puzzles generate --count N --seed S
--jobs J --out FILE``) in a fresh process: wall time, the CPU time of it and its worker
processes, and the load average before it (the machine may be shared: CPU time is the figure
that load does not distort). Runs of the same seed on different ``--jobs`` must write the same
file: the script says whether they did. ``--stages`` runs the generator in this process on one
core instead and counts what each stage passes (exact filters, the coach's pre-screen, the
verdict at the puzzle budget) with the CPU time it spends. Target (issue 8): every theme,
``--count 10``, within 2 minutes of wall time on two cores.

Measured 2026-12-01 on this 2-core machine, shared with other sessions (load 6-8 when each run
started; the CPU time is the comparable figure, about twice the wall time of an idle machine
with ``--jobs 2``), ``--count 10 --seed 1``:

===============  ====  ======  =====  ====
themes           jobs  wall s  CPU s  load
===============  ====  ======  =====  ====
all six          2     228.7   162.0  7.70
all six          1     243.7   155.7  6.42
deadwood         2     3.8     2.3    7.43
outs             2     53.7    34.4   7.47
safety           2     80.8    64.2   7.99
knock-or-play    2     5.5     5.2    7.51
upcard           2     9.3     8.8    7.55
layoff-exposure  2     63.4    60.5   7.54
===============  ====  ======  =====  ====

``--jobs 1`` and ``--jobs 2`` wrote the same file.

Coach version 2 (session 7: opponent hands built up by its draws, layoff-exposure judged and
pre-screened on its knocks alone), ``--count 10 --seed 1 --jobs 2``, all six: **84.0 s wall,
129.5 s CPU** (load 1.9). Before the knock-only judging, the built estimate had taken it to
418.9 s wall, 367.1 s CPU (load 4.4): ``layoff-exposure`` keeps few drafts against built
defenders (3 of 77 in a ``--stages --count 3`` run), each a full verdict with the discards
played out. ``--count 2``, all six, ``--jobs 2``: 52.8 s
wall, 52.2 s CPU (load 5.2); the generator before (commit e61ec0e: batches of 8 hands, a
128-world coach screen of every candidate, layoff-exposure found by luck): 278.5 s wall,
242.8 s CPU (load about 6.5), and its answers were the screen's, not the puzzle budget's.
``--stages --count 10`` (one core, 164 s of CPU): 171 hands; the verdicts at the puzzle
budget cost 1.2 s (``safety``), 1.1 s (``outs``), 0.3 s (``upcard``) and 0.1-0.2 s (knocks)
each, and the expert's hands about 0.14 s each.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

THEMES = ("deadwood", "outs", "safety", "knock-or-play", "upcard", "layoff-exposure")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(count: int, themes: tuple[str, ...], jobs: int, seed: int) -> dict[str, Any]:
    """One ``puzzles generate`` in a fresh process: wall, CPU, load, the output's digest."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "new.yaml"
        command = [sys.executable, "-m", "gintutor", "puzzles", "generate", "--count", str(count)]
        command += ["--seed", str(seed), "--jobs", str(jobs), "--out", str(out)]
        if themes != THEMES:
            for theme in themes:
                command += ["--theme", theme]
        load = os.getloadavg()[0]
        cpu = _children_cpu()
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        cpu = _children_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        text = out.read_text(encoding="utf-8")
    return {
        "themes": "all six" if themes == THEMES else ", ".join(themes),
        "jobs": jobs,
        "wall": wall,
        "cpu": cpu,
        "load": load,
        "puzzles": text.count("\n  - id: "),
        "digest": hashlib.sha256(text.encode()).hexdigest()[:12],
    }


def stages(count: int, themes: tuple[str, ...], seed: int, players: tuple[str, str]) -> None:
    """The generator in this process, one core: each stage's count and CPU time, per theme."""
    from gintutor.content import puzzlegen
    from gintutor.content.puzzles import pack_index
    from gintutor.engine.rules import preset
    from gintutor.tutor.puzzles import Theme

    calls: collections.Counter[str] = collections.Counter()
    seconds: collections.Counter[str] = collections.Counter()

    def timed(name: str, function: Callable[..., Any], key: Callable[..., str]) -> None:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            result = function(*args, **kwargs)
            label = f"{key(*args, **kwargs)} {name}"
            calls[label] += 1
            calls[f"{label} passed"] += result is not None and result is not False
            seconds[label] += time.process_time() - start
            return result

        setattr(puzzlegen, name, wrapper)

    def by_theme(theme: Any, *_: Any, **__: Any) -> str:
        return str(theme.value)

    def by_budget(*_: Any, worlds: int = 0, **__: Any) -> str:
        return f"coach {worlds:>4} worlds"

    timed("_hand_puzzles", puzzlegen._hand_puzzles, lambda *_: "hands (all stages)")
    timed("_promising", puzzlegen._promising, by_theme)
    timed("_draft", puzzlegen._draft, by_theme)
    timed("judge", puzzlegen.judge, by_budget)
    timed(
        "_worth",
        puzzlegen._worth,
        lambda theme, solution, coins, z=0.0: f"{theme.value} {'pre-screen' if z else 'verdict'}",
    )
    wanted = {Theme(name): count for name in themes}
    start, cpu = time.perf_counter(), time.process_time()
    made = puzzlegen.generate(
        wanted, preset("standard"), seed=seed, taken_ids=pack_index(), players=players
    )
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{len(made)} puzzles, one core: {wall:.1f} s wall, {cpu:.1f} s CPU")
    print(f"{'stage':<34} {'calls':>6} {'passed':>7} {'CPU s':>7} {'ms/call':>8}")
    for label in sorted(seconds):
        n = calls[label]
        print(
            f"{label:<34} {n:>6} {calls[label + ' passed']:>7} {seconds[label]:>7.1f} "
            f"{1000 * seconds[label] / max(n, 1):>8.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, action="append", help="repeat to compare (default 2)")
    parser.add_argument("--per-theme", action="store_true", help="each theme on its own too")
    parser.add_argument("--stages", action="store_true", help="stage by stage, in this process")
    parser.add_argument("--theme", action="append", choices=THEMES, help="--stages: only these")
    parser.add_argument("--players", nargs=2, help="--stages: the two bots dealing the hands")
    args = parser.parse_args()
    if args.stages:
        from gintutor.content.puzzlegen import PLAYERS

        players = tuple(args.players) if args.players else PLAYERS
        stages(args.count, tuple(args.theme or THEMES), args.seed, players)
        return
    runs = [(THEMES, jobs) for jobs in args.jobs or [2]]
    if args.per_theme:
        runs += [((theme,), (args.jobs or [2])[0]) for theme in THEMES]
    print(f"puzzles generate --count {args.count} --seed {args.seed} on {os.cpu_count()} cores")
    head = f"{'themes':<16} {'jobs':>4} {'wall s':>7} {'CPU s':>7} {'load':>5} {'puzzles':>7}"
    print(f"{head}  output")
    digests: dict[str, set[str]] = collections.defaultdict(set)
    for themes, jobs in runs:
        row = run(args.count, themes, jobs, args.seed)
        digests[row["themes"]].add(row["digest"])
        print(
            f"{row['themes']:<16} {row['jobs']:>4} {row['wall']:>7.1f} {row['cpu']:>7.1f} "
            f"{row['load']:>5.2f} {row['puzzles']:>7}  {row['digest']}",
            flush=True,
        )
    if len(args.jobs or []) > 1:
        same = all(len(found) == 1 for found in digests.values())
        print("same output on every --jobs" if same else "DIFFERENT output on different --jobs")


if __name__ == "__main__":
    main()
