"""`rulebook reach` replays a reached path in the interpreter, then plays the game on (each later decision its
first option) to write the game log.  What happens after the path must not decide whether the path is confirmed,
and the log it writes must be one `rulebook replay` reads."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARQUER = '''
var marque: Int = 0
action marquer(p: Player) "Marquer, puis prendre un lot trop cher." {
  set marque = 1
  choose l in étal where l.prix > 5 by p
  move l to panier[p]
}
'''


def _market(tmp_path, text_change=None, extra=""):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    if text_change:
        old, new = text_change
        assert text.count(old) == 1
        text = text.replace(old, new)
    spec = tmp_path / "marché.rules"
    spec.write_text(text + extra, encoding="utf-8")
    return spec


def test_an_aborting_first_option_does_not_loop_the_game_played_on(tmp_path, capsys):
    """`marquer`, each offer's first option, always aborts (no lot costs more than 5), so it is offered again at
    once: played on with first options only, the offer went on until its limit and the reached path was
    printed "NOT confirmed" (exit 4) with a log named that was never written.  The question that comes back
    unchanged now gets the next option: confirmed, exit 0, and the log replays."""
    spec = _market(tmp_path, ("        acheter(p, l) for l in étal\n",
                              "        marquer(p)\n        acheter(p, l) for l in étal\n"), MARQUER)
    log = tmp_path / "partie.json"
    code = main(["reach", str(spec), "count(l in panier[Joueur 1]) == 1", "--within", "4", "-n", "2", "-s", "1",
                 "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 0 and "confirmed by the interpreter" in out and "NOT confirmed" not in out, out
    record = json.loads(log.read_text(encoding="utf-8"))
    assert "error" not in record and "final_state" in record, record
    assert main(["replay", str(log)]) == 0
    assert "replay ok" in capsys.readouterr().out


def test_an_error_after_the_path_leaves_it_confirmed_and_the_log_marked(tmp_path, capsys):
    """The game stops on an error of the spec at its end (every purse asked for 50), long after the path: the
    condition was met where the path ends, so the path is confirmed (it was "NOT confirmed: the interpreter
    stopped with an error"), the log ends on that error as a failed `play` writes it, and says so."""
    spec = _market(tmp_path, ('  log "Gagnants',
                              '  for p in players { transfer 50 from bourse[p] to réserve }\n  log "Gagnants'))
    log = tmp_path / "partie.json"
    code = main(["reach", str(spec), "count(l in panier[Joueur 1]) == 1", "--within", "4", "-n", "2", "-s", "1",
                 "--log", str(log)])
    out = capsys.readouterr().out
    assert code == 0 and "confirmed by the interpreter" in out, out
    assert "stopped on an error of the spec: transfer of 50" in out and "the log ends there" in out, out
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["error"]["message"].startswith("transfer of 50") and record["error"]["at"], record
    main(["replay", str(log)])
    replayed = capsys.readouterr()
    assert "stops again on the log's error" in replayed.out and "transfer 50 from bourse" in replayed.err, replayed
    code = main(["reach", str(spec), "count(l in panier[Joueur 1]) == 1", "--within", "4", "-n", "2", "-s", "1",
                 "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["confirmed"]) == (0, True) and data["played_on_error"]["message"].startswith("transfer of 50"), data


def test_an_offer_that_never_ends_is_located_at_the_offer(tmp_path):
    """A player who always answers the first option, `marquer`, which always aborts, is asked again and again:
    the game stops at the offer's limit with an error located at the offer (it had no location: a failed `play`
    or `reach` printed "an offer went on for too long" and nothing else)."""
    from checker.front.check import check_paths
    from checker.runtime.engine import Engine
    from checker.runtime.state import SpecRuntimeError

    spec = _market(tmp_path, ("        acheter(p, l) for l in étal\n",
                              "        marquer(p)\n        acheter(p, l) for l in étal\n"), MARQUER)
    result = check_paths([spec])

    class First:
        def choose(self, decision) -> int:
            return 0

    engine = Engine(result.typed)
    engine.recording = False        # else the log's own limit (a million entries) stops it first
    try:
        engine.play({"Lot": ["Safran d'Iran", "Poivre noir", "Cannelle"]}, 2, 1, [First(), First()])
    except SpecRuntimeError as exc:
        lines = spec.read_text(encoding="utf-8").splitlines()
        assert exc.span is not None and lines[exc.span.line - 1].strip().startswith("offer p"), exc.span
        assert "without ending" in exc.message and "aborts" in exc.message, exc.message
    else:
        raise AssertionError("the game ended, though its first option never does anything")
