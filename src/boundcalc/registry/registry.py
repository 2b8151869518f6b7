"""The registry: every formula file loaded, validated and cross-linked.

Like pint's unit registry, it is built from declarative files: the packaged
``formulas/`` plus user files (``--formulas PATH`` or ``$BOUNDCALC_FORMULAS``).
"""
from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path

from ..errors import BoundcalcError, FormulaFileError
from ..expr.nodes import Node, Ref
from ..paths import user_path
from .files import check_formula_file
from .model import FormulaSpec, Paper, Setting, Symbol

ENV_VAR = "BOUNDCALC_FORMULAS"


def packaged_dir() -> Path:
    """The formula files shipped in the wheel (``boundcalc/formulas``), or ``formulas/`` of a
    source checkout (editable install)."""
    here = Path(__file__).resolve()
    p = here.parents[1] / "formulas"
    return p if p.is_dir() else here.parents[3] / "formulas"


def _expand(paths) -> list[Path]:
    """Formula files named by ``paths`` (files, or folders of ``*.toml``). Every one is
    checked (a regular file within the size cap) before anything is read."""
    out: list[Path] = []
    for p in paths:
        p = user_path(p)
        if p.is_dir():
            out.extend(check_formula_file(f) for f in sorted(p.glob("*.toml")))
        elif not os.path.lexists(p):
            raise FormulaFileError(f"formula path {str(p)!r} does not exist")
        else:
            out.append(check_formula_file(p))
    return out


class Registry:
    """Papers are loaded (parsed, validated, linked) on first use, so a command that
    needs one paper does not pay for the others; ``papers`` loads them all."""

    def __init__(self, files: list[Path]):
        self._files: dict[str, Path] = {}
        for f in files:
            if f.stem in self._files:
                raise FormulaFileError(f"{f.name}: paper key {f.stem!r} is already defined by "
                                       f"{self._files[f.stem]}")
            self._files[f.stem] = f
        self._papers: dict[str, Paper] = {}      # loaded (possibly still being linked)
        self._ready: dict[str, Paper] = {}       # loaded and linked
        self._resolved: dict[str, Node] = {}
        self._state: dict[str, int] = {}
        # Loading and linking happen under one re-entrant lock: a thread never sees another
        # thread's half-linked paper (which once read as "circular formula references").
        self._lock = threading.RLock()

    def validate_files(self, files: list[Path]) -> None:
        """Load (parse, validate, link) the papers of ``files`` now: a user's file is
        checked at the start of every command, whichever paper the command touches."""
        for f in files:
            if f.stem in self._files:
                _ = self.paper(f.stem).checks      # the property loads the checks too

    def has_paper(self, key: str) -> bool:
        """Whether a formula file declares the paper ``key`` (nothing is loaded)."""
        return key in self._files

    def paper(self, key: str) -> Paper:
        """The paper ``key``, loaded, validated and cross-linked on first use (thread-safe);
        an unknown key or a broken file raises :class:`~boundcalc.errors.BoundcalcError`."""
        ready = self._ready.get(key)
        if ready is not None:
            return ready
        with self._lock:
            if key in self._papers:          # ready, or this thread is linking it right now
                return self._papers[key]
            if key not in self._files:
                from ..suggest import did_you_mean
                raise BoundcalcError(f"unknown paper {key!r}{did_you_mean(key, self._files)}; "
                                     f"papers: {', '.join(self._files)}")
            from .cache import load_cached  # the loader itself only on a cache miss
            paper = self._papers[key] = load_cached(self._files[key], lazy_checks=True)
            try:
                self._link(paper)
            except BaseException:        # not half-loaded: the next use reports the same error
                del self._papers[key]
                for fid in [f for f in self._state if f.partition(".")[0] == key]:
                    del self._state[fid]
                raise
            self._ready[key] = paper
            return paper

    @property
    def papers(self) -> dict[str, Paper]:
        """Every paper by key, all loaded."""
        for k in self._files:
            self.paper(k)
        return {k: self._papers[k] for k in self._files}

    # -------------------------------------------------------------- lookup
    def spec(self, fid: str) -> FormulaSpec:
        """The formula ``paper.name``; an unknown id raises with the nearest names."""
        paper, _, name = fid.partition(".")
        if paper not in self._files:
            from ..suggest import did_you_mean
            raise BoundcalcError(f"unknown paper {paper!r} in id {fid!r}{did_you_mean(paper, self._files)}; "
                                 f"papers: {', '.join(self._files)}")
        p = self.paper(paper)
        if name not in p.formulas:
            from ..suggest import close_matches  # by similarity (difflib): bta2 -> beta2
            close = close_matches(name, p.formulas) if name else []
            hint = f"; did you mean {', '.join(paper + '.' + c for c in close[:4])}?" if close else ""
            raise BoundcalcError(f"unknown formula {fid!r}{hint} (see `boundcalc list --paper {paper}`)")
        return p.formulas[name]

    def all_specs(self, paper: str | None = None) -> list[FormulaSpec]:
        """Every formula, or those of ``paper``, in file order."""
        papers = [self.paper(paper)] if paper else list(self.papers.values())
        return [f for p in papers for f in p.formulas.values()]

    def setting(self, paper: str, name: str | None) -> Setting:
        """The setting ``name`` (or one of its aliases) of ``paper``; None: the paper's default."""
        p = self.paper(paper)
        if name is None:
            defaults = [s for s in p.settings.values() if s.default]
            if not defaults:
                raise BoundcalcError(f"paper {paper!r} declares no default setting")
            return defaults[0]
        for s in p.settings.values():
            if name == s.name or name in s.aliases:
                return s
        names = sorted({n for s in p.settings.values() for n in (s.name, *s.aliases)})
        from ..suggest import did_you_mean
        raise BoundcalcError(f"unknown setting/theorem {name!r} for {paper}{did_you_mean(name, names)}; "
                             f"choose one of {', '.join(names)}")

    # -------------------------------------------------------------- linking
    def _target(self, paper: str | None, ref: Ref) -> FormulaSpec:
        key = ref.paper or paper
        where = self._files[paper].name if paper in self._files else "expression"
        if key not in self._files or ref.name not in self.paper(key).formulas:
            raise FormulaFileError(f"{where}: reference to unknown formula {key}.{ref.name}")
        spec = self.paper(key).formulas[ref.name]
        if spec.kind not in ("definition", "bound"):
            raise FormulaFileError(f"{where}: {key}.{ref.name} is a {spec.kind}; "
                                   "only definitions and bounds can be used inside expressions")
        return spec

    def _link(self, p: Paper) -> None:
        """Every reference of ``p`` points at a usable formula; no cycles. Depth-first with
        an explicit stack, so a chain of references of any length costs no Python stack."""
        state = self._state
        for root in p.formulas.values():
            if state.get(root.id) == 2:
                continue
            state[root.id] = 1
            path, stack = [root.id], [(root, iter(root.expr.refs()))]
            while stack:
                spec, todo = stack[-1]
                r = next(todo, None)
                if r is None:
                    state[spec.id] = 2
                    stack.pop()
                    path.pop()
                    continue
                t = self._target(spec.paper, Ref(*r))
                st = state.get(t.id)
                if st == 2:
                    continue
                if st == 1:
                    raise FormulaFileError(f"{self._files[t.paper].name}: circular formula "
                                           f"references: {' -> '.join(path + [t.id])}")
                state[t.id] = 1
                path.append(t.id)
                stack.append((t, iter(t.expr.refs())))
        for s in p.settings.values():
            for _, node, _ in s.derived:
                for r in node.refs():
                    self._target(p.key, Ref(*r))

    def resolve(self, node: Node, paper: str | None) -> Node:
        """Inline every formula reference (recursively); a bare name refers to ``paper``
        (None: an expression outside any paper, whose references must name theirs)."""
        def f(n: Node):
            if isinstance(n, Ref):
                spec = self._target(paper, n)
                return self.resolved(spec.id)
            return None
        return node.map(f)

    def resolved(self, fid: str) -> Node:
        """The formula with every reference inlined; its dependencies are inlined first (in
        dependency order, no recursion), so a long chain of references is no deeper to
        build than one. A result nested beyond what the back ends walk is refused, naming
        the file and the formula."""
        if fid not in self._resolved:
            from ..expr.nodes import depth
            from ..expr.parser import MAX_DEPTH
            for dep in self.dependencies(fid) + [fid]:
                if dep in self._resolved:
                    continue
                spec = self.spec(dep)
                node = self.resolve(spec.expr, spec.paper)
                d = depth(node)
                if d > MAX_DEPTH:
                    raise FormulaFileError(
                        f"{self._files[spec.paper].name}: [formulas.{spec.name}]: with its references "
                        f"inlined the expression is nested {d} levels deep; the limit is {MAX_DEPTH} "
                        "(flat sums and products count as one level)")
                self._resolved[dep] = node
        return self._resolved[fid]

    def dependencies(self, fid: str) -> list[str]:
        """Formula ids ``fid`` uses, directly or not, in dependency order (no recursion)."""
        def refs(spec: FormulaSpec):
            return iter(sorted(spec.expr.refs(), key=lambda r: (r[0] or "", r[1])))
        root = self.spec(fid)
        out: list[str] = []
        seen = {root.id}
        stack = [(root, refs(root))]
        while stack:
            spec, todo = stack[-1]
            r = next(todo, None)
            if r is None:
                stack.pop()
                if stack:
                    out.append(spec.id)
                continue
            t = self._target(spec.paper, Ref(*r))
            if t.id not in seen:
                seen.add(t.id)
                stack.append((t, refs(t)))
        return out

    def symbol_table(self, node_or_id, paper: str | tuple[str, ...] | None = None) -> dict[str, Symbol]:
        """Symbols of a formula after inlining: each from the paper that declared it
        (the formula's own paper wins on a name clash; for an expression, ``paper`` -- one
        key or several, in order -- wins, then the files in their order)."""
        if isinstance(node_or_id, str):
            spec = self.spec(node_or_id)
            paper = spec.paper
            papers = [spec.paper] + [d.partition(".")[0] for d in self.dependencies(node_or_id)]
            names = self.resolved(node_or_id).symbols()
        else:
            names = node_or_id.symbols()
            papers = [paper] if isinstance(paper, str) else list(paper or ())
            papers += [p for p in self._files if p not in papers]
        table = {}
        for n in sorted(names):
            for pk in papers:
                if pk in self._files and n in self.paper(pk).symbols:
                    table[n] = self.paper(pk).symbols[n]
                    break
        return table


@lru_cache(maxsize=8)
def _cached(files: tuple[str, ...]) -> Registry:
    return Registry([Path(f) for f in files])


def get_registry(extra: list[str] | tuple[str, ...] | None = None) -> Registry:
    """The registry of packaged files plus ``extra`` paths and ``$BOUNDCALC_FORMULAS``
    (``BOUNDCALC_BUILTIN=0`` leaves the packaged files out)."""
    builtin = [] if os.environ.get("BOUNDCALC_BUILTIN", "1") == "0" else [packaged_dir()]
    env = os.environ.get(ENV_VAR, "")
    user = [p for p in env.split(os.pathsep) if p] + list(extra or [])
    files = _expand(builtin + user)
    seen, uniq = set(), []
    for f in files:
        r = str(f.resolve())
        if r not in seen:
            seen.add(r)
            uniq.append(r)
    reg = _cached(tuple(uniq))
    if user:
        reg.validate_files(_expand(user))
    return reg
