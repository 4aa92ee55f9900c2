"""Carousel (manipulation rummy): cards with deck copies and jokers, the exact table solver,
the round and game state machine, scoring and bots. Pure and stdlib only, like the rest of
the engine; the gin modules are reused where the rules agree (card notation, suits, ranks).
"""
