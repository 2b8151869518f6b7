"""HTML: fragments for notebooks (``_repr_html_``), and one self-contained page
(``page=True``: ``check --html FILE``, ``compare KEY --html FILE``).

The page fetches nothing when it is viewed: the style and the script are inline, a
Content-Security-Policy forbids every other source, fonts are the reader's own, and the
math is MathML written here from the formula files' LaTeX (:mod:`..mathml`, latex2mathml;
browsers render MathML Core natively). It reads without JavaScript (every finding shown,
the evidence in ``<details>``); the script only adds the filters (per paper and per grade,
with counts) and the buttons that copy a re-run command. Text is escaped by
:func:`boundcalc.reports.escape.html_text` (the one HTML escaper: control characters shown).

The page of the check report: the counts (paper x grade), then per paper each finding
(``<article class="finding">``, worst grade first, each root followed by its
consequences) with its claim, derived expression and counterexample typeset in the
paper's notation (:mod:`.evidence`), the hypotheses at the point and whether each holds,
the re-run command, and the rest of the evidence collapsed; then the passed checks,
collapsed.
"""
from __future__ import annotations

from typing import ClassVar

from .base import Printer

# the colour of each grade: Okabe-Ito (colour-blind safe), and each grade also says its name
GRADE_COLOURS = {"error": "#D55E00", "warning": "#E69F00", "note": "#0072B2", "cannot fail": "#CC79A7",
                 "identity": "#737373", "conditional": "#56B4E9", "ok": "#009E73"}
HOLDS_WORDS: dict[bool | None, str] = {True: "holds", False: "fails", None: "undecided"}
# evidence keys the page shows in their own place (not again in the collapsed evidence)
_OWN_PLACE = ("hypotheses", "hypotheses_at_point", "hypotheses_at_counterexample", "at")

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'")

_STYLE = """
:root { --fg: #1a1a1a; --muted: #595959; --line: #d0d0d0; --bg-soft: #f5f5f5; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--fg); max-width: 62rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 2px solid var(--line); }
math { font-size: 1.08em; }
code, .cmd { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 4.5rem; text-align: center; color: #fff; border-radius: .25rem;
         padding: 0 .4rem; font-weight: 600; font-size: .85rem; }
.finding { border: 1px solid var(--line); border-left: 6px solid var(--grade); border-radius: .3rem;
           padding: .5rem .9rem; margin: .9rem 0; }
.finding.consequence { margin-left: 2rem; }
.finding > header { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
.finding .check { font-weight: 600; }
.finding .meta, .finding .where { color: var(--muted); font-size: .9rem; }
.finding .where { margin: .2rem 0; }
dl.math { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .3rem .8rem; margin: .6rem 0; }
dl.math dt { color: var(--muted); font-size: .9rem; padding-top: .35rem; }
dl.math dd { margin: 0; overflow-x: auto; overflow-y: hidden; padding: .15rem 0; }
.point math { margin-right: .2rem; } .point { line-height: 2; }
/* display-style math, set flush left (Chromium centres "block math") */
math[display="block"] { display: math; math-style: normal; margin: .2rem 0; }
.holds-true { color: #007a58; font-weight: 600; } .holds-false { color: #b34700; font-weight: 600; }
.holds-none { color: var(--muted); }
.rerun { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; background: var(--bg-soft);
         padding: .3rem .5rem; border-radius: .25rem; }
.rerun .cmd { user-select: all; }
button.copy { font: inherit; font-size: .8rem; padding: .05rem .5rem; cursor: pointer; }
details { margin: .4rem 0; } details > summary { cursor: pointer; color: var(--muted); }
dl.evidence dt { font-weight: 600; font-size: .85rem; } dl.evidence dd { margin: 0 0 .3rem 1rem;
         font-size: .85rem; overflow-wrap: anywhere; }
#filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line);
           padding: .3rem 0; z-index: 1; }
#filters summary { padding: .1rem 0; }
#filters[hidden] { display: none; }
#filters fieldset { display: inline-block; min-width: 0; max-width: 100%; border: 1px solid var(--line);
                    margin: .2rem .4rem .2rem 0; }
#filters label { margin-right: .6rem; white-space: nowrap; display: inline-block; }
/* a table scrolls in its own box; the page never scrolls sideways */
.scroll { overflow-x: auto; max-width: 100%; }
.scroll > table { margin: 0; }
.finding, .finding > p, dl.math dd, dl.evidence dd, li { overflow-x: auto; overflow-y: hidden; }
.finding { min-width: 0; }
code, .cmd { overflow-wrap: anywhere; }
/* an option of the settings line is one box: a line breaks between options, not after the
   first hyphen of --T (it did at 390 px); one longer than the line still wraps inside */
.meta code { display: inline-block; max-width: 100%; }
@media (max-width: 40rem) {
  body { padding: .5rem .6rem 3rem; }
  h1 { font-size: 1.3rem; }
  .finding { padding: .4rem .5rem; }
  .finding.consequence { margin-left: .6rem; }
  dl.math { grid-template-columns: minmax(0, 1fr); gap: 0; }
  dl.math dt { padding-top: .3rem; }
  #filters details[open] { max-height: 45vh; overflow-y: auto; }
}
.hidden-by-filter { display: none; }
.quote { color: var(--muted); font-size: .9rem; }
"""

_SCRIPT = """
(function () {
  var form = document.getElementById('filters');
  var all = Array.prototype.slice.call(document.querySelectorAll('article.finding'));
  function apply() {
    var on = {};
    form.querySelectorAll('input[type=checkbox]').forEach(function (b) {
      on[b.dataset.filter + ':' + b.value] = b.checked; });
    var shown = 0;
    all.forEach(function (a) {
      var show = on['paper:' + a.dataset.paper] && on['grade:' + a.dataset.grade];
      a.classList.toggle('hidden-by-filter', !show);
      if (show) { shown += 1; }
    });
    document.getElementById('shown-count').textContent = String(shown);
    document.querySelectorAll('section.paper').forEach(function (s) {
      var n = s.querySelectorAll('article.finding:not(.hidden-by-filter)').length;
      s.querySelector('.paper-shown').textContent = String(n);
    });
  }
  if (form) {
    form.hidden = false;
    var box = form.querySelector('details');
    if (box) { box.open = !window.matchMedia('(max-width: 40rem)').matches; }   // folded on a phone
    form.addEventListener('change', apply);
    apply();
  }
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var text = b.dataset.copy;
      function done() { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1500); }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
      } else { fallback(text); done(); }
    });
  });
  function fallback(text) {
    var t = document.createElement('textarea'); t.value = text; document.body.appendChild(t);
    t.select(); try { document.execCommand('copy'); } catch (e) {} document.body.removeChild(t);
  }
})();
"""


def _e(s) -> str:
    from ..escape import html_text
    return html_text(s)


def _frame_html(df) -> str:
    """A DataFrame as an HTML table: pandas escapes the cells; control characters shown."""
    from ..escape import visible_controls
    df = df.copy()
    for c in df.columns:
        if df[c].dtype.kind in "OSU" or str(df[c].dtype) in ("string", "category"):
            df[c] = df[c].astype(object).map(lambda v: visible_controls(v) if isinstance(v, str) else v)
    return df.to_html(index=False, escape=True)


def _slug(s: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in s)


def page(title: str, body: str, *, wide: bool = False) -> str:
    """A complete, self-contained HTML document around ``body`` (``wide``: for a table)."""
    from ..._version import __version__
    style = _STYLE + ("body { max-width: 92rem; }" if wide else "")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_CSP}\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<meta name=\"generator\" content=\"boundcalc {_e(__version__)}\">\n"
            f"<title>{_e(title)}</title>\n<style>{style}</style>\n</head>\n<body>\n{body}\n"
            f"<footer><p class=\"meta\">Written by boundcalc {_e(__version__)}. Self-contained: nothing is "
            "fetched when it is viewed; the math is MathML.</p></footer>\n"
            f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")


def rerun_line(cmd: str, label: str = "re-run") -> str:
    """The command in a code box with a copy button (shown by the script)."""
    return (f'<div class="rerun"><span class="meta">{_e(label)}:</span> <code class="cmd">{_e(cmd)}</code>'
            f'<button type="button" class="copy" data-copy="{_e(cmd)}" hidden>copy</button></div>')


def badge(grade: str) -> str:
    return (f'<span class="badge" style="background:{GRADE_COLOURS.get(grade, "#595959")}">'
            f'{_e(grade)}</span>')


class HtmlPrinter(Printer):
    format = "html"
    _default_settings: ClassVar[dict] = {"page": False, "command": ""}

    # ------------------------------------------------------------------ comparison table
    def _print_Table(self, t) -> str:
        """The table (a notebook's fragment), or with ``page=True`` a page: the quantity,
        hypotheses and notes with their math typeset (as the LaTeX table reads them,
        :func:`..latex.ascii_math_parts`), numbers with a true minus and powers of ten, the
        settings as the options that give them (code)."""
        if not self._settings["page"]:
            return "\n".join(self._table_parts(t, f"<p><b>{_e(t.paper)}: {_ascii_math(t.title)}</b></p>"))
        return page(f"boundcalc compare {t.paper}",
                    "\n".join(self._table_parts(t, f"<h1>{_e(t.paper)}: {_ascii_math(t.title)}</h1>")), wide=True)

    def _table_parts(self, t, heading: str) -> list[str]:
        from ..numfmt import yesno
        from .cells import COLUMNS, cells, notes, setting_options
        num = {"bound", "measured", "bound/measured"}
        head = "".join(f'<th class="{"num" if c in num else ""}">{_e(c)}</th>' for c in COLUMNS)
        rows = []
        for r in t.rows:
            cs = cells(r)
            holds = {True: "holds-true", False: "holds-false", None: "holds-none"}[r.holds]
            tds = []
            for c, v in zip(COLUMNS, cs):
                if c == "quantity":
                    tds.append(f"<td>{_label(r)}</td>")
                elif c in num:
                    tds.append(f'<td class="num">{_number(v)}</td>')
                elif c == "hypotheses met":      # yes/no, then the hypotheses with their math
                    tds.append(f"<td>{_e(yesno(r.hypotheses_met))}"
                               + (f" ({_ascii_math(r.hypotheses)})" if r.hypotheses else "") + "</td>")
                elif c in ("source", "constant"):
                    tds.append(f"<td>{_ascii_math(v)}</td>")
                else:
                    tds.append(f'<td class="{holds if c == "holds" else ""}">{_e(v)}</td>')
            rows.append("<tr>" + "".join(tds) + "</tr>")
        settings = ", ".join(f"<code>{_e(o)}</code>" for o in setting_options(t)) or "none"
        seed = f"; seed {t.seed}" if t.seed is not None else ""
        body = [heading, f'<p class="meta">settings: {settings}{seed}</p>']
        if self._settings["command"]:
            body.append(rerun_line(self._settings["command"]))
        body.append(f'<div class="scroll"><table id="comparison"><thead><tr>{head}</tr></thead>'
                    f'<tbody>{"".join(rows)}</tbody></table></div>')
        extra = notes(t)
        if extra:
            body.append("<h2>Notes</h2><ul>" + "".join(f"<li>{_ascii_math(n)}</li>" for n in extra) + "</ul>")
        return body

    # ------------------------------------------------------------------ check report
    def _print_Report(self, report) -> str:
        """The counts, then the findings (errors first); with ``page=True`` the whole
        report as a page."""
        if self._settings["page"]:
            return self._report_page(report)
        from ...verdicts import Grade
        from ..frames import FINDING_COLUMNS
        df = report.to_frame()
        counts = df["severity"].value_counts().reindex(df["severity"].cat.categories, fill_value=0)
        head = ", ".join(f"{int(n)} {s}" for s, n in counts.items()
                         if n or s not in (Grade.CANNOT_FAIL, Grade.IDENTITY, Grade.CONDITIONAL))   # the newer grades when present
        findings = report.to_frame(passed=False).sort_values(["severity", "paper", "check"], kind="stable")
        table = _frame_html(findings[list(FINDING_COLUMNS)]) if len(findings) else "<p>no findings</p>"
        return (f"<p><b>boundcalc check</b> ({_e(', '.join(report.papers))}): "
                f"{len(df)} checks run: {_e(head)}</p>\n{table}")

    def _report_page(self, report) -> str:
        from ...verdicts import GRADES, Grade
        grades = [g for g in GRADES if g is not Grade.OK]
        fs = report.findings
        n_by = {(p, g): sum(f.paper == p and f.severity is g for f in fs) for p in report.papers for g in grades}
        shown_grades = [g for g in grades if any(n_by[p, g] for p in report.papers)
                        or g in (Grade.ERROR, Grade.WARNING, Grade.NOTE)]
        passed = [r for r in report.results if r.severity is Grade.OK]
        cmd = self._settings["command"] or (
            "boundcalc check" + ("" if len(report.papers) > 1 else " " + report.papers[0]) + report.options)
        out = [f"<h1>boundcalc check: {_e(', '.join(report.papers))}</h1>",
               (f'<p>{len(report.results)} checks in {report.seconds:.1f} s: <b>{len(fs)} findings</b> '
               f'({", ".join(f"{sum(n_by[p, g] for p in report.papers)} {g}" for g in shown_grades)}), '
               f'{len(passed)} passed.</p>'), rerun_line(cmd, "this report"),
               ('<p class="meta">Grades: <b>error</b> = false as printed (or an invalid bound); <b>warning</b> = '
               'imprecise (polylog factor, larger constant, vacuous) or undecided; <b>note</b> = rests on a '
               'reading of garbled text, on comparing versions, or on sampling only, or evaluates a result '
               'outside its hypotheses; <b>identity</b> = records an identity or is a tautology of the encoding '
               '(not counted as a pass); <b>conditional</b> = passes only under an assumption added by us. '
               'Expressions are typeset in the paper\'s notation; one over 120 characters gets named '
               'subterms A, B, … defined first. The JSON (<code>check --json</code>) keeps SymPy\'s text.</p>')]
        out += self._counts_and_filters(report, n_by, shown_grades, passed)
        for p in report.papers:
            out += self._paper_section(report, p)
        if passed:
            out.append(self._passed_table(passed))
        return page(f"boundcalc check: {', '.join(report.papers)}", "\n".join(out))

    def _counts_and_filters(self, report, n_by: dict, shown_grades: list, passed: list) -> list[str]:
        """The counts, a table that reads without the script, and the filters it shows."""
        fs = report.findings
        out: list[str] = []
        rows = ["<tr><th>paper</th>" + "".join(f'<th class="num">{badge(g)}</th>' for g in shown_grades)
                + '<th class="num">passed</th></tr>']
        for p in report.papers:
            rows.append(f'<tr><td><a href="#paper-{_slug(p)}">{_e(p)}</a></td>'
                        + "".join(f'<td class="num">{n_by[p, g]}</td>' for g in shown_grades)
                        + f'<td class="num">{sum(r.paper == p for r in passed)}</td></tr>')
        out.append('<div class="scroll"><table id="counts">' + "".join(rows) + "</table></div>")
        # the filters (shown by the script)
        boxes_p = "".join(f'<label><input type="checkbox" data-filter="paper" value="{_e(p)}" checked> '
                          f'{_e(p)} ({sum(f.paper == p for f in fs)})</label>' for p in report.papers)
        boxes_g = "".join(f'<label><input type="checkbox" data-filter="grade" value="{_e(g)}" checked> '
                          f'{_e(g)} ({sum(f.severity is g for f in fs)})</label>' for g in shown_grades)
        out.append(f'<form id="filters" hidden><details open><summary>filters: showing <b id="shown-count">'
                   f'{len(fs)}</b> of {len(fs)} findings</summary>'
                   f'<fieldset><legend>paper</legend>{boxes_p}</fieldset>'
                   f'<fieldset><legend>grade</legend>{boxes_g}</fieldset></details></form>')
        return out

    def _paper_section(self, report, p) -> list[str]:
        """One paper's findings, each followed by its consequences."""
        from ...verdicts import GRADES
        fs = report.findings
        out: list[str] = []
        mine = sorted((f for f in fs if f.paper == p), key=lambda f: GRADES.index(f.severity))
        shown = {f"{x.paper}.{x.check}" for x in mine}
        out.append(f'<section class="paper" id="paper-{_slug(p)}" data-paper="{_e(p)}">'
                   f'<h2>{_e(p)} <small class="meta">(<span class="paper-shown">{len(mine)}</span> of '
                   f'{len(mine)} findings shown)</small></h2>')
        if not mine:
            out.append("<p>No findings.</p>")
        for f in (x for x in mine if not x.root or x.root not in shown):
            out.append(self._finding(f))
            for c in (x for x in fs if x.root == f"{f.paper}.{f.check}"):
                out.append(self._finding(c, consequence=True))
        out.append("</section>")
        return out

    @staticmethod
    def _passed_table(passed: list) -> str:
        """The passed checks (with the mutants each caught), folded."""
        from ..latex import names_of
        from . import evidence as ev_

        def message(r) -> str:
            with names_of(r.paper):    # in that paper's notation, as its findings
                return _ascii_math(_sympy_ascii(r.message))
        items = "".join(f"<tr><td><code>{_e(r.paper)}.{_e(r.check)}</code></td><td>{_e(r.kind)}</td>"
                        f"<td>{message(r)}" + "".join(f"<br><small>{_e(x)}</small>" for x in ev_.strength_lines(r))
                        + "</td></tr>" for r in passed)
        return (f'<h2 id="passed">Passed</h2><details><summary>{len(passed)} passed checks</summary>'
                f'<div class="scroll"><table><tr><th>check</th><th>kind</th><th>message</th></tr>{items}</table>'
                "</div></details>")

    def _finding(self, f, consequence: bool = False) -> str:
        from ..latex import names_of
        with names_of(f.paper):        # its text names that paper's symbols in its notation
            return self._finding_in(f, consequence)

    def _finding_in(self, f, consequence: bool) -> str:
        from . import evidence as ev_
        ev = f.evidence if isinstance(f.evidence, dict) else {}
        keys = ev_.typeset_keys(ev)
        names = dict(getattr(f, "notation", None) or {})
        grade = str(f.severity)
        fid = f"{f.paper}.{f.check}"
        head = (f'<header>{badge(grade)} <code class="check">{_e(f.check)}</code>'
                f'<span class="meta">{_e(f.kind)}{"; " + _e(f.reason) if f.reason else ""}</span></header>')
        parts = [head, f'<p class="where">{_ascii_math(f.location)}</p>']
        if f.root:
            parts.append(f'<p class="meta">consequence of <a href="#{_slug(f.root)}"><code>{_e(f.root)}</code></a>'
                         f'{": " + _ascii_math(f.because) if f.because else ""}</p>')
        parts.append(f'<p class="message">{_ascii_math(_sympy_ascii(f.message))}</p>')
        if getattr(f, "note", ""):        # the check's declared note, whatever the grade
            parts.append(f'<p class="meta">note: {_ascii_math(f.note)}</p>')
        # the assumption in the ASCII convention, its reason quoting the paper's $...$ math
        for line in ev_.added_lines(f, text=_e, assumption=lambda a: _ascii_math(_sympy_ascii(a)),
                                    reason=_quote):
            parts.append(f'<p class="meta">{line}</p>')
        for line in ev_.strength_lines(f):
            parts.append(f'<p class="meta">{_e(line)}</p>')
        dl = self._math_terms(ev, keys, names)
        if dl:
            parts.append('<dl class="math">' + "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in dl) + "</dl>")
        for key, label in (("hypotheses_at_counterexample", "Hypotheses at the counterexample"),
                           ("hypotheses_at_point", "Hypotheses at the point")):
            rows = ev.get(key)
            if isinstance(rows, list) and rows:
                parts.append(self._hypotheses(rows, label))
        parts.append(rerun_line(f.rerun) if f.rerun else "")
        if f.api and f.kind == "measured":
            parts.append(rerun_line(f.api, "Python"))
        parts.append(self._evidence_details(ev, keys))
        cls = "finding consequence" if consequence else "finding"
        return (f'<article class="{cls}" id="{_slug(fid)}" data-paper="{_e(f.paper)}" data-grade="{_e(grade)}" '
                f'style="--grade:{GRADE_COLOURS.get(grade, "#595959")}">' + "".join(parts) + "</article>")

    @staticmethod
    def _math_terms(ev: dict, keys, names: dict) -> list:
        """(label, MathML) of the evidence's expressions (named subterms first), its
        counterexample and its point, typeset in the paper's notation."""
        from ..mathml import math
        from . import evidence as ev_
        dl = []
        if any(k in ev_.EXPRESSIONS for k in keys):
            defs, exprs, more = ev_.expressions(ev)
            names = {**more, **names}
            for sym, sub in defs:
                dl.append(("where", math(f"{ev_.latex(sym, names)} = {ev_.latex(sub, names)}", block=True)))
            for label, _, e in exprs:
                dl.append((label, math(ev_.latex(e, names), block=True)))
        if "counterexample" in keys:
            dl.append(("counterexample", _point(ev["counterexample"], names)))
        at = ev.get("at")
        if isinstance(at, dict) and ev_._is_point(at):
            dl.append(("at the point", _point(at, names)))
        return dl

    @staticmethod
    def _evidence_details(ev: dict, keys) -> str:
        """The rest of the evidence and the hypotheses as the paper states them, folded ('' if none)."""
        from . import evidence as ev_
        rest = [(k, v) for k, v in ev.items() if k not in keys and k not in _OWN_PLACE and v not in (None, {}, [], "")]
        quotes = []
        for h in ev.get("hypotheses") or []:
            if isinstance(h, dict) and h.get("quote") and h["quote"] not in quotes:
                quotes.append(h["quote"])
        if not (rest or quotes):
            return ""
        # the rest as the record holds it (report.json's keys and SymPy's text): code
        items = "".join(f"<dt><code>{_e(k)}</code></dt>"
                        f"<dd><code>{_e(ev_.evidence_text({k: v}, limit=4000)[len(k) + 2:])}</code></dd>"
                        for k, v in rest)
        q = ""
        if quotes:
            q = ("<dt>hypotheses, as the paper states them</dt>"
                 + "".join(f'<dd class="quote">“{_quote(s)}”</dd>' for s in quotes))
        return (f'<details class="evidence"><summary>evidence</summary><dl class="evidence">{items}{q}</dl>'
                "</details>")

    @staticmethod
    def _hypotheses(rows: list, label: str) -> str:
        from ..mathml import math
        from . import evidence as ev_
        trs = []
        for r in rows:
            if not isinstance(r, dict):
                continue
            h = r.get("holds")
            word = HOLDS_WORDS.get(h, "undecided")
            cls = "holds-true" if h is True else "holds-false" if h is False else "holds-none"
            if "lhs" in r and "rhs" in r:
                val = math(f"{ev_.value_latex(str(r['lhs']))} \\text{{ vs }} {ev_.value_latex(str(r['rhs']))}")
            else:
                val = _ascii_math(str(r.get("why", "")))
            trs.append(f"<tr><td><code>{_e(r.get('hypothesis', ''))}</code></td>"
                       f"<td>{_ascii_math(str(r.get('from', '')))}</td>"
                       f'<td class="{cls}">{word}</td><td>{val}</td></tr>')
        return (f'<div class="scroll"><table class="hypotheses"><caption class="meta">{_e(label)}</caption>'
                "<tr><th>hypothesis</th><th>from</th><th>at the point</th><th>values (left vs right)</th></tr>"
                + "".join(trs) + "</table></div>")


def _pieces(parts) -> str:
    """:func:`..latex.ascii_math_parts` pieces as HTML: text escaped, math and numbers as MathML."""
    from ..latex import num_math
    from ..mathml import math
    return "".join(_e(p) if kind == "text" else f"<code>{_e(p)}</code>" if kind == "code"
                   else math(p if kind == "math" else num_math(p)) for kind, p in parts)


def _label(row) -> str:
    """A comparison row's quantity: its LaTeX as MathML, its words as text
    (:func:`..latex.label_parts`, as the LaTeX table and the figures read it)."""
    from ..latex import label_parts
    return _pieces(label_parts(row))


def _ascii_math(text: str) -> str:
    """Text in the ASCII math convention (a note, a hypothesis) with its math as MathML; the
    text as written, as code, when a piece of it does not typeset (a message cut inside an
    expression, "R_O**..."): never a MathML error box, never ASCII math passed off as text."""
    from ..latex import ascii_math_parts
    out = _pieces(ascii_math_parts(text))
    return f"<code>{_e(text)}</code>" if "<merror" in out else out


def _quote(text: str) -> str:
    """Words with the paper's ``$...$`` math (a reason quoting the paper, a hypothesis as
    stated), the words' own math read too (:func:`..latex.quote_parts`); the text as written,
    as code, when a piece does not typeset."""
    from ..latex import quote_parts
    out = _pieces(quote_parts(text))
    return f"<code>{_e(text)}</code>" if "<merror" in out else out


def _sympy_ascii(text: str) -> str:
    from .evidence import sympy_ascii
    return sympy_ascii(text)


def _number(cell: str) -> str:
    """A number cell (``fmt_human``): a power of ten as MathML, a true minus."""
    import re
    m = re.fullmatch(r"(-?[\d.]+)e(-?\d+)", cell)
    if m:
        from ..latex import num_math
        from ..mathml import math
        return math(num_math(cell))
    return _e(cell.replace("-", "\N{MINUS SIGN}") if re.fullmatch(r"-[\d.]+", cell) else cell)


def _point(ce: dict, names: dict) -> str:
    """A point as ``symbol = value`` items, each its own math, wrapping between items."""
    from ..mathml import math
    from . import evidence as ev_
    return '<span class="point">' + ", ".join(math(t) for t in ev_.point_latex_items(ce, names)) + "</span>"


def to_html(obj, **settings) -> str:
    """``obj`` as an HTML fragment; ``page=True``: a complete self-contained page
    (``command``: the command line the page names to re-create it)."""
    return HtmlPrinter(**settings).doprint(obj)
