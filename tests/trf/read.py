#!/usr/bin/env python3
"""Read a TRF-16 file (argv[1]) with PyPI's `trf` (1.1.1, GPL-3.0, a test tool only) and print
what it read as JSON: the name, and each player's starting rank, name, points, rank and rounds
(opponent, colour, result). The tests hold `correspond tournament trf` to this independent
reader."""
import json
import sys

import trf

with open(sys.argv[1], encoding="utf-8") as f:
    t = trf.load(f)

print(json.dumps({
    "name": t.name,
    "players": [{
        "rank_start": p.startrank,
        "name": p.name,
        "points": p.points,
        "rank": p.rank,
        "rounds": [[g.startrank, g.color, g.result] for g in p.games],
    } for p in t.players],
}, ensure_ascii=False))
