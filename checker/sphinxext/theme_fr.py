"""The theme's own words in French.

Sphinx translates what its templates pass through gettext (``language = "fr"``), but Furo writes
some labels in English in its templates (« Back to top », « Skip to content », the labels of its
buttons, « Made with »).  When the book's language is French, each rendered HTML page has those
labels replaced; a label a newer Furo no longer writes is simply not found.
"""

from __future__ import annotations

import re

__all__ = ["FRENCH", "frenchify", "install"]

FRENCH: tuple[tuple[str, str], ...] = (
    ("<title>Contents</title>", "<title>Sommaire</title>"),
    ("<title>Expand</title>", "<title>Déplier</title>"),
    ("<title>Light mode</title>", "<title>Thème clair</title>"),
    ("<title>Dark mode</title>", "<title>Thème sombre</title>"),
    ("<title>Auto light/dark, in light mode</title>", "<title>Thème du système (clair)</title>"),
    ("<title>Auto light/dark, in dark mode</title>", "<title>Thème du système (sombre)</title>"),
    ('aria-label="Toggle site navigation sidebar"', 'aria-label="Afficher ou masquer la navigation"'),
    ('aria-label="Toggle table of contents sidebar"', 'aria-label="Afficher ou masquer le sommaire"'),
    ('aria-label="Toggle Light / Dark / Auto color theme"', 'aria-label="Thème clair, sombre ou du système"'),
    ('aria-label="Toggle navigation of ', 'aria-label="Déplier ou replier '),
    (">Skip to content<", ">Aller au contenu<"),
    ("<span>Back to top</span>", "<span>Haut de page</span>"),
    ("<span>Next</span>", "<span>Suivant</span>"),
    ("<span>Previous</span>", "<span>Précédent</span>"),
    ('placeholder="Recherche"', 'placeholder="Rechercher"'),
    ('aria-label="Recherche"', 'aria-label="Rechercher"'),
    ("Please activate JavaScript to enable the search functionality.",
     "Activez JavaScript pour pouvoir rechercher dans le livre."),
)
_PATTERNS = (
    (re.compile(r"(>\s*)On this page(\s*<)"), r"\1Sur cette page\2"),
    (re.compile(r"Made with (<a [^>]*>Sphinx</a>) and (<a [^>]*>@pradyunsg</a>)'s\s*(<a [^>]*>Furo</a>)"),
     r"Fait avec \1 et le thème \3 de \2"),
)


def frenchify(html: str) -> str:
    """A rendered page with the theme's English labels in French."""
    for english, french in FRENCH:
        html = html.replace(english, french)
    for pattern, french in _PATTERNS:
        html = pattern.sub(french, html)
    return html


def install(app) -> None:
    """builder-inited: French pages get their theme's labels in French."""
    templates = getattr(app.builder, "templates", None)
    if not str(app.config.language or "").startswith("fr") or templates is None:
        return
    render = templates.render
    templates.render = lambda template, context: frenchify(render(template, context))
