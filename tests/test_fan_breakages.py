"""The fan expansion's three breakages (issue 22), found by the conflict search before they were fixed, on the
unfixed copy kept in tests/fixtures/fan-unfixed, each witness judged again by the interpreter; and gone from
spec/extension-fan.

- the Chantier cursed by Ba'al lifts its prohibition: any player may build « en détruisant le Chantier », and
  the effect stops on `only(…) found 0 elements` (spec/citadelles/21-merveilles.rules:340);
- the Dragon takes the Condottiere's gold between the legality check and his payment (`transfer of 3 from a
  counter holding 2`);
- a Tripot turned by the Magistrat lets any player build any district by discarding two cards.

The whole `rulebook conflicts … --effects` search of the fan expansion takes many CPU minutes (every action
and power of both specs): these tests ask only the questions of the moves and prohibitions concerned
(``only=``), at 3 players: about 75 s of CPU in all on the development machine.  The three repro games of the issue play to the end on the fixed expansion.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from conftest import ROOT

UNFIXED = [Path("spec/citadelles"), Path("tests/fixtures/fan-unfixed/extension-fan")]
FIXED = [Path("spec/citadelles"), Path("spec/extension-fan")]


@functools.cache
def search(which: str):
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = check_paths(UNFIXED if which == "unfixed" else FIXED)
    finally:
        os.chdir(cwd)
    assert result.ok
    return Search(result.typed, 3)


def _at(finding) -> str:
    span = finding.spans[0]
    return f"{Path(span.file).name}:{span.line}"


def test_a_turned_or_cursed_card_no_longer_bounds_the_way_of_building_it_grants():
    """*Prohibition lifted by a card's state*: the Chantier, the Nécropole, the Tripot and the Pont du Diable
    each permit an action and forbid it to whoever the card does not grant it to; cursed (or turned), the card's
    rules no longer apply, so any player gains the action.  Each witness: the card inactive, the move legal,
    and the prohibition would apply were the card active — the interpreter agrees on each."""
    found = search("unfixed").lifted_prohibitions()
    assert sorted(f.rules[0] for f in found) == ["chantier_requis", "nécropole_seulement",
                                                 "pont_du_diable_seulement", "tripot_seulement"]
    assert all(f.kind == "lifted" and f.confirmed is True for f in found), [(f.rules, f.confirmed) for f in found]
    tripot = next(f for f in found if f.rules[0] == "tripot_seulement")
    assert tripot.move["action"] == "bâtir_le_tripot" and tripot.move["args"][1] != "Tripot"
    assert any(s.startswith(("malédiction[Tripot]", "retourné[Tripot]")) for s in tripot.situation)
    assert not search("fixed").lifted_prohibitions()


def test_the_dragon_takes_the_condottieres_gold_before_he_pays_found_and_replayed():
    """The Dragon's bite (the `attaque` window, before the action) leaves the Condottiere short for his
    payment: Z3 finds the legal move whose transfer fails, and the interpreter stops there too.  Fixed by
    dragon_condottiere_paie_aussi_la_morsure (decision dragon_morsure_avant_le_prix)."""
    found = [f for f in search("unfixed").effect_failures({"détruire_par_le_condottiere"})
             if f.kind == "effect-failure"]
    assert [_at(f) for f in found] == ["11-personnages-5-9.rules:322"]
    assert found[0].confirmed is True and "transfer of" in found[0].replayed
    assert found[0].move["args"][2] == "Dragon" or any("Dragon ∈ cité" in s for s in found[0].situation)
    fixed = search("fixed").effect_failures({"détruire_par_le_condottiere"})
    assert not [f for f in fixed if f.kind == "effect-failure"], [f.message for f in fixed]


def test_building_by_destroying_a_cursed_chantier_fails_found_and_replayed():
    """Ba'al's curse lifts `chantier_requis`: a player with no Chantier may build « en détruisant le
    Chantier », whose `only(x in cité[p] where x == "Chantier")` finds nothing — Z3 and the interpreter stop
    at the same place.  Fixed by chantier_en_état_requis (decision paiement_réservé_à_sa_carte).  The failure
    is at the effect's first statement: the encoding follows 20 statements here (200 by default), and says
    that it stops there (an undecided finding), which halves the question's cost."""
    def ask(which):
        s = search(which)
        s.effect_steps = 20
        try:
            return s.effect_failures({"bâtir_en_détruisant_le_chantier"})
        finally:
            del s.effect_steps
    found = ask("unfixed")
    failures = [f for f in found if f.kind == "effect-failure"]
    assert [_at(f) for f in failures] == ["21-merveilles.rules:340"]
    assert failures[0].confirmed is True and "only(…) found 0 elements" in failures[0].replayed
    assert any(f.kind == "unknown" and "statement number 21" in f.message for f in found)
    fixed = ask("fixed")
    assert not [f for f in fixed if f.kind == "effect-failure"], [f.message for f in fixed]


def test_the_issues_repro_games_play_to_the_end_on_the_fixed_expansion(capsys):
    """`rulebook play … -c "Nouveaux Personnages II" -s 44` stopped on the Chantier.  With the Tripot turned by
    the Magistrat, the unfixed expansion let players build any district by discarding cards: seed 137 of
    « Nouveaux Personnages » builds a Distillerie, a Dragon and a Temple that way (seed 1, the issue's, no longer
    turns the Tripot since the fan's readings changed the game's path; if this seed stops turning it, pick another
    where `Le Magistrat retourne : Tripot` is logged)."""
    import re
    from checker.cli import main
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for config, seed in (("Nouveaux Personnages II", "44"), ("Nouveaux Personnages", "137")):
            code = main(["play", *map(str, FIXED), "-n", "3", "-c", config, "-s", seed, "--agent", "random"])
            out = capsys.readouterr().out
            assert code == 0 and "Vainqueur" in out, out[-2000:]
            if seed == "137":
                assert "Le Magistrat retourne : Tripot" in out
                assert set(re.findall(r"Bâtir « ([^»]+) » en payant avec des cartes", out)) == {"Tripot"}
    finally:
        os.chdir(cwd)
