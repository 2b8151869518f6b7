"""The registry cache: a validated paper stored as plain JSON data, reused while its key holds.

Loading a formula file parses its TOML and every expression (the whitelist parser, which
uses :func:`ast.parse`) and validates everything; that is most of a numeric command's own
start-up. A paper that loaded without error is therefore written, as plain data, to one
JSON file per formula file in the user cache folder, and read back instead while its *key*
holds. The key is, in full:

* the SHA-256 of the formula file's bytes (the text just read: never its timestamp);
* ``boundcalc.__version__`` and :data:`FORMAT` (this module's layout);
* a stamp of the code that turns a file into a paper: name, size and modification time of
  every ``.py`` file of ``boundcalc/registry`` and ``boundcalc/expr`` (an editable checkout
  whose loader or parser changed is not served the old loader's papers);
* the formula file's resolved path (the entry's file name is derived from it too).

An entry whose key differs is stale, and one that cannot be read or decoded (truncated,
not JSON, a field missing or of the wrong type, a node index out of order) is ignored: in
both cases the file is loaded and validated as without a cache and the entry rewritten.
Nothing is ever cached for a file that fails to load, so an error is reported the same
way on every run. ``[[checks]]`` and ``[[steps]]`` are stored as their TOML tables and
validated on first use, exactly as without the cache (:attr:`Paper.checks`).

Where: ``$BOUNDCALC_REGISTRY_CACHE`` if it names a folder, else
``$XDG_CACHE_HOME/boundcalc/registry``, else ``~/.cache/boundcalc/registry``.
``BOUNDCALC_REGISTRY_CACHE=0`` (or ``off``) turns the cache off: nothing read, nothing
written. A folder that cannot be written only costs the speed-up (no error, no message).

Writes are atomic: the entry is written to a temporary file in the same folder and moved
over the old one with :func:`os.replace`, so concurrent writers (two commands, parallel test
workers) leave one complete entry, never a mixture, and a reader sees the old entry or the
new one.

Why the format is safe: the entry is JSON, which decodes to dicts, lists, strings, numbers,
booleans and None only; no pickle, no marshal, nothing that can hold code. The decoder
below builds from it only the registry's own record classes (:class:`Symbol`,
:class:`FormulaSpec`, :class:`Setting`, :class:`Hypothesis`, :class:`Domain`,
:class:`Vector`, the expression nodes) and exact rationals (``Fraction`` of hexadecimal
integers, so no 4300-digit limit applies); an unexpected tag or shape is a decoding
error, i.e. a cache miss. The worst a tampered cache file with a matching key can do is
describe a different (still well-formed) paper -- as editing the formula file itself could.
"""
from __future__ import annotations

import json
import os
from dataclasses import fields
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import verdicts as _verdicts
from .._version import __version__
from ..expr.domains import Domain
from ..expr.indexed import Vector
from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from .model import FormulaSpec, Hypothesis, Paper, Setting, Symbol

# the enums a record may hold, by name: a stored ["E", name, value] is rebuilt only from these
_ENUMS = {c.__name__: c for c in vars(_verdicts).values()
          if isinstance(c, type) and issubclass(c, _verdicts.StrEnum) and c.__module__ == _verdicts.__name__}

try:                  # the built-in SHA-256 (hashlib's import loads OpenSSL: ~3 ms of start-up)
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:   # pragma: no cover - Python 3.12+ names it _sha2; any Python has hashlib
    try:
        from _sha2 import sha256 as _sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:
        from hashlib import sha256 as _sha256  # type: ignore[assignment]

__all__ = ["ENV_VAR", "FORMAT", "cache_dir", "entry_path", "load_cached"]

ENV_VAR = "BOUNDCALC_REGISTRY_CACHE"
#: the layout of an entry; bump it when the encoding below changes
FORMAT = 2                       # 2: enum members tagged (1 stored FormulaStatus as a bare string)
_OFF = ("0", "off", "false", "no")


class _Corrupt(ValueError):
    """An entry that does not decode to a paper (treated as a miss)."""


def cache_dir() -> Path | None:
    """The folder of the registry cache, or None when ``$BOUNDCALC_REGISTRY_CACHE`` turns it
    off (or no home folder can be found and neither variable names a folder)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env.lower() in _OFF:
        return None
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "boundcalc" / "registry"
    home = os.path.expanduser("~")
    if not os.path.isabs(home):        # no home folder to be found: no cache (never one in the cwd)
        return None
    return Path(home) / ".cache" / "boundcalc" / "registry"


def entry_path(folder: Path, path: Path) -> Path:
    """The cache entry of the formula file ``path`` (its stem and a hash of its resolved path)."""
    where = _sha256(str(path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return folder / f"{path.stem}-{where}.json"


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """A hash of the name, size and modification time of the loader's code (see the module doc)."""
    root = Path(__file__).resolve().parents[1]
    h = _sha256()
    for sub in ("registry", "expr"):
        try:
            entries = sorted(os.scandir(root / sub), key=lambda e: e.name)
        except OSError:
            return "unknown"
        for e in entries:
            if e.name.endswith(".py"):
                st = e.stat()
                h.update(f"{sub}/{e.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def _key(path: Path, text: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": __version__, "code": code_stamp(),
            "path": str(path.resolve()), "sha256": _sha256(text.encode("utf-8")).hexdigest()}


def load_cached(path: Path, *, lazy_checks: bool = True) -> Paper:
    """The paper of the formula file ``path``: from its cache entry when the key holds, else
    loaded and validated (:func:`.loader.load_data`) and the entry (re)written."""
    from .files import read_formula_text
    text = read_formula_text(path)
    folder = cache_dir()
    key = _key(path, text) if folder is not None else None
    if folder is not None and lazy_checks:
        paper = _read(entry_path(folder, path), key, path)
        if paper is not None:
            return paper
    from . import loader
    data = loader.parse_toml(path, text)
    paper = loader.load_data(path, data, lazy_checks=lazy_checks)
    if folder is not None:
        _write(entry_path(folder, path), key, paper, data)
    return paper


# ------------------------------------------------------------------ reading
def _read(entry: Path, key: dict | None, path: Path) -> Paper | None:
    try:
        with open(entry, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    try:
        doc = json.loads(raw)
        if not isinstance(doc, dict) or doc.get("key") != key:
            return None                       # stale: another file text, version or loader
        return _decode(doc, path)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None                           # corrupt (json.JSONDecodeError is a ValueError)


def _decode(doc: dict, path: Path) -> Paper:
    nodes = _decode_nodes(doc["nodes"])
    dec = _Decoder(nodes)
    p = doc["paper"]
    if not isinstance(p, dict):
        raise _Corrupt("paper")
    paper = Paper(key=_s(p["key"]), title=_s(p["title"]), authors=_s(p["authors"]), reference=_s(p["reference"]),
                  path=path, text=_s(p["text"]), results=tuple(_s(x) for x in p["results"]),
                  refs={_s(k): _s(v) for k, v in p["refs"].items()}, fail_on=_s(p["fail_on"]))
    if paper.key != path.stem:
        raise _Corrupt("key")
    paper.symbols = {_s(k): dec.record(Symbol, v) for k, v in p["symbols"]}
    paper.formulas = {_s(k): dec.record(FormulaSpec, v) for k, v in p["formulas"]}
    paper.settings = {_s(k): dec.record(Setting, v) for k, v in p["settings"]}
    paper.hypotheses = tuple(dec.record(Hypothesis, v) for v in p["hypotheses"])
    _defer_checks(path, paper, doc["checks"], doc["steps"])
    return paper


def _defer_checks(path: Path, paper: Paper, items: Any, steps: Any) -> None:
    """The stored ``[[checks]]``/``[[steps]]`` tables validated on the first use of
    ``paper.checks``, by the loader (imported then), exactly as on a miss."""
    def load(out: list) -> None:
        from .loader import load_checks
        load_checks(path, paper, items, out, steps)
    vars(paper)["_load_checks"] = load


def _s(x: Any) -> str:
    if not isinstance(x, str):
        raise _Corrupt("string")
    return x


def _frac(s: Any) -> Fraction:
    num, _, den = _s(s).partition("/")
    d = int(den, 16)
    if d <= 0:
        raise _Corrupt("fraction")
    return Fraction(int(num, 16), d)


def _kids(nodes: list[Node], idx: Any, here: int) -> tuple[Node, ...]:
    return tuple(_kid(nodes, i, here) for i in idx)


def _kid(nodes: list[Node], i: Any, here: int) -> Node:
    if type(i) is not int or not 0 <= i < here:      # children come first: no cycle, no forward index
        raise _Corrupt("node index")
    return nodes[i]


def _decode_nodes(table: Any) -> list[Node]:
    """The node table (children before parents) back into nodes, sharing as stored."""
    if not isinstance(table, list):
        raise _Corrupt("nodes")
    out: list[Node] = []
    for here, e in enumerate(table):
        tag = e[0]
        n: Node
        if tag == "n":
            n = Num(_frac(e[1]))
        elif tag == "s":
            n = Sym(_s(e[1]))
        elif tag == "c":
            n = Const(_s(e[1]))
        elif tag == "r":
            n = Ref(None if e[1] is None else _s(e[1]), _s(e[2]))
        elif tag == "+":
            n = Add(_kids(out, e[1], here))
        elif tag == "*":
            n = Mul(_kids(out, e[1], here))
        elif tag == "^":
            n = Pow(_kid(out, e[1], here), _kid(out, e[2], here))
        elif tag == "f":
            n = Func(_s(e[1]), _kids(out, e[2], here))
        elif tag == "i":
            n = Indexed(_s(e[1]), _kid(out, e[2], here))
        elif tag == "b":
            n = BigOp(_s(e[1]), _kid(out, e[2], here), _s(e[3]), _kid(out, e[4], here), _kid(out, e[5], here))
        elif tag == "<":
            n = Rel(_s(e[1]), _kid(out, e[2], here), _kid(out, e[3], here))
        else:
            raise _Corrupt(f"node tag {tag!r}")
        out.append(n)
    return out


class _Decoder:
    """Field values back from their tagged JSON form (see :class:`_Encoder`)."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes

    def record(self, cls: type, data: Any) -> Any:
        if not isinstance(data, dict):
            raise _Corrupt(cls.__name__)
        return cls(**{_s(k): self.value(v) for k, v in data.items()})

    def value(self, v: Any) -> Any:
        if v is None or isinstance(v, (str, bool, int)):
            return v
        if not isinstance(v, list) or not v:
            raise _Corrupt("value")
        tag = v[0]
        if tag == "t":
            return tuple(self.value(x) for x in v[1:])
        if tag == "q":
            return _frac(v[1])
        if tag == "E":
            cls = _ENUMS.get(_s(v[1]))
            if cls is None:
                raise _Corrupt("enum")
            try:
                return cls(v[2])
            except ValueError:
                raise _Corrupt("enum value") from None
        if tag == "N":
            return _kid(self.nodes, v[1], len(self.nodes))
        if tag == "d":
            return {_s(k): self.value(x) for k, x in v[1]}
        if tag == "D":
            return Domain(integer=bool(v[1]), lo=self.value(v[2]), lo_closed=bool(v[3]), hi=self.value(v[4]),
                          hi_closed=bool(v[5]))
        if tag == "V":
            if type(v[1]) is not int:
                raise _Corrupt("vector start")
            return Vector([self.value(x) for x in v[2]], v[1])
        raise _Corrupt(f"value tag {tag!r}")


# ------------------------------------------------------------------ writing
class _Unencodable(TypeError):
    """A value the format has no tag for (the paper is then not cached)."""


class _Encoder:
    """Records and values as tagged JSON lists: ``["t", ...]`` a tuple, ``["q", "n/d"]`` a
    Fraction (hexadecimal), ``["N", i]`` node ``i`` of the node table, ``["d", [[k, v]...]]``
    a dict, ``["D", ...]`` a Domain, ``["V", start, [...]]`` a Vector; strings, booleans,
    small integers and None as themselves. The node table lists each distinct node object
    once, children before parents."""

    def __init__(self) -> None:
        self.table: list[list] = []
        self.index: dict[int, int] = {}
        self.alive: list[Node] = []           # keeps the encoded nodes' ids their own

    def record(self, obj: Any) -> dict:
        return {f.name: self.value(getattr(obj, f.name)) for f in fields(obj)}

    def value(self, v: Any) -> Any:
        if isinstance(v, _verdicts.StrEnum):            # before str: the verdict words are str enums
            if _ENUMS.get(type(v).__name__) is not type(v):
                raise TypeError(f"cannot cache the enum {type(v).__qualname__}")
            return ["E", type(v).__name__, v.value]
        if v is None or isinstance(v, (str, bool)):
            return v
        if type(v) is int and abs(v) < 2 ** 53:
            return v
        if isinstance(v, Fraction):
            return ["q", _hex(v)]
        if isinstance(v, Node):
            return ["N", self.node(v)]
        if isinstance(v, tuple):
            return ["t", *(self.value(x) for x in v)]
        if isinstance(v, dict) and all(isinstance(k, str) for k in v):
            return ["d", [[k, self.value(x)] for k, x in v.items()]]
        if isinstance(v, Domain):
            return ["D", v.integer, self.value(v.lo), v.lo_closed, self.value(v.hi), v.hi_closed]
        if isinstance(v, Vector):
            return ["V", v.start, [self.value(x) for x in v.values]]
        raise _Unencodable(type(v).__name__)

    def node(self, root: Node) -> int:
        """The index of ``root`` in the table, its subtree added first (no recursion)."""
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            n, ready = stack.pop()
            if id(n) in self.index:
                continue
            kids = n.children()
            if not ready and any(id(c) not in self.index for c in kids):
                stack.append((n, True))
                stack.extend((c, False) for c in kids if id(c) not in self.index)
                continue
            self.index[id(n)] = len(self.table)
            self.alive.append(n)
            self.table.append(self._entry(n))
        return self.index[id(root)]

    def _entry(self, n: Node) -> list:
        ix = self.index
        if isinstance(n, Num):
            return ["n", _hex(n.value)]
        if isinstance(n, Sym):
            return ["s", n.name]
        if isinstance(n, Const):
            return ["c", n.name]
        if isinstance(n, Ref):
            return ["r", n.paper, n.name]
        if isinstance(n, (Add, Mul)):
            return ["+" if isinstance(n, Add) else "*", [ix[id(c)] for c in n.args]]
        if isinstance(n, Pow):
            return ["^", ix[id(n.base)], ix[id(n.exp)]]
        if isinstance(n, Func):
            return ["f", n.name, [ix[id(c)] for c in n.args]]
        if isinstance(n, Indexed):
            return ["i", n.name, ix[id(n.index)]]
        if isinstance(n, BigOp):
            return ["b", n.op, ix[id(n.body)], n.var, ix[id(n.lo)], ix[id(n.hi)]]
        if isinstance(n, Rel):
            return ["<", n.op, ix[id(n.lhs)], ix[id(n.rhs)]]
        raise _Unencodable(type(n).__name__)


def _hex(q: Fraction) -> str:
    return f"{q.numerator:x}/{q.denominator:x}"


def _encode(key: dict, paper: Paper, data: dict) -> dict:
    enc = _Encoder()
    p = {"key": paper.key, "title": paper.title, "authors": paper.authors, "reference": paper.reference,
         "text": paper.text, "results": list(paper.results), "refs": dict(paper.refs), "fail_on": paper.fail_on,
         "symbols": [[k, enc.record(v)] for k, v in paper.symbols.items()],
         "formulas": [[k, enc.record(v)] for k, v in paper.formulas.items()],
         "settings": [[k, enc.record(v)] for k, v in paper.settings.items()],
         "hypotheses": [enc.record(h) for h in paper.hypotheses]}
    return {"key": key, "paper": p, "nodes": enc.table,
            "checks": data.get("checks", []), "steps": data.get("steps", [])}


def _write(entry: Path, key: dict | None, paper: Paper, data: dict) -> None:
    """Write the entry atomically (temporary file + :func:`os.replace`); any failure (a
    value the format cannot hold, a TOML date in a check, a folder that cannot be written)
    leaves the cache as it was."""
    try:
        body = json.dumps(_encode(key or {}, paper, data), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return
    tmp = None
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # here: a read (the common case) needs no temporary file
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=f".{entry.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
        os.replace(tmp, entry)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
