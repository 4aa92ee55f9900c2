"""What a command loads: the modules imported once ``gintutor ARGV`` has run (start-up tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules_after(*argv: str, home: Path) -> tuple[list[str], str]:
    """The modules loaded once ``gintutor ARGV`` has run (end of input for prompts), and its
    standard output."""
    code = (
        "import atexit, json, runpy, sys\n"
        "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
        f"sys.argv = ['gintutor', *{list(argv)!r}]\n"
        "runpy.run_module('gintutor', run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "GINTUTOR_HOME": str(home), "NO_COLOR": "1"},
        check=False,
    )
    modules: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return modules, done.stdout
