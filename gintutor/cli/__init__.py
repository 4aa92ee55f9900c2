"""The command line (Typer + Rich): :func:`main` is the installed ``gintutor`` command."""


def main() -> None:
    """Run the command line.

    The interface's modules are imported with the cycle collector paused: importing creates
    only objects that live as long as the process, and the collector's passes over them are a
    measurable share of a start. They are then frozen (never scanned again) and the collector
    resumes before any command runs, so long commands collect as usual.
    """
    import gc

    gc.disable()
    try:
        from gintutor.cli.app import main as run
    finally:
        gc.freeze()
        gc.enable()
    run()
