"""The page of worked examples: each `example` of the spec as the rulebook teaches it — the sentence it
illustrates, then the lines that set the situation up, play the moves and state what must happen — and
whether it held when this book was built.

The examples are run (:func:`checker.examples.run.run_examples`, what `rulebook test` runs) while the page
is made: a page never shows an example the rules do not satisfy without saying so, and the build warns
(``book.problems``) for each one that fails or is undecided, so a book built with warnings as errors cannot
be published with a broken example.
"""

from __future__ import annotations

from pathlib import Path

from checker.front import example_ast as ex
from checker.prose import rst_escape
from checker.sphinxext import rst
from checker.sphinxext.book import Book

__all__ = ["render_examples", "render_player_example", "render_house_rules", "house_rule_files"]


def render_examples(book: Book, arg: str = "") -> str:
    from checker.examples.run import run_examples
    examples = [e for e in book.program.examples.values() if e.name not in book.result.typed.inapplicable]
    lines = rst.title("Exemples")
    aside = len(book.program.examples) - len(examples)
    if aside:
        lines += [f"{aside} exemple(s) de la spécification ne s'appliquent pas à ces règles (une configuration "
                  f"ou une carte qu'elles n'ont pas) : ``rulebook test`` dit pourquoi.", ""]
    if not examples:
        return "\n".join(lines + (["La spécification ne donne pas d'exemple.", ""] if not aside else []))
    outcomes = {o.name: o for o in run_examples(book.result)}
    held = sum(outcomes[e.name].passed for e in examples)
    lines += [f"Chaque exemple pose une situation, y joue des coups et dit ce qui doit arriver ; la phrase du "
              f"livret qu'il illustre précède les lignes qui l'écrivent. Les exemples sont joués par "
              f"l'interprète (et la légalité des coups jugée par Z3) à chaque construction de ce livre, comme "
              f"``rulebook test`` les joue : **{held} sur {len(examples)}** tiennent.", ""]
    for example in examples:
        lines += _example(book, example, outcomes[example.name])
    return "\n".join(lines)


def _example(book: Book, example: ex.ExampleDecl, outcome, sources=None, underline: str = "-") -> list[str]:
    lines = rst.title(rst_escape(example.name), underline)
    setting = []
    if example.players is not None:
        setting.append(f"{example.players} joueurs")
    if example.configuration is not None:
        setting.append(f"configuration « {rst_escape(example.configuration[0])} »")
    span = example.span
    where = f"``{span.file}``, ligne {span.line}"
    said = ", ".join(setting)
    lines += [(said[:1].upper() + said[1:] + " — " if setting else "") + where + ".", ""]
    lines += _narrated(book, example, sources)
    if outcome.passed:
        lines += [f"✔ Vérifié à la construction de ce livre ({outcome.checked} attente(s) tenue(s)).", ""]
    else:
        said = [f"{f.span} : attendu {f.expected} ; obtenu {f.actual}" for f in outcome.failures]
        said += [f"indécis : {u}" for u in outcome.undecided]
        lines += rst.directive("warning", "", None, ["Cet exemple ne tient pas avec ces règles :", "",
                                                     *rst.bullets([rst_escape(s) for s in said])])
        for text in said:
            book.problems.append((f"example \"{example.name}\" does not hold: {text}", example.span))
    return lines


def _narrated(book: Book, example: ex.ExampleDecl, sources=None) -> list[str]:
    """The example's body, cut at each `cite`: the quotation in the book's words, then the lines up to the next
    (``sources``: where the example's file is read, the book's own by default)."""
    sources = sources or book.result.sources
    span = example.span
    cited = {}
    for cite in example.cites:
        cited[cite.span.line] = cite
    skip = {n for c in example.cites for n in range(c.span.line, c.span.end_line + 1)}
    out: list[str] = []
    block: list[str] = []
    start = span.line + 1

    def flush(first: int) -> None:
        while block and not block[-1].strip():
            block.pop()
        if any(line.strip() for line in block):
            out.extend(rst.directive("code-block", "rulebook", {"lineno-start": first}, _dedent(block)))
            out.append("")
        block.clear()

    for number in range(span.line + 1, span.end_line):
        if number in cited:
            flush(start)
            out.extend([f"   {book.quote(cited[number])}", ""])
        if number in skip:
            start = number + 1
            continue
        line = sources.line(span.file, number) or ""
        if not block and not line.strip():
            start = number + 1
            continue
        block.append(line)
    flush(start)
    return out


def _dedent(lines: list[str]) -> list[str]:
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[margin:] for line in lines]


# ---------------------------------------------------------------- the player's book

def render_player_example(book: Book, name: str) -> str:
    """An example on a page of the player's book (``.. rb:auto:: player-example NAME``): the rulebook's own
    sentences it cites, step by step, in the book's words — no line of the spec — and a word on whether the
    rules played it as told when the book was built (one that does not hold is a build warning).  An example the
    book's overlays set aside (a configuration or card they remove) is left out."""
    from checker.examples.run import run_examples
    example = book.program.examples.get(name)
    if example is None:
        raise KeyError(f"example \"{name}\"")
    if name in book.result.typed.inapplicable:     # overlays changed what it names: the page goes without it
        return ""
    [outcome] = run_examples(book.result, [name])
    steps = [book.shown(c) for c in example.cites]
    content = [f"{i}. « {text} »" for i, text in enumerate(steps, 1)] + [""]
    if outcome.passed:
        content += ["Cet exemple est rejoué par le moteur de règles à chaque construction de ce livre, étape par "
                    "étape : ce qui s'y passe est à chaque fois ce que dit le texte.", ""]
    else:
        content += ["Les règles de ce livre ne jouent pas cet exemple comme le texte le raconte : voyez la référence "
                    "du concepteur (page « Exemples »).", ""]
        for f in outcome.failures:
            book.problems.append((f"example \"{name}\" does not hold: {f.span}: expected {f.expected}; "
                                  f"got {f.actual}", example.span))
        for u in outcome.undecided:
            book.problems.append((f"example \"{name}\" is undecided: {u}", example.span))
    title = rst_escape(name) if name.lower().startswith("exemple") else f"Exemple : {rst_escape(name)}"
    return "\n".join(rst.directive("admonition", title, None, content))


# ---------------------------------------------------------------- the house rules' tutorial

def house_rule_files(book: Book, folder: str) -> list:
    """The house-rule files of ``folder``, a directory beside the book's base spec (``maison``: spec/maison)."""
    directory = book.spec_paths[0].parent / folder
    return sorted(directory.glob("*.rules"))


def render_house_rules(book: Book, folder: str) -> str:
    """``.. rb:auto:: house-rules FOLDER``: each house-rule file of the tutorial — what its opening comment
    teaches, then its examples, run on the base spec with that file as ``rulebook test`` runs them."""
    from checker.examples.run import run_examples
    lines = rst.title("Règles maison : le tutoriel")
    files = house_rule_files(book, folder)
    if not files:
        return "\n".join(lines + [f"Aucun fichier de règles maison dans ``{rst_escape(folder)}``.", ""])
    lines += ["Chaque fichier du tutoriel ajoute une règle maison au jeu de base et montre une construction du "
              "langage ; ses exemples disent ce que la règle doit faire, et sont joués à chaque construction de ce "
              "livre avec le jeu de base et ce fichier, comme ``rulebook test`` les joue.", ""]
    for path in files:
        result = book.check([book.spec_paths[0], path])      # the tutorial is written for the base game
        header = result.program.overlays[-1].name if result.program.overlays else path.stem
        lines += rst.title(rst_escape(header), "-")
        lines += [f"Fichier ``{path.parent.name}/{path.name}``.", ""] + _opening(path)
        if not result.ok:
            lines += ["Ce fichier contient des erreurs : ``rulebook check`` les montre.", ""]
            book.problems.append((f"house-rule file {path} has errors", None))
            continue
        own = [e for e in result.program.examples.values() if Path(e.span.file).resolve() == path.resolve()]
        if not own:
            lines += ["Ce fichier ne donne pas encore d'exemple.", ""]
            continue
        outcomes = {o.name: o for o in run_examples(result, [e.name for e in own])}
        for example in own:
            lines += _example(book, example, outcomes[example.name], result.sources, "~")
    return "\n".join(lines)


def _opening(path) -> list[str]:
    """A file's opening comment as reST: its paragraphs (`code` as literals), and its indented lines as a block
    (command lines, shown as typed in a console, or lines of the language)."""
    comment = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        comment.append(line[2:] if line.startswith("# ") else line[1:])
    out: list[str] = []
    paragraph: list[str] = []
    block: list[str] = []

    def flush() -> None:
        if paragraph:
            out.extend([_inline(" ".join(paragraph)), ""])
            paragraph.clear()
        if block:
            console = all(x.startswith("rulebook ") for x in block)
            out.extend(rst.directive("code-block", "console" if console else "rulebook", None,
                                     [("$ " if console else "") + x for x in block]))
            block.clear()
    for line in comment:
        if line.startswith("  ") and line.strip():
            if paragraph:
                flush()
            block.append(line.strip())
        elif not line.strip():
            flush()
        else:
            if block:
                flush()
            paragraph.append(line.strip())
    flush()
    return out


def _inline(text: str) -> str:
    """A comment's sentence as reST: what it writes between backquotes is code, shown as a literal."""
    parts = text.split("`")
    if len(parts) % 2 == 0:                 # an unpaired backquote: all plain text
        return rst_escape(text)
    return "".join(f"``{part}``" if i % 2 else rst_escape(part) for i, part in enumerate(parts))
