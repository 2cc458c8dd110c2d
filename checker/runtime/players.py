"""The built-in players, by the names commands take (``--agent random``, ``greedy``, ``montecarlo``), with their
options after the name (``greedy:aim=tour_achevée:weight=2``: see :func:`parse_agent`)."""

from __future__ import annotations

from checker.runtime.agents import GreedyAgent, RandomAgent

__all__ = ["AGENTS", "make_agent"]

AGENTS = ("random", "greedy", "montecarlo")     # the built-in players, by the name commands take


OPTIONS = {"greedy": {"aim": str, "weight": int}, "montecarlo": {"aim": str, "weight": int}}      # the options each player takes after its name


def parse_agent(text: str) -> tuple[str, dict]:
    """A player's name and options from ``name:key=value:…`` (ValueError saying what is wrong).

    >>> parse_agent("greedy:aim=fin:weight=2")
    ('greedy', {'aim': 'fin', 'weight': 2})
    """
    name, *parts = text.split(":")
    if name not in AGENTS:
        raise ValueError(f"no agent \"{name}\" (known: {', '.join(AGENTS)})")
    known = OPTIONS.get(name, {})
    options: dict = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if key not in known or not eq:
            takes = ", ".join(f"{k}=…" for k in known) or "no options"
            raise ValueError(f"{name} takes {takes}, not \"{part}\"")
        try:
            options[key] = known[key](value)
        except ValueError:
            raise ValueError(f"the {key} of {name} must be an integer, not \"{value}\"") from None
    if "weight" in options and "aim" not in options:
        raise ValueError(f"{name} takes weight=… only with aim=… (the weight is the aim's)")
    return name, options


def unknown_aim(program, agents) -> str | None:
    """What is wrong with an agent's ``aim=`` in this rule set (an ending it does not have), or None."""
    from checker.runtime.aim import endings
    game = {f.name: f.values[0] for f in program.game.fields} if program.game else {}
    names = {e.name for e in endings(program, getattr(game.get("flow"), "id", None))}
    for agent in dict.fromkeys(agents):
        aim = parse_agent(agent)[1].get("aim")
        if aim is not None and aim not in names:
            return f"no ending \"{aim}\" to aim at in this game (its endings: {', '.join(sorted(names)) or 'none'})"
    return None


def make_agent(name: str, seed: int, playouts: int = 24, depth: int = 300):
    """A built-in player by name (see :data:`AGENTS`), with its options (:func:`parse_agent`); ``playouts`` and
    ``depth`` are the Monte-Carlo agent's (see :class:`checker.runtime.montecarlo.MonteCarloAgent`)."""
    name, options = parse_agent(name)
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed, **options)
    if name == "montecarlo":
        from checker.runtime.montecarlo import MonteCarloAgent
        return MonteCarloAgent(seed, playouts=playouts, depth=depth, **options)
    raise ValueError(f"no agent {name!r} (known: {', '.join(AGENTS)})")
