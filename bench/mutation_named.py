r"""The ten mutations of issue 27, each run against the tests of behaviour that must kill it (never a golden
page): a text replacement in one file of the spec or the checker, applied to a fresh copy of the tree as
bench/mutation.py applies its mutants.

    python bench/mutation_named.py                  # all ten
    python bench/mutation_named.py --match bonus    # those whose name matches

Each mutation names the test files (or test ids) run against it, with ``pytest -x``; the first failing test
is printed.  A mutation that survives its tests is a gap: it is printed as survived.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation import ROOT, SCENARIOS, Mutant, copy_tree, run_mutant, summarise  # noqa: E402

# (name, package, path, old text, new text, tests)
NAMED = [
    ("completion threshold: 7 districts (4 players or more) → 8", "spec", "spec/citadelles/00-jeu.rules",
     "if player_count <= 3 then 8 else 7", "if player_count <= 3 then 8 else 8",
     ["tests/test_scenarios_decompte.py", "tests/test_scenarios_completion.py"]),
    ("Voleur prohibition: rank 1 no longer protected", "spec", "spec/citadelles/10-personnages-1-4.rules",
     "forbid voler(p, c) when c.rank == 1 or assassiné[c]", "forbid voler(p, c) when assassiné[c]",
     ["tests/test_scenarios_powers.py::test_voleur_ni_le_rang_1_ni_l_assassine_ni_l_ensorcele",
      "tests/test_legal_explanation_values.py"]),
    ("power precedence removed: Hospice before Alchimiste", "spec", "spec/citadelles/21-merveilles.rules",
     'precedence "Hospice".hospice_recevoir over "Alchimiste".or_rendu {\n'
     '  cite "L\'Alchimiste utilise l\'effet de l\'Hospice avant d\'appliquer son propre pouvoir."\n}\n', "",
     ["tests/test_scenarios_powers.py::test_hospice_l_alchimiste_utilise_l_effet_de_l_hospice_avant_son_propre_pouvoir"]),
    ("prose negation dropped: « not x » written as x", "prose", "checker/prose/exprs.py",
     "        return negation(p, e.operand, ctx)\n", "        return p.expr(e.operand, ctx)\n",
     ["tests/test_prose_negation.py"]),
    ("interpreter <= compiled as <", "runtime", "checker/runtime/codegen.py",
     '        return f"({a} {op} {b})"', '        return f"({a} {\'<\' if op == \'<=\' else op} {b})"',
     SCENARIOS + ["tests/test_language_constructs.py"]),
    ("Z3 <= encoded as <", "solver", "checker/solver/encode.py",
     '"<=": lambda a, b: a <= b', '"<=": lambda a, b: a < b',
     ["tests/test_transition_boundaries.py", "tests/test_solver_boundaries.py", "tests/test_solver.py"]),
    ("permit/forbid: a permission no longer lifts the prohibition it overrides (run time)", "runtime",
     "checker/runtime/engine.py",
     "            for name, _ in rule.overrides:\n                self.defeats.add((rule.name, name))\n",
     "            for name, _ in rule.overrides:\n                pass\n",
     SCENARIOS),
    ("five-colours bonus +3 → +2", "spec", "spec/citadelles/01-partie.rules",
     "adjust score(p) by 3 when all(t in DistrictType", "adjust score(p) by 2 when all(t in DistrictType",
     ["tests/test_scenarios_decompte.py"]),
    ("first-complete bonus +4 → +3", "spec", "spec/citadelles/01-partie.rules",
     "adjust score(p) by 4 when premier_complet == p", "adjust score(p) by 3 when premier_complet == p",
     ["tests/test_scenarios_decompte.py", "tests/test_scenarios_completion.py"]),
    ("rule-level precedence ignored at run time", "runtime", "checker/runtime/engine.py",
     "                self.defeats.add((prec.winner.name, prec.loser.name))\n", "                pass\n",
     ["tests/test_scenarios_preseances.py"]),
]


def named_mutants(root: Path = ROOT) -> list[tuple[Mutant, list[str]]]:
    out = []
    for name, package, path, old, new, tests in NAMED:
        text = (root / path).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{path}: {old!r} occurs {text.count(old)} times"
        line = text[:text.index(old)].count("\n") + 1

        def apply(t, old=old, new=new):
            if old not in t:
                raise LookupError(old)
            return t.replace(old, new, 1)
        out.append((Mutant(package, path, line, name, apply), tests))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--match", default="", help="only the mutations whose name matches this regular expression")
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args(argv)
    chosen = [(m, t) for m, t in named_mutants() if re.search(args.match, m.what)]
    print("command: python " + " ".join(sys.argv), flush=True)
    clean = copy_tree(ROOT)
    rows = []
    try:
        for k, (m, tests) in enumerate(chosen, 1):
            start = time.perf_counter()
            outcome, why = run_mutant(clean, m, args.timeout, files=tests)
            rows.append((m, outcome, why))
            print(f"[named {k}/{len(chosen)}] {outcome:8} {time.perf_counter() - start:6.0f} s  {m}"
                  f"{'  — ' + why if why else ''}", flush=True)
    finally:
        shutil.rmtree(clean, ignore_errors=True)
    summarise({"named": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
