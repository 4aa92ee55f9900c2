"""Start-up of every interactive command, side by side with a minimal Typer + Rich app.

Run from the project root (in the environment where ``gintutor`` is installed)::

    python benchmarks/bench_startup.py            # 15 rounds
    python benchmarks/bench_startup.py --rounds 30
    python benchmarks/bench_startup.py --only puzzle   # the commands whose name has "puzzle"
    python benchmarks/bench_startup.py --cold          # caches emptied before every run
    python benchmarks/bench_startup.py --lang nb --lang id  # also each command in nb and id
    python benchmarks/bench_startup.py --first-prompt  # the interactive ones to their question

The minimal app imports Typer and Rich and prints its argument: the floor any Typer CLI pays.
Each round runs every command once, in turn with the minimal app, so both see the same machine
load; the figures are the median wall and CPU times and their ratios to the minimal app's runs
paired with them, and the least CPU time of each (the run least disturbed by other work) and its
ratio to the paired runs' least (target: every command at most 1.2x). Commands that wait for
input get an empty standard input (EOF). One warm-up run of each command writes the bytecode
and fills the data folder's caches (lesson outlines and lessons read, the puzzle pack), as any
start after the first finds them; ``--cold`` measures the first start instead.

``--first-prompt`` times what a learner waits for instead: from the start of each command that
asks (``EOF`` in its name) until it waits for its first answer, that is until it reads its
standard input (a pipe kept open; Linux: seen in ``/proc/PID/syscall``), against a minimal
Typer + Rich app that prints a line and asks with ``input()``. For ``play`` this includes the
computer's first move when it has the first decision.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MINIMAL_APP = """\
import typer
from rich.console import Console

app = typer.Typer()


@app.command()
def main(text: str) -> None:
    Console().print(text)


app()
"""

MINIMAL_ASKING_APP = """\
import typer
from rich.console import Console

app = typer.Typer()


@app.command()
def main(text: str) -> None:
    Console().print(text)
    input("? ")


app()
"""

READ = {"x86_64": "0", "aarch64": "63"}
"""The number of the ``read`` system call by machine (what ``/proc/PID/syscall`` shows)."""

HAND = "7C 7D 7H 5H 6H 8H AS 2S 3S KD"
COMMANDS: dict[str, list[str]] = {
    "analyze HAND": ["analyze", HAND],
    "analyze HAND --json": ["analyze", HAND, "--json"],
    "analyze --opponent": [
        "analyze",
        "4H 5H 6H 5C 5D 9S TS JS QS KS",
        "--opponent",
        "3H 7H 8H 2C 3C 4D 8D 9C JD KD",
    ],
    "rules": ["rules"],
    "rules classic": ["rules", "classic"],
    "score": ["score", "A knock 20", "B gin 40"],
    "learn --list": ["learn", "--list"],
    "learn 1 (EOF)": ["learn", "1"],
    "puzzle --id outs-049 --json": ["puzzle", "--id", "outs-049", "--json"],
    "puzzle --id knock-or-play-001 --json": ["puzzle", "--id", "knock-or-play-001", "--json"],
    "puzzle --id deadwood-001 --json": ["puzzle", "--id", "deadwood-001", "--json"],
    "puzzle (daily, EOF)": ["puzzle"],
    "puzzle --stats": ["puzzle", "--stats"],
    "play (EOF)": ["play", "--seed", "1"],
    "carousel analyze": [
        "carousel",
        "analyze",
        "--table",
        "7H 8H 9H | JK=7C 7D 7S",
        "--hand",
        "TH 2C 5S",
    ],
    # 30 table cards (HIGHS_FROM to DP_FIRST_UNDER): the dynamic programme within its budget,
    # so no highspy, with or without a joker.
    "carousel analyze (30-card table)": [
        "carousel",
        "analyze",
        "--table",
        "AC 2C 3C 4C | 5D 6D 7D 8D | 9H TH JH QH | KS KD KH KC | 2S 3S 4S 5S | 7C 7D 7H | "
        "TC JC QC KC | 9S 9D 9C",
        "--hand",
        "6C 8C 6H 5S 9C",
    ],
    "carousel analyze (30 cards, a joker)": [
        "carousel",
        "analyze",
        "--table",
        "AC 2C 3C 4C | 5D 6D 7D 8D | 9H TH JH QH | KS KD KH KC | 2S 3S 4S 5S | 7C 7D 7H | "
        "TC JC QC KC | 9S 9D JK=9C",
        "--hand",
        "6C 8C 6H 5S 9C",
    ],
    # 60 table cards, a joker, an 11-card hand (a bot round's position, one card added): the
    # size issue 22 sets a target for (at most 1.3x the minimal app).
    "carousel analyze (60-card table)": [
        "carousel",
        "analyze",
        "--table",
        "AC AD AS | AC AH AS | 5C 5H 5S | 6C 6H 6S | 7C 7D 7H | 8C 8D 8H | 9C 9H 9S | "
        "QC QD QH | KC KD KH KS | 8C 9C TC JC QC | 4D 5D 6D 7D | 8D 9D TD | JD QD KD | "
        "AH 2H 3H | 3H 4H 5H 6H | 2S 3S 4S | 6S 7S JK=8S | TS JS QS KS",
        "--hand",
        "4C 5C 7C AD 4D JD TH QH 3S 8S TS",
    ],
    "carousel play (EOF)": ["carousel", "play", "--seed", "1"],
    "carousel puzzle (daily, EOF)": ["carousel", "puzzle"],
    "--help": ["--help"],
}


def wall(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:  # a failing start measures nothing: say so, loudly
        raise SystemExit(f"error: {' '.join(argv[1:])} exited with status {done.returncode}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def _setting(folder: Path, minimal_app: str) -> tuple[dict[str, str], list[str], list[str]]:
    """The environment (a scratch data folder), the minimal app's and gintutor's command lines.

    As installed: bytecode cached (a checkout run with PYTHONDONTWRITEBYTECODE would compile
    gintutor's sources on every start, which no installed copy does).
    """
    app = folder / "minimal.py"
    app.write_text(minimal_app, encoding="utf-8")
    env = {**os.environ, "GINTUTOR_HOME": str(folder), "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env, [sys.executable, str(app), "hello"], [sys.executable, "-m", "gintutor"]


def to_prompt(argv: list[str], env: dict[str, str], read: str) -> float:
    """Wall seconds from the start of ``argv`` until it waits to read its standard input."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    try:
        while process.poll() is None:
            try:
                call = Path(f"/proc/{process.pid}/syscall").read_text().split()
            except OSError:
                call = []
            if call[:2] == [read, "0x0"]:  # read(0, ...): waiting for the answer
                return time.perf_counter() - start
            time.sleep(0.0005)
        raise SystemExit(f"error: {' '.join(argv[1:])} exited before asking anything")
    finally:
        process.kill()
        process.wait()


def first_prompts(commands: dict[str, list[str]], rounds: int) -> None:
    """``--first-prompt``: each asking command's wait for its first question, paired runs."""
    read = READ.get(os.uname().machine)
    if read is None or not Path("/proc/self/syscall").exists():
        raise SystemExit("error: --first-prompt needs Linux on x86_64 or aarch64")
    asking = {k: v for k, v in commands.items() if "EOF)" in k}
    with tempfile.TemporaryDirectory() as folder:
        env, minimal, gintutor = _setting(Path(folder), MINIMAL_ASKING_APP)
        for argv in [minimal, *(gintutor + a for a in asking.values())]:
            to_prompt(argv, env, read)  # warm up
        times: dict[str, list[float]] = {name: [] for name in asking}
        paired: dict[str, list[float]] = {name: [] for name in asking}
        for _ in range(rounds):
            for name, argv in asking.items():
                paired[name].append(to_prompt(minimal, env, read))
                times[name].append(to_prompt(gintutor + argv, env, read))
    floor = [run for runs in paired.values() for run in runs]
    print(
        f"minimal Typer + Rich app asking: {statistics.median(floor) * 1000:.0f} ms to its "
        f"question (median of {len(floor)} runs); load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'command':38} {'median':>9} {'ratio':>6} {'least':>9} {'ratio':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        least = min(values)
        print(
            f"{name:38} {median * 1000:6.0f} ms {median / statistics.median(paired[name]):5.2f}x "
            f"{least * 1000:6.0f} ms {least / min(paired[name]):5.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", metavar="TEXT", help="Only the commands whose name has TEXT.")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="Empty the data folder's caches before every run (a first start after install).",
    )
    parser.add_argument(
        "--lang",
        action="append",
        default=[],
        metavar="LANG",
        help="Also run every command with --lang LANG (a column each: the least CPU and its "
        "ratio to the minimal app's least).",
    )
    parser.add_argument(
        "--first-prompt",
        action="store_true",
        help="Time the commands that ask until they wait for their first answer.",
    )
    args = parser.parse_args()
    commands = {k: v for k, v in COMMANDS.items() if args.only is None or args.only in k}
    if args.first_prompt:
        first_prompts(commands, args.rounds)
        return
    with tempfile.TemporaryDirectory() as folder:
        env, minimal, gintutor = _setting(Path(folder), MINIMAL_APP)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        spoken: dict[str, dict[str, list[tuple[float, float]]]] = {
            lang: {name: [] for name in commands} for lang in args.lang
        }
        paired: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        caches = Path(folder) / "cache"
        languages = [[f"--lang={lang}"] for lang in args.lang]
        for argv in [minimal, *(gintutor + a for a in commands.values())]:
            wall(argv, env)  # warm up: bytecode written, files in the page cache, caches filled
        for lang in languages:
            for argv in commands.values():
                wall(gintutor + lang + argv, env)
        for _ in range(args.rounds):
            for name, argv in commands.items():
                paired[name].append(wall(minimal, env))
                if args.cold:
                    shutil.rmtree(caches, ignore_errors=True)
                times[name].append(wall(gintutor + argv, env))
                for lang, option in zip(args.lang, languages, strict=True):
                    spoken[lang][name].append(wall(gintutor + option + argv, env))
    floor = [run for runs in paired.values() for run in runs]
    print(
        f"minimal Typer + Rich app: {statistics.median(w for w, _ in floor) * 1000:.0f} ms wall, "
        f"{statistics.median(c for _, c in floor) * 1000:.0f} ms CPU (medians of {len(floor)} "
        f"runs); load average {os.getloadavg()[0]:.1f}"
    )
    # Each command is compared with the minimal app's runs just before its own (the same
    # moments of machine load). The least CPU time is the run least disturbed by other work:
    # on a busy shared machine its ratio is the steadier figure.
    head = ("wall", "ratio", "CPU", "ratio", "least", "ratio")
    head += tuple(word for lang in args.lang for word in (lang[:6], "ratio"))
    print(f"{'command':38} " + " ".join(f"{word:>6}" for word in head))
    for name, values in times.items():
        base = paired[name]
        wall_ = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        least = min(c for _, c in values)
        print(
            f"{name:38} {wall_ * 1000:3.0f} ms "
            f"{wall_ / statistics.median(w for w, _ in base):5.2f}x "
            f"{cpu * 1000:3.0f} ms {cpu / statistics.median(c for _, c in base):5.2f}x "
            f"{least * 1000:3.0f} ms {least / min(c for _, c in base):5.2f}x"
            + "".join(
                f" {min(c for _, c in spoken[lang][name]) * 1000:3.0f} ms "
                f"{min(c for _, c in spoken[lang][name]) / min(c for _, c in base):5.2f}x"
                for lang in args.lang
            )
        )


if __name__ == "__main__":
    main()
