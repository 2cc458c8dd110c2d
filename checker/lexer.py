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

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

__all__ = ["RulebookLexer", "DECLARATIONS", "STATEMENTS", "CONSTANTS", "AGGREGATES", "BUILTINS"]

# Words that start a declaration, a power clause or a rule head.
DECLARATIONS = (
    "game", "source", "enum", "kind", "counter", "var", "zone", "window", "action", "quantity", "table", "card",
    "rule", "precedence", "constraint", "decision", "procedure", "configuration", "overlay", "remove", "replace",
    "rename",
    "power", "permit", "forbid", "value", "adjust", "require", "requires", "overrides", "refines", "cite",
)
# The other reserved words: statements, options, operators spelt as words.
STATEMENTS = (
    "let", "set", "choose", "subset", "size", "if", "then", "else", "for", "repeat", "until", "transfer", "up",
    "to", "from", "reset", "move", "draw", "shuffle", "reveal", "do", "call", "signal", "offer", "end", "turn",
    "stop", "log", "when", "limit", "once", "per", "round", "unlimited", "mandatory", "by", "over", "include",
    "with", "where", "secretly", "optionally", "at", "random", "top", "bottom", "of", "pile", "powers", "finish",
    "in", "not", "and", "or", "can", "on", "case", "message", "public", "hidden", "secret",
)
CONSTANTS = ("true", "false", "none")
AGGREGATES = ("count", "sum", "any", "all", "the", "only", "max", "min", "argmax", "argmin", "filter")
BUILTINS = ("this", "me", "players", "player_count", "left", "right", "seats_from", "selected", "least",
            "greatest", "half")
TYPES = ("Int", "Bool", "Text", "Player")

_NAME = r"[^\W\d]\w*"
_NAMED = ("rule", "procedure", "action", "quantity", "window", "table", "power", "decision", "constraint",
          "counter", "var", "zone", "source")


class RulebookLexer(RegexLexer):
    """The Rulebook rules language: declarations, powers, rules and procedures."""

    name = "Rulebook"
    aliases = ["rulebook", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulebook"]
    url = "https://example.invalid/rulebook"  # no public home yet; Pygments wants the attribute
    version_added = ""

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"(cite)(\s+)(" + _NAME + r")(\s+)(?=\")", bygroups(Keyword.Declaration, Whitespace, Name.Label,
                                                                  Whitespace)),
            (r"(" + "|".join(_NAMED) + r")(\s+)(" + _NAME + r")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(card)(\s+)(" + _NAME + r")", bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"(kind|enum)(\s+)(" + _NAME + r")", bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r'"(?:[^"\\\n]|\\.)*"', String),
            (r'"[^\n]*', String),                      # an unterminated string: still a string
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(AGGREGATES, suffix=r"\b(?=\s*\()"), Name.Builtin),
            (words(BUILTINS, suffix=r"\b"), Name.Builtin),
            (words(STATEMENTS, suffix=r"\b"), Keyword),
            (r"\d+", Number.Integer),
            (r"\.\.|==|!=|<=|>=|->|[-+*/%<>=?]", Operator),
            (r"[{}()\[\],.:]", Punctuation),
            (_NAME, Name),
            (r".", Text),
        ],
    }
