"""Certificates on the relation suite: every case of bench/relations.py decided with
``certify=True``, its certificate replayed by the independent checker (boundcalc.recheck).

    python bench/certificates.py               # the table
    python bench/certificates.py --json out    # and the per-case rows

Prints, per verdict, how many certificates of each kind (counterexample, exact, boxes,
rewrite, trusted: the outermost kind, and for a rewrite the kinds inside it) the checker
accepted, the facts taken on trust by what they trust (z3, SymPy, a layer), and the median
CPU time of a recheck against the median CPU time of the decision that found the proof (same
process, same run; ``time.process_time`` plus the CPU time of the forked children that run
cvc5 for an ``smt`` certificate). A verdict that differs from the one without a
certificate, or a certificate the checker rejects, is listed: it is a defect. Run it under
``nice -n 19`` on a shared machine.
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (cvc5 runs in a forked child)."""
    import resource
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def _trust_key(t: str) -> str:
    body = t.removeprefix("trusted: ")
    return "rewrite" if body.startswith("rewrite") else body.split(" (")[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write every row here")
    args = ap.parse_args()
    from fractions import Fraction

    from relations import load_cases

    from boundcalc.expr.domains import Domain
    from boundcalc.expr.parser import parse
    from boundcalc.prover.budget import fresh_state
    from boundcalc.recheck import _CVC5, recheck
    from boundcalc.services.verify import decide, verify
    kinds = {"P": {"lo": Fraction(0)}, "R": {}, "Z1": {"integer": True, "lo": Fraction(1), "lo_closed": True}}
    old, new, nodes = load_cases()
    rows = []
    for c in old + new + nodes:
        out = {}
        for certify in (False, True):
            fresh_state()                # SymPy's caches emptied: the same work counted both times
            c0 = _cpu()
            if "domains" in c:
                doms = {n: Domain(**kinds[k]) for n, k in (s.split(":") for s in c["domains"].split())}
                r = decide(parse(c["lhs"], allow_relation=False), c["rel"], parse(c["rhs"], allow_relation=False),
                           doms, [parse(a) for a in c["assume"]], certify=certify)
            else:
                r = verify(c["lhs"], c["rel"], c["rhs"], c["assume"], certify=certify)
            out[certify] = (r, _cpu() - c0)
        (plain, t_plain), (withc, t_cert) = out[False], out[True]
        row = {"case": f"{c['lhs']} {c['rel']} {c['rhs']} {c['assume']}", "verdict": str(plain.verdict),
               "same": (plain.verdict, plain.method) == (withc.verdict, withc.method), "find_cpu": t_plain,
               "certify_cpu": t_cert, "kind": None, "valid": None, "trusted": [], "recheck_cpu": None}
        if withc.certificate is not None:
            _CVC5.clear()                # the decision's own recheck asked cvc5 already: ask again
            c0 = _cpu()
            rc = recheck(json.loads(json.dumps(withc.certificate)))
            row.update(kind=withc.certificate["kind"], kinds=rc.kinds, valid=rc.valid, trusted=rc.trusted,
                       complete=rc.complete,
                       recheck_cpu=_cpu() - c0)
        rows.append(row)
    by = collections.Counter((r["verdict"], "+".join(r.get("kinds") or ["none"])) for r in rows)
    print("verdict     certificate kinds (outermost first)        cases")
    for (v, k), n in sorted(by.items()):
        print(f"{v:<11} {k:<42} {n:>5}")
    proved = [r for r in rows if r["verdict"] == "proved"]
    trust = collections.Counter(_trust_key(t) for r in proved for t in r["trusted"])
    fully = sum(1 for r in proved if r.get("complete"))
    print(f"\nproved: {len(proved)}; replayed with nothing trusted: {fully}; trusted facts among them:")
    for k, n in trust.most_common():
        print(f"  trusted: {k:<40} {n:>4}")
    rc = [r["recheck_cpu"] for r in rows if r["recheck_cpu"] is not None]
    fc = [r["find_cpu"] for r in rows if r["recheck_cpu"] is not None]
    if rc:
        print(f"\nmedian CPU: recheck {statistics.median(rc) * 1000:.2f} ms, decision {statistics.median(fc) * 1000:.1f} ms"
              f" (ratio {statistics.median(rc) / max(statistics.median(fc), 1e-9):.3f}); worst recheck "
              f"{max(rc) * 1000:.1f} ms")
    bad = [r for r in rows if not r["same"] or r["valid"] is False]
    for r in bad:
        print(f"  DEFECT: {r['case']}: same verdict {r['same']}, certificate valid {r['valid']}")
    print(f"\n{len(rows)} cases, {len(bad)} defects")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
