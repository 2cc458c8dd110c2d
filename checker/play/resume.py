"""`rulebook play SPEC --from STATE`: go on with a game from a state file that records its frames.

The file (``rulebook-state/2``, written by `play`/`replay --state-at`) gives the state, the decision point, the
calls and loops above it, the random source and the decisions asked so far (:mod:`checker.solver.framefile`);
the interpreter asks that decision again and runs the rest of the game (:mod:`checker.runtime.frames`), with
the built-in agents seeded by ``--seed``.  A state file without frames is refused (exit 4), with the reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

from checker.base import terminal

__all__ = ["play_from", "resume_game"]


def resume_game(loaded, agents: list):
    """Play ``loaded``'s game (a :class:`~checker.solver.statefile.Loaded` with frames) on from its decision point
    with ``agents``; the game's result (the log holds what happened from that decision on)."""
    engine = loaded.engine
    loaded.resume.prepare(engine, agents)
    loaded.resume.go_on(engine)
    return engine.result()


def play_from(args) -> int:
    from checker.play.outputs import _outputs, _spec_failed, _write
    from checker.runtime.players import make_agent
    from checker.runtime.replay import state_digest
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.command import load
    if getattr(args, "state_at", None) or getattr(args, "human", None) is not None:
        print("rulebook play: --from goes on with the built-in agents; --state-at and --human start from the "
              "set-up", file=sys.stderr)
        return 2
    log_file = args.json if args.json not in (None, "-") else None
    code = _outputs("play", args, [log_file], [args.spec, *args.more, args.start])
    if code:
        return code
    loaded = load("play", args.start, [Path(p) for p in [args.spec, *args.more]])
    if isinstance(loaded, int):
        return 2 if loaded != 1 else 1
    result, engine, _scopes, state = loaded
    from checker.runtime.players import unknown_aim
    if problem := unknown_aim(result.program, [args.agent]):
        print(f"rulebook play: {problem}", file=sys.stderr)
        return 2
    players = engine.st.n
    if args.players is not None and args.players != players:
        print(f"rulebook play: {args.start} is a game of {players} players, not {args.players}", file=sys.stderr)
        return 2
    if state.resume is None:
        print(f"rulebook play: --from {args.start}: the file records no frames (the calls and loops above its "
              f"decision point), so what runs after that decision is not known; `play --state-at` writes them",
              file=sys.stderr)
        return 4
    engine.recording = True
    agents = [make_agent(getattr(args, "agent", "random"), args.seed * 1000 + seat) for seat in range(players)]
    table = None
    if not args.quiet:
        from checker.human import LexiconError, Table, find_lexicon
        try:
            lexicon = find_lexicon([args.spec, *args.more], getattr(args, "lexicon", None))
        except LexiconError as exc:
            print(f"rulebook play: {exc}", file=sys.stderr)
            return 2
        table = Table(engine, lexicon, None, input=input)
        agents = table.agents(agents)
        print(f"suite de {args.start}, {players} joueurs")
    try:
        game = resume_game(state, agents)
    except SpecRuntimeError as exc:
        if table is not None:
            table.show_events()
        return _spec_failed(exc, result)
    if table is not None:
        table.show_events()
    names = [f"Joueur {seat + 1}" for seat in range(players)]
    print("\nScores : " + ", ".join(f"{names[p]} {s}" for p, s in sorted(game.scores.items())))
    print("Vainqueur : " + " et ".join(names[p] for p in game.winners))
    if args.json:
        record = {"from": str(args.start), "players": players, "events": game.events, "scores": game.scores,
                  "winners": game.winners, "final_state": state_digest(engine.st)}
        if args.json == "-":
            terminal.emit_json(record)
            return 0
        return _write("play", args.json, record, args.force)
    return 0
