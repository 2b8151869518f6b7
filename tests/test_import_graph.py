"""No import cycles between boundcalc's modules (issue 23).

The graph is built from the source with ``ast``, not from ``sys.modules``: every
``import`` and ``from ... import`` statement counts, wherever it stands -- at module
level, inside a function or a method, under ``if TYPE_CHECKING:`` -- so a cycle hidden in a
lazy import is found as well. Relative imports are resolved against the importing
module, and ``from pkg import name`` is an edge to the module ``pkg.name`` when that is a
module, else to ``pkg`` itself (its ``__init__``). Importing ``a.b.c`` runs the
``__init__`` of ``a`` and ``a.b`` first, so it is an edge to those packages too, except to
the importer's own enclosing packages (``a.b.x`` importing ``a.b.c``): those have run
already, and a package whose ``__init__`` re-exports its modules would otherwise be a
"cycle" with each of them.
Imports whose module name is computed at run time (``importlib.import_module(name)``, as
``experiments.experiment_module`` does to load a paper on demand) are not visible here.

A cycle is a strongly connected component of more than one module; the test names each.

To list the components by hand::

    python tests/test_import_graph.py
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "boundcalc"

# Cycles owned by another engineer's branch, each named with its owner. Remove an entry
# when its fix is merged: the test fails on an entry that no longer exists, so a stale
# exception cannot hide a new cycle between the same modules.
KNOWN_CYCLES: dict[frozenset[str], str] = {}


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``: dotted name -> file."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``."""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]      # the package the import is relative to
    if level > 1:
        if level - 1 > len(base):
            raise ValueError(f"{module}: relative import beyond the top-level package")
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _nearest_module(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` if it is a module of ours, else its longest prefix that is (``a.b.f`` for a
    function ``f`` of ``a.b``); None for other packages."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (anywhere in its source)."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (_resolve_relative(name, is_package, node.level, node.module)
                        if node.level else (node.module or ""))
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    # from pkg import module -> the module; from mod import name -> mod
                    targets.append(sub if sub in modules else base)
            for target in targets:
                found = _nearest_module(target, modules)
                if found is None or found == name:
                    continue
                graph[name].add(found)
                # the packages around the target run their __init__ first, unless they
                # enclose the importer (already running)
                parts = found.split(".")
                for i in range(1, len(parts)):
                    package = ".".join(parts[:i])
                    if package in modules and not (name == package or name.startswith(package + ".")):
                        graph[name].add(package)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module."""
    return sorted(c for c in strongly_connected(graph) if len(c) > 1)


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]
    return "{" + ", ".join(component) + "}: " + "; ".join(edges)


# ---------------------------------------------------------------------------------------
# the graph builder on a package written for the test (so that the checker itself can fail)

def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_builder_sees_function_level_relative_and_from_package_imports(tmp_path):
    _write(tmp_path, {
        "pk/__init__.py": "from .core import run\n",
        "pk/core.py": "import os\n\ndef run():\n    from .sub import leaf   # inside a function\n    return leaf\n",
        "pk/sub/__init__.py": "",
        "pk/sub/leaf.py": "from .. import core\n",               # from pkg import module
        "pk/sub/other.py": "from pk.core import run\nimport pk.sub.leaf\n",
        "pk/lone.py": "from . import run\n",                       # a name of pk/__init__
    })
    graph = import_graph(tmp_path, "pk")
    assert graph["pk"] == {"pk.core"}
    assert graph["pk.core"] == {"pk.sub", "pk.sub.leaf"}     # pk.sub's __init__ runs first
    assert graph["pk.sub.leaf"] == {"pk.core"}                # pk, pk.sub enclose it: no edge
    assert graph["pk.sub.other"] == {"pk.core", "pk.sub.leaf"}
    assert graph["pk.lone"] == {"pk"}
    assert cycles(graph) == [["pk.core", "pk.sub.leaf"]]


def test_builder_sees_a_cycle_through_a_package_init(tmp_path):
    # a imports pkg.sub.x; pkg/sub/__init__ imports pkg.sub.y, which imports a
    _write(tmp_path, {
        "p/__init__.py": "",
        "p/a.py": "def f():\n    from p.sub import x\n",
        "p/sub/__init__.py": "from . import y\n",
        "p/sub/x.py": "",
        "p/sub/y.py": "from .. import a\n",
    })
    graph = import_graph(tmp_path, "p")
    assert graph["p.a"] == {"p.sub", "p.sub.x"}
    assert cycles(graph) == [["p.a", "p.sub", "p.sub.y"]]


def test_builder_finds_a_three_module_cycle_and_nothing_in_a_chain(tmp_path):
    _write(tmp_path, {
        "q/__init__.py": "",
        "q/a.py": "from .b import f\n",
        "q/b.py": "class C:\n    def m(self):\n        from q import c\n",
        "q/c.py": "def g():\n    from .a import h\n",
        "q/d.py": "from .a import f\n",
        "q/e.py": "from .d import f\n",
    })
    graph = import_graph(tmp_path, "q")
    assert cycles(graph) == [["q.a", "q.b", "q.c"]]
    _write(tmp_path, {"q/c.py": "def g():\n    return 1\n"})
    assert cycles(import_graph(tmp_path, "q")) == []


def test_relative_import_beyond_the_package_is_an_error():
    with pytest.raises(ValueError):
        _resolve_relative("pk.mod", False, 3, None)
    assert _resolve_relative("pk.sub.mod", False, 2, "core") == "pk.core"
    assert _resolve_relative("pk.sub", True, 1, "leaf") == "pk.sub.leaf"


# ---------------------------------------------------------------------------------------
# boundcalc itself

def test_the_graph_covers_boundcalc():
    graph = import_graph()
    # a few edges that exist for certain, so that an empty graph cannot pass
    assert "boundcalc.cli.app" in graph and "boundcalc.prover.decide" in graph
    assert sum(len(v) for v in graph.values()) > 100


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    unexpected = [c for c in found if frozenset(c) not in KNOWN_CYCLES]
    assert not unexpected, "import cycles:\n" + "\n".join(_describe(c, graph) for c in unexpected)


def test_known_cycle_exceptions_are_still_needed():
    found = {frozenset(c) for c in cycles(import_graph())}
    stale = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not stale, f"these cycles are gone: remove them from KNOWN_CYCLES: {stale}"


# ---------------------------------------------------------------------------------------
# the decision procedure's package: layers importing downwards only

# boundcalc.prover's modules from the bottom (budgets) to the top (the orchestrator). A
# module may import modules of a LOWER rank only: never one of its own rank, never one
# above it, and nothing of the packages that consume the prover.
PROVER_LAYERS: list[list[str]] = [
    ["budget", "fbounds"],
    ["facts", "prepass", "sampling", "symbolic", "taylor"],
    ["exact_layer", "smt"],
    ["interval", "search"],
    ["bigops", "convexity", "ends", "identity", "integers", "rewrite"],
    ["decide"],
]
PROVER_MAY_NOT_IMPORT = ("boundcalc.services", "boundcalc.cli", "boundcalc.reports", "boundcalc.api",
                         "boundcalc.experiments", "boundcalc.engine")


def layering_violations(graph: dict[str, set[str]], prefix: str = "boundcalc.prover") -> list[str]:
    """Every edge of ``graph`` from a prover module to one at its own rank or above, or to a
    package that consumes the prover; also a prover module missing from PROVER_LAYERS."""
    rank = {f"{prefix}.{m}": i for i, layer in enumerate(PROVER_LAYERS) for m in layer}
    out = []
    for mod, targets in sorted(graph.items()):
        if not mod.startswith(prefix + "."):
            continue
        if mod not in rank:
            out.append(f"{mod} is in no layer of PROVER_LAYERS")
            continue
        for t in sorted(targets):
            if t.startswith(PROVER_MAY_NOT_IMPORT):
                out.append(f"{mod} imports {t}, a consumer of the prover")
            elif t in rank and rank[t] >= rank[mod]:
                out.append(f"{mod} (layer {rank[mod]}) imports {t} (layer {rank[t]}): imports go downwards only")
    return out


def test_prover_layers_import_downwards_only():
    graph = import_graph()
    listed = {f"boundcalc.prover.{m}" for layer in PROVER_LAYERS for m in layer}
    present = {m for m in graph if m.startswith("boundcalc.prover.")}
    assert present <= listed and len(present) >= 9, sorted(present ^ listed)
    bad = layering_violations(graph)
    assert not bad, "\n".join(bad)


def test_layering_check_catches_an_upward_and_a_consumer_import():
    # the check itself can fail: an interval -> decide edge, a same-layer edge, an edge to services
    graph = {"boundcalc.prover.interval": {"boundcalc.prover.decide", "boundcalc.prover.budget"},
             "boundcalc.prover.smt": {"boundcalc.prover.exact_layer"},
             "boundcalc.prover.sampling": {"boundcalc.services.monotone"},
             "boundcalc.prover.budget": set(), "boundcalc.prover.decide": {"boundcalc.prover.interval"}}
    bad = layering_violations(graph)
    assert len(bad) == 3, bad
    assert any("interval (layer 3) imports boundcalc.prover.decide" in b for b in bad)
    assert any("smt (layer 2) imports boundcalc.prover.exact_layer" in b for b in bad)
    assert any("consumer" in b and "sampling" in b for b in bad)


if __name__ == "__main__":
    g = import_graph()
    found = cycles(g)
    for component in found:
        known = KNOWN_CYCLES.get(frozenset(component))
        print(_describe(component, g) + (f"  [known exception: {known}]" if known else ""))
    print(f"{len(g)} modules, {sum(len(v) for v in g.values())} import edges, {len(found)} cycle(s)")
    sys.exit(1 if any(frozenset(c) not in KNOWN_CYCLES for c in found) else 0)
