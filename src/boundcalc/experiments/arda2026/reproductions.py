"""The reproductions of the paper, by name.
"""
from __future__ import annotations

from .. import Reproduction
from .fig1 import FIG1_DESCRIPTION, _plot_fig1, rows_fig1, run_fig1
from .minloss import MINLOSS_DESCRIPTION, plot_minloss, run_minloss
from .render import render_fig1, render_minloss, render_teacher
from .settings import SETTINGS
from .teacher import TEACHER_DESCRIPTION, plot_teacher, run_teacher

REPRODUCTIONS = {
    "arda2026-fig1": Reproduction(
        name="arda2026-fig1",
        description=FIG1_DESCRIPTION,
        run=run_fig1, render=render_fig1, rows=rows_fig1, settings=tuple(SETTINGS), plot=_plot_fig1),
    "arda2026-minloss": Reproduction(
        name="arda2026-minloss",
        description=MINLOSS_DESCRIPTION,
        run=run_minloss, render=render_minloss, settings=tuple(SETTINGS), plot=plot_minloss),
    "arda2026-teacher": Reproduction(
        name="arda2026-teacher",
        description=TEACHER_DESCRIPTION,
        run=run_teacher, render=render_teacher, settings=tuple(k for k in SETTINGS if k != "teacher"),
        plot=plot_teacher),
}
