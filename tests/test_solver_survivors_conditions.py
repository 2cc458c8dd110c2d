"""Tests written for the survivors of the mutation sample of checker/solver/conditions.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): a head's condition translated from its second use on — into a batch's
question without encoding it there, with only its own cells when other heads were translated before it, and, past
the question's limit, encoded in the question so that it raises located; a condition that folds to a constant."""

from __future__ import annotations

import pytest

from checker.conflicts.questions import Search
from checker.solver import encode, search as search_module
from checker.solver.encode import Unsupported
from test_conflicts_reuse import _house

RULES = ('rule déjà_bâti { forbid bâtir(p, d) when d in cité[p] }\n'
         'rule en_main_et_bâti { forbid bâtir(p, d) when d in main[p] and d in cité[p] }\n'
         'rule cité_pleine { forbid bâtir(p, d) when count(x in cité[p]) >= 12 }\n')
NAMES = ("déjà_bâti", "en_main_et_bâti", "cité_pleine")


def _search() -> Search:
    typed = _house(RULES).typed
    rules = typed.program.rules
    typed.program.rules = {name: rules[name] for name in NAMES}
    return Search(typed, players=4)


def _ask(search, name, enc=None, args=None):
    rule = search.p.rules[name]
    params = search.p.actions["bâtir"].params
    enc = enc or search.encoder()
    return enc, search.conditions.applies(enc, rule, rule.heads[0], "bâtir", params, args)


def test_heads_translated_one_after_another_bring_only_their_own_cells():
    """Each head's template is encoded on an encoder of its own: the second head translated brings the cells its own
    encoding makes, not those of the head translated before it."""
    search = _search()
    for name in ("déjà_bâti", "en_main_et_bâti"):
        _ask(search, name)                                  # the first use: encoded in the question
        search_module.fresh_context()
        mine, (args, domain, cond) = _ask(search, name)     # the second: translated
        theirs = search.encoder()
        their_args, _ = search.params_args(theirs, "bâtir", search.p.actions["bâtir"].params)
        assert cond.eq(theirs.applies(search.p.rules[name], search.p.rules[name].heads[0], their_args))
        assert list(mine.cells.made) == list(theirs.cells.made), name


def test_a_batchs_question_gets_the_head_translated_not_encoded_again(monkeypatch):
    """With the batch's own arguments (named otherwise), a head asked before is put in place of them by translation:
    the question's encoder encodes no rule head itself."""
    search = _search()
    _ask(search, "en_main_et_bâti")
    _ask(search, "en_main_et_bâti")                        # the template made
    search_module.fresh_context()
    mine = search.encoder()
    args = search.params_args(mine, "bâtir@", search.p.actions["bâtir"].params)[0]
    encoded = []
    applies = encode.Encoder.applies

    def counted(self, rule, head, a):
        encoded.append(self)
        return applies(self, rule, head, a)
    monkeypatch.setattr(encode.Encoder, "applies", counted)
    _ask(search, "en_main_et_bâti", mine, args)
    assert mine not in encoded


def test_a_head_past_the_questions_limit_is_encoded_there_and_raises_located():
    """A question whose encoding has spent nearly all its limit: the head, translated, would pass it, so it is
    encoded in the question, whose count stops at the aggregate that passes the limit, with its place in the spec."""
    search = _search()
    _ask(search, "cité_pleine")
    search_module.fresh_context()
    _, (_, _, cond) = _ask(search, "cité_pleine")
    assert cond is not None
    search_module.fresh_context()
    enc = search.encoder()
    enc.spent = enc.limit - 1
    with pytest.raises(Unsupported) as raised:
        _ask(search, "cité_pleine", enc)
    assert raised.value.span is not None and raised.value.span.line == 3      # `count(x in cité[p])`, cité_pleine


def test_a_head_that_folds_to_a_constant_is_translated_as_that_constant():
    """`when 1 > 2` folds to the Python constant False: its template holds no term for it, and its second use is
    False again."""
    typed = _house('rule jamais_vrai { forbid bâtir(p, d) when 1 > 2 }\n').typed
    typed.program.rules = {"jamais_vrai": typed.program.rules["jamais_vrai"]}
    search = Search(typed, players=4)
    assert [_ask(search, "jamais_vrai")[1][2] for _ in range(3)] == [False, False, False]


def test_a_searchs_templates_are_made_in_one_private_context():
    """Every head's template of one search is made in the same private context (not the main one, not one per
    head): the encoder the narrowed heads share lives there, and each template's terms are translated from it."""
    import z3
    search = _search()
    for name in ("déjà_bâti", "en_main_et_bâti", "cité_pleine"):
        _ask(search, name)
        _ask(search, name)
    kept = list(search.conditions._kept.values())
    assert len(kept) == 3 and search.conditions._ctx is not None
    assert all(k.cond.ctx is search.conditions._ctx for k in kept)
    assert search.conditions._ctx is not z3.main_ctx()


def test_a_question_with_a_limit_of_its_own_encodes_its_heads_itself(monkeypatch):
    """A question asked under another limit than MAX_ENCODING (not narrowed) encodes each head itself, however often
    the head was asked before: no template is made for it."""
    search = _search()
    encoded = []
    applies = encode.Encoder.applies

    def counted(self, rule, head, a):
        encoded.append(self)
        return applies(self, rule, head, a)
    monkeypatch.setattr(encode.Encoder, "applies", counted)
    for _ in range(3):
        search_module.fresh_context()
        enc = search.encoder()
        enc.limit = 50_000
        _ask(search, "en_main_et_bâti", enc)
        assert encoded[-1] is enc
    assert len(encoded) == 3 and not search.conditions._kept


def test_an_encoder_that_numbered_fixpoints_still_gets_a_head_without_any_by_translation(monkeypatch):
    """Only a head whose encoding numbered `connected(…)` fixpoints is encoded again in a question that numbered some
    already (their numbers would clash); a head without any is translated there as anywhere."""
    search = _search()
    _ask(search, "en_main_et_bâti")
    _ask(search, "en_main_et_bâti")
    search_module.fresh_context()
    enc = search.encoder()
    enc.__dict__["_fixpoint_count"] = 2
    encoded = []
    applies = encode.Encoder.applies

    def counted(self, rule, head, a):
        encoded.append(self)
        return applies(self, rule, head, a)
    monkeypatch.setattr(encode.Encoder, "applies", counted)
    _ask(search, "en_main_et_bâti", enc)
    assert enc not in encoded and enc.__dict__["_fixpoint_count"] == 2


def test_a_heads_first_use_is_encoded_in_the_question_and_a_narrowed_one_always_translated(monkeypatch):
    """Most heads are asked once: the first use is encoded in the question itself, no template made; a head asked
    with its search narrowed is translated from its first use, from the encoder the narrowed heads share, which counts
    each head's elements from 0 (the question spends what the head alone spends)."""
    search = _search()
    encoded = []
    applies = encode.Encoder.applies

    def counted(self, rule, head, a):
        encoded.append(self)
        return applies(self, rule, head, a)
    monkeypatch.setattr(encode.Encoder, "applies", counted)
    search_module.fresh_context()
    plain, _ = _ask(search, "cité_pleine")
    assert encoded == [plain] and not search.conditions._kept
    own = plain.spent
    assert own > 0
    for _ in range(2):
        search_module.fresh_context()
        narrowed = search.encoder()
        narrowed.narrowed = 1
        _ask(search, "cité_pleine", narrowed)
        assert narrowed not in encoded and narrowed.spent == own
