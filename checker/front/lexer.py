"""A Pygments lexer for the Rulebook rules language (``.rules`` files).

Registered as the ``rulebook`` lexer through the ``pygments.lexers`` entry point
(pyproject.toml), so ``pygmentize -l rulebook`` and Sphinx code blocks find it.
It never yields an error token: anything it does not know is plain text.

>>> from pygments.token import Keyword, Name
>>> tokens = list(RulebookLexer().get_tokens('rule r { forbid bâtir(p, d) }'))
>>> tokens[0], tokens[2]
((Token.Keyword.Declaration, 'rule'), (Token.Name.Function, 'r'))
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

__all__ = ["RulebookLexer", "RULES", "SCOPES", "textmate_grammar", "DECLARATIONS", "STATEMENTS", "CONSTANTS",
           "AGGREGATES", "BUILTINS"]

# Words that start a declaration, a power clause or a rule head.
DECLARATIONS = (
    "game", "source", "enum", "grid", "record", "kind", "counter", "var", "zone", "window", "action", "quantity",
    "table", "card",
    "rule", "precedence", "constraint", "invariant", "decision", "procedure", "configuration", "overlay", "remove", "replace",
    "extend", "before", "rename", "tag", "example", "trigger",
    "power", "permit", "forbid", "value", "adjust", "require", "requires", "overrides", "refines", "cite",
)
# The other reserved words: statements, options, operators spelt as words.
STATEMENTS = (
    "let", "set", "choose", "subset", "size", "if", "then", "else", "for", "repeat", "until", "transfer", "up",
    "to", "from", "reset", "move", "draw", "shuffle", "reveal", "do", "call", "signal", "offer", "end", "turn",
    "stop", "cancel", "log", "when", "limit", "once", "per", "round", "unlimited", "mandatory", "by", "over", "include",
    "with", "where", "secretly", "optionally", "at", "random", "top", "bottom", "of", "pile", "powers", "finish",
    "in", "is", "not", "and", "or", "can", "on", "case", "message", "public", "hidden", "secret", "directions", "via",
    "hook", "after", "add", "as", "tagged", "expect", "retarget", "swap", "each", "chooses", "into",
    "install",
)
CONSTANTS = ("true", "false", "none")
AGGREGATES = ("count", "sum", "any", "all", "the", "only", "max", "min", "argmax", "argmin", "filter", "union",
              "collect", "connected", "path")
BUILTINS = ("this", "me", "players", "player_count", "left", "right", "seats_from", "seats_counterclockwise_from",
            "selected", "least", "greatest", "half", "step", "row", "column", "center", "rotate", "Joueur")
TYPES = ("Int", "Bool", "Text", "Player")

_NAME = r"[^\W\d]\w*"
_NAMED = ("rule", "procedure", "action", "quantity", "window", "table", "power", "decision", "constraint", "invariant",
          "counter", "var", "zone", "source")


def _words(items: tuple[str, ...], suffix: str = r"\b") -> str:
    """One alternation of words, longest first (what Pygments' ``words`` matches, readable by any engine)."""
    return "(?:" + "|".join(sorted(items, key=lambda w: (-len(w), w))) + ")" + suffix


def _grouped(token) -> bool:
    """A rule's token is one per group when it is a plain tuple (a token type is a tuple too)."""
    return type(token) is tuple


# The rules of the lexer, in order: (regex, token) or (regex, one token per group).  The Pygments
# lexer below and the TextMate grammar of the VS Code extension (``textmate_grammar``) are both
# built from this table, so an editor colours a spec as the book does.
RULES: tuple[tuple[str, object], ...] = (
    (r"\s+", Whitespace),
    (r"#[^\n]*", Comment.Single),
    (r"(cite)(\s+)(" + _NAME + r")(\s+)(?=\")", (Keyword.Declaration, Whitespace, Name.Label, Whitespace)),
    (r"(" + "|".join(_NAMED) + r")(\s+)(" + _NAME + r")", (Keyword.Declaration, Whitespace, Name.Function)),
    (r"(card)(\s+)(" + _NAME + r")", (Keyword.Declaration, Whitespace, Name.Class)),
    (r"(kind|enum|grid|record)(\s+)(" + _NAME + r")", (Keyword.Declaration, Whitespace, Name.Class)),
    (r'"(?:[^"\\\n]|\\.)*"', String),
    (r'"[^\n]*', String),                      # an unterminated string: still a string
    (_words(DECLARATIONS), Keyword.Declaration),
    (_words(CONSTANTS), Keyword.Constant),
    (_words(TYPES), Keyword.Type),
    (_words(AGGREGATES, r"\b(?=\s*\()"), Name.Builtin),
    (_words(BUILTINS), Name.Builtin),
    (_words(STATEMENTS), Keyword),
    (r"\d+", Number.Integer),
    (r"\.\.|==|!=|<=|>=|->|[-+*/%<>=?]", Operator),
    (r"[{}()\[\],.:]", Punctuation),
    (_NAME, Name),
    (r".", Text),
)


class RulebookLexer(RegexLexer):
    """The Rulebook rules language: declarations, powers, rules and procedures."""

    name = "Rulebook"
    aliases = ["rulebook", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulebook"]
    url = "https://example.invalid/rulebook"  # no public home yet; Pygments wants the attribute
    version_added = ""

    tokens = {"root": [(regex, bygroups(*token) if _grouped(token) else token) for regex, token in RULES]}


# ---------------------------------------------------------------- the TextMate grammar

# The TextMate scope of each token class (None: left unscoped, as editors show plain text).
SCOPES = {
    Comment.Single: "comment.line.number-sign.rules",
    Keyword.Declaration: "storage.type.declaration.rules",
    Keyword.Constant: "constant.language.rules",
    Keyword.Type: "support.type.primitive.rules",
    Keyword: "keyword.control.rules",
    Name.Function: "entity.name.function.rules",
    Name.Class: "entity.name.type.class.rules",
    Name.Label: "entity.name.label.rules",
    Name.Builtin: "support.function.builtin.rules",
    Name: "variable.other.rules",
    String: "string.quoted.double.rules",
    Number.Integer: "constant.numeric.integer.rules",
    Operator: "keyword.operator.rules",
    Punctuation: "punctuation.rules",
    Whitespace: None,
    Text: None,
}


def textmate_grammar() -> dict:
    """The TextMate grammar of ``.rules`` files (``editors/vscode/syntaxes/rules.tmLanguage.json``).

    One ``match`` pattern per rule of :data:`RULES`, in the same order, with the same regex:
    TextMate takes, at each point, the pattern that matches earliest (the first on a tie), which
    is what the Pygments lexer does, rule by rule, at the same point.

    >>> grammar = textmate_grammar()
    >>> grammar["scopeName"], grammar["patterns"][0]["name"]
    ('source.rules', 'comment.line.number-sign.rules')
    """
    patterns = []
    for regex, token in RULES:
        if _grouped(token):
            captures = {str(i): {"name": SCOPES[t]} for i, t in enumerate(token, start=1) if SCOPES[t]}
            patterns.append({"match": regex, "captures": captures})
        elif SCOPES[token] is not None:
            patterns.append({"match": regex, "name": SCOPES[token]})
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Rulebook",
        "scopeName": "source.rules",
        "fileTypes": ["rules"],
        "comment": "Generated from checker/front/lexer.py (RULES) by textmate_grammar(); do not edit by hand.",
        "patterns": patterns,
    }
