"""Small helpers that write reST text: directives, titles, lists, tables."""

from __future__ import annotations

from checker.prose import Step, capitalize, cites_of, flatten_steps

__all__ = ["directive", "title", "steps", "bullets", "list_table", "indent", "cites_of"]


def indent(lines: list[str], width: int = 3) -> list[str]:
    pad = " " * width
    return [pad + line if line else "" for line in lines]


def directive(name: str, argument: str = "", options: dict | None = None, content: list[str] = ()) -> list[str]:
    """``.. name:: argument`` with its options and indented content, and a blank line after."""
    lines = [f".. {name}::" + (f" {argument}" if argument else "")]
    for key, value in (options or {}).items():
        if value is None or value is False:
            continue
        lines.append(f"   :{key}:" if value is True else f"   :{key}: {value}")
    content = list(content)
    if content:
        lines.append("")
        lines.extend(indent(content))
    lines.append("")
    return lines


def title(text: str, char: str = "=") -> list[str]:
    """A section title; one that starts like a bullet (« • 12 pièces ») is escaped, so it stays a title."""
    if text[:1] in "•‣-*+" and text[1:2] == " ":
        text = "\\" + text
    return [text, char * max(len(text), 3), ""]


def steps(items: list[Step], decision_ref, numbered: bool = True) -> list[str]:
    """Steps as a (numbered) list; nested steps as bullets under their step."""
    lines: list[str] = []
    marker = "#. " if numbered else "- "
    for step in flatten_steps(items):
        text = step.text
        if step.decisions:
            text += " (" + ", ".join(decision_ref(d) for d in dict.fromkeys(step.decisions)) + ")"
        lines.append(marker + text)
        if step.children:
            lines.append("")
            lines.extend(indent(steps(step.children, decision_ref, numbered=False), len(marker)))
        lines.append("")
    return lines


def bullets(items: list[str]) -> list[str]:
    lines = []
    for item in items:
        lines.append(f"- {item}")
    return lines + [""] if lines else []


def list_table(header: list[str], rows: list[list[str]], widths: str | None = None, css: str | None = None
               ) -> list[str]:
    """A ``list-table``; cells are reST inline text."""
    content: list[str] = []
    for row in [header, *rows]:
        first = True
        for cell in row:
            prefix = "* - " if first else "  - "
            paragraphs = [p.strip() for p in (cell or "\u00a0").split("\n")]
            content.append(prefix + paragraphs[0])
            for more in paragraphs[1:]:
                content += ["", "    " + more]
            first = False
    options = {"header-rows": 1, "widths": widths, "class": css}
    return directive("list-table", "", options, content)


def sentence(text: str) -> str:
    text = capitalize(text.strip())
    return text if text.endswith((".", "!", "?", ":")) else text + "."
