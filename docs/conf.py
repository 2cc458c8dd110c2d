"""Sphinx configuration: the Citadelles rulebook, generated from the checked spec.

Build it (from the repository root):  python -m sphinx -W -b html docs docs/_build/html
The same book with the fan expansion's cards and rules (tag ``fan``):
                                      python -m sphinx -W -t fan -b html docs docs/_build/fan
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # the checker, without installing it

project = "Citadelles — le livre de règles"
author = "Rulebook"
language = "fr"
extensions = ["checker.sphinxext", "myst_parser"]

# The spec the book is made from: the base spec, then any house-rule files or overlays
# (paths relative to this file).  A file added here gets its pages on the next build.
rulebook_spec = ["../spec/citadelles"]
rulebook_lexicon = "lexique.toml"
# Results of `rulebook simulate --json` (paths relative to this file): one balance page each.  The
# build plays no game; rerun the command a page shows when the rules change.
rulebook_simulations = ["simulations/premiere-partie-4-joueurs.json"]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_screenshots", "README.md", "carcassonne"]    # carcassonne/: a book of its own
highlight_language = "rulebook"
pygments_style = "friendly"
nitpicky = True
smartquotes = False        # the rulebook's own apostrophes and « guillemets » are kept as written
suppress_warnings = ["myst.header"]
myst_heading_anchors = 2

html_title = "Citadelles — le livre de règles"
# Sphinx gives conf.py its build tags; a script that reads this file for its settings gives none
_fan = "tags" in globals() and tags.has("fan")  # noqa: F821
if _fan:
    # the fan expansion on top of the 4th edition: every page, its cards and its rules included; the
    # editions compare with the 4th edition alone, so they are left out (the balance pages say that
    # their games were played with other rules)
    rulebook_spec = ["../spec/citadelles", "../spec/extension-fan"]
    project = html_title = "Citadelles et l'extension inofficielle de Chrim's — le livre de règles"

html_theme = "furo"
html_short_title = "Citadelles"
html_static_path = ["_static"]
html_css_files = ["rulebook.css"]
html_last_updated_fmt = None
html_show_copyright = False
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": True,
    "light_css_variables": {"color-brand-primary": "#7a3b12", "color-brand-content": "#8a4a17"},
    "dark_css_variables": {"color-brand-primary": "#e7a86a", "color-brand-content": "#e7a86a"},
}

# Other editions and variants (checker/sphinxext/editions.py): each one's rule set is the spec above
# plus these paths; a page per entry compares it with the 4th edition (and a variant with its edition).
# The comparisons are kept in docs/_diff/*.json, recomputed when the rules they compare change; one computed
# by an older checker on the same rules is kept (RULEBOOK_DIFF_REFRESH=1 or rulebook_diff_refresh = True
# recomputes it).  The conflict page's findings are kept the same way, in docs/_conflicts/*.json
# (checker/sphinxext/kept.py; `python bench/refresh_comparisons.py` recomputes every kept result without a build).
rulebook_editions = {
    "jeu-de-base": {"paths": ["../spec/éditions/jeu-de-base"]},
    "partie-rapide-7": {"paths": ["../spec/éditions/jeu-de-base", "../spec/variantes/jeu-de-base/partie-rapide-7.rules"],
                        "parent": "jeu-de-base"},
    "partie-rapide-6": {"paths": ["../spec/éditions/jeu-de-base", "../spec/variantes/jeu-de-base/partie-rapide-6.rules"],
                        "parent": "jeu-de-base"},
    "roi-assassine-garde-la-couronne": {"paths": ["../spec/éditions/jeu-de-base",
                                                  "../spec/variantes/jeu-de-base/roi-assassiné-garde-la-couronne.rules"],
                                        "parent": "jeu-de-base"},
    "pioche-amelioree": {"paths": ["../spec/éditions/jeu-de-base", "../spec/variantes/jeu-de-base/pioche-améliorée.rules"],
                         "parent": "jeu-de-base"},
    "peste": {"paths": ["../spec/éditions/jeu-de-base", "../spec/variantes/jeu-de-base/peste.rules"],
              "parent": "jeu-de-base"},
    "premiere-edition": {"paths": ["../spec/éditions/première-édition"]},
    "partie-raccourcie": {"paths": ["../spec/éditions/première-édition",
                                    "../spec/variantes/première-édition/partie-raccourcie.rules"],
                          "parent": "premiere-edition"},
    "extension-fan": {"paths": ["../spec/extension-fan"]},
}
if _fan:
    rulebook_editions = {}
