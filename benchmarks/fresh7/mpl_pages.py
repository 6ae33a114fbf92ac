"""The matplotlib pages of the seventh tester's set (``benchmarks/fresh7_pages.py``), in styles the
project's generators do not use: horizontal stacked bars on a seaborn-like grey grid, a log-x scatter
with arrow annotations, two panels under a suptitle, a ``plt.table`` with coloured header cells, a line
chart on ``dark_background``, a pie with an outside legend, a log-y bar chart and a figure of KPI
boxes drawn with ``fig.text``, in Liberation Sans, Serif and Mono and DejaVu Serif.

Each function takes ``t(eid, role, text, **context)`` (returns the string to draw: ``text``, the
defect's string, or "" for a missing element, and records the element) and returns the figure;
:func:`draw` saves it and reads every recorded artist's box from the engine.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

SEABORNISH = {
    "axes.facecolor": "#EAEAF2",
    "axes.edgecolor": "white",
    "grid.color": "white",
    "axes.grid": True,
    "axes.axisbelow": True,
    "font.family": "Liberation Sans",
}


def hstack(t):
    with plt.rc_context(SEABORNISH):
        fig, ax = plt.subplots(figsize=(9, 5.4), dpi=100)
        teams = ["Platform", "Payments", "Mobile", "Data"]
        a, b, c = np.array([12, 9, 7, 11]), np.array([5, 8, 4, 6]), np.array([3, 2, 6, 1])
        y = np.arange(len(teams))
        ax.barh(y, a, color="#4C72B0", label=t("leg-done", "legend_entry", "Shipped"))
        ax.barh(y, b, left=a, color="#DD8452", label=t("leg-prog", "legend_entry", "In review"))
        ax.barh(y, c, left=a + b, color="#55A868", label=t("leg-block", "legend_entry", "Blocked"))
        ax.set_yticks(y, labels=[t(f"tick-{n}", "tick_label", n, axis="y", ordinal=i + 1) for i, n in enumerate(teams)])
        ax.invert_yaxis()
        ax.set_title(t("title", "chart_title", "Sprint 42 Ticket Status"), fontsize=19, fontweight="bold", pad=14)
        ax.set_xlabel(t("xlabel", "axis_title", "Tickets closed", axis="x"), fontsize=13)
        ax.legend(loc="lower right", fontsize=12, frameon=True)
        ax.tick_params(labelsize=13)
        fig.text(
            0.012, 0.015, t("source", "source_note", "Data: Jira export, 14 March 2025"), fontsize=10, color="#555555"
        )
        fig.subplots_adjust(left=0.14, right=0.97, bottom=0.16, top=0.88)
    return fig


def scatter_log(t):
    with plt.rc_context({"font.family": "Liberation Serif"}):
        fig, ax = plt.subplots(figsize=(9, 5.6), dpi=100)
        pts = {"Northwind": (2.1e5, 14), "Acme Labs": (9.5e5, 31), "Globex": (4.2e6, 22), "Initech": (1.6e7, 47)}
        for i, (name, (x, yv)) in enumerate(pts.items()):
            ax.scatter([x], [yv], s=70, color="#8E44AD", zorder=3)
            ax.annotate(
                t(f"ann-{i}", "callout", name),
                (x, yv),
                xytext=(14, -22 if i % 2 else 12),
                textcoords="offset points",
                fontsize=13,
                arrowprops={"arrowstyle": "->", "color": "#444"},
            )
        ax.set_xscale("log")
        ax.set_xlim(1e5, 1e8)
        ax.set_ylim(0, 60)
        ax.set_title(t("title", "chart_title", "Revenue versus Headcount"), fontsize=19)
        ax.set_xlabel(t("xlabel", "axis_title", "Annual revenue (USD, log scale)", axis="x"), fontsize=13)
        ax.set_ylabel(t("ylabel", "axis_title", "Employees", axis="y"), fontsize=13)
        fig.subplots_adjust(left=0.1, right=0.96, bottom=0.13, top=0.9)
    return fig


def two_panels(t):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 5), dpi=100)
    weeks = np.arange(1, 9)
    a1.plot(weeks, [120, 135, 160, 158, 190, 210, 205, 240], color="#1f77b4", marker="o")
    a2.bar(["Free", "Team", "Enterprise"], [6.1, 3.4, 1.2], color=["#9ecae1", "#4292c6", "#08519c"])
    fig.suptitle(t("suptitle", "title", "Growth Review, Spring 2025"), fontsize=20, fontweight="bold")
    a1.set_title(t("p1-title", "chart_title", "(a) Weekly signups"), fontsize=14)
    a2.set_title(t("p2-title", "chart_title", "(b) Monthly churn by plan"), fontsize=14)
    a1.set_xlabel(t("p1-x", "axis_title", "Week", axis="x"), fontsize=12)
    a2.set_ylabel(t("p2-y", "axis_title", "Churn (%)", axis="y"), fontsize=12)
    a2.set_xticks(
        range(3),
        labels=[
            t(f"p2-tick-{i}", "tick_label", s, axis="x", ordinal=i + 1)
            for i, s in enumerate(["Free", "Team", "Enterprise"])
        ],
    )
    a2.tick_params(labelsize=12)
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.12, top=0.83, wspace=0.25)
    return fig


def table(t):
    fig, ax = plt.subplots(figsize=(8.5, 4.6), dpi=100)
    ax.axis("off")
    header = ["Warehouse", "Orders", "On time", "Returns"]
    rows = [
        ["Rotterdam", "18,240", "96.2%", "1.4%"],
        ["Gdansk", "9,815", "93.7%", "2.1%"],
        ["Valencia", "12,406", "97.9%", "0.8%"],
        ["Bremen", "7,322", "91.5%", "2.6%"],
    ]
    cells = [
        [t(f"c{r}-{c}", "table_cell", v, row=row[0], column=header[c]) for c, v in enumerate(row)]
        for r, row in enumerate(rows)
    ]
    cols = [t(f"h{c}", "table_header", h, ordinal=c + 1) for c, h in enumerate(header)]
    tab = ax.table(
        cellText=cells,
        colLabels=cols,
        loc="center",
        cellLoc="center",
        colColours=["#2E4057"] * 4,
        bbox=[0.02, 0.02, 0.96, 0.78],
    )
    tab.auto_set_font_size(False)
    tab.set_fontsize(13)
    for c in range(4):
        tab[(0, c)].get_text().set_color("white")
        tab[(0, c)].get_text().set_fontweight("bold")
    ax.set_title(t("title", "chart_title", "Q1 Fulfilment by Warehouse"), fontsize=19, pad=8)
    fig.subplots_adjust(left=0.03, right=0.97, bottom=0.04, top=0.9)
    return fig


def dark_line(t):
    with plt.style.context("dark_background"), plt.rc_context({"font.family": "Liberation Mono"}):
        fig, ax = plt.subplots(figsize=(9, 5.2), dpi=100)
        x = np.arange(12)
        ax.plot(x, 40 + 3 * x, color="#00d1b2", lw=2.5, label=t("leg-a", "legend_entry", "Checkout API"))
        ax.plot(x, 70 - 2 * x, color="#ff6b6b", lw=2.5, label=t("leg-b", "legend_entry", "Search API"))
        ax.legend(loc="upper left", fontsize=12)
        ax.set_title(t("title", "chart_title", "p95 Latency after Migration"), fontsize=18)
        ax.set_ylabel(t("ylabel", "axis_title", "Milliseconds", axis="y"), fontsize=13)
        ax.set_xlabel(t("xlabel", "axis_title", "Hour of day (UTC)", axis="x"), fontsize=13)
        ax.text(11.2, 73, t("end-a", "line_end_label", "73 ms"), color="#00d1b2", fontsize=13, va="center")
        ax.text(11.2, 48, t("end-b", "line_end_label", "48 ms"), color="#ff6b6b", fontsize=13, va="center")
        ax.set_xlim(0, 13)
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.13, top=0.9)
    return fig


def pie_legend(t):
    with plt.rc_context({"font.family": "DejaVu Serif"}):
        fig, ax = plt.subplots(figsize=(9, 5.4), dpi=100)
        names = ["Subscriptions", "Hardware", "Consulting", "Training"]
        share = [46, 27, 18, 9]
        wedges, _ = ax.pie(share, colors=["#264653", "#2a9d8f", "#e9c46a", "#f4a261"], startangle=90)
        for i, (w, v) in enumerate(zip(wedges, share)):
            ang = np.deg2rad((w.theta1 + w.theta2) / 2)
            ax.text(
                0.68 * np.cos(ang),
                0.68 * np.sin(ang),
                t(f"pct-{i}", "pie_label", f"{v}%", category=names[i]),
                ha="center",
                va="center",
                fontsize=14,
                color="white" if i < 2 else "black",
            )
        ax.legend(
            wedges,
            [t(f"leg-{i}", "legend_entry", n) for i, n in enumerate(names)],
            loc="center left",
            bbox_to_anchor=(1.0, 0.5),
            fontsize=13,
            frameon=False,
        )
        ax.set_title(t("title", "chart_title", "Revenue Mix FY2024"), fontsize=19)
        fig.subplots_adjust(left=0.02, right=0.7, top=0.88, bottom=0.04)
    return fig


def log_bars(t):
    fig, ax = plt.subplots(figsize=(9, 5.4), dpi=100)
    names = ["Email", "Chat", "Phone", "Forum"]
    vals = [48200, 6300, 870, 95]
    bars = ax.bar(names, vals, color="#c44e52", width=0.6)
    ax.set_yscale("log")
    ax.set_ylim(10, 3e5)
    for i, (b, v) in enumerate(zip(bars, vals)):
        ax.text(
            b.get_x() + b.get_width() / 2,
            v * 1.25,
            t(f"val-{i}", "value_label", f"{v:,}", category=names[i]),
            ha="center",
            va="bottom",
            fontsize=13,
        )
    ax.set_xticks(
        range(4), labels=[t(f"tick-{i}", "tick_label", n, axis="x", ordinal=i + 1) for i, n in enumerate(names)]
    )
    ax.tick_params(labelsize=13)
    ax.set_title(t("title", "chart_title", "Support Tickets by Channel"), fontsize=19)
    ax.set_ylabel(t("ylabel", "axis_title", "Tickets (log scale)", axis="y"), fontsize=13)
    ax.spines[["top", "right"]].set_visible(False)
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.1, top=0.9)
    return fig


def kpi_boxes(t):
    fig = plt.figure(figsize=(10, 4.8), dpi=100, facecolor="#f7f3e9")
    fig.text(
        0.05,
        0.86,
        t("title", "title", "Store Performance, Week 11"),
        fontsize=24,
        fontweight="bold",
        family="Liberation Serif",
        color="#3d2b1f",
    )
    labels = [("Net sales", "EUR 84,310"), ("Footfall", "12,947"), ("Basket size", "EUR 31.60")]
    for i, (lab, val) in enumerate(labels):
        x = 0.05 + i * 0.32
        fig.patches.append(
            plt.Rectangle(
                (x, 0.2), 0.28, 0.5, transform=fig.transFigure, facecolor="white", edgecolor="#c8b89a", lw=1.5
            )
        )
        fig.text(x + 0.02, 0.58, t(f"lab-{i}", "card_label", lab), fontsize=14, color="#7a6a55")
        fig.text(
            x + 0.02, 0.34, t(f"val-{i}", "card_value", val, card=lab), fontsize=26, fontweight="bold", color="#3d2b1f"
        )
    fig.text(0.05, 0.07, t("footer", "footer", "Prepared by the retail analytics team"), fontsize=11, color="#7a6a55")
    return fig


PAGES = {
    "hstack": hstack,
    "scatter_log": scatter_log,
    "two_panels": two_panels,
    "table": table,
    "dark_line": dark_line,
    "pie_legend": pie_legend,
    "log_bars": log_bars,
    "kpi_boxes": kpi_boxes,
}


def draw(name: str, texts: dict[str, str], path, pages: dict | None = None):
    """Draw page ``name`` with ``texts`` (element id -> the string to draw instead of the page's own;
    "" leaves the element out) into ``path`` (PNG); ``pages``: where ``name`` is (default
    ``PAGES``); returns (size (w, h), records): per drawn element
    ``{eid, role, text, context, box, angle, color}``, the box the artist's window extent in image
    pixels (origin top left), rounded outwards. Each page's strings are unique, so an artist is the
    first recorded element that drew its string."""
    import math

    recorded: dict[str, tuple[str, dict, str]] = {}

    def t(eid, role, text, **context):
        recorded[eid] = (role, context, texts.get(eid, text))
        return recorded[eid][2]

    fig = (pages or PAGES)[name](t)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    w, h = fig.canvas.get_width_height()
    out, taken = [], set()
    cells = [c.get_text() for ax in fig.axes for tab in ax.tables for c in tab.get_celld().values()]
    for artist in [*fig.findobj(matplotlib.text.Text), *cells]:
        s = artist.get_text()
        eid = next((e for e, (_, _, d) in recorded.items() if d == s and e not in taken), None)
        if eid is None or not s or not artist.get_visible():
            continue
        taken.add(eid)
        b = matplotlib.text.Text.get_window_extent(artist, renderer)  # an annotation's text, not its arrow
        box = (math.floor(b.x0), math.floor(h - b.y1), math.ceil(b.x1), math.ceil(h - b.y0))
        angle = 90 if round(artist.get_rotation()) == 90 else 0
        role, ctx, _ = recorded[eid]
        out.append(
            {
                "eid": eid,
                "role": role,
                "text": s,
                "context": ctx,
                "box": box,
                "angle": angle,
                "color": to_hex(artist.get_color()),
            }
        )
    fig.savefig(path, dpi=fig.dpi, facecolor=fig.get_facecolor())
    plt.close(fig)
    missing = [e for e, (_, _, d) in recorded.items() if d and e not in taken]
    if missing:
        raise RuntimeError(f"{name}: no artist found for {missing}")
    return (w, h), out
