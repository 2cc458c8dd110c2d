"""An `each … chooses` decision point in a state file: the choices the players asked before the decider made.

While the players of `each p in ps chooses x in coll … into v[p]` choose, the game's state does not change (the
choices are written together once all have chosen), so the choices made so far are in no var: the decision
records them, in the order the players were asked — ``"chosen": [{"player": "Joueur 1", "value": 2}]``.  The
language makes them secret until all have chosen: the game shows them to nobody (`rulebook play`'s players read
« Joueur 1 choisit en secret »), and the commands that print a decision point say only how many have chosen.
A state file is the whole state (every hand included), so it holds their values.

Loading checks them against the statement itself, run by the interpreter on the loaded state (:func:`asked`):
who is asked, in which order, and what each of them may choose.  Legality needs none of them: the decider's
options are read from the state, which the earlier choices have not changed.
"""

from __future__ import annotations

from checker.front import ast
from checker.front.types import PLAYER
from checker.runtime.engine import Decision, Engine
from checker.runtime.state import Abort

__all__ = ["asked", "dump_chosen", "next_decision", "read_chosen", "who"]


class _First:
    def choose(self, decision: Decision) -> int:
        return 0


def asked(engine: Engine, site: ast.ChooseEach, env: dict) -> list[tuple[int, list]]:
    """(player, options) of each player ``site`` asks, in order, run by the interpreter on the engine's state with
    the local names ``env``, each answering with their first option (the state does not change until all have
    chosen: nobody's options depend on another's pick).  A player with nothing to choose stops the statement:
    the list ends before them.  The state is left as it was, and so is the game's record (its log, the answers
    given: ``Engine.choices``)."""
    names = {k: v for k, v in env.items() if k != site.player}
    run_it = engine.compiler.body((site,), tuple(names))
    snap = engine.st.snapshot()
    saved = (engine.observer, engine.agents, engine.recording, engine.decisions, engine.moves)
    answers = len(engine.choices)      # the probe's answers are not the game's (as Engine.lookahead)
    out: list[tuple[int, list]] = []
    engine.observer = lambda decision: out.append((decision.player, list(decision.options)))
    engine.recording = False
    engine.agents = [_First()] * engine.st.n
    try:
        run_it(names)
    except Abort:
        pass
    finally:
        engine.st.restore(snap)
        engine.observer, engine.agents, engine.recording, engine.decisions, engine.moves = saved
        del engine.choices[answers:]
        engine.invalidate()
    return out


def who(players) -> str:
    return ", ".join(f"Joueur {p + 1}" for p in players) or "nobody"


def dump_chosen(chosen, ty, vals) -> list[dict]:
    return [{"player": vals.write(p, PLAYER), "value": vals.write(v, ty)} for p, v in chosen]


def read_chosen(engine: Engine, site: ast.ChooseEach, env: dict, player: int | None, data: list, ty, vals,
                problems: list) -> tuple:
    """The ``chosen`` list of an `each … chooses` decision → ((player, value), …); every problem is recorded with
    its JSON path: an unknown player, a value of the wrong type, a player listed twice, a player not asked before
    the decider, one out of the order they are asked in, a value not among that player's options, a choice
    missing."""
    entries, seen, start = [], {}, len(problems)
    for i, entry in enumerate(data):
        path = f"decision/chosen/{i}"
        p = vals.player(entry["player"], f"{path}/player", problems)
        v = vals.read(entry["value"], ty, f"{path}/value", problems)
        if p is None:
            continue
        if p in seen:
            problems.append((f"{path}/player", f"Joueur {p + 1} is listed twice (also decision/chosen/{seen[p]}): "
                                               f"each player chooses once"))
            continue
        seen[p] = i
        entries.append((i, p, v, entry["value"]))
    if len(problems) > start or player is None:
        return ()
    order = asked(engine, site, env)
    players = [p for p, _ in order]
    if player not in players:
        problems.append(("decision/player", f"Joueur {player + 1} is not asked at this `each … chooses` on this "
                                            f"state (asked, in order: {who(players)})"))
        return ()
    before = players[:players.index(player)]
    options = dict(order)
    for k, (i, p, v, raw) in enumerate(entries):
        path = f"decision/chosen/{i}"
        if p == player:
            problems.append((f"{path}/player", f"Joueur {p + 1} is the player who decides: their choice is not made "
                                               f"yet"))
        elif p not in before:
            problems.append((f"{path}/player", f"Joueur {p + 1} is asked after Joueur {player + 1} here, and has not "
                                               f"chosen yet (asked, in order: {who(players)})"))
        elif k >= len(before) or before[k] != p:
            problems.append((f"{path}/player", f"Joueur {p + 1} is out of order: the players are asked in the order "
                                               f"{who(players)}, and the choices are listed in that order"))
        elif v not in options[p]:
            shown = ", ".join(str(vals.write(o, ty)) for o in options[p][:12])
            problems.append((f"{path}/value", f"{raw!r} is not a choice Joueur {p + 1} can make here (the options: "
                                              f"{shown}{', …' if len(options[p]) > 12 else ''})"))
    missing = [q for q in before if q not in seen]
    if missing:
        problems.append(("decision/chosen", f"no choice for {who(missing)}: the players asked before Joueur "
                                            f"{player + 1} here ({who(before)}) have all chosen"))
    return tuple((p, v) for _, p, v, _ in entries)


def next_decision(engine: Engine, point, value) -> Decision | None:
    """The decision after the decider of an `each … chooses` point (``point``) picks ``value``: the next player asked
    who has more than one option (one with a single option takes it unasked, as in a game), with the choices made
    so far; None when nobody is left to ask (all have chosen: the choices are written and the game goes on, which a
    state file does not hold)."""
    site = point.site
    order = asked(engine, site, point.env)
    chosen = (*point.chosen, (point.player, value))
    after = [p for p, _ in order]
    for q, options in order[after.index(point.player) + 1:]:
        if len(options) > 1:
            return Decision(q, f"{site.var} (en même temps que les autres)", options, engine.show, secret=True,
                            engine=engine, site=site, env={**point.env, site.player: q}, chosen=chosen)
        chosen = (*chosen, (q, options[0]))
    return None
