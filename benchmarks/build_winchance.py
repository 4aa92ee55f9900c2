"""Rebuild gintutor/engine/wintables.py: self-play hand results behind the game-win chance.

Plays ``--hands`` hands ``heuristic`` against ``heuristic`` for each knock regime
(:data:`gintutor.engine.winchance.REGIMES`), hand ``i`` dealt from the seed
``winchance:REGIME:i`` (so the result does not depend on the number of processes), and writes
the counts of each raw result with a fingerprint of the first hands (a test replays them).

    nice -n 10 python benchmarks/build_winchance.py --hands 20000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

from gintutor.engine.winchance import REGIMES, RawResult, play_results, wintables_source

CHUNK = 250
OUT = Path(__file__).resolve().parent.parent / "gintutor" / "engine" / "wintables.py"
CACHE = Path("/tmp/gintutor-winchance")
"""Finished chunks are kept here, so an interrupted build goes on where it stopped (hand i
is always dealt from the same seed, so a chunk never changes)."""


def _job(job: tuple[str, int, int]) -> tuple[str, int, list[RawResult]]:
    regime, first, count = job
    path = CACHE / f"{regime}-{first}-{count}.json"
    if path.exists():
        return regime, first, [tuple(row) for row in json.loads(path.read_text())]  # type: ignore[misc]
    rows = play_results(regime, first, count)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows))
    return regime, first, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per regime")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.hands < 1 or args.jobs < 1:
        print("error: --hands and --jobs must be at least 1", file=sys.stderr)
        return 2
    jobs = [
        (regime, first, min(CHUNK, args.hands - first))
        for regime in REGIMES
        for first in range(0, args.hands, CHUNK)
    ]
    start = time.perf_counter()
    parts: dict[str, dict[int, list[RawResult]]] = {regime: {} for regime in REGIMES}
    with get_context("spawn").Pool(args.jobs) as pool:
        for regime, first, rows in pool.imap_unordered(_job, jobs):
            parts[regime][first] = rows
    results = {
        regime: [row for first in sorted(chunks) for row in chunks[first]]
        for regime, chunks in parts.items()
    }
    command = f"python benchmarks/build_winchance.py --hands {args.hands}"
    args.out.write_text(wintables_source(results, command))
    subprocess.run(["ruff", "format", "--quiet", str(args.out)], check=False)
    seconds = time.perf_counter() - start
    print(f"{args.hands} hands x {len(REGIMES)} regimes in {seconds:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
