"""Charts and a table drawn by matplotlib for the tests (Agg, 880 px wide at 100 dpi), as the
engine benchmark's charts are (``documents/engines/charts.py``): the judge's positional "no" and
the editor's fix of the element it read (issue 31)."""

import matplotlib
import numpy as np
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIF = {"font.family": "DejaVu Serif", "font.size": 11}


def render(fig) -> Image.Image:
    fig.canvas.draw()
    img = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3].copy())
    plt.close(fig)
    return img


def hbar(categories: list[str], values: list[int]) -> Image.Image:
    """880x600: horizontal bars top to bottom with their value labels at the bars' ends, and an
    annotation naming the highest bar by its correct name "Gas"."""
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        ys = np.arange(len(categories))[::-1]
        ax.barh(ys, values, color="#2f6eb5", height=0.62)
        ax.set_yticks(ys, categories)
        for y, v in zip(ys, values):
            ax.text(v + 1, y, f"{v}%", va="center")
        top = int(np.argmax(values))
        ax.annotate("Highest: Gas (93%)", (values[top], ys[top]), (values[top] - 26, ys[top] - 0.45), arrowprops={})
        ax.set_xlim(0, 120)
        ax.set_title("Average Basket Size", loc="left", fontweight="bold")
        for s in ("top", "right"):
            ax.spines[s].set_visible(False)
        return render(fig)


def vbar(ticks: list[str], xs: list[float]) -> Image.Image:
    """880x600: vertical bars at ``xs`` with tick labels under them, and a callout "Direct (81)"."""
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        values = [30, 70, 23, 81][: len(ticks)]
        ax.bar(xs, values, color="#264653", width=0.64)
        ax.set_xticks(xs, ticks)
        ax.annotate("Direct (81)", (xs[-1], 81), (xs[-1] - 2.2, 88), arrowprops={"arrowstyle": "->"})
        ax.set_ylim(0, 95)
        ax.set_title("Share of Traffic Sources", loc="left", fontweight="bold")
        return render(fig)


def table(rows: list[list[str]]) -> Image.Image:
    """880x400: a title and a table of text cells in four columns (no borders), header row first."""
    with plt.rc_context({"font.family": "DejaVu Sans", "font.size": 13}):
        fig = plt.figure(figsize=(8.8, 4.0), dpi=100)
        fig.text(0.05, 0.9, "Quarterly Results", fontsize=20, fontweight="bold")
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                fig.text(0.08 + 0.22 * c, 0.7 - 0.14 * r, cell, fontweight="bold" if r == 0 else "normal")
        return render(fig)


def pie(labels: list[str], family: str = "Liberation Sans") -> Image.Image:
    """880x600: a donut with its slice labels outside the wedges at 12 px (as the engine
    benchmark's donuts draw them) and a small source note."""
    with plt.rc_context({"font.family": family, "font.size": 9}):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        wedges, _ = ax.pie([25, 13, 25, 37], colors=["#2f6db5", "#e8862a", "#4b9e5f", "#c2414b"], startangle=90,
                           counterclock=False, wedgeprops={"width": 0.42, "edgecolor": "white"})  # fmt: skip
        for w, label in zip(wedges, labels):
            ang = np.deg2rad((w.theta1 + w.theta2) / 2)
            ha = "left" if np.cos(ang) >= 0 else "right"
            ax.text(1.12 * np.cos(ang), 1.12 * np.sin(ang), label, ha=ha, va="center", fontsize=12)
        ax.set_aspect("equal")
        ax.set_xlim(-1.6, 1.6)
        ax.set_ylim(-1.25, 1.25)
        ax.set_title("Visitors per Exhibit", loc="left", fontweight="bold", fontsize=16)
        fig.text(0.04, 0.03, "Source: Company filings and analyst estimates", fontsize=9, color="#666666")
        return render(fig)
