"""The matplotlib pages of the tenth tester's set (``benchmarks/fresh10_pages.py``): a box plot of
waiting times per clinic with category tick labels and a median callout, an annotated heatmap of
visits by weekday and hour (each cell's value in white or black by its fill, a colour bar whose label
is a distractor), a dual-axis line chart with markers (the right axis title a distractor beside the
right ticks) and one legend of both lines, and a waterfall bridge with signed value labels above the
floating bars, in DejaVu Serif, Liberation Sans, DejaVu Sans and Liberation Sans Narrow, on
``ggplot``, white, ``seaborn-v0_8-darkgrid`` and white.

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

from benchmarks.fresh10 import vocab as V  # noqa: E402


def boxes(t, rng):
    clinics = rng.sample(V.CLINICS, 4)
    data = [[max(2.0, rng.gauss(rng.uniform(18, 45), rng.uniform(5, 12))) for _ in range(60)] for _ in clinics]
    with plt.style.context("ggplot"), plt.rc_context({"font.family": "DejaVu Serif"}):
        fig, ax = plt.subplots(figsize=(9.2, 5.8), dpi=100)
        ax.boxplot(data, widths=0.5, patch_artist=True, boxprops={"facecolor": "#a8dadc"},
                   medianprops={"color": "#1d3557", "linewidth": 2})  # fmt: skip
        ax.set_xticks(range(1, 5), labels=[t(f"tick-{i}", "tick_label", c, axis="x", ordinal=i + 1) for i, c in
                                           enumerate(clinics)])  # fmt: skip
        best = min(range(4), key=lambda k: float(np.median(data[k])))
        med = float(np.median(data[best]))
        ax.annotate(t("ann", "callout", f"Shortest median: {med:.0f} min"), (best + 1.25, med), xytext=(30, 40),
                    textcoords="offset points", fontsize=12, arrowprops={"arrowstyle": "->", "color": "#444444"},
                    bbox={"boxstyle": "square,pad=0.3", "fc": "white", "ec": "#444444"})  # fmt: skip
        month = rng.choice(["January", "March", "May", "October"])
        ax.set_title(t("title", "chart_title", f"Waiting times in {month}"), fontsize=18)
        ax.set_ylabel(t("ylabel", "axis_title", "Minutes from arrival to consultation", axis="y"), fontsize=13)
        ax.tick_params(labelsize=13)
        fig.text(0.02, 0.02, t("source", "source_note", f"Source: patient flow records, {len(data[0])} visits each"),
                 fontsize=10, color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.13, top=0.9)
    return fig


def heatmap(t, rng):
    days = V.WEEKDAYS[: rng.choice((5, 6))]
    hours = V.HOURS
    pool = rng.sample([v for v in range(11, 99) if v % 5], len(days) * len(hours))  # no colour bar tick
    vals = np.array(pool, dtype=float).reshape(len(days), len(hours))
    store = rng.choice(V.STORES)
    with plt.rc_context({"font.family": "Liberation Sans"}):
        fig, ax = plt.subplots(figsize=(9, 6), dpi=100)
        im = ax.imshow(vals, cmap="YlOrRd", aspect="auto")
        bar = fig.colorbar(im, ax=ax, pad=0.02)
        bar.set_label("Visitors per hour", fontsize=12)
        for r, d in enumerate(days):
            for c, h in enumerate(hours):
                v = int(vals[r, c])
                ax.text(c, r, t(f"cell-{r}-{c}", "table_cell", str(v), row=d, column=h), ha="center", va="center",
                        fontsize=12, color="white" if v > 60 else "black")  # fmt: skip
        ax.set_xticks(range(len(hours)), labels=[t(f"hour-{i}", "tick_label", h, axis="x", ordinal=i + 1) for i, h
                                                 in enumerate(hours)])  # fmt: skip
        ax.set_yticks(range(len(days)), labels=[t(f"day-{i}", "tick_label", d, axis="y", ordinal=i + 1) for i, d in
                                                enumerate(days)])  # fmt: skip
        ax.tick_params(labelsize=12, length=0)
        ax.set_title(t("title", "chart_title", f"Footfall at the {store} store"), fontsize=17, loc="left",
                     fontweight="bold")  # fmt: skip
        ax.set_xlabel(t("xlabel", "axis_title", "Hour of the day", axis="x"), fontsize=13)
        fig.subplots_adjust(left=0.13, right=0.98, bottom=0.11, top=0.91)
    return fig


def dual_axis(t, rng):
    left, right = rng.choice(V.CHARTED)
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    start = rng.randrange(0, 5)
    shown = months[start : start + 8]
    a = np.cumsum([rng.uniform(-3, 6) for _ in shown]) + rng.uniform(40, 80)
    b = np.cumsum([rng.uniform(-1, 2) for _ in shown]) + rng.uniform(5, 15)
    with plt.style.context("seaborn-v0_8-darkgrid"), plt.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots(figsize=(9.6, 5.4), dpi=100)
        x = np.arange(len(shown))
        la = ax.plot(x, a, marker="o", color="#264653", lw=2)[0]
        ax2 = ax.twinx()
        lb = ax2.plot(x, b, marker="s", color="#e76f51", lw=2, ls="--")[0]
        ax2.grid(False)
        ax.set_xticks(x, labels=[t(f"tick-{i}", "tick_label", m, axis="x", ordinal=i + 1) for i, m in
                                 enumerate(shown)])  # fmt: skip
        ax.set_ylabel(t("ylabel", "axis_title", f"{left} (thousands)", axis="y"), fontsize=13, color="#264653")
        ax2.set_ylabel(f"{right} (thousands)", fontsize=13, color="#e76f51")
        ax.legend([la, lb], [t("leg-0", "legend_entry", left), t("leg-1", "legend_entry", right)], loc="upper left",
                  fontsize=12, frameon=True)  # fmt: skip
        year = rng.choice([2024, 2025, 2026])
        ax.set_title(t("title", "chart_title", f"{left} and {right.lower()}, {year}"), fontsize=17)
        ax.tick_params(labelsize=12)
        ax2.tick_params(labelsize=12)
        fig.text(0.01, 0.015, t("source", "source_note", "Both series are monthly totals"), fontsize=10,
                 color="#555555")  # fmt: skip
        fig.subplots_adjust(left=0.09, right=0.9, bottom=0.12, top=0.9)
    return fig


def waterfall(t, rng):
    steps = V.BRIDGE[1:-1]
    rng.shuffle(steps)
    steps = steps[:4]
    opening = rng.choice([v for v in range(120, 220) if v % 5])  # no y tick's string
    deltas = []
    for s in steps:
        sign = -1 if s in ("Lost customers", "Discounts", "Currency effect") else 1
        d = sign * rng.randint(5, 40)
        while d in deltas:
            d += sign
        deltas.append(d)
    closing = opening + sum(deltas)
    names = ["Opening balance", *steps, "Closing balance"]
    with plt.rc_context({"font.family": "Liberation Sans Narrow"}):
        fig, ax = plt.subplots(figsize=(10, 5.6), dpi=100)
        level = opening
        ax.bar(0, opening, color="#6c757d", width=0.6)
        labels = [t("val-0", "value_label", f"{opening}", category=names[0])]
        for i, d in enumerate(deltas, start=1):
            ax.bar(i, abs(d), bottom=level if d > 0 else level + d, color="#2a9d8f" if d > 0 else "#e63946",
                   width=0.6)  # fmt: skip
            labels.append(t(f"val-{i}", "value_label", f"{d:+d}", category=names[i]))
            level += d
        ax.bar(len(names) - 1, closing, color="#264653", width=0.6)
        labels.append(t(f"val-{len(names) - 1}", "value_label", f"{closing} total", category=names[-1]))
        tops = [opening, *[max(opening + sum(deltas[:i]), opening + sum(deltas[: i + 1])) for i in
                           range(len(deltas))], closing]  # fmt: skip
        for i, (s, top) in enumerate(zip(labels, tops)):
            ax.text(i, top + 4, s, ha="center", va="bottom", fontsize=14)
        ax.set_xticks(range(len(names)), labels=[t(f"tick-{i}", "tick_label", n, axis="x", ordinal=i + 1) for i, n
                                                 in enumerate(names)])  # fmt: skip
        ax.set_ylim(0, max(tops) * 1.18)
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(labelsize=13)
        firm = rng.choice(V.ORGS)
        ax.set_title(t("title", "chart_title", f"{firm}: recurring revenue bridge"), fontsize=19, loc="left")
        ax.set_ylabel(t("ylabel", "axis_title", "EUR million", axis="y"), fontsize=14)
        fig.subplots_adjust(left=0.08, right=0.98, bottom=0.1, top=0.9)
    return fig


PAGES = {"boxes": boxes, "heatmap": heatmap, "dual_axis": dual_axis, "waterfall": waterfall}
