"""``python -m gintutor`` runs the command-line interface."""

from gintutor.cli.app import main

main()
