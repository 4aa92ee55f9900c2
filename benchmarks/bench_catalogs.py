"""Which runtime reads the catalogs faster: the standard library's gettext or Babel's support.

Run from the project root (Babel installed: the test extra)::

    python benchmarks/bench_catalogs.py            # 20 rounds
    python benchmarks/bench_catalogs.py --rounds 50

Every message of the shipped templates is "translated" (marked) into three catalogs, compiled
to ``.mo`` in a temporary folder, so the figures are those of complete catalogs. Each round
starts a fresh interpreter that has imported Typer and Rich (what every gintutor command has)
and then, timed inside it: imports the runtime, opens the three catalogs and looks up every
lesson text by its context, as ``gintutor --lang nb learn`` does. The figures are the median
and least of the rounds, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

RUNTIMES = {
    "stdlib gettext": """
import time, typer, rich.console
start = time.perf_counter()
from gettext import GNUTranslations
catalogs = {}
for domain in DOMAINS:
    with open(f"{FOLDER}/nb/LC_MESSAGES/{domain}.mo", "rb") as file:
        catalogs[domain] = GNUTranslations(file)
opened = time.perf_counter()
found = sum(1 for c, m in KEYS if catalogs["lessons"].pgettext(c, m) != m)
done = time.perf_counter()
print((opened - start) * 1000, (done - opened) * 1000, found)
""",
    "babel.support": """
import time, typer, rich.console
start = time.perf_counter()
from babel.support import Translations
catalogs = {}
for domain in DOMAINS:
    with open(f"{FOLDER}/nb/LC_MESSAGES/{domain}.mo", "rb") as file:
        catalogs[domain] = Translations(file, domain=domain)
opened = time.perf_counter()
found = sum(1 for c, m in KEYS if catalogs["lessons"].pgettext(c, m) != m)
done = time.perf_counter()
print((opened - start) * 1000, (done - opened) * 1000, found)
""",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    from babel.messages.pofile import read_po
    from test_i18n import _marked_catalogs

    from gintutor.text.i18n import DOMAINS, LOCALE_DIR

    with (LOCALE_DIR / "lessons.pot").open("rb") as file:
        keys = [(m.context, m.id) for m in read_po(file) if m.id]
    with tempfile.TemporaryDirectory() as folder:
        _marked_catalogs(Path(folder), "nb")
        size = sum(p.stat().st_size for p in Path(folder).rglob("*.mo"))
        print(f"{len(keys)} lesson texts looked up; the three catalogs: {size // 1024} KB")
        head = f"{DOMAINS!r}", repr(folder), repr(keys)
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in RUNTIMES}
        for _ in range(args.rounds):
            for name, code in RUNTIMES.items():
                program = (
                    code.replace("DOMAINS", head[0], 1)
                    .replace("{FOLDER}", folder)
                    .replace("KEYS", head[2], 1)
                )
                out = subprocess.run(
                    [sys.executable, "-c", program], capture_output=True, text=True, check=True
                ).stdout.split()
                assert int(out[2]) == len(keys), out
                results[name].append((float(out[0]), float(out[1])))
    print(f"{'runtime':16} {'import+open':>12} {'least':>7} {'lookups':>8} {'least':>7}  (ms)")
    for name, runs in results.items():
        opens, looks = [o for o, _ in runs], [look for _, look in runs]
        print(
            f"{name:16} {statistics.median(opens):12.2f} {min(opens):7.2f} "
            f"{statistics.median(looks):8.2f} {min(looks):7.2f}"
        )


if __name__ == "__main__":
    main()
