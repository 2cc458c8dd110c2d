"""`rulebook legal`'s explanations, exactly: the values shown under a forbidding comparison are its sides
that are neither a literal nor a name already shown (« c.rank = 1 », never « 1 = 1 »), and among the
copies of a card the move names, the copy explained is the one with the fewest conditions on where the card
must be."""

from __future__ import annotations

from checker.solver.command import _rank
from checker.solver.legal import Reason, Verdict
from test_legal_explanations import _judge, _échevin_state, e_card


def test_a_thief_cannot_rob_rank_1_and_the_explanation_shows_the_rank_not_the_literal():
    """Voleur : « Vous ne pouvez voler ni le personnage de rang 1 (Assassin, Sorcière ou Échevin) … »: robbing
    the Assassin is forbidden by voleur_cibles, shown with c and c.rank; the literal 1 is not a value."""
    state = _échevin_state()
    _, verdict = _judge(state, ("action", "voler", (0, e_card(state, "Assassin"))))
    assert verdict.status == "illegal"
    assert [r.name for r in verdict.reasons] == ["voleur_cibles"]
    values = verdict.reasons[0].values
    assert [(k, v) for k, v in values if isinstance(k, str)] == [("c", "Assassin")]
    assert [v for k, v in values if not isinstance(k, str)] == ["1"]


def test_a_thief_cannot_rob_himself_and_the_explanation_names_each_side_once():
    """Voleur : « Annoncez le personnage que vous volez. » (voleur_pas_lui_même, `c == this`): both sides are
    names, shown once each by name (« c = Voleur, this = Voleur »), not again as terms."""
    state = _échevin_state()
    state["selection"]["Character"] = ["Assassin", "Voleur", "Magicienne", "Roi", "Évêque", "Marchande",
                                       "Architecte", "Condottiere"]
    state["zones"]["choisis"] = {"Joueur 2": ["Évêque"], "Joueur 1": ["Voleur"]}
    state["vars"]["personnage_actif"] = "Voleur"
    del state["vars"]["mandat"]
    _, verdict = _judge(state, ("action", "voler", (0, e_card(state, "Voleur"))))
    assert verdict.status == "illegal"
    assert [(r.name, r.values) for r in verdict.reasons] == [
        ("voleur_pas_lui_même", [("c", "Voleur"), ("this", "Voleur")])]


def test_among_illegal_copies_the_one_with_fewer_conditions_on_where_it_is_is_explained():
    """A copy held but forbidden by a power's condition ranks before a copy that is not where the offer draws
    from (kind `from`) or not offered at all (kind `offer`), whatever the number of their other reasons."""
    def verdict(*kinds):
        return Verdict("illegal", ("action", "bâtir", (0, 1)),
                       [Reason(kind, kind, None, "", ()) for kind in kinds])
    held = verdict("mandatory")
    elsewhere, not_offered = verdict("from"), verdict("offer")
    assert min([elsewhere, held], key=_rank) is held
    assert min([not_offered, held], key=_rank) is held
    assert min([verdict("from", "limit"), verdict("from")], key=_rank).reasons[1:] == []
    undecided = Verdict("unknown", ("action", "bâtir", (0, 1)), [], unknown="timeout")
    assert min([undecided, elsewhere], key=_rank) is elsewhere     # an illegal copy before an undecided one
