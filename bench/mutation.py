r"""Mutation testing: would the tests notice a wrong rule, or a wrong line of the interpreter or the solver?

    python bench/mutation.py                         # every mutant (hours: run it overnight)
    python bench/mutation.py --sample 20 --seed 1    # 20 mutants per package, drawn with the seed
    python bench/mutation.py --only spec             # only the spec's mutants (spec, runtime, solver)
    python bench/mutation.py --list                  # the mutants, without running anything

Four packages of mutants (the first three run by default):

* ``spec``: the .rules files of spec/citadelles, mutated as text: a number changed (n → n+1, n → n-1), a
  comparison flipped (< ↔ <=, > ↔ >=, == ↔ !=), a condition dropped (the part of a `when` after its first
  `and`), a precedence removed.  Numbers inside `cite` sentences and comments are not touched.
* ``runtime``, ``solver`` and ``conflicts`` (run only when asked: ``--only conflicts``): checker/runtime,
  checker/solver and checker/conflicts, mutated through Python's AST (a comparison flipped, + ↔ -, and ↔ or, a
  `not` removed, an integer changed, True ↔ False); the mutated module is written back with ``ast.unparse``
  (comments lost, behaviour otherwise the same).

Each mutant is applied to a fresh copy of the tracked files (the work tree is never touched) and the
tests that exercise its package run there with ``pytest -x``; golden tests (tests/test_golden.py, the
book's pages) are left out on purpose: a mutant must be killed by a test of behaviour.  A mutant whose
spec no longer checks, or whose module no longer compiles, is *invalid* (not counted).  A mutant that
runs past ``--timeout`` counts as killed and is listed apart.  The score is killed / (killed + survived).
Not run in CI: each mutant costs one test run.

Making a mutant cheap.  For a Python mutant, the tests are ordered by a coverage map (one run of each test
file under coverage, bench/mutation_plugin.py, kept in ~/.cache/rulebook-mutation (or $RULEBOOK_MUTATION_CACHE)
and keyed on the package's sources and the test file; a test file's map over other sources is kept on when its
tests executed no line of a source file changed since, so a commit rebuilds only the maps of the tests that run
the files it changed): the tests that execute the mutated lines run first, quickest first, so a killed
mutant stops early; ``--covering-only`` runs only those (a mutant no test executes then survives without a
run).  The map credits a line to the test that ran it first, so a cached result (the compiled rules, the
checked spec, a module's shared fixture) is credited to one test only: a mutant the covering tests let live is
run once more against their whole files (from after the solver sample -l, 2026-11-28: -k's fusion.py:186
survived so, and the next case of its own file kills it), and a survivor of that is confirmed by a run of its package's whole files before
it is called equivalent.  The map's run is pinned to one core, so the commands the
tests run in-process (``conflicts``, ``diff``, ``fuzz``: one worker per core by default) run their work in the
test's own process, where coverage sees it (before, the work of a two-core run went to worker processes, and a
test such as tests/test_conflicts_scope.py was not credited with the solver lines it runs).  ``--tests`` replaces a package's test files (a file, or one
test as its node id: the solver's set names the quick tests of tests/test_conflicts.py one by one, the whole
file maps in 37 minutes); ``--match`` picks mutants by a regular expression;
``--from-log`` prints the table of a run stopped early (its sample is drawn in a random order, so the
mutants it ran are a random sample too).  The score of a sample is an estimate: the table gives its 95 %
Wilson interval.

    python bench/mutation.py --only runtime --sample 40 --seed 1 --covering-only
    python bench/mutation.py --only spec --match ': \d+ → \d+: .*score'     # the scoring rules' numbers

Without the maps (about an hour of a core per package to build), bench/mutation_blind.py draws the same sample
(same seed, same mutants) and runs each mutant against its module's own test files and the package's quick tests,
a set fixed by a rule before any mutant runs (sample h158, bench/results/mutation-2026-11-29-h158.txt).

The issue's ten named mutations (a bonus changed, a precedence ignored, Z3's `<=` as `<`, …) are run by
bench/mutation_named.py against the behaviour tests that kill them.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCENARIOS = ["tests/test_scenarios.py", "tests/test_scenarios_powers.py", "tests/test_scenarios_completion.py",
             "tests/test_scenarios_decompte.py", "tests/test_scenarios_preseances.py", "tests/test_scenarios_draft.py",
             "tests/test_scenarios_permis.py", "tests/test_scenario.py"]
TESTS = {
    "spec": SCENARIOS + ["tests/test_spec.py"],
    # the language's constructs that Citadelles does not use (a card's `active`, `imitates`, …) and the
    # games that stop on an error are played by these two files
    # tests/test_budgets.py: the deterministic cost counters (a mutant that only makes play slower, e.g. caches
    # nothing, is caught there); tests/test_limits.py: MAX_WORK and the other limits (its subprocess runs are
    # not seen by the coverage map: only its in-process tests are credited with lines)
    "runtime": SCENARIOS + ["tests/test_runtime.py", "tests/test_runtime_agents.py", "tests/test_replay.py",
                            "tests/test_play_failure.py", "tests/test_language_constructs.py", "tests/test_limits.py",
                            "tests/test_budgets.py", "tests/test_fusion.py",
                            # the runtime's own unit tests, one file per mechanism (they were not in the set: the
                            # watch of the invariants, the flow's frames, hoisting, narrowing, the selection's
                            # indexes, inlined adjustments, lasting triggers, `each`, retarget and swap, card
                            # identity, lifetimes, hooks): about 60 s together
                            "tests/test_invariants_incremental.py", "tests/test_frames.py", "tests/test_hoist.py",
                            "tests/test_narrowing.py", "tests/test_selection_index.py", "tests/test_inline_adjust.py",
                            "tests/test_lasting_triggers.py", "tests/test_each_chooses_state.py",
                            "tests/test_retarget_swap_each.py", "tests/test_identity.py", "tests/test_lifetimes.py",
                            "tests/test_hooks.py",
                            # the Monte Carlo agent (checker/runtime/montecarlo.py, 7 % of the runtime's mutants):
                            # its quick tests, one by one (test_simulate.py's others run worker pools)
                            "tests/test_simulate.py::test_the_monte_carlo_agent_plays_complete_reproducible_games",
                            "tests/test_simulate.py::test_determinising_keeps_what_the_player_sees_and_every_cells_size",
                            "tests/test_greedy.py::test_the_monte_carlo_agent_plays_out_only_the_greedy_players_best_options",
                            # the aiming players (aim.py): not in the set before sample h153, whose 25 aim.py mutants
                            # it killed 17 of (3 s)
                            "tests/test_agents_aim.py",
                            # the planner (aim_plan.py) and its memo: these two files killed 27 of sample 5169's 42
                            # aim_plan.py survivors (bench/results/mutation-2026-11-29-s22-runtime-5169-suite.txt)
                            "tests/test_agents_plan.py", "tests/test_aim_memo.py",
                            # the tests written for the survivors of the blind runtime samples (one file per theme)
                            *sorted(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_runtime_survivors_*.py"))],
    # every test file that imports checker.solver (the symbolic transition, the selection, `legal`'s reasons,
    # the conflict search and its witnesses, diff); of tests/test_conflicts.py (37 minutes under coverage) the
    # quick tests only, named one by one (CONFLICTS_QUICK): the whole file with `--tests tests/test_conflicts.py`
    "solver": ["tests/test_solver.py", "tests/test_solver_boundaries.py", "tests/test_solver_neighbours.py",
               "tests/test_legal_explanations.py", "tests/test_legal_explanation_values.py",
               "tests/test_solver_searches.py", "tests/test_solver_narrowed.py", "tests/test_transition.py", "tests/test_transition_boundaries.py",
               "tests/test_selection.py", "tests/test_solver_limits.py", "tests/test_carcassonne_legal_reasons.py",
               "tests/test_solver_grid_functions.py", "tests/test_conflicts_scope.py", "tests/test_inductive.py",
               "tests/test_examples_witness.py", "tests/test_statefile_moves.py", "tests/test_conflicts_domains.py",
               "tests/test_conflicts_witness_player.py", "tests/test_diff.py", "tests/test_diff_behaviour.py",
               # the effect-failure search cut at its statement limit (transition.py's message names the
               # statement it stopped at)
               "tests/test_fan_breakages.py::test_building_by_destroying_a_cursed_chantier_fails_found_and_replayed",
               # `rulebook reach` and the unrolled flow (deal.py, unroll.py: 324 of the solver's mutants); of
               # test_unroll.py the market's games, not the 4th edition's turns
               "tests/test_reach.py", "tests/test_unroll.py::test_a_whole_game_of_the_market_over_k_decisions",
               # `reach --rounds` (unroll_cone.py) and `--summarise` (unroll_summary.py): 5 of sample -h's 16
               # survivors were on their lines, which no test of the set ran
               "tests/test_reach_cone.py", "tests/test_reach_summary.py",
               "tests/test_unroll.py::test_a_repeat_beyond_its_unrolling_is_cut_not_followed",
               # a tiny game of a known pile: what the bundled games' random play does not reach (a certain move
               # before a draw, a zone moved whole, a power on instance 0, a random subset, a witness at a choice)
               "tests/test_known_pile.py", "tests/test_search_domains.py",
               # Carcassonne's records in `legal` and in a symbolic state (shapes.py's fresh records, legal's
               # options on a symbolic formula): its quick solver tests, one by one (the file builds a book)
               *(f"tests/test_carcassonne_tools.py::{name}" for name in (
                   "test_z3_explains_why_a_follower_cannot_go_on_an_occupied_area",
                   "test_z3_explains_why_a_tile_cannot_interrupt_a_road",
                   "test_z3_agrees_with_the_interpreter_along_a_game",
                   "test_a_state_file_writes_cells_and_records_and_reads_them_back",
                   "test_rulebook_legal_and_moves_on_the_second_game",
                   "test_a_bad_record_in_a_move_is_refused_with_its_path",
                   "test_what_z3_cannot_search_is_said_where_it_is")),
               # test files of the solver's own mechanisms that were not in the set (about 85 s together): the
               # search's batches and escapes, the effects' relaxed first check, unrolling from a state file,
               # diff's narrowing, and the constructs whose interpreter and Z3 encodings they hold to agree
               # (`each`, retarget and swap, lasting triggers, hooks, card identity)
               "tests/test_conflicts_batches.py", "tests/test_conflicts_escapes.py", "tests/test_effects_relaxed.py",
               "tests/test_unroll_resume.py", "tests/test_diff_narrow.py", "tests/test_each_chooses_state.py",
               "tests/test_retarget_swap_each.py", "tests/test_lasting_triggers.py", "tests/test_hooks.py",
               "tests/test_identity.py",
               # a head's condition translated (conditions.py), the C-API term builders (terms.py): not in the set
               # before sample h153 (about 25 s together)
               "tests/test_conflicts_reuse.py", "tests/test_transition_memos.py", "tests/test_solver_term_costs.py",
               # the questions that assume the invariants only when a model breaks one (search.py's well_formed
               # without invariants): sample h158's search.py:298 lived through the solver's set, this file kills it
               "tests/test_conflicts_assumed.py",
               # the tests written for the survivors of the blind samples (one file per theme: explain's
               # blocking rules, the commands' counters and exit codes, an optional choice, an each-point probe)
               *sorted(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_solver_survivors_*.py"))],
}
# the tests of tests/test_conflicts.py that take seconds, not minutes: the dead rules a selection's constraints
# make, a witness read back by `legal`, an undecided search's exit code, the Empereur's witness, and the
# rule-level precedence of the Sorcier and the Écuries removed (its conflict comes back)
CONFLICTS_QUICK = [f"tests/test_conflicts.py::{name}" for name in (
    "test_a_rule_that_applies_only_in_games_the_constraints_forbid_is_dead_and_names_them",
    "test_a_witness_is_a_state_file_legal_reads", "test_conflicts_exits_4_when_z3_cannot_decide",
    "test_the_empereurs_witness_in_the_fan_expansion_is_not_for_two_players",
    # a witness whose cards no legal selection allows (search.py's _legal_game): it kills sample h158's
    # search.py:528, which no file of the solver's set reached
    "test_a_conflict_no_legal_game_can_set_up_is_reported_as_such",
    r"test_removing_a_resolution_brings_its_conflict_back[precedence-1-sorcier_hors_permis-\xe9curies_hors_permis]")]
TESTS["solver"] += CONFLICTS_QUICK
# checker/conflicts (not run unless asked: --only conflicts): the conflict finder's own test files, the whole
# tests/test_conflicts.py left out as for the solver (its quick tests named one by one)
TESTS["conflicts"] = ["tests/test_conflicts_scope.py", "tests/test_conflicts_batches.py",
                      "tests/test_conflicts_escapes.py", "tests/test_conflicts_domains.py",
                      "tests/test_conflicts_witness_player.py", "tests/test_conflicts_reuse.py",
                      "tests/test_conflicts_assumed.py", "tests/test_effects_relaxed.py",
                      "tests/test_effects_instances.py", "tests/test_effects_undecided.py",
                      "tests/test_effects_witnesses.py", "tests/test_inductive.py",
                      "tests/test_inductive_preconditions.py", *CONFLICTS_QUICK,
                      *sorted(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_conflicts_survivors_*.py"))]
# the coverage maps, kept between runs and machines' reboots (not in the temporary directory): keyed on contents,
# so a map of other sources or another test file is never read
CACHE = Path(os.environ.get("RULEBOOK_MUTATION_CACHE", Path.home() / ".cache" / "rulebook-mutation"))
SOURCES = {"spec": "spec/citadelles", "runtime": "checker/runtime", "solver": "checker/solver",
           "conflicts": "checker/conflicts"}
DEFAULT = ("spec", "runtime", "solver")      # the packages run when --only is not given


@dataclasses.dataclass
class Mutant:
    package: str
    path: str           # relative to the repository
    line: int
    what: str
    apply: object       # str -> str, the file's text mutated
    lines: tuple = ()   # the lines of the mutated node (Python mutants), for the tests that execute them

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


# ---------------------------------------------------------------- the spec's mutants (text)

_CODE_LINE = re.compile(r"^\s*(forbid|permit|value|adjust|quantity|require|requires|choose|if|let|set|"
                        r"rule|when|move|give|take|for)\b|\bwhen\b")
_FLIPS = {"<=": "<", "<": "<=", ">=": ">", ">": ">=", "==": "!=", "!=": "=="}


def _code_part(line: str) -> str:
    """The line without its comment and without quoted text (cited sentences, labels)."""
    line = line.split("#", 1)[0]
    return re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), line)


def _replace_at(text: str, offset: int, old: str, new: str) -> str:
    assert text[offset:offset + len(old)] == old
    return text[:offset] + new + text[offset + len(old):]


def spec_mutants(root: Path) -> list[Mutant]:
    out = []
    for path in sorted((root / SOURCES["spec"]).glob("*.rules")):
        rel = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        offset = 0
        lines = text.splitlines(keepends=True)
        for number, line in enumerate(lines, 1):
            code = _code_part(line)
            if not line.lstrip().startswith("cite") and _CODE_LINE.search(code):
                for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
                    n = int(m.group())
                    for new in {n + 1, n - 1} - {-1}:
                        out.append(Mutant("spec", rel, number, f"{n} → {new}: {line.strip()}",
                                          lambda t, o=offset + m.start(), a=m.group(), b=str(new): _replace_at(t, o, a, b)))
                for m in re.finditer(r"<=|>=|==|!=|(?<![-<>=])<(?![=-])|(?<![-<>=])>(?!=)", code):
                    new = _FLIPS[m.group()]
                    out.append(Mutant("spec", rel, number, f"{m.group()} → {new}: {line.strip()}",
                                      lambda t, o=offset + m.start(), a=m.group(), b=new: _replace_at(t, o, a, b)))
                when = re.search(r"\bwhen\b(.*?)\band\b", code)
                if when and re.match(r"\s*(forbid|permit|value|adjust)\b", code):
                    start, rest = offset + when.start(1), code[when.end(1):].rstrip("\n")
                    end_cond = offset + when.end(1) + len(rest)
                    kept = code[when.start(1):when.end(1)].rstrip()
                    if kept.count("(") == kept.count(")") and rest.count("(") == rest.count(")"):
                        out.append(Mutant("spec", rel, number, f"drop `{rest.strip()}`: {line.strip()}",
                                          lambda t, s=start, e=end_cond, k=kept: t[:s] + " " + k.strip() + t[e:]))
            if line.startswith("precedence "):
                end = text.index("\n}\n", offset) + 3
                out.append(Mutant("spec", rel, number, f"remove {line.strip().rstrip('{').strip()}",
                                  lambda t, s=offset, e=end: t[:s] + t[e:]))
            offset += len(line)
    return out


# ---------------------------------------------------------------- Python mutants (AST)

_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add}


def _sites(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(index of the node in ast.walk order, line, what) for every mutable node, skipping docstrings."""
    out = []
    for i, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                if type(op) in _CMP:
                    out.append((i, node.lineno, f"{type(op).__name__} → {_CMP[type(op)].__name__}#{j}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            out.append((i, node.lineno, f"{type(node.op).__name__} → {_BIN[type(node.op)].__name__}"))
        elif isinstance(node, ast.BoolOp):
            out.append((i, node.lineno, "and → or" if isinstance(node.op, ast.And) else "or → and"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((i, node.lineno, "not removed"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            out.append((i, node.lineno, f"{node.value} → {not node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((i, node.lineno, f"{node.value} → {node.value + 1}"))
    return out


def _mutate_python(text: str, index: int, what: str) -> str:
    tree = ast.parse(text)
    for i, node in enumerate(ast.walk(tree)):
        if i != index:
            continue
        if isinstance(node, ast.Compare):
            j = int(what.rsplit("#", 1)[1])
            node.ops[j] = _CMP[type(node.ops[j])]()
        elif isinstance(node, ast.BinOp):
            node.op = _BIN[type(node.op)]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp):
            return _replace_node(tree, node, node.operand)
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            node.value = not node.value
        elif isinstance(node, ast.Constant):
            node.value += 1
        return ast.unparse(tree)
    raise LookupError(index)


def _replace_node(tree, old, new) -> str:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return ast.unparse(tree)
            if isinstance(value, list) and any(v is old for v in value):
                value[[id(v) for v in value].index(id(old))] = new
                return ast.unparse(tree)
    raise LookupError(old)


def python_mutants(root: Path, package: str) -> list[Mutant]:
    out = []
    for path in sorted((root / SOURCES[package]).glob("*.py")):
        rel = str(path.relative_to(root))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        nodes = list(ast.walk(tree))
        # coverage credits a statement to its first line only: a node on a continuation line of a statement
        # (the second line of a long condition) is executed when its statement's first line is
        statement = {}
        for stmt in nodes:
            if isinstance(stmt, ast.stmt):
                for child in ast.walk(stmt):
                    statement[id(child)] = stmt.lineno      # walked outer first: the innermost one wins
        seen: dict[tuple[int, str], int] = {}
        for index, line, what in _sites(tree):
            if id(nodes[index]) in docstrings:
                continue
            # two nodes of one kind on one line: the second is named `… @1`, the third `… @2`, in ast.walk's order
            # (breadth first: the outer node before the inner one, not left to right); the first keeps the name it
            # always had, so a --match written for it still picks it, and a pattern without `$` picks them all
            twin = seen[(line, what)] = seen.get((line, what), -1) + 1
            named = f"{what} @{twin}" if twin else what
            node = nodes[index]
            span = tuple(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))
            if statement.get(id(node), node.lineno) not in span:
                span += (statement[id(node)],)
            out.append(Mutant(package, rel, line, named, lambda t, i=index, w=what: _mutate_python(t, i, w), span))
    return out


# ---------------------------------------------------------------- running

def copy_tree(root: Path) -> Path:
    """The tracked and untracked-but-not-ignored files of the repository, in a fresh directory."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    target = Path(tempfile.mkdtemp(prefix="mutant-"))
    for name in filter(None, files):
        src = root / name
        if src.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / name)
    return target


def coverage_map(root: Path, package: str, files=()) -> tuple[list[str], dict[tuple[str, int], list[str]], set, dict]:
    """(every test of the package, in order; (file, line) -> the tests that execute it; the (file, line) executed
    outside any test, at import; each test's seconds).  One run of each test file under coverage
    (bench/mutation_plugin.py), kept in CACHE, keyed on the contents of the package and of the test file (a map
    of other sources kept on where it still holds: _reusable)."""
    tests, lines, imported, durations = [], {}, set(), {}
    for test_file in files or TESTS[package]:
        t, l, i, d = _file_map(root, package, test_file)
        tests += t
        for key, names in l.items():
            lines.setdefault(key, []).extend(names)
        imported |= i
        durations.update(d)
    if not durations:     # maps made before durations were kept: the lines a test executes stand for its cost
        for names in lines.values():
            for name in names:
                durations[name] = durations.get(name, 0) + 1e-3
    return tests, lines, imported, durations


def _hash(data: bytes) -> str:
    import hashlib
    return hashlib.sha256(data).hexdigest()


def _sources(root: Path, package: str) -> dict[str, str]:
    """The package's source files (relative paths) and the hashes of their contents."""
    return {str(path.relative_to(root)): _hash(path.read_bytes())
            for path in sorted((root / SOURCES[package]).glob("*.py"))}


def _cache_path(root: Path, package: str, test_file: str, sources: dict[str, str] | None = None) -> Path:
    """Where the map of ``test_file`` over these ``sources`` is kept: its name holds the hash of the test file (and
    of the one test, for a node id) and the hash of the package's sources; ``sources`` None: the glob of the maps
    of this test file over any sources."""
    file, _, test = test_file.partition("::")      # a file, or one test of it (its node id)
    # "one core": maps made before the pinning (see the docstring) are not read
    own = _hash(b"one core" + (root / file).read_bytes() + test.encode())[:16]
    whole = _hash(repr(sorted(sources.items())).encode())[:16] if sources is not None else "*"
    return CACHE / f"{package}-{Path(file).stem}{'-1' if test else ''}-{own}-{whole}.json"


def _old_cache_path(root: Path, package: str, test_file: str) -> Path:
    """The name bench/mutation.py gave a map before 2026-11-29 (one hash of the sources and the test file)."""
    import hashlib
    digest = hashlib.sha256(b"one core")
    file, _, test = test_file.partition("::")
    for path in sorted((root / SOURCES[package]).glob("*.py")) + [root / file]:
        digest.update(path.read_bytes())
    digest.update(test.encode())
    return CACHE / f"rulebook-mutation-{package}-{Path(file).stem}{'-1' if test else ''}-{digest.hexdigest()[:16]}.json"


def _read_map(cache: Path):
    import json
    data = json.loads(cache.read_text())
    return (data["tests"], {(f, int(n)): t for f, n, t in data["lines"]}, {(f, n) for f, n in data["imported"]},
            data.get("durations", {}), data.get("sources"))


def _reusable(root: Path, package: str, test_file: str, sources: dict[str, str]):
    """A map of this test file made over other sources that still holds: its tests executed no line of a source
    file that changed since (so, the tests being deterministic, they run the same lines now).  Its lines in the
    changed files are only the ones run at import: those are carried to the new text line by line (difflib), and
    every line changed or added there counts as run at import (a mutant on it is then run, not passed over).
    None when no kept map qualifies."""
    import difflib
    for candidate in sorted(CACHE.glob(_cache_path(root, package, test_file).name),
                            key=lambda p: p.stat().st_mtime, reverse=True):
        tests, lines, imported, durations, old = _read_map(candidate)
        if old is None:
            continue
        changed = {f for f in set(old) | set(sources) if old.get(f) != sources.get(f)}
        if changed & {f for f, _ in lines}:
            continue
        kept = {(f, n) for f, n in imported if f not in changed}
        for name in changed & set(sources):
            new_lines = (root / name).read_text(encoding="utf-8").splitlines()
            stored = CACHE / "sources" / f"{old.get(name)}.py"
            if name not in old or not stored.exists():
                kept |= {(name, n) for n in range(1, len(new_lines) + 1)}
                continue
            was = {n for f, n in imported if f == name}
            matcher = difflib.SequenceMatcher(None, stored.read_text(encoding="utf-8").splitlines(), new_lines,
                                              autojunk=False)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                if tag == "equal":
                    kept |= {(name, j1 + k + 1) for k in range(i2 - i1) if i1 + k + 1 in was}
                else:
                    kept |= {(name, n) for n in range(j1 + 1, j2 + 1)}
        return tests, lines, kept, durations, candidate
    return None


def _file_map(root: Path, package: str, test_file: str):
    import json
    sources = _sources(root, package)
    cache = _cache_path(root, package, test_file, sources)
    if cache.exists():
        return _read_map(cache)[:4]
    old_name = _old_cache_path(root, package, test_file)
    if old_name.exists():                       # a map named the old way, of these very sources
        tests, lines, imported, durations, _ = _read_map(old_name)
        write_map(cache, tests, lines, imported, durations, sources, root)
        return tests, lines, imported, durations
    reused = _reusable(root, package, test_file, sources)
    if reused is not None:
        tests, lines, imported, durations, base = reused
        print(f"{package}: the map of {test_file} kept from {base.name} (its tests run no changed line)", flush=True)
        write_map(cache, tests, lines, imported, durations, sources, root)
        return tests, lines, imported, durations
    import coverage
    print(f"{package}: mapping the tests of {test_file} to the lines they execute (one run under coverage)…",
          flush=True)
    datafile = Path(tempfile.mkdtemp(prefix="mutation-cover-")) / "coverage"
    env = dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{root / 'bench'}", MUTATION_COVER_OUT=str(datafile),
               MUTATION_COVER_SOURCE=str(root / SOURCES[package]))
    listed = subprocess.run([sys.executable, "-m", "pytest", "-q", "--co", "-p", "no:cacheprovider", test_file],
                            cwd=root, env=dict(env, MUTATION_COVER_OUT=""), capture_output=True, text=True)
    tests = [line for line in listed.stdout.splitlines() if "::" in line]
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutation_plugin",
                    test_file], cwd=root, env=env, capture_output=True, text=True, preexec_fn=_one_core)
    data = coverage.CoverageData(basename=str(datafile))
    data.read()
    lines: dict[tuple[str, int], list[str]] = {}
    imported = set()
    for measured in data.measured_files():
        rel = str(Path(measured).resolve().relative_to(root))
        for number, contexts in data.contexts_by_lineno(measured).items():
            named = sorted(c for c in contexts if c)
            if named:
                lines[(rel, number)] = named
            if "" in contexts:
                imported.add((rel, number))
    durations_file = Path(str(datafile) + ".durations.json")
    durations = json.loads(durations_file.read_text()) if durations_file.exists() else {}
    write_map(cache, tests, lines, imported, durations, sources, root)
    return tests, lines, imported, durations


def _one_core() -> None:
    """In the map's child process: run on one core, so `cores()` is 1 and no command sends work to a worker."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def write_map(cache: Path, tests, lines, imported, durations=None, sources=None, root: Path | None = None) -> None:
    """Keep a map, with the hashes of the sources it was made over and their texts (for _reusable's line carry)."""
    import json
    cache.parent.mkdir(parents=True, exist_ok=True)
    if sources and root is not None:
        (CACHE / "sources").mkdir(parents=True, exist_ok=True)
        for name, digest in sources.items():
            stored = CACHE / "sources" / f"{digest}.py"
            if not stored.exists():
                shutil.copyfile(root / name, stored)
    cache.write_text(json.dumps({"tests": tests, "lines": [[f, n, t] for (f, n), t in lines.items()],
                                 "imported": sorted(imported), "durations": durations or {},
                                 "sources": sources}))


def ordered_tests(mutant: Mutant, cover, files=()) -> tuple[list[str], int]:
    """The package's tests, those that execute the mutated lines first, quickest first (they are the likeliest to
    fail, and -x stops at the first failure), and how many execute them.  Without a map: the test files."""
    if cover is None or not mutant.lines:
        return list(files or TESTS[mutant.package]), -1
    tests, lines, _, durations = cover
    first = []
    for number in mutant.lines:
        first += [t for t in lines.get((mutant.path, number), ()) if t not in first]
    first.sort(key=lambda t: durations.get(t, 0.0))
    return first + [t for t in tests if t not in set(first)], len(first)


def run_mutant(clean: Path, mutant: Mutant, timeout: float, cover=None, covering_only=False,
               files=()) -> tuple[str, str]:
    """('killed' | 'survived' | 'invalid' | 'timeout', the first failing test or the reason)."""
    work = Path(tempfile.mkdtemp(prefix="mutant-run-"))
    try:
        shutil.copytree(clean, work, dirs_exist_ok=True)
        target = work / mutant.path
        try:
            target.write_text(mutant.apply(target.read_text(encoding="utf-8")), encoding="utf-8")
            if target.suffix == ".py":
                compile(target.read_text(encoding="utf-8"), str(target), "exec")
        except (SyntaxError, AssertionError, ValueError, LookupError) as exc:
            return "invalid", f"not applied: {exc}"
        env = dict(os.environ, PYTHONPATH=str(work), PYTHONDONTWRITEBYTECODE="1")
        if mutant.package == "spec":
            check = subprocess.run([sys.executable, "-m", "checker", "check", SOURCES["spec"]], cwd=work, env=env,
                                   capture_output=True, text=True)
            if check.returncode != 0:
                first = (check.stdout + check.stderr).strip().splitlines()
                return "invalid", f"the spec no longer checks: {first[0] if first else check.returncode}"
        tests, covering = ordered_tests(mutant, cover, files)
        note = ""
        if covering == 0:
            executed = cover is not None and any((mutant.path, n) in cover[2] for n in mutant.lines)
            note = "executed only at import" if executed else "not executed by the tests (in this process)"
            if covering_only and not executed:
                return "survived", note
        elif covering > 0 and covering_only:
            tests = tests[:covering]
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                                  cwd=work, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", f"past {timeout:.0f} s"
        if done.returncode == 0 and covering > 0 and covering_only:
            # the map credits what a shared fixture ran to the first test that used it: the covering tests' whole
            # files run once more, so a test that reads the fixture's work after another built it is not missed
            whole = sorted({t.split("::", 1)[0] for t in tests})
            try:
                again = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *whole],
                                       cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return "timeout", f"past {timeout:.0f} s (the covering tests' whole files)"
            if again.returncode != 0:
                done, note = again, ""
        failed = re.findall(r"^FAILED (\S+)|^ERROR (\S+)", done.stdout, re.M)
        if done.returncode == 0:
            return "survived", note or (f"{covering} tests execute it" if covering > 0 else "")
        if done.returncode in (4, 5):       # usage error / no tests collected: a test id that does not exist
            return "invalid", f"pytest exit {done.returncode}: {done.stdout.strip().splitlines()[-1:]}"
        return "killed", next((a or b for a, b in failed), f"pytest exit {done.returncode}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a proportion k/n: the score of a sample is an estimate."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(results: dict[str, list[tuple[object, str, str]]]) -> None:
    """The table: per package, the mutants killed, timed out, survived, invalid, the score and its 95 % interval."""
    print()
    print(f"{'package':10} {'killed':>7} {'timeout':>8} {'survived':>9} {'invalid':>8} {'score':>7}  95% (Wilson)")
    for package, rows in results.items():
        count = {o: sum(1 for _, x, _ in rows if x == o) for o in ("killed", "timeout", "survived", "invalid")}
        valid = count["killed"] + count["timeout"] + count["survived"]
        score = f"{100 * (count['killed'] + count['timeout']) / valid:.0f}%" if valid else "-"
        low, high = wilson(count["killed"] + count["timeout"], valid)
        print(f"{package:10} {count['killed']:7} {count['timeout']:8} {count['survived']:9} {count['invalid']:8} {score:>7}"
              f"  {100 * low:.0f}–{100 * high:.0f}%")
    survivors = [(p, m, why) for p, rows in results.items() for m, x, why in rows if x == "survived"]
    if survivors:
        print("\nsurviving mutants:")
        for package, m, why in survivors:
            print(f"  [{package}] {m}{'  (' + why + ')' if why else ''}")


_LOGGED = re.compile(r"^\[(\w+) \d+/\d+\] (\w+) +\d+ s  (.*?)(?:  — (.*))?$")


def from_log(path: str) -> dict[str, list[tuple[str, str, str]]]:
    """The results printed by a run (its `[package k/n] outcome` lines), so that a run stopped before its end
    still gives its table: the sample is drawn in a random order, so the mutants run so far are a sample too."""
    results: dict[str, list[tuple[str, str, str]]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = _LOGGED.match(line)
        if m:
            results.setdefault(m.group(1), []).append((m.group(3), m.group(2), m.group(4) or ""))
    return results


def _interrupt(*_):
    raise KeyboardInterrupt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(SOURCES), action="append", help="a package (repeatable)")
    ap.add_argument("--sample", type=int, default=0, help="run N mutants per package, drawn with --seed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=900, help="seconds for one mutant's tests")
    ap.add_argument("--grep", default="", help="only the mutants whose description contains this text")
    ap.add_argument("--match", default="", help="only the mutants whose description matches this regular expression")
    ap.add_argument("--no-map", action="store_true",
                    help="run each Python mutant's test files in their order, without the coverage map that puts "
                         "the tests executing the mutated lines first")
    ap.add_argument("--covering-only", action="store_true",
                    help="run only the tests that execute a Python mutant's lines (faster; a mutant no test executes "
                         "survives without a run); a survivor may still be killed by a test the map does not credit")
    ap.add_argument("--tests", nargs="+", default=(), metavar="FILE",
                    help="run these test files instead of the package's (say so when you report the score)")
    ap.add_argument("--alternate", action="store_true",
                    help="run one mutant of each package in turn (a run stopped early still has a sample of each)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--from-log", metavar="FILE", help="print the table of a run from its printed lines, and stop")
    args = ap.parse_args(argv)
    if args.from_log:
        summarise(from_log(args.from_log))
        return 0
    packages = args.only or list(DEFAULT)
    chosen: dict[str, list[Mutant]] = {}
    for package in packages:
        mutants = spec_mutants(ROOT) if package == "spec" else python_mutants(ROOT, package)
        mutants = [m for m in mutants if args.grep in str(m) and re.search(args.match, str(m))]
        total = len(mutants)
        if args.sample and args.sample < total:
            mutants = random.Random(args.seed).sample(mutants, args.sample)
        chosen[package] = mutants
        print(f"{package}: {total} mutants{f', a sample of {len(mutants)} (seed {args.seed})' if len(mutants) < total else ''}")
    if args.list:
        for mutants in chosen.values():
            for m in mutants:
                print(f"  {m}")
        return 0
    print("command: python " + " ".join(sys.argv), flush=True)
    covers = {p: None if args.no_map or p == "spec" else coverage_map(ROOT, p, args.tests) for p in chosen}
    clean = copy_tree(ROOT)
    # a run stopped with SIGTERM or ^C kills its pytest, removes its copies and prints the table of what it ran
    signal.signal(signal.SIGTERM, _interrupt)
    results: dict[str, list[tuple[Mutant, str, str]]] = {}
    order = [(package, k, m) for package, mutants in chosen.items() for k, m in enumerate(mutants, 1)]
    if args.alternate:      # one mutant of each package in turn: a run stopped early has a sample of each
        order.sort(key=lambda x: x[1])
    try:
        for package, k, m in order:
            start = time.perf_counter()
            outcome, why = run_mutant(clean, m, args.timeout, covers[package], args.covering_only, args.tests)
            results.setdefault(package, []).append((m, outcome, why))
            print(f"[{package} {k}/{len(chosen[package])}] {outcome:8} {time.perf_counter() - start:6.0f} s  {m}"
                  f"{'  — ' + why if why else ''}", flush=True)
    except KeyboardInterrupt:
        print("stopped: the table counts the mutants run so far", flush=True)
    finally:
        shutil.rmtree(clean, ignore_errors=True)
    summarise(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
