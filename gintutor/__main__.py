"""``python -m gintutor`` runs the command-line interface."""

from gintutor.cli import main

main()
