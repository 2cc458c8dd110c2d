"""The page of worked examples: each `example` of the spec as the rulebook teaches it — the sentence it
illustrates, then the lines that set the situation up, play the moves and state what must happen — and
whether it held when this book was built.

The examples are run (:func:`checker.examples.run.run_examples`, what `rulebook test` runs) while the page
is made: a page never shows an example the rules do not satisfy without saying so, and the build warns
(``book.problems``) for each one that fails or is undecided, so a book built with warnings as errors cannot
be published with a broken example.
"""

from __future__ import annotations

from checker.front import example_ast as ex
from checker.prose import rst_escape
from checker.sphinxext import rst
from checker.sphinxext.book import Book

__all__ = ["render_examples"]


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


def _example(book: Book, example: ex.ExampleDecl, outcome) -> list[str]:
    lines = rst.title(rst_escape(example.name), "-")
    setting = []
    if example.players is not None:
        setting.append(f"{example.players} joueurs")
    if example.configuration is not None:
        setting.append(f"configuration « {rst_escape(example.configuration[0])} »")
    span = example.span
    where = f"``{span.file}``, ligne {span.line}"
    said = ", ".join(setting)
    lines += [(said[:1].upper() + said[1:] + " — " if setting else "") + where + ".", ""]
    lines += _narrated(book, example)
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


def _narrated(book: Book, example: ex.ExampleDecl) -> list[str]:
    """The example's body, cut at each `cite`: the quotation in the book's words, then the lines up to the next."""
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
        line = book.result.sources.line(span.file, number) or ""
        if not block and not line.strip():
            start = number + 1
            continue
        block.append(line)
    flush(start)
    return out


def _dedent(lines: list[str]) -> list[str]:
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[margin:] for line in lines]
