"""The matplotlib pages of the eighth tester's set (``benchmarks/fresh8_pages.py``): horizontal bars
with value labels at their ends, stacked bars with totals above the stacks, a scatter with arrow
annotations, and a line chart whose legend sits outside the axes, in Liberation Sans, DejaVu Sans
and Liberation Serif, on white, ``ggplot`` and ``bmh`` styles.

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

from benchmarks.fresh8 import vocab as V  # noqa: E402


def hbars(t, rng):
    title, unit = rng.choice(V.METRICS)
    cats = rng.sample(V.CITIES, 5)
    vals = [rng.randint(12, 96) for _ in cats]
    with plt.rc_context({"font.family": "Liberation Sans"}):
        fig, ax = plt.subplots(figsize=(9, 5.2), dpi=100)
        y = np.arange(len(cats))
        ax.barh(y, vals, color=rng.choice(["#2a9d8f", "#e76f51", "#457b9d"]), height=0.62)
        labels = [t(f"tick-{i}", "tick_label", c, axis="y", ordinal=i + 1) for i, c in enumerate(cats)]
        ax.set_yticks(y, labels=labels)
        ax.invert_yaxis()
        for i, v in enumerate(vals):
            ax.text(v + 1.2, i, t(f"val-{i}", "value_label", str(v), category=cats[i], place="end"), va="center",
                    fontsize=13)  # fmt: skip
        ax.set_xlim(0, 110)
        ax.set_title(t("title", "chart_title", title), fontsize=18, loc="left", fontweight="bold")
        ax.set_xlabel(t("xlabel", "axis_title", unit, axis="x"), fontsize=13)
        ax.tick_params(labelsize=13)
        ax.spines[["top", "right"]].set_visible(False)
        year = rng.choice([2023, 2024, 2025])
        fig.text(0.01, 0.015, t("source", "source_note", f"Source: internal survey, {year}"), fontsize=10,
                 color="#666666")  # fmt: skip
        fig.subplots_adjust(left=0.14, right=0.97, bottom=0.15, top=0.88)
    return fig


def stacked(t, rng):
    quarters = rng.sample(V.QUARTERS, 4)
    quarters.sort(key=V.QUARTERS.index)
    series = rng.sample(V.CHANNELS, 3)
    data = np.array([[rng.randint(5, 30) for _ in quarters] for _ in series])
    with plt.style.context("ggplot"), plt.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(9, 5.6), dpi=100)
        x = np.arange(len(quarters))
        bottom = np.zeros(len(quarters))
        for k, s in enumerate(series):
            ax.bar(x, data[k], bottom=bottom, width=0.6, label=t(f"leg-{k}", "legend_entry", s))
            bottom += data[k]
        for i, total in enumerate(bottom):
            ax.text(i, total + 1.5, t(f"tot-{i}", "value_label", f"{int(total)}k", category=quarters[i]),
                    ha="center", va="bottom", fontsize=12)  # fmt: skip
        ax.set_xticks(x, labels=[t(f"tick-{i}", "tick_label", q, axis="x", ordinal=i + 1) for i, q in
                                 enumerate(quarters)])  # fmt: skip
        ax.set_ylim(0, max(bottom) * 1.25)
        company = rng.choice(V.COMPANIES)
        ax.set_title(t("title", "chart_title", f"{company} orders by channel"), fontsize=17)
        ax.set_ylabel(t("ylabel", "axis_title", "Orders (thousands)", axis="y"), fontsize=13)
        ax.legend(loc="upper left", fontsize=11, ncol=3)
        ax.tick_params(labelsize=12)
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.1, top=0.9)
    return fig


def scatter_ann(t, rng):
    names = rng.sample(V.PRODUCTS, 4)
    pts = [(rng.uniform(10, 90), rng.uniform(10, 90)) for _ in names]
    with plt.rc_context({"font.family": "Liberation Serif"}):
        fig, ax = plt.subplots(figsize=(8.6, 5.8), dpi=100)
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=90, color="#6d597a", zorder=3)
        for i, (name, (x, y)) in enumerate(zip(names, pts)):
            dx = -70 if x > 60 else 16
            ax.annotate(t(f"ann-{i}", "callout", f"{name} {rng.choice(['launch', 'refresh', 'pilot'])}"), (x, y),
                        xytext=(dx, 14 if i % 2 else -20), textcoords="offset points", fontsize=13,
                        arrowprops={"arrowstyle": "->", "color": "#555555"})  # fmt: skip
        ax.set_xlim(0, 100)
        ax.set_ylim(0, 100)
        ax.grid(True, color="#dddddd")
        ax.set_title(t("title", "chart_title", "Price against perceived quality"), fontsize=18)
        ax.set_xlabel(t("xlabel", "axis_title", "Price index", axis="x"), fontsize=13)
        ax.set_ylabel(t("ylabel", "axis_title", "Quality rating", axis="y"), fontsize=13)
        fig.subplots_adjust(left=0.1, right=0.96, bottom=0.12, top=0.9)
    return fig


def line_legend_out(t, rng):
    regions = rng.sample(V.REGIONS, 3)
    months = V.MONTHS[:8]
    with plt.style.context("bmh"), plt.rc_context({"font.family": "Liberation Sans"}):
        fig, ax = plt.subplots(figsize=(10, 5.2), dpi=100)
        x = np.arange(len(months))
        for k, r in enumerate(regions):
            start, slope = rng.uniform(20, 60), rng.uniform(-3, 4)
            ax.plot(x, start + slope * x + np.sin(x + k) * 2, lw=2.2, label=t(f"leg-{k}", "legend_entry", r))
        ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=13, frameon=False)
        ax.set_xticks(x, labels=[t(f"tick-{i}", "tick_label", m[:3], axis="x", ordinal=i + 1) for i, m in
                                 enumerate(months)])  # fmt: skip
        year = rng.choice([2024, 2025])
        ax.set_title(t("title", "chart_title", f"Active subscribers, {year}"), fontsize=18)
        ax.set_ylabel(t("ylabel", "axis_title", "Subscribers (thousands)", axis="y"), fontsize=13)
        ax.tick_params(labelsize=12)
        fig.text(0.01, 0.015, t("source", "source_note", f"Data: billing system export, {months[-1]} {year}"),
                 fontsize=10, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.08, right=0.8, bottom=0.14, top=0.9)
    return fig


PAGES = {"hbars": hbars, "stacked": stacked, "scatter_ann": scatter_ann, "line_legend_out": line_legend_out}
