"""The conflict search assumes the spec's invariants only when a model breaks one (checker/solver/search.py,
`Assumed`): the same findings as a search that assumes them in every question, and every model it keeps meets
them."""

from __future__ import annotations

from pathlib import Path

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths

ROOT = Path(__file__).resolve().parent.parent

# the 4th edition's invariants: at 4 players or more, a player has one character at most (un_personnage_par_joueur)
HOUSE = ('rule deux_personnages { forbid bâtir(p, d) when player_count >= 4 and count(c in choisis[p]) >= 2 }\n'
         'rule un_personnage { forbid bâtir(p, d) when player_count >= 4 and count(c in choisis[p]) >= 1 }\n'
         'rule cinq { forbid bâtir(p, d) when count(c in choisis[p]) >= 2 and player_count >= 4\n'
         '            or count(c in choisis[p]) >= 1 and player_count >= 5 }\n')


def _search(tmp_path, lazy: bool, batches: bool = True) -> Search:
    house = tmp_path / "maison.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    names = ("deux_personnages", "un_personnage", "cinq")
    result.typed.program.rules = {name: result.typed.program.rules[name] for name in names}
    search = Search(result.typed)
    search.lazy = lazy
    search.batches = batches
    return search


def test_a_rule_only_a_state_breaking_an_invariant_meets_is_dead_as_when_the_invariants_are_always_assumed(tmp_path):
    """Without the invariants, two characters in front of a player of a 4-player game is a model: it breaks
    un_personnage_par_joueur, so the invariants are assumed, and the rule is dead as it is when every question
    assumes them; the rules the invariants allow are live."""
    for batches in (True, False):
        lazy = _search(tmp_path, lazy=True, batches=batches)
        found = [(f.kind, f.rules) for f in lazy.dead_rules()]
        assert found == [("dead-rule", ("deux_personnages",))]
        assert lazy.assumed >= 1                # a model broke an invariant: they were assumed then, not before
        eager = _search(tmp_path, lazy=False, batches=batches)
        assert [(f.kind, f.rules) for f in eager.dead_rules()] == found and eager.assumed == 0


def test_a_witness_the_lazy_search_keeps_meets_every_invariant(tmp_path):
    """Two characters in front of a player at 4 players, or one at 5: without the invariants the fewest players
    are 4, with them 5 (un_personnage_par_joueur).  The witness, tightened to the fewest players, has 5: each
    model the tightening keeps meets the invariants."""
    for lazy in (True, False):
        search = _search(tmp_path, lazy=lazy, batches=False)
        rule = search.p.rules["cinq"]
        enc = search.encoder()
        args, domain = search.action_args(enc, "bâtir")
        cond = enc.applies(rule, rule.heads[0], args[:len(rule.heads[0].pattern.binders)])
        status, model, _ = search.solve(enc, *domain, cond, minimal=True)
        assert status == "sat" and model.eval(enc.n, model_completion=True).as_long() == 5
        invariants = search.well_formed(search.encoder())      # the invariants, their cells named as the model's
        assert invariants and all(z3.is_true(model.eval(f, model_completion=True)) for f in invariants)
        assert (search.assumed >= 1) == lazy
