"""``python -m gintutor`` runs the command-line interface."""

try:
    from gintutor.cli import main
except KeyboardInterrupt:  # Ctrl-C as the start begins: quiet, as in main
    raise SystemExit(130) from None

main()
