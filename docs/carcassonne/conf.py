"""Sphinx configuration: the Carcassonne Die Stadt rulebook, generated from the checked spec.

A second book, beside the Citadelles one (docs/): the same extension, another spec and lexicon.
Build it (from the repository root):  python -m sphinx -W -b html docs/carcassonne docs/carcassonne/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the checker, without installing it

project = "Carcassonne Die Stadt — le livre de règles"
author = "Rulebook"
language = "fr"
extensions = ["checker.sphinxext"]

rulebook_spec = ["../../spec/carcassonne"]
rulebook_lexicon = "lexique.toml"

root_doc = "index"
exclude_patterns = ["_build"]
highlight_language = "rulebook"
pygments_style = "friendly"
nitpicky = True
smartquotes = False

html_theme = "furo"
html_title = "Carcassonne Die Stadt — le livre de règles"
html_short_title = "Carcassonne Die Stadt"
html_static_path = ["../_static"]
html_css_files = ["rulebook.css"]
html_last_updated_fmt = None
html_show_copyright = False
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": True,
    "light_css_variables": {"color-brand-primary": "#6b4a1f", "color-brand-content": "#7a5a26"},
    "dark_css_variables": {"color-brand-primary": "#e0b66a", "color-brand-content": "#e0b66a"},
}
