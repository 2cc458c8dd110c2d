"""Z3 backend: the legality of moves, their enumeration, and rule conflicts, encoded from the typed AST."""
