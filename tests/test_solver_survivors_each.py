"""`asked` (checker/solver/eachpoint.py) runs an `each … chooses` statement on the engine's state to list who is
asked what, and leaves the engine as it found it: its state, and the game's record (the log's events, the answers
given so far) — the probe's own answers are not the game's.  Survivor of the blind mutation sample -e
(eachpoint.py:41, the probe run with the log on): no test of the solver set ran it."""

from __future__ import annotations

from checker.solver.eachpoint import asked, next_decision
from test_each_chooses_state import at_pick


def test_listing_who_is_asked_leaves_the_games_log_and_answers_as_they_were():
    e, decision = at_pick(0, seed=2)
    e.recording = True
    events, choices, logged = list(e.events), list(e.choices), e.logged
    where = dict(e.st.where)
    order = asked(e, decision.site, {k: v for k, v in decision.env.items() if k != decision.site.player})
    assert [p for p, _ in order] == [decision.player, *[(decision.player + k) % 4 for k in range(1, 4)]]
    assert all(options for _, options in order)
    assert (e.events, e.choices, e.logged, e.st.where) == (events, choices, logged, where)
    assert e.recording is True


def test_the_next_player_asked_at_an_each_point_is_the_next_seat_with_the_choices_so_far():
    e, decision = at_pick(0, seed=2)
    from types import SimpleNamespace
    point = SimpleNamespace(site=decision.site, env=decision.env, player=decision.player, chosen=())
    value = decision.options[0]
    following = next_decision(e, point, value)
    assert following is not None and following.player == (decision.player + 1) % 4
    assert following.chosen == ((decision.player, value),)
    # asked in secret, as the game asks it (everyone chooses at once): survivor of the blind mutation sample -l,
    # eachpoint.py:127 (the next decision not secret)
    assert decision.secret is True and following.secret is True


def test_an_each_chooses_with_and_without_where_encodes_as_the_interpreter_plays(tmp_path_factory):
    """`miser` (each player chooses a stake `where x <= bourse[q] + 1`, then a card with no `where`), encoded from
    a seeded game's first decision: the same next state as the interpreter's, over constants and over Z3
    constants.  Survivor of the blind sample -h (transition_statements.py:124, the `where` tested the wrong way
    round): no test of the solver set encoded an `each … chooses`."""
    from checker.runtime import Engine, RandomAgent
    from test_retarget_swap_each import _exchanges
    from test_transition import compare
    e = Engine(_exchanges(tmp_path_factory).typed)
    e.recording = False
    compared = []

    def observe(decision):
        if decision.prompt == "que faire ?" and not compared:
            option = next(o for o in decision.options if o[0] != "finish" and o[1] == "miser")
            compared.extend(compare(e, option, decision.player, 7, symbolic) for symbolic in (False, True))
    e.observer = observe
    e.start({"Carte": ["A", "B", "C", "D", "E"]}, 2, 3, [RandomAgent(3), RandomAgent(4)])
    for p in range(2):
        e.st.vars["bourse"][p] = p
    e.call("partie", ())
    assert compared == ["same", "same"]
