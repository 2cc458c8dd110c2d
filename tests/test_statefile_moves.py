"""Move files: a move Z3 lists at a decision point, written as `rulebook moves --json` writes it and read
back as `rulebook apply` reads it, at the same point loaded from its state file, is the same move, made by the
same player — at decision points of every kind a seeded game reaches (offers, choices, reactions)."""

from __future__ import annotations

import collections

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.legal import Legality, point_of
from checker.solver.scopes import Scopes
from checker.solver.statefile import dump_move, dump_state, load_move, load_state
from conftest import bundled


class _Enough(Exception):
    pass


KINDS = {"offer": 2, "choose": 2, "subset": 2, "react": 1}      # points of each kind to check (reactions are rare)


def test_every_move_reads_back_from_its_move_file():
    program, typed = bundled().program, bundled().typed
    scopes = Scopes(typed)
    e = Engine(typed)
    e.recording = False
    selection = select(program, program.configurations["Bluff"], 4)
    per_kind = collections.Counter()
    moves_of_kind = collections.Counter()
    wrong, points = [], []

    def observe(decision):
        point = point_of(decision, scopes)
        if per_kind[point.kind] >= KINDS[point.kind]:
            return
        per_kind[point.kind] += 1
        state = dump_state(e, decision, scopes, ["spec/citadelles"])
        other = Engine(typed)
        other.recording = False
        loaded = load_state(other, state, scopes)
        points.append(loaded)
        for move in Legality(other, scopes).moves(loaded.point):
            moves_of_kind[move[0]] += 1
            data = dump_move(other, move, loaded.point.player, loaded.choose_type)
            back = load_move(loaded, data)
            if back != (move, loaded.point.player):
                wrong.append((move, data, back))
        if all(per_kind[k] >= n for k, n in KINDS.items()):
            raise _Enough()

    e.observer = observe
    try:
        e.play(selection.cards, 4, 3, [RandomAgent(300 + k) for k in range(4)])
    except _Enough:
        pass
    # the moves no random game of the bundled spec offers here (a subset left smaller, an optional choice
    # declined, each answer to a reaction), written and read back at the first point
    loaded = points[0]
    for move in [("nothing",), ("react", True), ("react", False)]:
        for player in (0, 3):
            back = load_move(loaded, dump_move(loaded.engine, move, player, loaded.choose_type))
            if back != (move, player):
                wrong.append((move, back))
    assert wrong == []
    # and as `rulebook moves` writes them in its text
    from checker.solver.command import describe_move
    assert [describe_move(loaded, m) for m in [("react", True), ("react", False), ("nothing",)]] == \
        ["oui", "non", "rien"]
    assert all(per_kind[k] >= n for k, n in KINDS.items()), per_kind
    assert {"action", "finish", "choose", "react"} <= set(moves_of_kind), moves_of_kind
