"""The modules of ``variants/`` import each other without a cycle.

Every module is parsed with :mod:`ast`, never imported, and every import counts wherever it is
written: at the top, inside a function or a method, under ``if TYPE_CHECKING``. An import inside
a function only postpones a cycle to the first call, so it is a cycle all the same.
"""

import ast
import pathlib

PACKAGE = "variants"
ROOT = pathlib.Path(__file__).parents[2] / PACKAGE


def module_name(path: pathlib.Path) -> str:
    """``variants/base.py`` -> ``"variants.base"``; the package's ``__init__.py`` -> ``"variants"``."""
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(sources: dict[str, str], is_package) -> dict[str, set[str]]:
    """``{module: the modules of the package it imports}`` from ``{module: source text}``.

    ``is_package(module)``: whether ``module`` is a package (its relative imports start at itself).
    An import names the module it reads from: ``from .base import Problem`` -> ``variants.base``,
    ``from variants import get_ruleset`` -> ``variants``, ``from . import notation`` ->
    ``variants.notation`` where that is one of ``sources``. Imports of other packages are left out.
    """
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, text in sources.items():
        here = name if is_package(name) else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module
                # ``from package import module`` imports that module; any other name comes from origin.
                targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in sources else origin for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in sources)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the modules along it, first repeated at the end; ``None`` if none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        path.append(node)
        for target in sorted(graph[node]):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle:
            return cycle
    return None


def package_sources() -> dict[str, str]:
    return {module_name(p): p.read_text(encoding="utf-8") for p in sorted(ROOT.rglob("*.py"))}


def package_graph() -> dict[str, set[str]]:
    return import_graph(package_sources(), lambda name: (ROOT.parent / name.replace(".", "/") / "__init__.py").exists())


def test_the_modules_of_variants_import_each_other_without_a_cycle():
    cycle = find_cycle(package_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_graph_sees_imports_at_the_top_and_inside_functions():
    graph = package_graph()
    assert "variants.notation" in graph["variants.base"]  # at the top
    assert "variants.randomhands" in graph["variants.base"]  # inside Ruleset.draw_random
    assert {"variants.base", "variants.problems", "variants.registry"} <= graph["variants"]


def test_a_cycle_through_an_import_inside_a_function_is_found():
    sources = {
        "pkg": "",
        "pkg.low": "from .high import Thing\n",
        "pkg.high": "class Thing:\n    def use(self):\n        from pkg import low\n        return low\n",
        "pkg.other": "from . import high\nimport json\n",
    }
    graph = import_graph(sources, lambda name: name == "pkg")
    assert graph == {"pkg": set(), "pkg.low": {"pkg.high"}, "pkg.high": {"pkg.low"}, "pkg.other": {"pkg.high"}}
    assert find_cycle(graph) == ["pkg.high", "pkg.low", "pkg.high"]
    assert find_cycle({**graph, "pkg.high": set()}) is None
