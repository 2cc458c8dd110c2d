"""Carcassonne Die Stadt through the tools: legality with Z3 (explained by the rules), state files with
cells and records, the conflict search, the lexer, the French prose and the second Sphinx book."""

from __future__ import annotations

import collections
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from pygments.token import Error

from checker.front import ast
from checker.cli import main
from checker.front.lexer import RulebookLexer
from checker.prose import Ctx
from checker.runtime import RandomAgent
from checker.solver.encode import Unsupported
from checker.solver.legal import Legality, Point, interpreter_options, point_of
from checker.solver.scopes import Scopes
from checker.solver.statefile import dump_state, load_state
from checker.sphinxext import Book
from conftest import ROOT
from test_carcassonne import BLUE, RED, SPEC, Game, checked, engine

DOCS = ROOT / "docs" / "carcassonne"


def _offer_in(procedure: str) -> ast.Offer:
    body = checked().program.procedures[procedure].body
    return next(s for s in ast.statements(body) if isinstance(s, ast.Offer))


def _scopes() -> Scopes:
    return Scopes(checked().typed)


def _occupied_area() -> tuple[Game, Point]:
    """Red on a residential area; Blue has just laid a tile whose large area joins it."""
    g = Game()
    g.lay("Quartier", 0, 0)
    g.follower(RED, 0, 0, "quartier")
    g.lay("Virage du marché au bétail", 0, -1, player=BLUE)
    g.last(0, -1)
    return g, Point(_offer_in("placer_un_bonhomme"), BLUE, {"p": BLUE})


def test_z3_explains_why_a_follower_cannot_go_on_an_occupied_area():
    """« il ne doit pas se trouver déjà de Bonhomme » — decided by Z3 through connected(…) on the state."""
    g, point = _occupied_area()
    legality = Legality(g.e, _scopes())
    verdict = legality.check(point, ("action", "placer", (BLUE, g.spot(0, -1, "grand quartier"))))
    assert verdict.status == "illegal" and [r.name for r in verdict.reasons] == ["partie_déjà_occupée"]
    assert any("il ne doit pas se trouver déjà de Bonhomme" in c.quote for c in verdict.reasons[0].cites)
    assert legality.check(point, ("action", "placer", (BLUE, g.spot(0, -1, "petit quartier")))).legal
    moves = legality.moves(point)
    assert collections.Counter(moves) == collections.Counter(interpreter_options(g.e, point))
    assert len(moves) == 4, "road, market, small area, or no follower"


def test_z3_explains_why_a_tile_cannot_interrupt_a_road():
    """« Les routes ne doivent pas être interrompues. » — the tile offer, with every (cell, rotation)."""
    g = Game()
    g.lay("Rue droite", 0, 0, 1)                     # a road from west to east
    tile = g.e.instances[g.e.def_ids["Quartier"]][0]
    g.st.put(tile, "tirée", None, "top")
    g.st.vars["tuile_posée"] = False
    g.e.invalidate()
    point = Point(_offer_in("tirer_et_poser"), RED, {"p": RED, "t": tile})
    legality = Legality(g.e, _scopes())
    verdict = legality.check(point, ("action", "poser", (RED, tile, g.cell(0, 1), 0)))
    assert verdict.status == "illegal" and [r.name for r in verdict.reasons] == ["routes_ininterrompues"]
    moves = legality.moves(point)
    assert collections.Counter(moves) == collections.Counter(interpreter_options(g.e, point))
    assert {m[2][2] for m in moves if m[0] == "action"} == {g.cell(-1, 0), g.cell(1, 0)}, "above or below only"


def test_z3_agrees_with_the_interpreter_along_a_game():
    """At sampled decision points of a whole game (tiles, followers, ramparts, guards, towers), Z3's set of
    legal moves is the interpreter's."""
    e, scopes = engine(), _scopes()
    e.recording = False
    program = checked().program
    from checker.front.configurations import select
    cards = select(program, program.configurations["Jeu de base"], 3).cards
    compared, differ, seen = [], [], [0]

    class Enough(Exception):
        pass

    def observe(decision):
        seen[0] += 1
        if len(compared) >= 12:
            raise Enough()
        if seen[0] % 9:
            return
        point = point_of(decision, scopes)
        z3_moves = Legality(e, scopes).moves(point)
        compared.append(point.kind)
        if collections.Counter(z3_moves) != collections.Counter(interpreter_options(e, point)):
            differ.append((str(getattr(point.site, "span", "")), z3_moves))
    e.observer = observe
    try:
        e.play(cards, 3, 5, [RandomAgent(500 + i) for i in range(3)])
    except Enough:
        pass
    finally:
        e.observer = None
    assert len(compared) == 12 and not differ, differ[:2]


def test_a_state_file_writes_cells_and_records_and_reads_them_back():
    g, point = _occupied_area()
    from checker.runtime.engine import Decision
    decision = Decision(BLUE, "que faire ?", [], str, site=point.site, env={"p": BLUE}, engine=g.e)
    scopes = _scopes()
    data = json.loads(json.dumps(dump_state(g.e, decision, scopes, [str(SPEC)])))
    assert data["vars"]["bonhomme"] == {"0,0 | Quartier / quartier": "Joueur 1"}
    assert data["vars"]["dernière_case"] == [0, -1]
    digest = {k: v for k, v in g.st.vars.items()}
    other = engine()
    loaded = load_state(other, data, scopes)
    assert other.st.vars["bonhomme"] == digest["bonhomme"] and other.st.vars["tuile_en"] == digest["tuile_en"]
    assert loaded.point.player == BLUE


def _state_file(tmp_path: Path) -> Path:
    g, point = _occupied_area()
    from checker.runtime.engine import Decision
    decision = Decision(BLUE, "que faire ?", [], str, site=point.site, env={"p": BLUE}, engine=g.e)
    path = tmp_path / "etat.json"
    path.write_text(json.dumps(dump_state(g.e, decision, _scopes(), ["spec/carcassonne"]), ensure_ascii=False))
    return path


def test_rulebook_legal_and_moves_on_the_second_game(capsys, tmp_path):
    state = _state_file(tmp_path)
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"format": "rulebook-move/1", "player": "Joueur 2", "action": "placer",
                                "args": ["Joueur 2", {"case": [0, -1], "segment": "Virage du marché au bétail / "
                                                                                  "grand quartier"}]}))
    assert main(["legal", str(state), str(move)]) == 1
    out = capsys.readouterr().out
    assert "partie_déjà_occupée" in out and "01-partie.rules" in out and "déjà de Bonhomme" in out
    assert main(["moves", str(state)]) == 0
    out = capsys.readouterr().out
    assert "4 legal move(s)" in out and '"segment": "Virage du marché au bétail / petit quartier"' in out


def test_a_bad_record_in_a_move_is_refused_with_its_path(capsys, tmp_path):
    state = _state_file(tmp_path)
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"format": "rulebook-move/1", "player": "Joueur 2", "action": "placer",
                                "args": ["Joueur 2", {"case": [0, -1], "segmant": "Quartier / quartier"}]}))
    assert main(["legal", str(state), str(move)]) == 2
    err = capsys.readouterr().err
    assert "args/1/segmant: Emplacement has no field 'segmant'" in err and "Traceback" not in err


def test_what_z3_cannot_search_is_said_where_it_is():
    """A search through a symbolic state too large to encode (every part of every tile that may lie on a
    neighbouring cell): the conflict search says so, at the `connected`."""
    from checker.conflicts.questions import Search
    search = Search(checked().typed, players=2)
    enc = search.encoder()
    rule = checked().program.rules["partie_déjà_occupée"]
    args = (search.symbolic(enc, "p", enc.resolve(ast.TypeName("Player", None)))[0],
            search.symbolic(enc, "e", enc.resolve(ast.TypeName("Emplacement", None)))[0])
    with pytest.raises(Unsupported) as caught:
        enc.applies(rule, rule.heads[0], args)
    assert "connected(…) on a symbolic state" in caught.value.message and "200,000" in caught.value.message
    lines = (SPEC / "00-jeu.rules").read_text(encoding="utf-8").splitlines()
    at = caught.value.span
    assert at.file.endswith("00-jeu.rules") and lines[at.line - 1][at.column - 1:].startswith("connected(")


# ---------------------------------------------------------------- lexer, prose, book


@pytest.mark.parametrize("path", sorted(SPEC.glob("*.rules")), ids=lambda p: p.name)
def test_every_carcassonne_file_lexes_without_error(path: Path):
    tokens = list(RulebookLexer().get_tokens(path.read_text(encoding="utf-8")))
    assert [v for t, v in tokens if t in Error] == []


def test_the_second_game_reads_as_french():
    book = Book.load([SPEC], DOCS / "lexique.toml")
    prose, program = book.prose, book.program
    sentences = [prose.head(h, Ctx()) for r in program.rules.values() for h in r.heads]
    for q in program.quantities.values():
        ctx = Ctx()
        for prm in q.params:
            ctx = ctx.bind(prm.name, prose._resolve_type(prm.type))
        sentences.append(prose.expr(q.default, ctx))
    assert len(sentences) > 90
    leftovers = [s for s in sentences if re.search(r"[{}]|\bNone\b|\bde le\b|\bà le\b", s)]
    assert leftovers == []
    assert "la case voisine de la case de ce bord, vers le côté de ce bord" in " ".join(sentences)


def test_the_second_book_builds_with_warnings_as_errors(tmp_path):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace
    src = tmp_path / "carcassonne"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "cartes"))
    shutil.copytree(ROOT / "docs" / "_static", tmp_path / "_static")
    warnings = io.StringIO()
    # without the solver section: `rulebook conflicts spec/carcassonne` encodes the rampart questions slowly
    # (8 to 15 minutes on this machine); the 4th edition book test renders that section
    with docutils_namespace():           # the roles and directives it registers go away with it
        app = Sphinx(str(src), str(src), str(tmp_path / "html"), str(tmp_path / "doctrees"), "html",
                     confoverrides={"rulebook_spec": [str(SPEC)], "rulebook_conflict_finder": ""},
                     status=io.StringIO(), warning=warnings,
                     warningiserror=True, freshenv=True)
        app.build()
    assert app.statuscode == 0 and warnings.getvalue() == ""
    turn = (tmp_path / "html" / "regles" / "tour.html").read_text(encoding="utf-8")
    assert "routes_ininterrompues" in turn and "Les routes ne doivent pas être interrompues." in turn
    assert (tmp_path / "html" / "cartes" / "tuiles.html").exists()
