"""The floors of the code, lowest first: variants (pure Python) < tournaments < scoring (and its
apps) < archive. A module imports only from its own floor or those below: no module of
tournaments/ or variants/ imports scoring or archive (tournaments asks them through its signals,
tournaments/signals.py), and no module of variants/ imports Django. Read from the source with
``ast``, so an import inside a function counts as much as one at the top."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(package: str, root: Path = ROOT) -> list[Path]:
    """Every Python file of ``package`` (a folder under ``root``), its migrations included."""
    return sorted((root / package).rglob("*.py"))


def imported(path: Path, root: Path = ROOT) -> set[str]:
    """The absolute dotted names of everything ``path`` (under ``root``) imports, wherever in the
    file: relative imports resolved against its package; ``from a import b`` gives ``a`` and
    ``a.b``."""
    package = list(path.relative_to(root).parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def offending(package: str, forbidden: tuple[str, ...], root: Path = ROOT) -> list[str]:
    """``"file: name"`` for every import by a module of ``package`` of one of the top-level
    packages ``forbidden``."""
    found = []
    for path in modules(package, root):
        for name in sorted(imported(path, root)):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(root).as_posix()}: {name}")
    return found


@pytest.mark.parametrize("package", ["tournaments", "variants"])
def test_the_lower_floors_import_neither_scoring_nor_the_archive(package):
    assert modules(package)
    assert offending(package, ("scoring", "archive")) == []


def test_variants_imports_no_django():
    assert offending("variants", ("django",)) == []


def test_the_check_finds_imports_inside_functions_and_relative_ones(tmp_path):
    package = tmp_path / "tournaments" / "sub"
    package.mkdir(parents=True)
    module = package / "mod.py"
    module.write_text("def f():\n    from scoring.standings import x\n    import archive.backup\nfrom ..models import Y\n")
    assert offending("tournaments", ("scoring", "archive"), tmp_path) == [
        "tournaments/sub/mod.py: archive.backup",
        "tournaments/sub/mod.py: scoring.standings",
        "tournaments/sub/mod.py: scoring.standings.x",
    ]
    assert "tournaments.models.Y" in imported(module, tmp_path)
