"""The matplotlib pages of the eleventh tester's set (``benchmarks/fresh11_pages.py``): a diverging
horizontal bar chart of staff-survey net scores with signed value labels beyond each bar's end and a
legend of two patches, a slope chart of five cities between two years with "City NN%" labels at both
ends (the right-end labels of the highest and lowest line asked), a histogram of delivery times with a
mean line, a promise line, a legend and an arrow callout, and a dumbbell chart of sick days before and
after a pilot per department with the change written right of each row and a subtitle under the title;
in Liberation Serif, DejaVu Sans, Liberation Sans and DejaVu Sans, on ``bmh``, ``fivethirtyeight``,
``Solarize_Light2`` and ``seaborn-v0_8-whitegrid``.

Each function takes ``t(eid, role, text, **context)`` (as ``benchmarks/fresh7/mpl_pages.py``: it
returns the string to draw and records the element) and ``rng`` (``random.Random`` of the page's
seed: the content) and returns the figure; ``benchmarks/fresh7/mpl_pages.draw`` saves it and reads
every recorded artist's box from the engine.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from benchmarks.fresh11 import vocab as V  # noqa: E402


def _distinct(rng, lo: int, hi: int, k: int, skip=()) -> list[int]:
    """``k`` different integers in [lo, hi], none in ``skip``."""
    return rng.sample([v for v in range(lo, hi + 1) if v not in skip], k)


def diverging(t, rng):
    items = rng.sample(V.SURVEY_ITEMS, 6)
    scores = _distinct(rng, -38, 57, 6, skip=range(-3, 4))
    firm, year = rng.choice(V.SURVEY_FIRMS), rng.choice([2024, 2025, 2026])
    with plt.style.context("bmh"), plt.rc_context({"font.family": "Liberation Serif"}):
        fig, ax = plt.subplots(figsize=(9.6, 5.6), dpi=100)
        y = np.arange(len(items))
        colors = ["#3a7d44" if s > 0 else "#c0392b" for s in scores]
        ax.barh(y, scores, color=colors, height=0.62)
        for i, (item, s) in enumerate(zip(items, scores)):
            label = t(f"val-{i}", "value_label", f"{s:+d}", category=item, place="end")
            ax.text(s + (1.5 if s > 0 else -1.5), i, label, va="center", ha="left" if s > 0 else "right", fontsize=13)
        ax.set_yticks(y, labels=[t(f"tick-{i}", "tick_label", s, axis="y", ordinal=i + 1) for i, s in
                                 enumerate(items)])  # fmt: skip
        ax.invert_yaxis()
        ax.axvline(0, color="#333333", lw=1.2)
        ax.set_xlim(-60, 75)
        ax.set_title(t("title", "chart_title", f"{firm}: staff survey {year}"), fontsize=18, loc="left")
        ax.set_xlabel(t("xlabel", "axis_title", "Net agreement (percentage points)", axis="x"), fontsize=13)
        handles = [Patch(color="#3a7d44"), Patch(color="#c0392b")]
        ax.legend(handles, [t("leg-0", "legend_entry", "More agree than disagree"),
                            t("leg-1", "legend_entry", "More disagree than agree")], loc="lower right",
                  fontsize=11)  # fmt: skip
        ax.tick_params(labelsize=12)
        n = rng.randint(180, 940)
        fig.text(0.015, 0.02, t("source", "source_note", f"Base: {n} employees who answered every item"),
                 fontsize=10, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.22, right=0.97, bottom=0.15, top=0.9)
    return fig


def slope(t, rng):
    cities = rng.sample(V.CITIES, 5)
    topic, unit = rng.choice(V.SLOPE_TOPICS)
    start = _distinct(rng, 6, 36, 5)
    while any(abs(a - b) < 3 for a in start for b in start if a != b):  # the labels at each end must not touch
        start = _distinct(rng, 6, 36, 5)
    end = [s + rng.randint(-4, 25) for s in start]
    while len(set(end)) < 5 or any(abs(a - b) < 3 for a in end for b in end if a != b):
        end = [s + rng.randint(-4, 25) for s in start]
    years = rng.choice([(2015, 2025), (2018, 2025), (2016, 2024)])
    top, bottom = max(range(5), key=lambda i: end[i]), min(range(5), key=lambda i: end[i])
    with plt.style.context("fivethirtyeight"), plt.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(8.4, 6.4), dpi=100)
        for i, c in enumerate(cities):
            ax.plot([0, 1], [start[i], end[i]], marker="o", lw=2.5, color=f"C{i}")
            ax.text(-0.04, start[i], f"{c} {start[i]}%", ha="right", va="center", fontsize=11, color=f"C{i}")
            right = f"{c} {end[i]}%"
            if i in (top, bottom):
                right = t(f"end-{i}", "line_end_label", right, rank="top" if i == top else "bottom")
            ax.text(1.04, end[i], right, ha="left", va="center", fontsize=11, color=f"C{i}")
        ax.set_xlim(-0.55, 1.55)
        ax.set_xticks([0, 1], labels=[t(f"year-{k}", "tick_label", str(yv), axis="x", ordinal=k + 1) for k, yv in
                                      enumerate(years)])  # fmt: skip
        ax.set_ylabel(t("ylabel", "axis_title", unit.capitalize(), axis="y"), fontsize=13)
        ax.set_title(t("title", "chart_title", topic), fontsize=17)
        ax.tick_params(labelsize=12)
        fig.text(0.02, 0.02, t("source", "source_note", f"Municipal surveys, {years[0]} and {years[1]}"),
                 fontsize=10, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.1, top=0.9)
    return fig


def histogram(t, rng):
    courier = rng.choice(V.COURIERS)
    mean_target = rng.uniform(2.2, 3.6)
    data = np.array([max(0.3, rng.gammavariate(4, mean_target / 4)) for _ in range(900)])
    mean = float(data.mean())
    promise = rng.choice([2, 3])
    quarter = rng.choice(["Q1", "Q2", "Q3", "Q4"])
    with plt.style.context("Solarize_Light2"), plt.rc_context({"font.family": "Liberation Sans"}):
        fig, ax = plt.subplots(figsize=(9.4, 5.6), dpi=100)
        counts, _, _ = ax.hist(data, bins=np.arange(0, 9.5, 0.5), color="#268bd2", edgecolor="white")
        ax.axvline(mean, color="#dc322f", lw=2, ls="--",
                   label=t("leg-0", "legend_entry", "Average across all parcels"))  # fmt: skip
        ax.axvline(promise, color="#2aa198", lw=2, label=t("leg-1", "legend_entry", f"{promise}-day delivery promise"))
        late = 100 * float((data > promise).mean())
        ax.annotate(t("ann", "callout", f"{late:.0f}% arrive after the promise"), (promise + 1.2, counts.max() * 0.45),
                    xytext=(60, 40), textcoords="offset points", fontsize=12,
                    arrowprops={"arrowstyle": "->", "color": "#586e75"},
                    bbox={"boxstyle": "round,pad=0.3", "fc": "#fdf6e3", "ec": "#93a1a1"})  # fmt: skip
        ax.set_title(t("title", "chart_title", f"{courier} delivery times, {quarter}"), fontsize=18)
        ax.set_xlabel(t("xlabel", "axis_title", "Days from order to doorstep", axis="x"), fontsize=13)
        ax.set_ylabel(t("ylabel", "axis_title", "Parcels delivered", axis="y"), fontsize=13)
        ax.legend(loc="upper right", fontsize=11)
        ax.tick_params(labelsize=12)
        fig.text(0.015, 0.02, t("source", "source_note", f"Sample of {len(data)} tracked parcels"), fontsize=10,
                 color="#586e75")  # fmt: skip
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.14, top=0.9)
    return fig


def dumbbell(t, rng):
    depts = rng.sample(V.DEPARTMENTS, 5)
    before = [round(rng.uniform(5.5, 11.5), 1) for _ in depts]
    after = [round(b - rng.uniform(0.6, 3.8), 1) for b in before]
    changes = [round(a - b, 1) for a, b in zip(after, before)]
    for i in range(len(changes)):
        while changes[i] in changes[:i]:
            after[i] = round(after[i] - 0.1, 1)
            changes[i] = round(after[i] - before[i], 1)
    with plt.style.context("seaborn-v0_8-whitegrid"), plt.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(9.8, 5.8), dpi=100)
        y = np.arange(len(depts))
        ax.hlines(y, after, before, color="#b0b0b0", lw=3)
        ax.scatter(before, y, s=110, color="#8e7cc3", zorder=3, label=t("leg-0", "legend_entry", "Before the pilot"))
        ax.scatter(after, y, s=110, color="#e69138", zorder=3, label=t("leg-1", "legend_entry", "After six months"))
        for i, (d, c) in enumerate(zip(depts, changes)):
            ax.text(13.1, i, t(f"chg-{i}", "value_label", f"{c:+.1f} days", category=d, place="end"), va="center",
                    fontsize=12, color="#444444")  # fmt: skip
        ax.set_yticks(y, labels=[t(f"tick-{i}", "tick_label", d, axis="y", ordinal=i + 1) for i, d in
                                 enumerate(depts)])  # fmt: skip
        ax.invert_yaxis()
        ax.set_xlim(0, 15)
        fig.suptitle(t("title", "chart_title", "Four-day week pilot: sick days per employee"), fontsize=17, x=0.03,
                     ha="left", y=0.97)  # fmt: skip
        org = rng.choice(V.SURVEY_FIRMS)
        fig.text(0.03, 0.885, t("subtitle", "subtitle", f"{org}, annualised, by department"), fontsize=12,
                 color="#555555")  # fmt: skip
        ax.set_xlabel(t("xlabel", "axis_title", "Sick days per employee per year", axis="x"), fontsize=13)
        ax.legend(loc="lower left", fontsize=11, frameon=True)
        ax.tick_params(labelsize=12)
        fig.subplots_adjust(left=0.17, right=0.97, bottom=0.12, top=0.83)
    return fig


PAGES = {"diverging": diverging, "slope": slope, "histogram": histogram, "dumbbell": dumbbell}
