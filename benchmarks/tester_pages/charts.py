"""The matplotlib pages of the tester's set (``benchmarks/tester_pages.py``): each function draws one
page into ``out`` (a folder), clean or, with ``bad``, with its injected text errors."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _pick(bad: bool, good: str, wrong: str) -> str:
    return wrong if bad else good


def hbar(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    cities = ["Lisbon", "Oslo", _pick(bad, "Tallinn", "Talinn"), "Valencia", "Krakow"]
    vals = [14, 9, 6, 11, 8]
    bars = ax.barh(cities, vals, color="#3b7dd8")
    for b, v in zip(bars, vals):
        ax.text(v + 0.2, b.get_y() + b.get_height() / 2, str(v), va="center", fontsize=12)
    ax.set_title(
        _pick(bad, "Regional Store Openings 2025", "Regional Store Opneings 2025"), fontsize=18, fontweight="bold"
    )
    ax.set_xlabel("New stores", fontsize=12)
    fig.text(0.01, 0.01, "Source: Internal expansion ledger", fontsize=9, color="gray")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(out / "hbar.png")
    plt.close(fig)


def stacked(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    solar, wind, gas = np.array([12, 18, 22, 10]), np.array([20, 15, 11, 24]), np.array([30, 28, 27, 31])
    q = ["Q1", "Q2", "Q3", "Q4"]
    ax.bar(q, solar, label="Solar", color="#f2b134")
    ax.bar(q, wind, bottom=solar, label="Wind", color="#4fb0c6")
    ax.bar(q, gas, bottom=solar + wind, label="Gas", color="#7d7d7d")
    ax.set_title(_pick(bad, "Energy Mix by Quarter", "Energy Mix by Quater"), fontsize=18)
    ax.set_ylabel(_pick(bad, "Gigawatt hours", "Gigawatt hors"), fontsize=12)
    ax.legend(loc="upper right", fontsize=11)
    ax.set_ylim(0, 90)
    fig.tight_layout()
    fig.savefig(out / "stacked.png")
    plt.close(fig)


def scatter(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    pts = {"Model K": (410, 38), "Volt Air": (520, 52), "Zephyr 3": (300, 29), "Ridge EV": (610, 71)}
    for name, (x, y) in pts.items():
        ax.scatter([x], [y], s=60, color="#c0392b")
        ax.annotate(name, (x, y), xytext=(8, 8), textcoords="offset points", fontsize=12)
    ax.set_title("Battery Cost vs Range", fontsize=18)
    ax.set_xlabel("Range (km)", fontsize=12)
    ax.set_ylabel("Cost (kEUR)", fontsize=12)
    ax.set_xlim(250, 700)
    ax.set_ylim(20, 80)
    fig.tight_layout()
    fig.savefig(out / "scatter.png")
    plt.close(fig)


def _table(out: Path, name: str, title: str, header: list[str], cells: list[list[str]], size, font: int) -> None:
    fig, ax = plt.subplots(figsize=size, dpi=100)
    ax.axis("off")
    t = ax.table(cellText=cells, colLabels=header, loc="center", cellLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(font)
    t.scale(1, 2.4 if font == 14 else 2.2)
    ax.set_title(title, fontsize=20, pad=20 if font == 14 else 16)
    fig.savefig(out / name, bbox_inches="tight", pad_inches=0.4)
    plt.close(fig)


def table(out: Path, bad: bool) -> None:
    cells = [
        ["Northwind", "99.2%", "41 ms", "A"],
        ["Bluepeak", "97.8%", "63 ms", "B"],
        ["Cobalt Labs", "99.9%", "28 ms", "A+"],
    ]
    _table(out, "table.png", "Vendor Scorecard", ["Vendor", "Uptime", "Latency", "Rating"], cells, (8, 4), 14)


def panels(out: Path, bad: bool) -> None:
    fig, axs = plt.subplots(2, 2, figsize=(10, 7), dpi=100)
    titles = ["Panel A: Signups", "Panel B: Churn", "Panel C: Revenue", "Panel D: Support Tickets"]
    data = [[5, 8, 12, 15, 21, 26], [9, 8, 7, 7, 6, 5], [3, 4, 6, 9, 10, 14], [40, 35, 38, 30, 28, 22]]
    for a, t, d in zip(axs.flat, titles, data):
        a.plot(np.arange(6), d, marker="o")
        a.set_title(t, fontsize=13)
        a.set_xticks(np.arange(6), ["Jan", "Feb", "Mar", "Apr", "May", "Jun"])
    fig.suptitle("Growth Dashboard FY26", fontsize=20, fontweight="bold")
    fig.tight_layout()
    fig.savefig(out / "panels.png")
    plt.close(fig)


def grouped(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    x = np.arange(4)
    r1 = ax.bar(x - 0.2, [42, 61, 38, 25], 0.4, label="2024", color="#8e44ad")
    r2 = ax.bar(x + 0.2, [47, 66, 35, 29], 0.4, label="2025", color="#27ae60")
    ax.bar_label(r1, fontsize=11)
    ax.bar_label(r2, fontsize=11)
    ax.set_xticks(x, [_pick(bad, "Spring", "Sprign"), "Summer", "Autumn", "Winter"], fontsize=12)
    ax.set_title(_pick(bad, "Museum Visitors by Season", "Museum Vistors by Season"), fontsize=18)
    ax.set_ylabel("Thousands", fontsize=12)
    ax.legend(loc="upper left", fontsize=11)
    ax.set_ylim(0, 80)
    fig.tight_layout()
    fig.savefig(out / "grouped.png")
    plt.close(fig)


def pie(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(7, 6), dpi=100)
    labels = ["Rent 38%", "Food 22%", _pick(bad, "Transport 15%", "Transport 51%"), "Savings 25%"]
    ax.pie([38, 22, 15, 25], labels=labels, textprops={"fontsize": 13}, startangle=90)
    ax.set_title(_pick(bad, "Monthly Budget", "Monthly Budgte"), fontsize=20)
    fig.tight_layout()
    fig.savefig(out / "pie.png")
    plt.close(fig)


def flights(out: Path, bad: bool) -> None:
    cells = [
        ["KL 1023", "Oslo", "Madrid", "07:45", "B12"],
        ["LH 0456", "Berlin", "Lisbon", "09:10", "C03"],
        ["AF 7781", "Paris", "Vienna", _pick(bad, "11:30", "11:03"), "A07"],
    ]
    title = _pick(bad, "Flight Schedule", "Flight Schedle")
    _table(out, "flights.png", title, ["Flight", "From", "To", "Departs", "Gate"], cells, (9, 4), 13)


def reservoir(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    m = np.arange(12)
    ax.plot(m, [70, 74, 81, 88, 92, 85, 71, 58, 49, 55, 63, 68], color="#2e86c1", lw=2)
    peak = _pick(bad, "Peak: 92%", "Peak: 29%")
    ax.annotate(peak, (4, 92), xytext=(5.2, 94), fontsize=12, arrowprops=dict(arrowstyle="->"))
    ax.annotate("Drought low", (8, 49), xytext=(8.4, 42), fontsize=12, arrowprops=dict(arrowstyle="->"))
    ax.set_xticks(m, list("JFMAMJJASOND"))
    ax.set_ylim(35, 100)
    ax.set_title("Reservoir Level", fontsize=18)
    ax.set_ylabel("Capacity (%)", fontsize=12)
    fig.tight_layout()
    fig.savefig(out / "reservoir.png")
    plt.close(fig)


# ---- the "styles" split: matplotlib styles the other splits do not use (dark_background, ggplot), a
# heatmap with value labels, a waterfall and a donut with a big centre number


def darkline(out: Path, bad: bool) -> None:
    with plt.style.context("dark_background"):
        fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
        w = np.arange(1, 9)
        ax.plot(w, [40, 42, 39, 45, 41, 38, 37, 36], label="p50", color="#4cc9f0")
        ax.plot(w, [90, 95, 88, 120, 99, 92, 90, 85], label=_pick(bad, "p95", "p59"), color="#f72585")
        ax.set_title(_pick(bad, "Server Latency by Week", "Server Latnecy by Week"), fontsize=18)
        ax.set_xlabel("Week", fontsize=12)
        ax.set_ylabel("Milliseconds", fontsize=12)
        arrow = dict(arrowstyle="->", color="white")
        ax.annotate(_pick(bad, "Deploy v2.4", "Deploy v2.7"), (4, 120), xytext=(5, 125), fontsize=12, arrowprops=arrow)
        ax.set_ylim(0, 140)
        ax.legend(loc="lower right", fontsize=12)
        fig.tight_layout()
        fig.savefig(out / "darkline.png")
        plt.close(fig)


def ggarea(out: Path, bad: bool) -> None:
    with plt.style.context("ggplot"):
        fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
        series = [[3, 4, 4, 5, 6, 7], [2, 2, 3, 3, 3, 4], [1, 1, 1, 2, 2, 2]]
        ax.stackplot(range(6), *series, labels=["Mobile", _pick(bad, "Desktop", "Dekstop"), "Tablet"])
        ax.set_xticks(range(6))
        ax.set_xticklabels(["Jan", "Feb", "Mar", "Apr", "May", "Jun"], fontsize=12)
        ax.set_title(_pick(bad, "Monthly Active Users (millions)", "Monthly Users Active (millions)"), fontsize=16)
        ax.legend(loc="upper left", fontsize=12)
        fig.tight_layout()
        fig.savefig(out / "ggarea.png")
        plt.close(fig)


def heatmap(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(7, 5), dpi=100)
    v = np.array([[2.1, 2.4, 2.9, 3.3], [4.0, 4.2, 3.8, 4.6], [1.2, 1.5, 1.9, 2.2]])
    if bad:
        v[1, 3] = 6.4
    ax.imshow(v, cmap="Blues")
    ax.set_yticks(range(3))
    ax.set_yticklabels(["Email", _pick(bad, "Search", "Serach"), "Social"], fontsize=12)
    ax.set_xticks(range(4))
    ax.set_xticklabels(["Q1", "Q2", "Q3", "Q4"], fontsize=12)
    for i in range(3):
        for j in range(4):
            colour = "white" if v[i, j] > 3 else "black"
            ax.text(j, i, f"{v[i, j]:.1f}%", ha="center", va="center", fontsize=12, color=colour)
    ax.set_title("Conversion by Channel", fontsize=16)
    fig.tight_layout()
    fig.savefig(out / "heatmap.png")
    plt.close(fig)


def waterfall(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    names = ["Revenue", "COGS", "Opex", _pick(bad, "Tax", "Txa"), "Net Profit"]
    base, heights = [0, 75, 45, 33, 0], [120, 45, 30, 12, 33]
    ax.bar(names, heights, bottom=base, color=["#2e86de", "#e74c3c", "#e74c3c", "#e74c3c", "#27ae60"])
    for k, (b, h, label) in enumerate(zip(base, heights, ["120", "-45", "-30", "-12", _pick(bad, "33", "38")])):
        ax.text(k, b + h + 2, label, ha="center", fontsize=12)
    ax.set_title("Profit Bridge FY25 ($M)", fontsize=16)
    ax.set_ylim(0, 140)
    ax.tick_params(labelsize=12)
    fig.tight_layout()
    fig.savefig(out / "waterfall.png")
    plt.close(fig)


def donut(out: Path, bad: bool) -> None:
    fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
    ax.pie([72, 28], colors=["#8e44ad", "#ddd"], startangle=90, wedgeprops=dict(width=0.3))
    ax.text(0, 0, _pick(bad, "72%", "27%"), ha="center", va="center", fontsize=36, fontweight="bold")
    ax.set_title("Survey Completion Rate", fontsize=18)
    fig.text(0.5, 0.05, _pick(bad, "Based on 1,240 responses", "Based on 1,420 responses"), ha="center", fontsize=12)
    fig.savefig(out / "donut.png")
    plt.close(fig)


CHARTS = {
    "dev": {"hbar": hbar, "stacked": stacked, "scatter": scatter, "table": table, "panels": panels},
    "report": {"grouped": grouped, "pie": pie, "flights": flights, "reservoir": reservoir},
    "styles": {"darkline": darkline, "ggarea": ggarea, "heatmap": heatmap, "waterfall": waterfall, "donut": donut},
}
"""Per split, page name -> drawing function."""
