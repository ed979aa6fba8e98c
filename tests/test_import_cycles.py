"""No project file imports another that imports it back, directly or around a circle.

Every import counts: at the top of a module and inside functions (a lazy
import hides a circle, it does not remove it). ``from a import b`` counts as an
import of the module ``a.b`` when there is one, else of ``a`` (``b`` is defined
there). A second test keeps the layers apart: the play layer (``games``) never
imports ``rooms``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests import project_files

ROOT = Path(__file__).resolve().parents[1]


def project_modules() -> dict[str, Path]:
    """Dotted module name → file, for every Python file git knows (tracked or new)."""
    modules = {}
    for path in project_files.listed("*.py"):
        file = ROOT / path
        parts = list(Path(path).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = file
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an import of ``name`` loads (``a.b.func`` → ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, file: Path, modules: dict[str, Path]) -> set[str]:
    package = module if file.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        found |= {known for target in targets if (known := _known(target, modules))}
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, file, modules) for name, file in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for neighbour in edges:
                if neighbour not in index:
                    index[neighbour] = low[neighbour] = len(index)
                    stack.append(neighbour)
                    on_stack.add(neighbour)
                    work.append((neighbour, iter(sorted(graph.get(neighbour, ())))))
                    break
                if neighbour in on_stack:
                    low[node] = min(low[node], index[neighbour])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_project_file_imports_around_a_circle():
    graph = import_graph()
    assert "rooms.locked" in graph and "games.play.driver" in graph  # the files were read
    assert circles(graph) == []


def test_the_circle_finder_finds_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_imports_inside_functions():
    graph = import_graph()
    # games.play.views imports the demo store at the top; games.apps imports the demos'
    # deadlines only inside ready(): both count.
    assert "games.play.demo_service" in graph["games.play.views"]
    assert "games.play.demo_deadlines" in graph["games.apps"]
    # ``from games.play import definition as registry`` is the module, not the package.
    assert "games.play.definition" in graph["games.play.views"]


def test_the_play_layer_never_imports_the_rooms():
    graph = import_graph()
    upward = {
        module: sorted(target for target in targets if target.split(".")[0] == "rooms")
        for module, targets in graph.items()
        if module.split(".")[0] == "games"
    }
    assert {module: found for module, found in upward.items() if found} == {}
