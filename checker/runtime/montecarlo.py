"""A Monte-Carlo agent: at each decision, plays each option out many times on *determinised* states
(the hidden cards dealt again at random, consistently with what the player sees) and takes the
option that won most often.

The interpreter runs a game as ordinary Python calls, so a game cannot be copied half-way.  A
playout therefore replays the game from its start in a second engine compiled from the same spec,
with the same seed and the answers given so far (``Engine.choices``), which brings it to the same
decision point; there it

1. *determinises* the state for the deciding player: every card in a zone cell the player cannot
   see (:meth:`Engine.sees`: secret zones, and the hidden zones of the other players) is exchanged
   at random with the other unseen cards of its kind, each cell keeping its number of cards of each
   kind; cards the decision itself shows (its options and local names) stay where they are.  The
   random source is seeded anew, so later shuffles and draws are unknown too;
2. takes the option being tried, and plays on with a fast default policy (``rollout``: the first
   greedy builder, the greedy player, or uniformly random) for every player, for at most ``depth``
   decisions;
3. scores the playout for the deciding player.  ``judge="wins"``: 1 for a win, 1/k for a win shared
   by k players, 0 otherwise — by the game's winners, or, when the depth is reached first, by the
   scores the game would give if it ended there (:mod:`checker.runtime.outlook`: the spec's ending
   run on the playout's state) and the ``tiebreak`` at that moment.  ``judge="margin"``: the
   player's lead over the best other player (:func:`checker.runtime.outlook.margin`), in the final
   scores or, when the depth is reached first, in the scores if the game ended there.  A short
   playout seldom changes who leads, so judged by wins every option of a long game scores the same
   and the tie goes to the greedy player's choice; the margin still tells them apart.  ``judge="outcome"``:
   a playout that reaches the end of the game is worth its result (1 for a win, 1/k shared, 0 otherwise),
   and one cut off is worth a chance of winning that grows with the lead, ``(1 + tanh(lead / scale)) / 2``,
   where the scale is the players' mean score (at least 1) in the scores if the game ended there: strictly
   between 0 and 1.  Judged by wins or by the margin, a lead is worth as much whether the game ends there
   or goes on, so nothing makes a player end a game it leads (or put off the end of one it trails); judged
   by the outcome, a won end is worth more than any lead the game may still undo, and a lost end less
   than any deficit it may still make up.

With ``aim`` (the name of one of the game's endings, :mod:`checker.runtime.aim`), a playout is worth ``weight``
times the aim's progress more: at the playout's end, the aimed ending nearer and the others further
(:func:`checker.runtime.aim.progress`, capped as at the decision), or, when the playout ended the game, ``aim.REACHED`` if it ended on the
aimed ending and minus that otherwise; the candidates are ranked, and the rollouts played, by the greedy player
aiming at it too.

How far a playout goes, besides ``depth``: ``turn=True`` stops it at the first decision of another player
(the rest of the player's own decisions); ``next_turn=True`` stops it at the first decision of the game's next
turn (the spec's ``turn`` procedure entered again), so the rest of the turn is played, every player's decisions
in it by the rollout policy — what the turn leads to, the end of the game included when the turn ends it.  A
game without a ``turn`` procedure is played to the depth.  ``turns=T`` plays T turns that way (the current one,
then the next T - 1: with T = players + 1, the other players' turns and the player's own next one), the turns
after the current one by the ``later`` policy (a cheaper one, say the first greedy builder); the hidden cards are
dealt again for each playout, so such playouts are random and several an option are worth it.  ``paired=True``
gives the k-th playout of every option the same seed: the same deal and the same draws, so the options are
compared on the same futures (common random numbers) and not on their luck.

Playouts are spread evenly over the options (``playouts`` per decision in all, at least one per
option); the best mean wins, ties going to the first option.  A decision with more than
``candidates`` options (a tile that may go in forty places) is first ranked by the greedy player's
measure (:func:`checker.runtime.agents.option_values`), and only its ``candidates`` best options
are played out, best first (ties in the ranking drawn at random): so ties between playouts go to
the greedy player's choice.  Everything random comes from the agent's seed, so a game with
Monte-Carlo players is as reproducible as any other.

What it does not model: what was revealed to a player privately (a card shown to them, the cards
they put back under the deck) is forgotten when dealing the hidden cards again, and secret vars
are not resampled.  Nothing here knows a card by name.
"""

from __future__ import annotations

import math
import random
import threading

from checker.runtime.agents import GreedyAgent, RandomAgent, option_values
from checker.runtime.outlook import margin, outlook
from checker.runtime.state import SpecRuntimeError

__all__ = ["MonteCarloAgent", "chance", "determinise"]

_shadows = threading.local()      # per thread: id(typed) -> (typed, the second engine)


def _shadow(engine):
    """A second engine compiled from ``engine``'s spec, for playouts (one per spec and thread)."""
    from checker.runtime.engine import Engine
    cache = getattr(_shadows, "engines", None)
    if cache is None:
        cache = _shadows.engines = {}
    typed = engine.typed
    entry = cache.get(id(typed))
    if entry is None or entry[0] is not typed:
        entry = cache[id(typed)] = (typed, Engine(typed))
        entry[1].recording = False
    return entry[1]


class _Cutoff(Exception):
    """A playout reached its depth."""


def _known(value, out: set) -> None:
    """Every non-negative int in ``value`` (options, local names): the cards the decision shows, and
    some numbers that are not cards (a seat, a count), kept in place all the same."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if value >= 0:
            out.add(value)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _known(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _known(item, out)


def determinise(engine, player: int, decision, rng: random.Random) -> int:
    """Deal the cards ``player`` cannot see again at random (see the module's docstring); returns how
    many cards took part."""
    st = engine.st
    keep: set = set()
    _known(list(decision.options), keep)
    _known(decision.env or {}, keep)
    cells, slots, pools = [], [], {}
    for name, zone in st.zones.items():
        parts = zone.items() if isinstance(zone, dict) else ((None, zone),)
        for index, cards in parts:
            if cards and not engine.sees(player, name, index):
                cells.append((name, index, cards))
                for position, card in enumerate(cards):
                    if card not in keep:
                        kind = engine.def_kind[st.defs[card]]
                        slots.append((cards, position, kind))
                        pools.setdefault(kind, []).append(card)
    for pool in pools.values():
        rng.shuffle(pool)
    for cards, position, kind in slots:
        cards[position] = pools[kind].pop()
    for name, index, cards in cells:
        counts = st.counts[(name, index)] = {}
        for card in cards:
            st.where[card] = (name, index)
            key = st.defs[card]
            counts[key] = counts.get(key, 0) + 1
    st.version += 1
    engine.invalidate()
    return len(slots)


class _Driver:
    """Every seat's agent in a playout: the logged answers up to the decision being judged, then the
    option tried there, then the default policy."""

    def __init__(self, engine, history: list[int], player: int, option: int, expected: int, seed: int,
                 rollout: str, depth: int, turn: bool = False, next_turn: bool = False, aim: str | None = None,
                 weight: int = 1, turns: int = 1, later: str | None = None):
        self.engine, self.history, self.player, self.option = engine, history, player, option
        self.expected, self.depth, self.turn, self.next_turn = expected, depth, turn, next_turn
        self.turns = turns        # with next_turn: the turns a playout plays (1: the rest of the current one)
        self.turn_at = None       # the game's turn counter when the option was taken
        self.rng = random.Random(seed)
        seed = self.rng.getrandbits(32)
        self.policy = _policy(rollout, seed, aim, weight)
        # the policy of the turns after the current one (``later``), when it differs
        self.later = _policy(later, seed, aim, weight) if later is not None and later != rollout else None
        self.asked = 0

    def choose(self, decision) -> int:
        asked, self.asked = self.asked, self.asked + 1
        if asked < len(self.history):
            return self.history[asked]
        if asked == len(self.history):
            count = len(decision.options) + (1 if decision.optional else 0)
            if decision.player != self.player or count != self.expected:
                raise SpecRuntimeError("a Monte-Carlo playout did not reach the decision it replays "
                                       "(the game is not a function of its seed and answers)")
            determinise(self.engine, self.player, decision, self.rng)
            self.engine.st.rng.seed(self.rng.getrandbits(64))
            self.turn_at = self.engine.st.turn
            return self.option
        if (asked - len(self.history) > self.depth or (self.turn and decision.player != self.player)
                or (self.next_turn and self.engine.st.turn - self.turn_at >= self.turns)):
            raise _Cutoff()
        if self.later is not None and self.engine.st.turn != self.turn_at:
            return self.later.choose(decision)
        return self.policy.choose(decision)


def _policy(rollout: str, seed: int, aim: str | None, weight: int):
    """A playout's default policy by its name (see :class:`MonteCarloAgent`)."""
    if rollout == "random":
        return RandomAgent(seed)
    return GreedyAgent(seed, ending=rollout == "greedy", aim=aim if rollout == "greedy" else None, weight=weight)


ROLLOUTS = ("builder", "greedy", "random")
JUDGES = ("wins", "margin", "outcome")


class MonteCarloAgent:
    """Plays each option out on determinised states and takes the best (see the module's docstring).
    ``playouts``: playouts per decision, spread over its options; ``depth``: decisions a playout plays
    at most after the option; ``rollout``: the policy of every player in the playouts — "builder" (the
    first greedy builder: the action that raises its score right away; cheap), "greedy" (the greedy
    player) or "random"; ``candidates``: the most options played out at one decision (0: all); ``judge``:
    what a playout is worth, "wins", "margin" or "outcome"; ``turn``: a playout stops at the first decision of
    another player; ``next_turn``: at the first decision of the game's next turn; ``aim`` and ``weight``: the
    ending it plays towards and how much that counts (see the module's docstring).  With ``next_turn``,
    ``turns`` is how many turns a playout plays (1: the rest of the current one; more: the next turns too, the
    other players' and, with ``turns`` > players, the player's own next one) and ``later`` the policy of the
    turns after the current one (default: ``rollout``).  ``paired``: the k-th playout of every option deals the
    hidden cards and seeds the game's random source alike (common random numbers: the options are compared on
    the same futures)."""

    def __init__(self, seed: int, playouts: int = 24, depth: int = 300, rollout: str = "builder",
                 candidates: int = 12, judge: str = "wins", turn: bool = False, next_turn: bool = False,
                 aim: str | None = None, weight: int = 1, turns: int = 1, later: str | None = None,
                 paired: bool = False):
        for what, name in (("rollout", rollout), ("later", rollout if later is None else later)):
            if name not in ROLLOUTS:
                raise ValueError(f"{what} must be one of {', '.join(ROLLOUTS)}, not {name!r}")
        self.turns, self.later, self.paired = max(1, turns), later, paired
        if judge not in JUDGES:
            raise ValueError(f"judge must be one of {', '.join(JUDGES)}, not {judge!r}")
        self.judge, self.turn, self.next_turn = judge, turn, next_turn
        self.rng = random.Random(seed)
        self.playouts, self.depth, self.rollout = max(1, playouts), max(0, depth), rollout
        self.candidates = max(0, candidates)
        self.aim, self.weight = aim, weight
        self.played = 0           # playouts run so far, for benchmarks
        self.finished = 0         # of them, playouts that reached the end of the game
        self.ends = [0, 0]        # decisions where some options' playouts ended the game and others' did not; of
                                  # them, those where the option taken ended it

    def _ranked(self, decision, count: int) -> list[int]:
        """The options to play out, in the order ties go: all of them, or the best ``candidates`` by the
        greedy player's measure."""
        if not self.candidates or count <= self.candidates:
            return list(range(count))
        values = option_values(decision, self.aim, self.weight)
        low = min((v for v in values if v is not None), default=0) - 1
        keys = [(v if v is not None else low, self.rng.random()) for v in values]
        return sorted(range(count), key=lambda i: keys[i], reverse=True)[:self.candidates]

    def choose(self, decision) -> int:
        count = len(decision.options) + (1 if decision.optional else 0)
        engine = decision.engine
        if count == 1 or engine is None or not engine.setup:
            return 0
        options = self._ranked(decision, count)
        if self.aim is not None:
            from checker.runtime.aim import cap
            self._cap = cap(engine, self.aim)
        sim = _shadow(engine)
        history = list(engine.choices)
        selection, players, seed = engine.setup
        totals = [0.0] * len(options)
        tries = [0] * len(options)
        ended = [False] * len(options)
        runs = max(self.playouts, len(options))
        futures = [self.rng.getrandbits(64) for _ in range(-(-runs // len(options)))] if self.paired else None
        for k in range(runs):
            slot = k % len(options)
            driver = _Driver(sim, history, decision.player, options[slot], count,
                             futures[k // len(options)] if futures else self.rng.getrandbits(64),
                             self.rollout, self.depth, self.turn, self.next_turn, self.aim, self.weight, self.turns,
                             self.later)
            finished = self.finished
            totals[slot] += self._worth(sim, selection, players, seed, driver, decision.player)
            ended[slot] |= self.finished > finished
            tries[slot] += 1
            self.played += 1
        means = [t / n for t, n in zip(totals, tries)]
        best = means.index(max(means))
        if any(ended) and not all(ended):
            self.ends[0] += 1
            self.ends[1] += ended[best]
        return options[best]

    def _worth(self, sim, selection, players: int, seed: int, driver: _Driver, player: int) -> float:
        """One playout, judged for ``player`` (see the module's docstring)."""
        if self.aim is None:
            return self._judged(sim, selection, players, seed, driver, player)
        from checker.runtime.aim import ended_progress, progress
        finished = self.finished
        worth = self._judged(sim, selection, players, seed, driver, player)
        ended = self.finished > finished
        return worth + self.weight * (ended_progress(sim, self.aim) if ended else progress(sim, self.aim, self._cap, player))

    def _judged(self, sim, selection, players: int, seed: int, driver: _Driver, player: int) -> float:
        try:
            result = sim.play(selection, players, seed, [driver] * players)
        except _Cutoff:
            if self.judge != "wins":
                scores = outlook(sim)
                if scores is None:
                    return 0.0 if self.judge == "margin" else 0.5
                return margin(scores, player) if self.judge == "margin" else chance(scores, player)
            winners = _leaders(sim)
        else:
            self.finished += 1
            if self.judge == "margin":
                return margin(result.scores, player) if result.scores else 0.0
            winners = result.winners
        return 1 / len(winners) if player in winners else 0.0


def chance(scores: dict[int, int], player: int) -> float:
    """What a game that goes on is worth to ``player`` by the "outcome" judge: a chance of winning that grows
    with its lead in ``scores`` (the scores if the game ended now), ``(1 + tanh(lead / scale)) / 2`` with the
    players' mean score as the scale (at least 1): strictly between a lost end (0) and a won one (1)."""
    scale = max(1.0, sum(abs(s) for s in scores.values()) / max(1, len(scores)))
    return (1 + math.tanh(margin(scores, player) / scale)) / 2


def _leaders(engine) -> list[int]:
    """The players ahead when a playout is cut off: by the scores if the game ended there, then the
    game's tiebreak."""
    scores = outlook(engine)
    if scores is None:
        return engine.result().winners
    best = max(scores.values(), default=0)
    winners = [q for q, s in scores.items() if s == best]
    if engine.tiebreak and len(winners) > 1:
        engine.invalidate()
        ties = {q: engine.quantity(engine.tiebreak, (q,)) for q in winners}
        winners = [q for q in winners if ties[q] == max(ties.values())]
    return winners
