"""The ``rb`` Sphinx domain: characters, districts, rules, powers, configurations… as objects, with
cross-reference roles and an index.

``.. rb:character:: NAME`` describes a character and makes it a target of
``:rb:character:`NAME``` (or ``:rb:card:``); the same holds for every object type
below.  The domain index (``rb-index``) lists every object by type.
"""

from __future__ import annotations

from typing import Any, Iterable

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.directives import ObjectDescription
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.nodes import make_refnode

from checker.sphinxext.book import OBJECT_TYPES, slug

__all__ = ["RulebookDomain", "OBJECT_TYPES"]

logger = logging.getLogger(__name__)

# object type → (label in the index and signatures, plural heading in the domain index)
_CARDS = ("character", "district", "card")
_PLAIN = (*_CARDS, "power", "configuration", "precedence", "procedure", "quantity", "table")     # shown as words; the others are identifiers


class RulebookObject(ObjectDescription[str]):
    """One declaration of the spec, described; its signature shows its label and where it is."""

    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {
        "label": directives.unchanged,          # shown instead of the name (a power's summary)
        "annotation": directives.unchanged,     # shown before the name (the kind of card)
        "signature": directives.unchanged,      # the declaration's name and parameters, as code
        "where": directives.unchanged,          # file:line in the spec
        "noindex": directives.flag,
    }

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        objtype = self.objtype
        label = self.options.get("annotation") or OBJECT_TYPES[objtype][0].capitalize()
        signode += addnodes.desc_annotation(label + " ", label + " ")
        shown = self.options.get("label") or sig
        signode += addnodes.desc_name(shown, shown)
        code = self.options.get("signature")
        if code:
            signode += nodes.inline("", " ")
            signode += nodes.literal(code, code, classes=["rb-signature"])
        where = self.options.get("where")
        if where:
            signode += nodes.inline(where, where, classes=["rb-where"])
        return sig

    def add_target_and_index(self, name: str, sig: str, signode: addnodes.desc_signature) -> None:
        anchor = f"rb-{self.objtype}-{slug(name)}"
        if anchor in self.state.document.ids:
            anchor = f"{anchor}-{len(self.state.document.ids)}"
        signode["ids"].append(anchor)
        domain: RulebookDomain = self.env.get_domain("rb")  # type: ignore[assignment]
        label = self.options.get("label") or name
        domain.note_object(self.objtype, name, anchor, label, location=signode)
        if "noindex" not in self.options:
            kind = OBJECT_TYPES[self.objtype][0]
            self.indexnode["entries"].append(("single", f"{label} ({kind})", anchor, "", None))

    def _toc_entry_name(self, sig_node: addnodes.desc_signature) -> str:
        return self.options.get("label") or sig_node.get("fullname", "") or ""

    def _object_hierarchy_parts(self, sig_node: addnodes.desc_signature) -> tuple[str, ...]:
        return (self.options.get("label") or self.arguments[0],)


class RulebookIndex(Index):
    name = "index"
    localname = "Index du livre de règles"
    shortname = "index des règles"

    def generate(self, docnames: Iterable[str] | None = None) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        content: dict[str, list[IndexEntry]] = {}
        objects = self.domain.data["objects"]
        for (objtype, name), (docname, anchor, label) in sorted(objects.items(), key=lambda x: slug(x[1][2])):
            if docnames and docname not in docnames:
                continue
            heading = OBJECT_TYPES[objtype][1]
            extra = name if label != name else ""
            content.setdefault(heading, []).append(IndexEntry(label, 0, docname, anchor, extra, "", ""))
        order = [plural for _, plural in OBJECT_TYPES.values()]
        return sorted(content.items(), key=lambda item: order.index(item[0])), True


class RulebookDomain(Domain):
    name = "rb"
    label = "Livre de règles"
    object_types = {name: ObjType(label, name, *(("card",) if name in _CARDS else ()))
                    for name, (label, _) in OBJECT_TYPES.items()}
    directives = {name: RulebookObject for name in OBJECT_TYPES}
    roles = {name: XRefRole(innernodeclass=nodes.inline if name in _PLAIN else nodes.literal)
             for name in OBJECT_TYPES}
    indices = [RulebookIndex]
    initial_data: dict[str, Any] = {"objects": {}}   # (objtype, name) → (docname, anchor, label)

    def note_object(self, objtype: str, name: str, anchor: str, label: str, location=None) -> None:
        key = (objtype, name)
        objects = self.data["objects"]
        if key in objects and objects[key][0] != self.env.docname:
            logger.warning("%s '%s' is described twice (also in %s)", OBJECT_TYPES[objtype][0], name,
                           objects[key][0], location=location, type="rulebook", subtype="duplicate")
        objects[key] = (self.env.docname, anchor, label)

    def clear_doc(self, docname: str) -> None:
        objects = self.data["objects"]
        for key, (doc, _, _) in list(objects.items()):
            if doc == docname:
                del objects[key]

    def merge_domaindata(self, docnames: set[str], otherdata: dict[str, Any]) -> None:
        for key, value in otherdata["objects"].items():
            if value[0] in docnames:
                self.data["objects"][key] = value

    def _find(self, typ: str, target: str):
        types = _CARDS if typ in ("card", *_CARDS) else (typ,)
        for objtype in types:
            found = self.data["objects"].get((objtype, target))
            if found is not None:
                return objtype, found
        return None

    def resolve_xref(self, env, fromdocname, builder, typ, target, node, contnode):
        found = self._find(typ, target)
        if found is None:
            return None
        objtype, (docname, anchor, label) = found
        if contnode.astext() == target and label != target:
            contnode = type(contnode)(label, label, classes=contnode.get("classes", []))
        return make_refnode(builder, fromdocname, docname, anchor, contnode,
                            f"{label} ({OBJECT_TYPES[objtype][0]})")

    def resolve_any_xref(self, env, fromdocname, builder, target, node, contnode):
        results = []
        for objtype in OBJECT_TYPES:
            found = self.data["objects"].get((objtype, target))
            if found is not None:
                docname, anchor, label = found
                results.append((f"rb:{objtype}", make_refnode(builder, fromdocname, docname, anchor, contnode,
                                                              label)))
        return results

    def get_objects(self):
        for (objtype, name), (docname, anchor, label) in self.data["objects"].items():
            yield name, label, objtype, docname, anchor, 1
