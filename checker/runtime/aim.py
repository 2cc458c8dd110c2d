"""Aiming at one of a game's endings: how far each ending is from happening, read from the spec alone.

A game's flow plays its rounds in a last top-level ``repeat … until C`` loop (:mod:`checker.runtime.outlook`);
the vars ``C`` reads are the game's *end vars*.  Every statement that sets an end var to a constant (``set fin =
terminée``, ``set partie_finie = true``), in a procedure or an action, is an *ending*,
named by that constant (an enum member), or by the var when the constant is ``true``.  What makes it happen is
the conditions of the ``if`` statements around it: the condition of each ``if`` whose ``then`` branch holds it,
the negation of each whose ``else`` branch does (so an ``else if`` is checked after the ``if`` before it), over
every value of the ``for`` loops around it (the ending happens if it happens for one of them).

:func:`distance` measures how far those conditions are from holding, on the state as it is, by the shape of each
condition: a comparison of two numbers is as far as the numbers are apart (``a == b``: ``|a - b|``; ``a <= b``:
``a - b`` when above; ``not``, ``!=``, ``<``, ``>`` and ``>=`` alike), any other condition is 0 when it holds and
1 when it does not; ``and`` adds its sides' distances, ``or`` takes the least, ``not`` measures the opposite
condition; a condition that calls a quantity no rule gives another value is measured through the quantity's
formula (``complète(p)``, written ``taille(p) >= 7``, is as far as the districts ``p`` lacks).  An ending set
under ``count(x in pioche) == 0`` is as far as the cards left in ``pioche``; one set in the ``else`` of that
``if`` under ``ouvert and écart() <= 5`` is 1 while ``ouvert`` is false, plus how far ``écart()`` is above 5
(docs/simulate.md measures the bundled games' endings).  A condition that reads a local name the ending's
procedure binds other than its ``for`` loops (a parameter, a ``let``) cannot be measured on a state: it counts
0 and the ending is ``partial``; one that fails on the state (a spec error in a hypothetical) is not held (1).

:func:`progress` is what an aiming player adds to its valuation (``GreedyAgent(aim=…)``, ``MonteCarloAgent(aim=…)``):
the aimed ending should come first, so it gains a unit for each unit the aimed ending comes nearer, and for each
unit another ending goes further away while that one is not already further than the aimed one was when the
decision was asked (:func:`cap`: the others' distances are capped at the aimed one's then, plus 1; one cap for
all the options of a decision, so that coming nearer the aim is never worth less than staying).  The units are
the conditions' own (ramparts, tiles, districts); nothing here knows a game.

*Planning* (:func:`subgoals`): an ending's conditions are often changed only by statements that run under
conditions of their own, several steps away.  So each ending is chained back, from the spec, to its *sub-goals*:
(depth 1) reaching its statement — the conditions of the `if` statements around the calls (and offers) that lead
to its body from the bodies the flow's rounds call — and every statement of the rounds that changes what its
conditions read (a var set, a zone drawn from or moved to), each under the conditions on its way from the rounds, its
callers' arguments bound to its parameters (a parameter of type Player at the top of a chain is the aiming
player; a ``for`` over ``filter``/``collect`` is its collection under the filter's condition); (depth 2) for a
condition on such a chain that its body sets to a constant before testing it (a flag set to false, then set to
true by what it calls), the statements between that reset and the test that set it, with the conditions on their
way down.  A sub-goal is as far as the least, over its chains and
their loops' values, of its conditions' distances added up (``all`` adds its elements' distances, ``any`` takes
the least: a path is as far from finished as its open ends); what a chain cannot know (a local name, a stale
condition) is left out, and a sub-goal with nothing left to measure is dropped; (depth 3) the statements that change
what a depth-2 sub-goal's conditions read.  A chain that enters an action takes the prohibitions about it that read
what its player has (``forbid prendre(p, x) when stock[p] == 0``) as conditions too, unless a caller resets what they
read before the offer: keeping what the move needs is a step towards what it does.

*Counts* (:func:`subgoal_penalty`).  A sub-goal is worth what it brings: its *yield*, the units of the ending one
run of it brings, is the product of the sizes of the ``for`` loops (not an offer's choices) between the condition
it makes hold and the statement that changes what the ending reads, on the state now (a flag that starts a phase
in which each player, for each of ``1..n()``, takes one card from the counted pile yields ``n() × players``; a
statement that takes one card itself yields 1).  A move that spends what a prohibition on it reads (``forbid m(p)
when x[p] == 0`` while ``m`` sets ``x[p] = x[p] - 1``; ``<= c``, ``< c`` alike) is needed several more times: its
sub-goal must happen the ending's distance over the yield times, rounded up, and the next time once for each unit
its parent sub-goal (the one whose condition it changes) is from happening; the prohibition is as far as ``x`` is
short of that count, so the aiming player keeps what it will need and spends only on what brings the parent
nearer (such a run needs one fewer).  What the parent's own body gives back (``set x[q] = x[q] + …``) is lent, not
used up: one is enough each time, and its prohibition stays 0 or 1.  :func:`progress` subtracts each sub-goal's distance times its yield divided by
its depth.  It is a heuristic, not a search: it sees the steps the spec writes before an ending and how many times
each is still needed, not how many turns they take.

The endings and their measure are in :mod:`checker.runtime.aim_measure`, the sub-goals in
:mod:`checker.runtime.aim_plan`.  Each measure knows the vars and zones it reads (through the quantities and the
rules that give them values) and keeps its last answers with a copy of what it read: asked again where none of that
changed (most options of a decision leave most of it alone), it answers without running.
"""

from __future__ import annotations

from checker.runtime.aim_measure import Ending, distance, distances, endings, engine_endings, resolve
from checker.runtime.aim_plan import SubGoal, engine_subgoals, subgoal_penalty, subgoals

__all__ = ["Ending", "endings", "engine_endings", "distance", "distances", "progress", "cap", "ended_progress",
           "resolve", "reached", "REACHED", "SubGoal", "subgoals", "engine_subgoals", "subgoal_penalty"]


def progress(engine, aim: str, cap: int | None = None, player: int | None = None) -> float:
    """What the aimed ending's player gains on the state now: minus the aimed ending's distance, plus each other
    ending's distance capped at ``cap`` (see the module's docstring; None: the aimed ending's distance plus 1 on
    this state), minus how far the ending's sub-goals are for ``player`` (:func:`subgoal_penalty`)."""
    measured = distances(engine)
    if aim not in measured:
        resolve(engine, aim)            # the error naming the endings
    own = measured[aim]
    cap = own + 1 if cap is None else cap
    gained = -own + sum(min(d, cap) for name, d in measured.items() if name != aim)
    penalty = subgoal_penalty(engine, aim, player, own)
    return round(gained - penalty, 6) if penalty else gained


def cap(engine, aim: str) -> int:
    """The cap of the other endings' distances for the options of a decision taken now: the aimed ending's distance
    now, plus 1 (one cap for every option, so that coming nearer the aim never lowers it)."""
    measured = distances(engine)
    if aim not in measured:
        resolve(engine, aim)
    return measured[aim] + 1


REACHED = 1000          # what an ended game is worth to an aiming player: + when it ended on the aim, - otherwise


def reached(engine, aim: str) -> bool:
    """Did the game, now ended, end on the aimed ending (its end var holds the ending's value)?"""
    for ending in resolve(engine, aim):
        value = engine.st.vars.get(ending.var)
        if value == (True if ending.value == "true" else ending.value):
            return True
    return False


def ended_progress(engine, aim: str) -> int:
    """:func:`progress` for a game that has ended: :data:`REACHED` when it ended on the aim, minus it otherwise
    (the distances of an ended game measure what its ending did, not what it was near)."""
    return REACHED if reached(engine, aim) else -REACHED


