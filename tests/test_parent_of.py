"""``walk.parent_of``: the parent of any node, read off a map made per top-level statement where asked."""

from __future__ import annotations

import ast
import gc

from mslint.model.memo import facts_kept
from mslint.model.walk import descendants, parent_of

SOURCE = """\
import functools
a = f(x); b = g(y)


@functools.lru_cache(maxsize=None)
@other
def h(p, q=partial(k, 1)):
    return [p + i for i in range(q)]


class C:
    z = lambda v: v * 2
"""


def test_every_node_has_the_parent_ast_gives_it() -> None:
    tree = ast.parse(SOURCE)
    expected = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in descendants(tree):  # statements sharing a line, decorators, nodes without lines
        assert parent_of(tree, node) is expected.get(id(node))


def test_a_node_of_another_tree_has_none() -> None:
    tree, other = ast.parse(SOURCE), ast.parse(SOURCE)
    assert all(parent_of(tree, node) is None for node in descendants(other)[1:])


def test_the_maps_go_with_the_tree() -> None:
    gc.collect()
    before = facts_kept()
    tree = ast.parse(SOURCE)
    for node in descendants(tree):
        parent_of(tree, node)
    assert facts_kept() > before
    del tree, node
    gc.collect()
    assert facts_kept() == before
