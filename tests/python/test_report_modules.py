"""The report package's module plan (docs/architecture.md): its imports form
no cycle (one module owns what others import: canvas the plot primitives,
pageplots the page's panels, plots the `plot` command), and no module
reaches into another's private (_underscored) names. Read from the modules'
syntax trees (ast): every import counts, also one inside a function (a
deferred import is still a dependency)."""

import ast
import pathlib

from conftest import REPO

PACKAGE = REPO / "python" / "movebench_report"


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: pathlib.Path) -> dict:
    """{dotted name: (path, syntax tree)} of every module of the package at root."""
    return {module_name(p, root): (p, ast.parse(p.read_text(), str(p))) for p in sorted(root.rglob("*.py"))}


def _target(name: str, path: pathlib.Path, node: ast.ImportFrom) -> str:
    """The module an ImportFrom reads, made absolute ('from . import x' in a.b: a)."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(name: str, path: pathlib.Path, tree, known: dict) -> list:
    """[(module imported, names taken from it, line)] of the package's own
    modules: 'from . import x' of a submodule x is an import of x."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names if a.name in known]
        elif isinstance(node, ast.ImportFrom):
            target = _target(name, path, node)
            if target not in known:
                continue
            submodules = [a.name for a in node.names if f"{target}.{a.name}" in known]
            out += [(f"{target}.{s}", [], node.lineno) for s in submodules]
            taken = [a.name for a in node.names if a.name not in submodules]
            if taken:
                out.append((target, taken, node.lineno))
    return out


def graph(mods: dict) -> dict:
    return {name: {t for t, _, _ in imports(name, p, tree, mods) if t != name} for name, (p, tree) in mods.items()}


def cycles(edges: dict) -> list:
    """Each cycle of the import graph once (as the list of its modules), by
    depth-first search from every module."""
    found = set()
    for start in edges:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in edges.get(node, ()):
                if nxt == start:
                    found.add(tuple(sorted(path)))
                elif nxt not in path and nxt > start:  # each cycle from its least module only
                    stack.append((nxt, path + [nxt]))
    return sorted(list(c) for c in found)


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(mods: dict) -> list:
    """'file:line name' of each private name of one module used by another:
    imported by name, or read as an attribute of the module imported."""
    out = []
    for name, (path, tree) in mods.items():
        bound = {}  # local name -> module of the package it stands for
        for target, taken, line in imports(name, path, tree, mods):
            out += [f"{path.name}:{line} {target}.{t}" for t in taken if is_private(t)]
            if not taken:
                bound[target.rsplit(".", 1)[-1]] = target
        for node in ast.walk(tree):
            if isinstance(node, ast.alias) and node.asname and node.name in bound:
                bound[node.asname] = bound[node.name]
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and is_private(node.attr)
                and bound[node.value.id] != name
            ):
                out.append(f"{path.name}:{node.lineno} {bound[node.value.id]}.{node.attr}")
    return out


def test_no_import_cycle_in_the_report_package():
    found = cycles(graph(modules(PACKAGE)))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_module_uses_another_modules_private_names():
    found = private_uses(modules(PACKAGE))
    assert not found, "private names used from another module:\n" + "\n".join(found)


def test_the_checks_see_a_cycle_and_a_private_use(tmp_path):
    # The checks themselves, on a package made here: a <-> b through a
    # deferred import, c takes a's _hidden and reads b._inner.
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "a.py").write_text("from .b import f\n_hidden = 1\n")
    (root / "b.py").write_text("def f():\n    from . import a\n    return a\n\ndef _inner():\n    pass\n")
    (root / "c.py").write_text("from .a import _hidden\nfrom . import b\nb._inner()\n")
    (root / "sub" / "d.py").write_text("from .. import c\nfrom ..a import f\n")
    mods = modules(root)
    assert cycles(graph(mods)) == [["pkg.a", "pkg.b"]]
    assert sorted(private_uses(mods)) == ["c.py:1 pkg.a._hidden", "c.py:3 pkg.b._inner"]
    assert graph(mods)["pkg.sub.d"] == {"pkg.c", "pkg.a"}
