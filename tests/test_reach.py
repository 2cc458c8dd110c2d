"""`rulebook reach`: bounded model checking of a game over K decisions (docs/reach.md), on the market fixture —
a whole game is a few decisions there, so every outcome is cheap to show: reached (the shortest sequence,
replayed by the interpreter and by `rulebook replay`), proved unreachable within K, undecided (a `repeat`
unrolled fewer times than a path needs), and bad input."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")


def _reach(capsys, *args):
    code = main(["reach", MARKET, *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_reachable_condition_gives_the_shortest_sequence_and_a_log_that_replays(tmp_path, capsys):
    """Two lots in the first player's basket: he buys two in his first turn (2 decisions, not fewer), the
    interpreter confirms it, and the log written is a whole game that `rulebook replay` plays the same."""
    log = tmp_path / "chemin.json"
    code, out = _reach(capsys, "count(l in panier[Joueur 1]) >= 2", "--within", "3", "-n", "2", "-s", "1",
                       "--log", str(log))
    assert code == 0 and out["status"] == "reached" and out["confirmed"] is True
    assert [d["player"] for d in out["decisions"]] == ["Joueur 1", "Joueur 1"]
    assert all(d["answer"].startswith("acheter(Joueur 1, ") for d in out["decisions"])
    assert out["assumptions"] == []           # the set-up's shuffle is the seed's, followed to the end
    assert main(["replay", str(log)]) == 0
    assert "replay ok" in capsys.readouterr().out


def test_an_unreachable_condition_is_proved_within_k(capsys):
    """Three lots cost more than the 5 coins a player gets: no sequence of at most 3 decisions buys them."""
    code, out = _reach(capsys, "count(l in panier[Joueur 1]) == 3", "--within", "3", "-n", "2", "-s", "1")
    assert code == 1 and out["status"] == "proved" and out["decisions"] == []


def test_a_path_beyond_the_unrolled_rounds_is_undecided_not_proved(capsys):
    """The second player's second lot: with the rounds unrolled once (--loops 1), the paths that go round again
    are not followed — the answer is undecided, with the `repeat` as the place, never "proved"."""
    code, out = _reach(capsys, "false", "--within", "6", "-n", "2", "-s", "1", "--loops", "1")
    assert code == 4 and out["status"] == "undecided"
    assert "repeat" in out["reason"] and "minimal_game.rules:54" in out["where"]


def test_a_condition_that_is_not_a_bool_is_bad_input(capsys):
    code = main(["reach", MARKET, "bourse[Joueur 1]", "--within", "2", "-n", "2"])
    assert code == 2
    assert "Bool" in capsys.readouterr().err


def test_paths_past_the_budget_are_not_encoded_further(capsys, bundled_checked_once):
    """4th edition, 4 players, within 4 decisions (the characters' draft): once a path asked decision K + 1,
    what its block would do next is not encoded (Z3 proves no path runs it) — a deterministic budget of the
    questions asked while unrolling (111 before that pruning, 49 with it)."""
    code = main(["reach", str(ROOT / "spec" / "citadelles"), "any(p in players: complète(p))", "--within", "4",
                 "-n", "4", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["status"] == "proved"
    assert out["z3_questions"] <= 60


def test_changes_counts_the_decision_points_where_a_value_changed(capsys):
    """The first player's purse: 0 at the set-up, 5 at his first question, less after each purchase.  Two changes
    take one purchase (the interpreter, replaying it, counts the same two); four are out of reach within 3
    decisions (he can afford two lots, so three changes at most)."""
    code, out = _reach(capsys, "changes(bourse[Joueur 1]) >= 2", "--within", "4", "-n", "2", "-s", "1")
    assert code == 0 and out["confirmed"] is True
    assert len(out["decisions"]) == 1 and out["decisions"][0]["answer"].startswith("acheter(Joueur 1, ")
    code, out = _reach(capsys, "changes(bourse[Joueur 1]) >= 4", "--within", "3", "-n", "2", "-s", "1")
    assert code == 1 and out["status"] == "proved"


def test_initially_reads_the_state_where_the_search_starts(capsys):
    """No purse ever holds less than at the set-up (0); the round counter has moved once both players passed."""
    code, out = _reach(capsys, "bourse[Joueur 1] < initially(bourse[Joueur 1])", "--within", "3", "-n", "2", "-s", "1")
    assert code == 1
    code, out = _reach(capsys, "tours_joués == initially(tours_joués) + 1", "--within", "3", "-n", "2", "-s", "1")
    assert code == 0 and out["confirmed"] is True and len(out["decisions"]) == 2


def test_path_functions_are_checked_like_the_rest_of_the_condition(capsys):
    """A collection watched, two arguments, a path function inside another: located errors, exit 2."""
    for condition, code, words in [("changes(panier[Joueur 1]) >= 1", "E0301", "not set of Lot"),
                                   ("changes(1, 2) == 0", "E0302", "takes one expression"),
                                   ("initially(changes(tours_joués)) == 0", "E0303", "inside another")]:
        assert main(["reach", MARKET, condition, "--within", "2", "-n", "2"]) == 2
        err = capsys.readouterr().err
        assert code in err and words in err and "^" in err


def test_a_condition_s_errors_point_at_the_condition_as_written(capsys):
    """Line 1 of CONDITION, the caret under the name, ``Joueur 2`` as the user wrote it — not the quantity the
    condition is checked as, one line down."""
    assert main(["reach", MARKET, "bourse[Joueur 2] + oui > 1", "--within", "1", "-n", "2"]) == 2
    err = capsys.readouterr().err
    assert "CONDITION:1:20: error[E0202]: unknown name 'oui'" in err, err
    assert "    1 | bourse[Joueur 2] + oui > 1\n      |                    ^^^" in err, err
    assert "Joueur_" not in err and "__condition__" not in err


def test_a_search_from_a_state_file_is_refused_with_the_reason(capsys, bundled_checked_once):
    """--from STATE: the file is read and checked (a broken one is bad input, 2), then the search is refused (4):
    a state file holds a decision point's state, not the calls and loops of the flow above it."""
    state = ROOT / "tests" / "fixtures" / "states" / "négociant-deuxième-commerce.json"
    spec = str(ROOT / "spec" / "citadelles")
    assert main(["reach", spec, "true", "--within", "2", "-n", "4", "--from", str(state)]) == 4
    err = capsys.readouterr().err
    assert "cannot resume at the offer at 01-partie.rules:240:3" in err and "\n" not in err.strip()
    assert main(["reach", MARKET, "true", "--within", "2", "-n", "2", "--from", str(MARKET)]) == 2


def test_the_crown_given_at_the_set_up_is_one_change_on_both_sides(capsys, bundled_checked_once):
    """4th edition: the set-up gives the Crown (none → a player) before the first decision point — one change,
    found by Z3 with no decision and confirmed by the interpreter's own count; a second is out of reach of the
    draft's first decision."""
    spec = str(ROOT / "spec" / "citadelles")
    code = main(["reach", spec, "changes(couronne) == 1 and initially(couronne) == none", "--within", "1", "-n",
                 "4", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["confirmed"] is True and out["decisions"] == []
    assert main(["reach", spec, "changes(couronne) >= 2", "--within", "1", "-n", "4", "-s", "1"]) == 1


def test_a_split_search_takes_each_first_answer_as_known(capsys, bundled_checked_once):
    """4th edition, 4 players: `--split 1` runs one search per character the first player may pick (the
    interpreter lists 5), each with that pick known.  Two characters in a hand are out of reach of two
    decisions in every branch; one character is reached by the first decision, which the
    interpreter confirms — and once a branch found a path of 1 decision, no branch is searched for a longer one."""
    spec = str(ROOT / "spec" / "citadelles")

    def run(condition, *extra):
        code = main(["reach", spec, condition, "--within", "2", "-n", "4", "-s", "1", "--json", *extra])
        return code, json.loads(capsys.readouterr().out)
    two = "any(p in players: count(c in choisis[p]) >= 2)"
    code, out = run(two, "--split", "1")
    assert code == 1 and out["status"] == "proved" and out["branches"] == 5 and "5 branches" in out["reason"]
    code, out = run("any(p in players: count(c in choisis[p]) >= 1)", "--split", "1")
    assert code == 0 and out["confirmed"] is True and out["branches"] == 5
    assert [d["player"] for d in out["decisions"]] == ["Joueur 1"]
