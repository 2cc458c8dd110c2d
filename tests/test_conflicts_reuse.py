"""What a conflict search does once instead of once per question: a rule head's condition encoded once per search
and translated into each question (checker/solver/conditions.py), a question about rules a batch could not decide
asked on the states with one copy of each card first (checker/solver/search.py ``one_copy_first``), and the later
copies of cards set to false with one substitution per formula (checker/solver/bounded.py)."""

from __future__ import annotations

import functools
from pathlib import Path

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver import encode, search as search_module
from checker.solver.bounded import restricted

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _house(text: str):
    import tempfile
    folder = Path(tempfile.mkdtemp())
    house = folder / "maison.rules"
    house.write_text(text, encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    return result


RULES = ('rule jamais { forbid bâtir(p, d) when trésor[p] < 0 }\n'
         'rule déjà_bâti { forbid bâtir(p, d) when d in cité[p] }\n'
         'rule en_main_et_bâti { forbid bâtir(p, d) when d in main[p] and d in cité[p] }\n')


NAMES = ("jamais", "déjà_bâti", "en_main_et_bâti")


def _typed():
    result = _house(RULES)
    rules = result.typed.program.rules
    result.typed.program.rules = {name: rules[name] for name in NAMES}
    return result.typed


def test_a_condition_translated_into_a_question_is_the_one_the_question_would_encode():
    """The same term (Z3's ``eq``), the same cells (by key, in order), and the same values of its symbolic terms, as
    the question's own encoding: in a question named as the question alone names its arguments, and in a batch's
    (its arguments named otherwise, put in place of those)."""
    typed = _typed()
    search = Search(typed, players=4)
    rule = search.p.rules["en_main_et_bâti"]
    head = rule.heads[0]
    params = search.p.actions["bâtir"].params
    search.conditions.applies(search.encoder(), rule, head, "bâtir", params)      # its first use: encoded there
    for prefix in ("bâtir", "bâtir@"):
        search_module.fresh_context()
        mine = search.encoder()
        args = None if prefix == "bâtir" else search.params_args(mine, prefix, params)[0]
        args, domain, cond = search.conditions.applies(mine, rule, head, "bâtir", params, args)
        theirs = search.encoder()
        their_args, their_domain = search.params_args(theirs, prefix, params)
        assert cond.eq(theirs.applies(rule, head, their_args))
        assert all(a.eq(b) for a, b in zip(args, their_args))
        if prefix == "bâtir":
            assert [str(d) for d in domain] == [str(d) for d in their_domain]
        assert list(mine.cells.made) == list(theirs.cells.made)
        assert {k: v for k, v in mine.domains.items()} == {k: v for k, v in theirs.domains.items()}
        assert [str(f) for f in mine.defined] == [str(f) for f in theirs.defined]


def test_a_dead_rule_question_asked_in_a_batch_then_alone_encodes_its_rule_twice_at_most(monkeypatch):
    """With no step to spare in a batch, each dead-rule question is asked again alone (on the states with one copy of
    each card, then as before): its rule's condition was encoded for each of them (3 times for the dead one); it is
    encoded in the batch, then once more for all the questions after it, and the findings are those of the search
    asking each question alone."""
    import checker.conflicts.batches as batches
    monkeypatch.setattr(batches, "BATCH_RLIMIT", 1)
    encoded: dict = {}
    applies = encode.Encoder.applies

    def counted(self, rule, head, args):
        encoded[rule.name] = encoded.get(rule.name, 0) + 1
        return applies(self, rule, head, args)
    monkeypatch.setattr(encode.Encoder, "applies", counted)
    typed = _typed()
    search = Search(typed, players=4)
    found = [(f.kind, f.rules) for f in search.dead_rules()]
    assert len(search.undecided) == 3          # each asked in the batch and again alone, some of them twice
    assert encoded == {"jamais": 2, "déjà_bâti": 2, "en_main_et_bâti": 2}
    monkeypatch.setattr(encode.Encoder, "applies", applies)
    alone = Search(typed, players=4)
    alone.batches = False
    assert found == [(f.kind, f.rules) for f in alone.dead_rules()] == [("dead-rule", ("jamais",))]


def test_a_question_about_rules_a_batch_could_not_decide_is_asked_with_one_copy_of_each_card_first(monkeypatch):
    """``one_copy_first``: asked on the states with one copy of each card in each place first, whose model is the
    answer (kept as it is, as after two undecided checks); else asked with the selection first, as before."""
    typed = _typed()
    asked = []
    cls = search_module.SymbolicSearch
    for name in ("_one_copy_each", "_with_selection"):
        def spy(self, *args, _name=name, _method=getattr(cls, name)):
            asked.append(_name)
            return _method(self, *args)
        monkeypatch.setattr(cls, name, spy)
    for first in (True, False):
        asked.clear()
        search = Search(typed, players=4)
        search_module.fresh_context()
        enc = search.encoder()
        rule = search.p.rules["déjà_bâti"]
        args, domain, cond = search.conditions.applies(enc, rule, rule.heads[0], "bâtir",
                                                       search.p.actions["bâtir"].params)
        status, model, _ = search.solve(enc, *domain, cond, minimal=True, one_copy_first=first)
        assert status == "sat" and z3.is_true(model.eval(cond, model_completion=True))
        assert asked == (["_one_copy_each"] if first else ["_with_selection"])


def test_undecided_about_names_the_heads_of_the_questions_a_batch_could_not_decide():
    from checker.conflicts.batches import undecided_about
    search = Search(_typed(), players=4)
    a, b, c = (search.p.rules[n].heads[0] for n in ("jamais", "déjà_bâti", "en_main_et_bâti"))
    assert not undecided_about(search, [a, b, c])
    search.undecided = {id(a), (id(b), id(c), "bâtir")}
    assert undecided_about(search, [a]) and undecided_about(search, [c]) and not undecided_about(search, [])


def test_later_copies_are_set_to_false_in_one_substitution_per_formula(monkeypatch):
    """The terms of ``z3.substitute`` formula by formula, without z3py checking and copying every pair for each
    formula (thousands of later copies by thousands of formulas: Carcassonne's tiles)."""
    cells = [z3.Bool(f"c{i}") for i in range(50)]
    formulas = [z3.Or(cells[i], cells[(7 * i) % 50], z3.Int("y") > i) for i in range(50)]
    off = cells[::2]
    expected = [z3.substitute(f, *[(c, z3.BoolVal(False)) for c in off]) for f in formulas] + [z3.Not(c) for c in off]

    def refused(*args):
        raise AssertionError("z3.substitute called")
    monkeypatch.setattr(z3, "substitute", refused)
    got = restricted(formulas, off)
    assert len(got) == len(expected) and all(a.eq(b) for a, b in zip(got, expected))
