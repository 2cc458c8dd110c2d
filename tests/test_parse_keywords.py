"""The reserved words are read from the grammar's text (no parser built for them): they must be the parser's."""

from checker.front import parse


def test_the_keywords_read_from_the_grammar_are_the_parsers_string_terminals():
    words = parse.keywords()
    assert words == parse.parser_keyword_names()
    assert {"invariant", "require", "forbid", "permit", "precedence"} <= words
    assert "NAME" not in words and "//" not in "".join(words)
