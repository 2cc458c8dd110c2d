"""« Choix des personnages »: the draft for every player count, run through the spec's own
procedures with random choices over many seeds."""

from __future__ import annotations

import pytest

from checker.front.configurations import select
from checker.runtime import RandomAgent
from conftest import bundled
from test_scenarios import engine

# « Partie avec 8 personnages » and « Partie avec 9 personnages »: face-up discards by player count
FACE_UP = {(4, 8): 2, (5, 8): 1, (6, 8): 0, (7, 8): 0, (4, 9): 3, (5, 9): 2, (6, 9): 1, (7, 9): 0, (8, 9): 0}


def draft(config: str, players: int, seed: int, extra: tuple[str, ...] = ()):
    e = engine()
    e.recording = False
    program = bundled().program
    cards = dict(select(program, program.configurations[config], players).cards)
    cards["Character"] = tuple(cards["Character"]) + extra
    st = e.start(cards, players, seed, [RandomAgent(seed * 10 + i) for i in range(players)])
    st.vars["couronne"] = seed % players
    e.call("choix_des_personnages", ())
    chosen = {p: [e.show_card(c) for c in st.zone("choisis", p)] for p in range(players)}
    up = [e.show_card(c) for c in st.zone("écartés_visibles")]
    down = [e.show_card(c) for c in st.zone("écartés_cachés")]
    return e, chosen, up, down, len(cards["Character"])


@pytest.mark.parametrize("players, nine", sorted(FACE_UP))
def test_partie_avec_8_ou_9_personnages_cartes_ecartees(players, nine):
    """« Il en écarte ensuite un certain nombre face visible, puis une face cachée »; « Le personnage de
    rang 4 (Roi, Empereur ou Patricien) ne doit pas se trouver parmi les cartes écartées face visible. »"""
    extra = ("Artiste",) if nine == 9 and players < 8 else ()
    config = "Violente" if nine == 9 and players == 8 else "Première partie"
    for seed in range(25):
        e, chosen, up, down, total = draft(config, players, seed, extra)
        assert total == nine
        assert len(up) == FACE_UP[(players, nine)]
        assert not any(e.card_attrs[e.def_ids[c]]["rank"] == 4 for c in up), "no rank-4 character face up"
        assert all(len(cs) == 1 for cs in chosen.values()), "each player has one character"
        assert len(up) + len(down) + players == total, "every character is somewhere"


@pytest.mark.parametrize("players", [7, 8])
def test_regle_speciale_pour_7_joueurs(players):
    """« Le dernier joueur … ne reçoit que 1 seule carte Personnage. Il prend alors aussi la carte face
    cachée écartée au début du tour. Il choisit l'un des deux personnages et écarte l'autre face cachée. »"""
    config = "Violente" if players == 8 else "Première partie"
    seen_last = set()
    for seed in range(40):
        e, chosen, up, down, total = draft(config, players, seed)
        assert up == [] and len(down) == 1 and all(len(cs) == 1 for cs in chosen.values())
        last = (seed % players - 1) % players           # on the crown's right
        seen_last.add(chosen[last][0])
    assert len(seen_last) > 3, "the last player can end up with any character, the face-down one included"


def test_regles_pour_2_joueurs_choix_des_personnages():
    """« … en écarte 1 au hasard, face cachée … chacun à son tour choisit 2 cartes, une qu'il écarte face
    cachée et une qu'il garde pour lui-même … »: two characters each, four face down."""
    for seed in range(25):
        e, chosen, up, down, total = draft("Première partie", 2, seed)
        assert total == 8 and up == [] and len(down) == 4
        assert all(len(cs) == 2 for cs in chosen.values())


def test_regles_pour_3_joueurs_choix_des_personnages():
    """« … le troisième joueur écarte au hasard, face cachée, l'une des 5 cartes restantes … la dernière
    carte est écartée face cachée à côté des deux précédentes. »: two characters each, three face down."""
    for seed in range(25):
        e, chosen, up, down, total = draft("Violente", 3, seed)
        assert total == 9 and up == [] and len(down) == 3
        assert all(len(cs) == 2 for cs in chosen.values())
