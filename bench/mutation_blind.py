r"""A blind sample of a package's mutants, each run against its module's own tests and the package's quick ones.

    python bench/mutation_blind.py runtime --sample 24 --seed 2811
    python bench/mutation_blind.py solver --sample 24 --seed 2811 --list     # the sample and each mutant's tests

bench/mutation.py runs every mutant of a package against the package's whole set (minutes a mutant without the
coverage maps, which take about an hour of a core per package to build).  This runs each mutant of the sample
(drawn exactly as bench/mutation.py draws it: the same seed gives the same mutants) against a smaller set fixed by a
rule before any mutant runs, so the score is not biased towards killing by a choice made after seeing survivors:

* the module's own tests: the files of the package's set (bench/mutation.py's TESTS, node ids by their file) whose
  name holds the module's name, or one of its themes (THEMES: `cone` for unroll_cone.py, …), as a word between
  underscores; when none does, the first MAX_IMPORTERS files of the set (in its order) that import the module
  directly;
* the package's quick behaviour tests (QUICK): the interpreter's scenarios and unit tests (tests/test_scenarios.py,
  tests/test_runtime.py: about 13 s of CPU at rest); the solver's (tests/test_transition.py, tests/test_solver.py:
  about 34 s).

So the score estimates how well a module's own tests and the package's quick tests pin it, which is at most the
score against the package's whole set (a mutant these let live may still fail some other test of the set): say so
when you report it.  The log lines are bench/mutation.py's (`--from-log` reads them), each followed by the tests run.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutation  # noqa: E402

QUICK = {"runtime": ["tests/test_scenarios.py", "tests/test_runtime.py"],
         "solver": ["tests/test_transition.py", "tests/test_solver.py"]}
THEMES = {"unroll_cone": ("cone",), "unroll_summary": ("summary",), "as_example": ("examples",),
          "montecarlo": ("monte", "simulate")}
MAX_IMPORTERS = 3


def tests_of(package: str, module: str) -> list[str]:
    """The module's own tests, then the package's quick ones (each once)."""
    return list(dict.fromkeys(own_tests(package, module) + QUICK[package]))


def own_tests(package: str, module: str) -> list[str]:
    """The module's own test files in the package's set, by the rule of the docstring."""
    stem = Path(module).stem
    words = (stem, *THEMES.get(stem, ()))
    by_name = []
    for test in mutation.TESTS[package]:
        name = Path(test.split("::", 1)[0]).stem.removeprefix("test_")
        if any(re.search(rf"(^|_){re.escape(w)}(_|$)", name) for w in words) and test not in by_name:
            by_name.append(test)
    if by_name:
        return by_name
    importers = []
    pattern = re.compile(rf"checker\.{package}\.{stem}\b|from checker\.{package} import [^\n]*\b{stem}\b")
    for test in mutation.TESTS[package]:
        file = test.split("::", 1)[0]
        if file not in {t.split("::", 1)[0] for t in importers} and pattern.search((mutation.ROOT / file).read_text()):
            importers.append(test)
        if len(importers) == MAX_IMPORTERS:
            break
    return importers


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("package", choices=sorted(QUICK))
    ap.add_argument("--sample", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--match", default="", help="run only the sampled mutants whose description matches this")
    ap.add_argument("--indices", default="", metavar="A-B",
                    help="run only the sampled mutants numbered A to B (from 1; B < A: in that order, from the end), "
                         "so a second process can take the sample from its end while the first goes on from its start")
    ap.add_argument("--list", action="store_true", help="list the sample and each mutant's tests, run nothing")
    args = ap.parse_args(argv)
    mutants = mutation.python_mutants(mutation.ROOT, args.package)
    total = len(mutants)
    sample = random.Random(args.seed).sample(mutants, args.sample)
    print(f"{args.package}: {total} mutants, a sample of {len(sample)} (seed {args.seed})")
    print("command: python " + " ".join(sys.argv), flush=True)
    chosen = [(k, m) for k, m in enumerate(sample, 1) if re.search(args.match, str(m))]
    if args.indices:
        a, b = map(int, args.indices.split("-"))
        chosen = [(k, m) for k, m in chosen if min(a, b) <= k <= max(a, b)][::1 if a <= b else -1]
    if args.list:
        for k, m in chosen:
            print(f"  {k:3} {m}\n        {' '.join(tests_of(args.package, m.path))}")
        return 0
    clean = mutation.copy_tree(mutation.ROOT)
    results = {args.package: []}
    try:
        for k, m in chosen:
            files = tests_of(args.package, m.path)
            start = time.perf_counter()
            outcome, why = mutation.run_mutant(clean, m, args.timeout, None, False, files)
            results[args.package].append((m, outcome, why))
            print(f"[{args.package} {k}/{len(sample)}] {outcome:8} {time.perf_counter() - start:6.0f} s  {m}"
                  f"{'  — ' + why if why else ''}", flush=True)
            print(f"    tests: {' '.join(files)}", flush=True)
    except KeyboardInterrupt:
        print("stopped: the table counts the mutants run so far", flush=True)
    finally:
        shutil.rmtree(clean, ignore_errors=True)
    mutation.summarise(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
