"""Questions answered in batches (checker/conflicts/batches.py): a batch shows satisfiable only the questions that
are satisfiable asked alone, and leaves every other one to be asked alone; the findings are the same."""

from __future__ import annotations

import functools
from pathlib import Path

from checker.conflicts.batches import live_rules, not_special_cases
from checker.conflicts.questions import Search
from checker.front.check import check_paths

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = "spec/maison/bâtisseuse.rules"


def test_a_batch_shows_live_the_rules_that_can_apply_and_never_a_dead_one(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text('rule jamais { forbid bâtir(p, d) when trésor[p] < 0 }\n'
                     'rule riche { forbid bâtir(p, d) when trésor[p] > 3 }\n'
                     'rule pauvre { forbid bâtir(p, d) when trésor[p] < 2 and p == joueur_actif }\n'
                     'rule ni_riche_ni_pauvre { forbid bâtir(p, d) when trésor[p] > 3 and trésor[p] < 2 }\n',
                     encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    names = ("jamais", "riche", "pauvre", "ni_riche_ni_pauvre")
    result.typed.program.rules = {name: result.typed.program.rules[name] for name in names}
    search = Search(result.typed, players=4)
    heads = [(rule, head) for rule in search.p.rules.values() for head in rule.heads]
    assert live_rules(search, heads) == {id(h) for r, h in heads if r.name in ("riche", "pauvre")}
    # the search with batches finds what it finds asking each question alone
    alone = Search(result.typed, players=4)
    alone.batches = False
    found = [(f.kind, f.rules) for f in search.dead_rules()]
    assert found == [(f.kind, f.rules) for f in alone.dead_rules()]
    assert found == [("dead-rule", ("jamais",)), ("dead-rule", ("ni_riche_ni_pauvre",))]
    assert search.queries - search.batched == 2 and alone.queries == 4      # the live ones were not asked again


@functools.cache
def _tutorial():
    result = check_paths([ROOT / "spec" / "citadelles", ROOT / TUTORIAL])
    assert result.ok
    return result.typed


def _special_cases(search, *names: str) -> dict:
    """The special-case questions of the house permission bâtisseuse_doublons against the prohibitions ``names``,
    by prohibition: [(key, other rule, its head, prohibition, its head, action)]."""
    permit = search.p.rules["bâtisseuse_doublons"]
    cases = {}
    for name in names:
        forbid = search.p.rules[name]
        on = search.judged_on(search.plain(), permit.heads[0], forbid.heads[0])
        cases[name] = [(key, other, head, forbid, forbid.heads[0], on)
                       for _, other, head, key in search.special_cases(permit, forbid.heads[0], on)]
    return cases


def test_a_batch_never_shows_a_special_case_satisfiable():
    """The house permission overrides pas_de_doublon: the Capitaine's own no-duplicate rule is a special case
    of it (its question is false by its terms alone, so answered "unsat" with no query), his cost limit is not
    (shown satisfiable by the batch)."""
    search = Search(_tutorial())
    permit = search.p.rules["bâtisseuse_doublons"]
    cases = _special_cases(search, "capitaine_pas_de_doublon", "capitaine_coût_3_ou_moins")
    assert all(len(found) == 1 for found in cases.values())
    shown = not_special_cases(search, [case for found in cases.values() for case in found])
    assert shown == {cases["capitaine_coût_3_ou_moins"][0][0]}
    special = cases["capitaine_pas_de_doublon"][0][0]
    assert search._cases == {special: ("unsat", "")}       # what asking it alone answers
    # and the claims the search makes with the batch's answers are those it makes asking alone
    search.no_special_case |= shown
    search.queries = 0
    alone = Search(_tutorial())
    for name in cases:
        forbid = search.p.rules[name]
        args = (permit, permit.heads[0], forbid, forbid.heads[0])
        assert search.claim(*args) == alone.claim(*args)
    assert search.queries == 0 and alone.queries == 2
    assert alone._cases[special] == ("unsat", "")


def test_a_special_case_answered_by_its_terms_is_one_asking_alone_proves():
    """A prohibition whose condition is the overridden rule's (the Capitaine's and the Diplomate's no-duplicate
    rules: `d in cité[p]`, on two actions) is answered a special case without a query; one that is not (the
    Capitaine's price) is shown satisfiable by the batch; the claims are those the search makes asking each
    question alone, with Z3."""
    search = Search(_tutorial())
    permit = search.p.rules["bâtisseuse_doublons"]
    found = _special_cases(search, "capitaine_pas_de_doublon", "diplomate_pas_de_doublon", "capitaine_paie")
    keys = {name: cases[0][0] for name, cases in found.items()}
    shown = not_special_cases(search, [case for cases in found.values() for case in cases])
    assert shown == {keys["capitaine_paie"]}
    assert set(search._cases) == {keys["capitaine_pas_de_doublon"], keys["diplomate_pas_de_doublon"]}
    alone = Search(_tutorial())
    for name in found:
        forbid = search.p.rules[name]
        args = (permit, permit.heads[0], forbid, forbid.heads[0])
        assert search.claim(*args) == alone.claim(*args)
    assert alone.queries == 3



def test_a_dead_rule_question_a_batch_cannot_decide_is_asked_first_on_the_states_with_one_copy_of_each_card(
        tmp_path, monkeypatch):
    """With no step to spare in a batch (every check of it undecided), each dead-rule question is asked alone, first
    on the states with one copy of each card in each place: the rule that can apply so is shown live there; the dead
    one, and the one that applies only with two copies of a card (one in hand, one built), are asked as before, and
    the findings are those of the search asking each question alone."""
    import checker.conflicts.batches as batches
    import checker.conflicts.questions as questions
    house = tmp_path / "maison.rules"
    house.write_text('rule jamais { forbid bâtir(p, d) when trésor[p] < 0 }\n'
                     'rule déjà_bâti { forbid bâtir(p, d) when d in cité[p] }\n'
                     'rule en_main_et_bâti { forbid bâtir(p, d) when d in main[p] and d in cité[p] }\n',
                     encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    names = ("jamais", "déjà_bâti", "en_main_et_bâti")
    result.typed.program.rules = {name: result.typed.program.rules[name] for name in names}
    monkeypatch.setattr(batches, "BATCH_RLIMIT", 1)
    answers = {}

    def spy(search, encode, cards, legal=True):
        out = batches.applies_with_one_copy(search, encode, cards, legal)
        answers[len(answers)] = out
        return out
    monkeypatch.setattr(questions, "applies_with_one_copy", spy)
    search = Search(result.typed, players=4)
    found = [(f.kind, f.rules) for f in search.dead_rules()]
    assert len(search.undecided) == 3 and search.queries > search.batched       # the batch decided none of them
    assert list(answers.values()) == [False, True, False]       # in the rules' order: only déjà_bâti applies so
    alone = Search(result.typed, players=4)
    alone.batches = False
    assert found == [(f.kind, f.rules) for f in alone.dead_rules()] == [("dead-rule", ("jamais",))]


def test_a_special_case_question_a_batch_cannot_decide_is_shown_no_special_case_on_its_terms_with_one_copy(
        monkeypatch):
    """With no step to spare in a batch, the special-case question the batch shows satisfiable (the Capitaine's cost
    limit is no special case of pas_de_doublon) is shown so on the batch's terms with one copy of each card in each
    place; the one false by its terms is still answered with no query."""
    import checker.conflicts.batches as batches
    monkeypatch.setattr(batches, "BATCH_RLIMIT", 1)
    search = Search(_tutorial())
    cases = _special_cases(search, "capitaine_pas_de_doublon", "capitaine_coût_3_ou_moins")
    shown = not_special_cases(search, [case for found in cases.values() for case in found])
    assert shown == {cases["capitaine_coût_3_ou_moins"][0][0]}
    assert search.undecided == shown and search._cases == {cases["capitaine_pas_de_doublon"][0][0]: ("unsat", "")}


def test_the_question_a_one_copy_model_leaves_alone_is_not_asked_on_the_batchs_terms(monkeypatch):
    """On the batch's states with one copy of each card, a model that answered the other questions leaves the last
    one to be asked alone, on its own terms (Carcassonne's ran to the step limit on the batch's, 5 s, before it was
    found alone): one query, not two."""
    import z3
    import checker.conflicts.batches as batches
    from checker.solver.factory import private_context
    monkeypatch.setattr(batches, "BATCH_RLIMIT", 1)
    seen = []
    one_copy = batches._one_copy
    monkeypatch.setattr(batches, "_one_copy", lambda search, merged, left: seen.append((merged, left)) or
                        one_copy(search, merged, left))
    search = Search(_tutorial())
    cases = _special_cases(search, "capitaine_coût_3_ou_moins")
    not_special_cases(search, [case for found in cases.values() for case in found])
    [(merged, [(key, cond)])] = seen
    before = search.queries
    # the question, and its negation (which no model of the question answers): the first is shown, the second left
    with private_context(cond.ctx):
        assert one_copy(search, merged, [(key, cond), ("not", z3.Not(cond))]) == {key}
    assert search.queries - before == 1


def test_a_dead_rule_batch_whose_question_runs_out_of_steps_gives_its_next_questions_fewer(monkeypatch):
    """After a question of a dead-rule batch runs out of steps, its next questions are asked with
    HARD_BATCH_RLIMIT steps (a batch Z3 is slow on: Carcassonne's ran out one after the other, 2 million steps each,
    then were decided alone); the next batch has the whole limit again; the findings are those asked alone."""
    import checker.conflicts.batches as batches
    from checker.solver.factory import Outcome
    result = check_paths([ROOT / "spec" / "citadelles"])
    run, lowered, first = batches.run, [], set()

    def spy(s, *assumptions):      # each batch's first question runs out of steps
        lowered.append(getattr(s, "rulebook_lowered", False))
        if s.num_scopes() not in first:
            first.add(s.num_scopes())
            return Outcome("unknown", reason="max. resource limit exceeded")
        return run(s, *assumptions)
    monkeypatch.setattr(batches, "run", spy)
    search = Search(result.typed, players=4)
    heads = [(rule, head) for rule in search.p.rules.values() for head in rule.heads if head.when is not None]
    heads = [(r, h) for r, h in heads if h.pattern.name == "bâtir"]
    first.clear()
    shown = live_rules(search, heads)
    assert lowered[0] is False and lowered[1:] and all(lowered[1:])
    assert heads[0][1] is not None and id(heads[0][1]) in search.undecided and id(heads[0][1]) not in shown
