"""Flow diagrams of a procedure, drawn as SVG from the spec's own statements (no Graphviz, no network).

``.. rb:auto:: diagram NAME [DEPTH]`` draws procedure ``NAME``: one box per step (its sentence from
the prose generator, without the bookkeeping the player's book leaves out), the procedure's precondition
(« Seulement si … ») in a box at its entry, a diamond-headed fork
for each ``if`` with its branches side by side, meeting again under the taller one, a dashed frame for
each loop, and each ``call`` of a procedure opened as a frame of that procedure's own steps, DEPTH
levels deep (1 by default).  A procedure whose first such fork tests the number of players alone is
drawn once per count it distinguishes (« 2 joueurs », « 3 joueurs », « 4 à 8 joueurs »), each branch
in place of the fork.  The SVG is written inline in the page, so the HTML build needs nothing but Sphinx.
"""

from __future__ import annotations

import dataclasses
import re
from html import escape

from checker.front import ast
from checker.front.configurations import ConfigEvalError, Selection, evaluate, game_player_counts, spans_of_counts
from checker.prose import capitalize, humanize
from checker.prose.exprs import uses
from checker.prose.names import number_noun
from checker.sphinxext import rst
from checker.sphinxext.book import Book
from checker.sphinxext.headings import procedure_heading
from checker.sphinxext.render import plain_body, precondition, procedure_ctx, unlinked
from checker.front.types import INT, Coll

__all__ = ["render_diagram", "diagram_svg", "players_variants", "Box"]

CHAR_W, LINE_H, PAD, GAP, WIDTH, MAX_DEPTH = 6.4, 16, 8, 18, 250, 3
# the page's content column: a fork whose branches do not fit side by side in it draws them one under the
# other (« oui » first), between margins where the flow that skips a branch runs
MAX_WIDTH, MARGIN = 700, 22


@dataclasses.dataclass
class Box:
    """One node of the drawing: a step (``step``), a procedure's precondition at its entry (``entry``), a fork
    (``if``), a loop or an opened call (``frame``)."""
    kind: str
    text: str
    children: list["Box"] = dataclasses.field(default_factory=list)    # a frame's steps
    branches: list[list["Box"]] = dataclasses.field(default_factory=list)   # a fork's: then, else
    items: list[str] = dataclasses.field(default_factory=list)      # a step's list (the choices offered)

    def lines(self, width: float) -> list[str]:
        """The box's text wrapped to its width, then its items as bullets."""
        bold = 0.8 if self.kind == "frame" else 1       # a frame's title is bold, hence wider
        out = _wrap(self.text, (width - 2 * PAD) * bold)
        for item in self.items:
            out += _wrap("• " + item, width - 2 * PAD)
        return out


def plain_text(text: str) -> str:
    """A sentence of the book without its reST markup: roles, emphasis, « (détail) » links."""
    text = unlinked(text)
    text = re.sub(r":rb:\w+:`(?:[^`<]*<)?([^`>]*)>?`", r"\1", text)
    return text.replace("**", "").replace("*", "").replace("\\", "")


def _header(book: Book, s, ctx) -> str:
    step = book.prose.steps((s,), ctx)
    return plain_text(step[0].text) if step else ""


def _loop_ctx(book: Book, s: ast.For, ctx):
    """The context inside a loop, as the prose generator binds its variable."""
    if isinstance(s.coll, ast.Binary) and s.coll.op == "..":
        return ctx.bind(s.var, INT, "intro", noun=number_noun(book.prose, s.var, s.body))
    ty = book.prose.type_of(s.coll)
    return ctx.bind(s.var, ty.elem if isinstance(ty, Coll) else ty, "intro", noun=book.prose.element_noun(s.coll))


def entry(book: Book, proc: ast.ProcedureDecl, ctx, counts: list[int] | None = None) -> list[Box]:
    """The box at a procedure's entry that says its precondition, worded as the player's book words it
    (« Seulement si … »); none when it has none, or a trivially true one.  In a figure drawn for some player
    counts (``counts``), the parts of the precondition that read the number of players alone and hold at each of
    them go without saying: the figure's heading says them."""
    if precondition(proc) is None:
        return []
    said = [c for c in _conjuncts(proc.requires) if not _holds_at(book, c, counts)]
    if not said:
        return []
    cond = said[0]
    for other in said[1:]:
        cond = ast.Binary("and", cond, other, cond.span)
    return [Box("entry", plain_text(rst.sentence(f"Seulement si {book.prose.cond(cond, ctx)}")))]


def _conjuncts(cond: ast.Expr) -> list[ast.Expr]:
    if isinstance(cond, ast.Binary) and cond.op == "and":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _holds_at(book: Book, cond: ast.Expr, counts: list[int] | None) -> bool:
    """Does ``cond`` read the number of players alone and hold at each of ``counts``?"""
    if not counts or not uses(cond, "player_count"):
        return False
    try:
        return all(evaluate(cond, book.program, Selection(n, {}), {}) is True for n in counts)
    except (ConfigEvalError, KeyError, TypeError):
        return False


def boxes(book: Book, body, ctx, depth: int, counts: list[int] | None = None) -> list[Box]:
    """The drawing of a block: a box per step; forks, loops and opened calls as frames.

    Consecutive plain statements are told together, so a name a ``choose`` binds reads the same
    in the statements after it.  ``counts``: the player counts the figure is drawn for, if not all."""
    out: list[Box] = []
    run: list = []

    def flush() -> None:
        for step in book.prose.steps(tuple(run), ctx):
            if not step.text.strip():
                continue
            out.append(Box("step", plain_text(step.text), items=[plain_text(c.text) for c in step.children]))
        run.clear()

    for s in plain_body(body):
        opened = isinstance(s, ast.CallProc) and depth > 0 and s.name in book.program.procedures
        if not isinstance(s, (ast.If, ast.For, ast.Repeat)) and not opened:
            run.append(s)
            if isinstance(s, ast.Let):      # the name reads the same in the boxes after this one
                ctx = ctx.bind(s.name, book.prose.type_of(s.value), "named")
            continue
        flush()
        if isinstance(s, ast.If):
            cond = book.prose.cond(s.cond, ctx)
            branches = [boxes(book, b, ctx, depth, counts) or [Box("step", "Rien ne se passe.")] for b in (s.then, s.else_)]
            out.append(Box("if", capitalize(plain_text(cond)) + " ?", branches=branches))
        elif isinstance(s, (ast.For, ast.Repeat)):
            inner = _loop_ctx(book, s, ctx) if isinstance(s, ast.For) else ctx
            told = book.prose.steps((s,), ctx)
            if told and not told[0].children:       # a loop of one step reads as one sentence
                out.append(Box("step", plain_text(told[0].text)))
            elif told:
                out.append(Box("frame", plain_text(told[0].text), boxes(book, s.body, inner, depth, counts)))
        else:
            proc = book.program.procedures[s.name]
            inner = procedure_ctx(book, proc)
            out.append(Box("frame", _header(book, s, ctx),
                           entry(book, proc, inner, counts) + boxes(book, proc.body, inner, depth - 1, counts)))
    flush()
    return out


def _wrap(text: str, width: float) -> list[str]:
    per_line = max(12, int(width / CHAR_W))
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _size(items: list[Box], width: float) -> float:
    """The height of a column of boxes drawn at this width."""
    return sum(_height(b, width) for b in items) + GAP * max(len(items) - 1, 0)


def _height(box: Box, width: float) -> float:
    text = len(box.lines(width)) * LINE_H + 2 * PAD
    if box.kind in ("step", "entry"):
        return text
    if box.kind == "frame":
        return text + _size(box.children, width - 2 * PAD) + PAD
    if _stacked(box, width):
        inner = width - 2 * MARGIN
        return text + sum(GAP + _size(b, inner) + GAP for b in box.branches) + 2 * GAP
    half = (width - GAP) / 2
    return text + GAP + max(_size(b, half) for b in box.branches) + GAP


def _need(items: list[Box], room: float) -> float:
    """The width a column of boxes needs when it may take up to ``room`` (more when it cannot fit)."""
    def need(box: Box) -> float:
        if box.kind == "frame":
            return _need(box.children, room - 2 * PAD) + 2 * PAD
        if box.kind == "if":
            side = 2 * max(_need(b, (room - GAP) / 2) for b in box.branches) + GAP
            if side <= room:
                return side
            return max(_need(b, room - 2 * MARGIN) for b in box.branches) + 2 * MARGIN
        return WIDTH
    return max([WIDTH, *(need(b) for b in items)])


def _stacked(box: Box, width: float) -> bool:
    """Are the branches of a fork drawn one under the other at this width (they do not fit side by side)?"""
    return 2 * max(_need(b, (width - GAP) / 2) for b in box.branches) + GAP > width


def _column_width(items: list[Box]) -> float:
    return _need(items, MAX_WIDTH)


def _text(out: list[str], lines: list[str], x: float, y: float, anchor: str = "middle", css: str = "") -> None:
    for i, line in enumerate(lines):
        out.append(f'<text x="{x:.0f}" y="{y + (i + 1) * LINE_H - 4:.0f}" text-anchor="{anchor}"{css}>'
                   f"{escape(line)}</text>")


def _arrow(out: list[str], x: float, y1: float, y2: float) -> None:
    out.append(f'<line class="rb-arrow" x1="{x:.0f}" y1="{y1:.0f}" x2="{x:.0f}" y2="{y2 - 1:.0f}" '
               'marker-end="url(#rb-head)"/>')


def _draw(out: list[str], items: list[Box], x: float, y: float, width: float) -> float:
    """Draws a column of boxes from (x, y); returns the y under the last one."""
    for i, box in enumerate(items):
        if i:
            _arrow(out, x + width / 2, y - GAP, y)
        lines = box.lines(width)
        h = _height(box, width)
        head = len(lines) * LINE_H + 2 * PAD
        if box.kind in ("step", "entry"):
            out.append(f'<rect class="rb-{box.kind}" x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{h:.0f}" '
                       f'rx="6"/>')
            _text(out, lines, x + width / 2 if not box.items else x + PAD, y + PAD,
                  "middle" if not box.items else "start")
        elif box.kind == "frame":
            out.append(f'<rect class="rb-frame" x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{h:.0f}" rx="8"/>')
            _text(out, lines, x + PAD, y + PAD, "start", ' class="rb-title"')
            _draw(out, box.children, x + PAD, y + head, width - 2 * PAD)
        else:
            cx = x + width / 2
            out.append(f'<polygon class="rb-fork" points="{x:.0f},{y + head / 2:.0f} {x + 12:.0f},{y:.0f} '
                       f'{x + width - 12:.0f},{y:.0f} {x + width:.0f},{y + head / 2:.0f} '
                       f'{x + width - 12:.0f},{y + head:.0f} {x + 12:.0f},{y + head:.0f}"/>')
            _text(out, lines, cx, y + PAD)
            if _stacked(box, width):
                _draw_stacked(out, box, x, y + head, width, y + h)
                y += h + GAP
                continue
            half = (width - GAP) / 2
            join = y + h                 # the branches meet here, and the next arrow leaves from the middle
            ends = []
            for j, (branch, label) in enumerate(zip(box.branches, ("oui", "non"))):
                bx = x + j * (half + GAP)
                _arrow(out, bx + half / 2, y + head, y + head + GAP)
                out.append(f'<text class="rb-label" x="{bx + half / 2 + 4:.0f}" y="{y + head + GAP - 5:.0f}">'
                           f"{label}</text>")
                bottom = _draw(out, branch, bx, y + head + GAP, half) if branch else y + head + GAP
                out.append(f'<line class="rb-join" x1="{bx + half / 2:.0f}" y1="{bottom:.0f}" '
                           f'x2="{bx + half / 2:.0f}" y2="{join:.0f}"/>')
                ends.append(bx + half / 2)
            out.append(f'<line class="rb-join" x1="{ends[0]:.0f}" y1="{join:.0f}" x2="{ends[-1]:.0f}" '
                       f'y2="{join:.0f}"/>')
        y += h + GAP
    return y - GAP


def _draw_stacked(out: list[str], box: Box, x: float, top: float, width: float, join: float) -> None:
    """A fork's branches one under the other: « oui » enters the first from the fork; « non » runs down
    the left margin to the second; the first's end runs down the right margin; both meet at ``join``."""
    inner, bx = width - 2 * MARGIN, x + MARGIN
    center, left, right = bx + inner / 2, x + MARGIN / 2, x + width - MARGIN / 2
    y = top
    ends = []
    for j, (branch, label) in enumerate(zip(box.branches, ("oui", "non"))):
        entry = y + GAP
        if j == 0:
            _arrow(out, center, y, entry)
            out.append(f'<text class="rb-label" x="{center + 4:.0f}" y="{entry - 5:.0f}">{label}</text>')
        else:
            out.append(f'<line class="rb-join" x1="{left:.0f}" y1="{top:.0f}" x2="{left:.0f}" y2="{entry:.0f}"/>')
            out.append(f'<line class="rb-join" x1="{left:.0f}" y1="{entry:.0f}" x2="{center:.0f}" '
                       f'y2="{entry:.0f}"/>')
            _arrow(out, center, entry, entry + GAP)
            out.append(f'<text class="rb-label" x="{left + 4:.0f}" y="{top + 12:.0f}">{label}</text>')
            entry += GAP
        bottom = _draw(out, branch, bx, entry, inner) if branch else entry
        ends.append((bottom, j))
        y = bottom + GAP
    (first_end, _), (second_end, _) = ends
    # the first branch's end goes round the second, by the right margin
    out.append(f'<line class="rb-join" x1="{center:.0f}" y1="{first_end:.0f}" x2="{center:.0f}" '
               f'y2="{first_end + GAP / 2:.0f}"/>')
    out.append(f'<line class="rb-join" x1="{center:.0f}" y1="{first_end + GAP / 2:.0f}" x2="{right:.0f}" '
               f'y2="{first_end + GAP / 2:.0f}"/>')
    out.append(f'<line class="rb-join" x1="{right:.0f}" y1="{first_end + GAP / 2:.0f}" x2="{right:.0f}" '
               f'y2="{join:.0f}"/>')
    out.append(f'<line class="rb-join" x1="{center:.0f}" y1="{second_end:.0f}" x2="{center:.0f}" '
               f'y2="{join:.0f}"/>')
    out.append(f'<line class="rb-join" x1="{center:.0f}" y1="{join:.0f}" x2="{right:.0f}" y2="{join:.0f}"/>')


def diagram_svg(items: list[Box], title: str) -> str:
    """The SVG of a column of boxes, with its title for screen readers."""
    width = _column_width(items)
    height = _size(items, width)
    out = [f'<svg class="rb-diagram" xmlns="http://www.w3.org/2000/svg" role="img" '
           f'viewBox="-2 -2 {width + 4:.0f} {height + 4:.0f}" width="{width + 4:.0f}">',
           f"<title>{escape(title)}</title>",
           '<defs><marker id="rb-head" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>']
    _draw(out, items, 0, 0, width)
    out.append("</svg>")
    return "\n".join(out)


def _chain(s: ast.If) -> list[tuple]:
    """An ``if … else if … else`` as (condition, block) pairs; the last ``else`` has condition None."""
    out = [(s.cond, s.then)]
    rest = s.else_
    while len(rest) == 1 and isinstance(rest[0], ast.If):
        out.append((rest[0].cond, rest[0].then))
        rest = rest[0].else_
    return out + [(None, rest)]


def _players_fork(book: Book, s: ast.If) -> list[tuple[list[int], tuple]] | None:
    """The player counts each branch of ``s`` is taken at, when its conditions read the number of
    players alone (each evaluated at every count the game allows); None for any other fork."""
    counts = game_player_counts(book.program)
    chain = _chain(s)
    if not counts or not all(cond is None or uses(cond, "player_count") for cond, _ in chain):
        return None
    taken: dict[int, list[int]] = {}
    for n in counts:
        for i, (cond, _) in enumerate(chain):
            try:
                if cond is None or evaluate(cond, book.program, Selection(n, {}), {}) is True:
                    taken.setdefault(i, []).append(n)
                    break
            except (ConfigEvalError, KeyError, TypeError):
                return None
    return [(taken[i], chain[i][1]) for i in sorted(taken)]


def players_variants(book: Book, body) -> list[tuple[str, tuple, list[int] | None]]:
    """A procedure drawn once per player count it distinguishes: (« 2 joueurs », the body with that
    branch in place of the fork, the counts) for each branch of its first fork on the number of players alone;
    the body alone, untitled, for every count, when it has none."""
    body = plain_body(body)
    for i, s in enumerate(body):
        if isinstance(s, ast.If) and (fork := _players_fork(book, s)) is not None and len(fork) > 1:
            return [(spans_of_counts(counts).replace("–", " à ") + " joueurs", (*body[:i], *branch, *body[i + 1:]),
                     counts) for counts, branch in fork]
    return [("", body, None)]


def render_diagram(book: Book, arg: str) -> str:
    """``diagram NAME [DEPTH]``: the figure of one procedure, as a raw HTML block; one figure per
    player count when the procedure forks on the number of players (each under its count)."""
    name, _, depth = arg.partition(" ")
    proc = book.program.procedures[name]
    depth_n = min(int(depth), MAX_DEPTH) if depth.strip().isdigit() else 1
    title = plain_text(procedure_heading(book, name))
    lines: list[str] = []
    ctx = procedure_ctx(book, proc)
    for count, body, counts in players_variants(book, proc.body):
        svg = diagram_svg(entry(book, proc, ctx, counts) + boxes(book, body, ctx, depth_n, counts),
                          f"{title} ({count})" if count else title)
        lines += rst.directive("rubric", capitalize(count)) if count else []
        lines += rst.directive("container", "rb-figure", None, rst.directive("raw", "html", None, svg.split("\n")))
    return "\n".join(lines)
