"""The matplotlib pages of the ninth tester's set (``benchmarks/fresh9_pages.py``): a stacked area
chart whose legend sits in a row above the axes, a scatter coloured by a third value with a colour
bar (its rotated label a distractor beside the y-axis title) and boxed annotations, a 2x2 figure of
small multiples with a title per panel and one shared legend, and a Gantt chart with month ticks on
top and white duration labels inside the bars, in Liberation Sans Narrow, DejaVu Sans, Liberation
Sans and Liberation Serif, on ``seaborn-v0_8-whitegrid``, white, ``fivethirtyeight`` and white.

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

from benchmarks.fresh9 import vocab as V  # noqa: E402


def area_top(t, rng):
    fuels = rng.sample(V.FUELS, 4)
    years = V.YEARS
    data = np.array([[rng.uniform(4, 20) + k * j * rng.uniform(0, 1.5) for j in range(len(years))] for k in
                     range(len(fuels))])  # fmt: skip
    with plt.style.context("seaborn-v0_8-whitegrid"), plt.rc_context({"font.family": "Liberation Sans Narrow"}):
        fig, ax = plt.subplots(figsize=(9.4, 5.6), dpi=100)
        x = np.arange(len(years))
        labels = [t(f"leg-{k}", "legend_entry", f) for k, f in enumerate(fuels)]
        ax.stackplot(x, data, labels=labels, colors=["#f4a261", "#2a9d8f", "#264653", "#e9c46a"], alpha=0.9)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.01), ncol=4, fontsize=14, frameon=False)
        ax.set_xticks(x, labels=[t(f"tick-{i}", "tick_label", y, axis="x", ordinal=i + 1) for i, y in
                                 enumerate(years)])  # fmt: skip
        ax.set_xlim(0, len(years) - 1)
        country = rng.choice(["Portugal", "Denmark", "Chile", "Kenya", "Vietnam"])
        fig.suptitle(t("title", "chart_title", f"Electricity generation in {country}"), x=0.08, ha="left",
                     fontsize=20, fontweight="bold")  # fmt: skip
        ax.set_ylabel(t("ylabel", "axis_title", "Terawatt hours", axis="y"), fontsize=15)
        ax.tick_params(labelsize=14)
        fig.text(0.08, 0.02, t("source", "source_note", f"Source: national grid operator, {rng.choice([2024, 2025])}"),
                 fontsize=11, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.08, right=0.97, bottom=0.14, top=0.82)
    return fig


def scatter_cbar(t, rng):
    species = rng.sample(V.SPECIES, 3)
    n = 40
    xs = [rng.uniform(5, 45) for _ in range(n)]
    ys = [x * rng.uniform(0.6, 1.1) + rng.uniform(0, 8) for x in xs]
    cs = [rng.uniform(0, 30) for _ in range(n)]
    with plt.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(9, 6), dpi=100)
        sc = ax.scatter(xs, ys, c=cs, cmap="viridis", s=50, edgecolor="white", linewidth=0.5)
        bar = fig.colorbar(sc, ax=ax, pad=0.02)
        bar.set_label("Age (years)", fontsize=13)
        for i, name in enumerate(species):
            k = rng.randrange(n)
            ax.annotate(t(f"ann-{i}", "callout", f"{name} plot {rng.randint(2, 19)}"), (xs[k], ys[k]),
                        xytext=(12, 18 - 26 * (i % 2)), textcoords="offset points", fontsize=12,
                        bbox={"boxstyle": "round,pad=0.3", "fc": "#fff3b0", "ec": "#b08900"})  # fmt: skip
        ax.set_xlim(0, 50)
        ax.set_ylim(0, 60)
        ax.set_title(t("title", "chart_title", "Trunk diameter against tree height"), fontsize=17)
        ax.set_xlabel(t("xlabel", "axis_title", "Diameter at breast height (cm)", axis="x"), fontsize=13)
        ax.set_ylabel(t("ylabel", "axis_title", "Height (m)", axis="y"), fontsize=13)
        fig.subplots_adjust(left=0.09, right=0.98, bottom=0.11, top=0.92)
    return fig


def multiples(t, rng):
    depts = rng.sample(V.DEPARTMENTS, 4)
    series = rng.choice([("Budget", "Actual"), ("Plan", "Spend"), ("Forecast", "Outturn")])
    with plt.style.context("fivethirtyeight"), plt.rc_context({"font.family": "Liberation Sans"}):
        fig, axes = plt.subplots(2, 2, figsize=(10, 6.6), dpi=100, sharex=True)
        x = np.arange(1, 13)
        lines = []
        for k, (ax, d) in enumerate(zip(axes.flat, depts)):
            base = rng.uniform(20, 80)
            a = base + np.cumsum([rng.uniform(-4, 6) for _ in x])
            b = a + np.array([rng.uniform(-8, 8) for _ in x])
            lines = [ax.plot(x, a, lw=2)[0], ax.plot(x, b, lw=2, ls="--")[0]]
            ax.set_title(t(f"panel-{k}", "section_heading", f"{d} department"), fontsize=14, loc="left")
            ax.tick_params(labelsize=11)
        year = rng.choice([2024, 2025])
        fig.suptitle(t("title", "chart_title", f"Monthly spend by department, {year}"), fontsize=19)
        fig.legend(lines, [t(f"leg-{k}", "legend_entry", s) for k, s in enumerate(series)], loc="lower center",
                   ncol=2, fontsize=13, frameon=False)  # fmt: skip
        fig.supylabel(t("ylabel", "axis_title", "Thousand euros", axis="y"), fontsize=13)
        fig.subplots_adjust(left=0.09, right=0.97, bottom=0.12, top=0.87, hspace=0.3)
    return fig


def gantt(t, rng):
    tasks = rng.sample(V.TASKS, 5)
    start = rng.randrange(0, 4)
    months = V.MONTHS3[start : start + 8]
    with plt.rc_context({"font.family": "Liberation Serif"}):
        fig, ax = plt.subplots(figsize=(10, 5.2), dpi=100)
        begin = 0.0
        for i, task in enumerate(tasks):
            weeks = rng.randint(3, 9)
            ax.barh(i, weeks / 4.3, left=begin, height=0.56, color=rng.choice(["#3d5a80", "#98473e", "#4f772d"]))
            ax.text(begin + weeks / 4.3 - 0.08, i, t(f"dur-{i}", "value_label", f"{weeks} wks", category=task,
                    place="end"), ha="right", va="center", color="white", fontsize=12, fontweight="bold")  # fmt: skip
            begin += weeks / 4.3 * rng.uniform(0.5, 0.9)
        ax.set_yticks(range(len(tasks)), labels=[t(f"task-{i}", "tick_label", s, axis="y", ordinal=i + 1) for i, s
                                                 in enumerate(tasks)])  # fmt: skip
        ax.invert_yaxis()
        ax.xaxis.tick_top()
        ax.set_xticks(np.arange(len(months)) + 0.5, labels=[t(f"month-{i}", "tick_label", m, axis="x", ordinal=i + 1)
                                                            for i, m in enumerate(months)])  # fmt: skip
        ax.set_xlim(0, len(months))
        ax.grid(axis="x", color="#dddddd")
        ax.set_axisbelow(True)
        ax.tick_params(labelsize=13, length=0)
        firm = rng.choice(V.FIRMS)
        fig.text(0.02, 0.95, t("title", "chart_title", f"{firm} rollout plan"), fontsize=19, fontweight="bold")
        fig.text(0.02, 0.02, t("source", "source_note", f"Plan as of {rng.randint(2, 27)} {rng.choice(months)}"),
                 fontsize=11, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.17, right=0.97, bottom=0.09, top=0.8)
    return fig


PAGES = {"area_top": area_top, "scatter_cbar": scatter_cbar, "multiples": multiples, "gantt": gantt}
