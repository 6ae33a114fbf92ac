"""Charts drawn by matplotlib (Agg): bar, grouped bar, line, pie and donut, with the truth of every
text artist taken from matplotlib.

``chart_content(kind, rng)`` draws the content (strings as :class:`~.model.Spec`, numbers and
colours as a style dict); ``draw_chart(kind, specs, style)`` draws it and returns the RGB image
and the elements. Every text artist we place carries its spec id as its ``gid``; after
``canvas.draw()`` its box is ``Text.get_window_extent(renderer)`` (display pixels, origin bottom
left, at the figure's dpi, which is the image's: the image is the canvas buffer, no
``bbox_inches``), flipped to image rows: ``y_img = height - y_display``. The numeric y tick labels
matplotlib places itself are recorded too (role tick_label, axis "y"), so that every visible
string on the chart has its truth.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from PIL import Image  # noqa: E402

from documents.engines import vocab as V  # noqa: E402
from documents.engines.model import Element, Spec, outward  # noqa: E402

CHART_KINDS = ("bar", "grouped_bar", "line", "pie", "donut")
SIZE = (880, 600)
"""Chart size in pixels (8.8 x 6.0 inches at 100 dpi)."""
DPI = 100


def _fmt(v: float, unit: str) -> str:
    return f"{v:.0f}{unit}" if unit == "%" else f"{v:,.0f}" if v >= 100 else f"{v:.1f}".rstrip("0").rstrip(".")


def _common(rng: random.Random, specs: list[Spec], style: dict[str, Any], axes: bool) -> None:
    specs.append(Spec("chart_title", "chart_title", rng.choice(V.CHART_TITLES)))
    if rng.random() < 0.6:
        specs.append(Spec("subtitle", "subtitle", rng.choice(V.CHART_SUBTITLES), can_miss=True))
    specs.append(Spec("source", "source_note", rng.choice(V.SOURCES), can_miss=True))
    if axes:
        specs.append(Spec("axis-y", "axis_title", rng.choice(V.Y_TITLES), {"axis": "y"}))
    style.update(face=rng.choice(V.FACES), palette=rng.choice(V.PALETTES), paper=rng.choice(V.PAPERS))
    style["title_size"] = rng.choice((16, 18, 20))


def chart_content(kind: str, rng: random.Random) -> tuple[list[Spec], dict[str, Any]]:
    """The strings and numbers of one chart of ``kind`` (:data:`CHART_KINDS`), drawn from ``rng``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in CHART_KINDS:
        raise ValueError(f"chart kind must be one of {CHART_KINDS}, got {kind!r}")
    specs: list[Spec] = []
    style: dict[str, Any] = {}
    _common(rng, specs, style, axes=kind in ("bar", "grouped_bar", "line"))
    unit = "%" if "(%)" in next((s.text for s in specs if s.id == "axis-y"), "") else ""
    if kind in ("bar", "grouped_bar"):
        pick = rng.randrange(len(V.CATEGORY_SETS))
        cats = list(V.CATEGORY_SETS[pick])[: rng.choice((3, 4)) if kind == "grouped_bar" else 5]
        series = list(rng.choice(V.SERIES_SETS))[:2] if kind == "grouped_bar" else [""]
        values = [[rng.randint(8, 95) for _ in cats] for _ in series]
        horizontal = kind == "bar" and rng.random() < 0.4
        cat_axis = "y" if horizontal else "x"
        if horizontal:  # the value axis is x: its title is the one that names the values
            specs[:] = [replace(s, id="axis-x", context={"axis": "x"}) if s.id == "axis-y" else s for s in specs]
        specs.append(Spec(f"axis-{cat_axis}", "axis_title", V.X_TITLES[pick], {"axis": cat_axis}, can_miss=True))
        for i, c in enumerate(cats):
            specs.append(Spec(f"tick-{cat_axis}-{i}", "tick_label", c, {"axis": cat_axis, "ordinal": i + 1}))
        for j, s in enumerate(series):
            if s:
                specs.append(Spec(f"legend-{j}", "legend_entry", s, {"ordinal": j + 1}, can_miss=True))
            for i, c in enumerate(cats):
                ctx = {"category": c, "series": s} if s else {"category": c}
                ctx |= {"place": "end"} if horizontal else {}
                specs.append(Spec(f"value-{i}-{j}", "value_label", _fmt(values[j][i], unit), ctx, can_miss=True))
        if kind == "bar" and rng.random() < 0.5:
            top = max(range(len(cats)), key=lambda i: values[0][i])
            text = f"Highest: {cats[top]} ({_fmt(values[0][top], unit)})"
            specs.append(Spec("callout", "callout", text, {"category": cats[top]}, can_miss=True))
        style.update(categories=cats, series=series, values=values, horizontal=horizontal)
    elif kind == "line":
        n = rng.choice((6, 7, 8))
        months = list(V.MONTHS[:n])
        series = list(rng.choice(V.SERIES_SETS))
        values = [[max(3.0, rng.uniform(20, 60) + rng.uniform(-8, 8) * k) for k in range(n)] for _ in series]
        ends = sorted(range(len(series)), key=lambda j: -values[j][-1])
        for j in range(1, len(ends)):  # keep the end labels apart: at least 7 units between line ends
            values[ends[j]][-1] = min(values[ends[j]][-1], values[ends[j - 1]][-1] - 7)
        for i, m in enumerate(months):
            specs.append(Spec(f"tick-x-{i}", "tick_label", m, {"axis": "x", "ordinal": i + 1}))
        rank = {ends[0]: "top", ends[-1]: "bottom"}
        for j, s in enumerate(series):
            specs.append(Spec(f"lineend-{j}", "line_end_label", s, {"series": s, "rank": rank.get(j, "middle")}))
        peak_j = rng.randrange(len(series))
        peak_i = int(np.argmax(values[peak_j][:-1]))
        text = f"Peak: {_fmt(values[peak_j][peak_i], unit)} in {months[peak_i]}"
        specs.append(Spec("callout", "callout", text, {"series": series[peak_j]}, can_miss=True))
        style.update(months=months, series=series, values=values, peak=(peak_j, peak_i))
    else:
        cats = list(rng.choice(V.CATEGORY_SETS))[: rng.choice((4, 5))]
        raw = [rng.randint(5, 40) for _ in cats]
        pct = [round(100 * r / sum(raw)) for r in raw]
        pct[0] += 100 - sum(pct)
        for i, c in enumerate(cats):
            specs.append(Spec(f"pie-{i}", "pie_label", c, {"ordinal": i + 1}))
            specs.append(Spec(f"pct-{i}", "value_label", f"{pct[i]}%", {"category": c}, can_miss=True))
        if kind == "donut":
            specs.append(Spec("center", "callout", f"Total {rng.randint(2, 40) * 100:,}", {"place": "center"}))
        if rng.random() < 0.35:
            for i, c in enumerate(cats):
                specs.append(Spec(f"legend-{i}", "legend_entry", c, {"ordinal": i + 1}, can_miss=True))
        style.update(categories=cats, values=pct)
    return specs, style


def _text(specs: dict[str, Spec], eid: str) -> str | None:
    s = specs.get(eid)
    return s.text if s is not None else None


def _bars(ax, by: dict[str, Spec], style: dict[str, Any], size: float) -> None:
    cats, series, values, pal = style["categories"], style["series"], style["values"], style["palette"]
    k, flat = len(series), style.get("horizontal", False)
    width = 0.7 / k
    x = np.arange(len(cats))
    top = max(max(v) for v in values)
    for j in range(k):
        label = _text(by, f"legend-{j}") or "_nolegend_"
        offs = x - 0.35 + width * (j + 0.5)
        (ax.barh if flat else ax.bar)(offs, values[j], width * 0.92, color=pal[j], label=label)
        for i in range(len(cats)):
            t = _text(by, f"value-{i}-{j}")
            if t is None:
                continue
            end, gid = values[j][i] + top * 0.012, f"value-{i}-{j}"
            if flat:
                ax.text(end, offs[i], t, ha="left", va="center", fontsize=size, gid=gid)
            else:
                ax.text(offs[i], end, t, ha="center", va="bottom", fontsize=size, gid=gid)
    axis = "y" if flat else "x"
    (ax.set_yticks if flat else ax.set_xticks)(x, [_text(by, f"tick-{axis}-{i}") or "" for i in range(len(cats))])
    for i, lab in enumerate(ax.get_yticklabels() if flat else ax.get_xticklabels()):
        lab.set_gid(f"tick-{axis}-{i}")
    if flat:
        ax.invert_yaxis()  # the first category on top
        ax.set_xlim(0, top * 1.3)
    else:
        ax.set_ylim(0, top * 1.18)
    t = _text(by, "callout")
    if t is not None:
        i = max(range(len(cats)), key=lambda n: values[0][n])
        step = 0.9 if i < len(cats) - 1 else -1.7
        if flat:
            tip, at = (values[0][i], x[i]), (top * 0.72, x[i] + 0.5 * np.sign(step))
        else:
            tip, at = (x[i], values[0][i]), (x[i] + step, top * 1.1)
        arrow = {"arrowstyle": "->", "color": "#444444"}
        ax.annotate(t, tip, xytext=at, fontsize=size, color="#333333", gid="callout", arrowprops=arrow)
    if k > 1 and any(f"legend-{j}" in by for j in range(k)):
        ax.legend(frameon=False, loc="upper left", ncols=k, bbox_to_anchor=(0, 1.0))


def _lines(ax, by: dict[str, Spec], style: dict[str, Any], size: float) -> None:
    months, series, values, pal = style["months"], style["series"], style["values"], style["palette"]
    x = np.arange(len(months))
    for j, s in enumerate(series):
        ax.plot(x, values[j], color=pal[j], lw=2.2, marker="o", ms=4)
        t = _text(by, f"lineend-{j}")
        if t is not None:
            ax.text(x[-1] + 0.15, values[j][-1], t, va="center", ha="left", color=pal[j], fontsize=size,
                    fontweight="bold", gid=f"lineend-{j}")  # fmt: skip
    t = _text(by, "callout")
    if t is not None:
        pj, pi = style["peak"]
        ax.annotate(t, (x[pi], values[pj][pi]), xytext=(x[pi] + 0.4, max(max(v) for v in values) * 1.12),
                    arrowprops={"arrowstyle": "->", "color": "#444444"}, fontsize=size, color="#333333",
                    gid="callout")  # fmt: skip
    ax.set_xticks(x, [_text(by, f"tick-x-{i}") or "" for i in range(len(months))])
    for i, lab in enumerate(ax.get_xticklabels()):
        lab.set_gid(f"tick-x-{i}")
    ax.set_xlim(-0.3, len(months) - 1 + 1.9)
    ax.set_ylim(0, max(max(v) for v in values) * 1.25)


def _pie(ax, by: dict[str, Spec], style: dict[str, Any], size: float, donut: bool) -> None:
    cats, values, pal = style["categories"], style["values"], style["palette"]
    wedge = {"width": 0.42, "edgecolor": "white"} if donut else {"edgecolor": "white"}
    wedges, _ = ax.pie(values, colors=[pal[i % len(pal)] for i in range(len(cats))], startangle=90,
                       counterclock=False, wedgeprops=wedge)  # fmt: skip
    for i, w in enumerate(wedges):
        ang = np.deg2rad((w.theta1 + w.theta2) / 2)
        label = _text(by, f"pie-{i}")
        if label is not None:
            ha = "left" if np.cos(ang) >= 0 else "right"
            ax.text(1.12 * np.cos(ang), 1.12 * np.sin(ang), label, ha=ha, va="center", fontsize=size + 1,
                    gid=f"pie-{i}")  # fmt: skip
        pct = _text(by, f"pct-{i}")
        if pct is not None:
            r = 0.79 if donut else 0.62
            ax.text(r * np.cos(ang), r * np.sin(ang), pct, ha="center", va="center", color="white",
                    fontsize=size, fontweight="bold", gid=f"pct-{i}")  # fmt: skip
    t = _text(by, "center")
    if t is not None:
        ax.text(0, 0, t, ha="center", va="center", fontsize=size + 2, gid="center")
    ax.set_aspect("equal")
    ax.set_xlim(-1.6, 1.6)
    ax.set_ylim(-1.25, 1.25)
    shown = [i for i in range(len(cats)) if f"legend-{i}" in by]
    if shown:
        ax.legend([wedges[i] for i in shown], [by[f"legend-{i}"].text for i in shown], frameon=False,
                  loc="center left", bbox_to_anchor=(0.92, 0.5), fontsize=size)  # fmt: skip


def draw_chart(kind: str, specs: list[Spec], style: dict[str, Any]) -> tuple[Image.Image, list[Element]]:
    """Draw the chart (``SIZE`` pixels) and read every text artist's truth from matplotlib.

    Returns:
        (the RGB image, the elements: one per drawn spec, in the order of ``specs``, plus the
        numeric tick labels matplotlib placed, ids "tick-y-n<k>" ("tick-x-n<k>" for horizontal
        bars)). A spec's element is missing when its artist is not on the canvas (clipped).
    """
    by = {s.id: s for s in specs}
    fig = Figure(figsize=(SIZE[0] / DPI, SIZE[1] / DPI), dpi=DPI, facecolor=style["paper"])
    canvas = FigureCanvasAgg(fig)
    size = 10.5
    with matplotlib.rc_context({"font.family": style["face"], "font.size": size}):
        top = 0.80 if "subtitle" in by else 0.85
        ax = (
            fig.add_axes((0.11, 0.15, 0.8, top - 0.15))
            if kind not in ("pie", "donut")
            else fig.add_axes((0.05, 0.1, 0.8, top - 0.1))
        )
        ax.set_facecolor(style["paper"])
        if kind in ("bar", "grouped_bar"):
            _bars(ax, by, style, size)
        elif kind == "line":
            _lines(ax, by, style, size)
        else:
            _pie(ax, by, style, size, kind == "donut")
        if kind not in ("pie", "donut"):
            for side in ("top", "right"):
                ax.spines[side].set_visible(False)
            ax.grid(axis="y", color="#dddddd", lw=0.8)
            ax.set_axisbelow(True)
            if "axis-x" in by:
                ax.set_xlabel(by["axis-x"].text, gid="axis-x")
            if "axis-y" in by:
                ax.set_ylabel(by["axis-y"].text, gid="axis-y")
        fig.text(0.04, 0.94, by["chart_title"].text, fontsize=style["title_size"], fontweight="bold",
                 va="center", gid="chart_title")  # fmt: skip
        if "subtitle" in by:
            fig.text(0.04, 0.885, by["subtitle"].text, fontsize=size + 1, color="#555555", va="center", gid="subtitle")
        if "source" in by:
            fig.text(0.04, 0.03, by["source"].text, fontsize=size - 1.5, color="#666666", gid="source")
        canvas.draw()
        image = Image.fromarray(np.asarray(canvas.buffer_rgba())[..., :3].copy())
        elements = _truth(fig, canvas.get_renderer(), by, specs, ax, kind)
    return image, elements


def _hex(color) -> str:
    r, g, b = (int(round(255 * c)) for c in matplotlib.colors.to_rgb(color))
    return f"#{r:02x}{g:02x}{b:02x}"


def _truth(fig, renderer, by: dict[str, Spec], specs: list[Spec], ax, kind: str) -> list[Element]:
    height = fig.bbox.height
    artists: dict[str, Any] = {}
    for t in fig.findobj(matplotlib.text.Text):
        gid = t.get_gid()
        if gid and gid in by and t.get_visible() and t.get_text():
            artists[gid] = t
    legend = ax.get_legend()
    if legend is not None:  # the legend's texts, in order, are those of the legend specs drawn
        ids = [s.id for s in specs if s.role == "legend_entry"]
        for eid, t in zip(ids, legend.get_texts(), strict=True):
            artists[eid] = t
    out = []

    def element(eid: str, role: str, text: str, t, context: dict) -> Element | None:
        bb = matplotlib.text.Text.get_window_extent(t, renderer)  # the text alone (an annotation's includes its arrow)
        box = outward(bb.x0, height - bb.y1, bb.x1, height - bb.y0)
        if box[0] < 0 or box[1] < 0 or box[2] > fig.bbox.width + 1 or box[3] > height + 1:
            return None  # off the canvas
        angle = int(round(t.get_rotation())) % 180
        return Element(eid, role, text, box, context, angle, (box,), _hex(t.get_color()))

    for s in specs:
        if s.id in artists:
            e = element(s.id, s.role, s.text, artists[s.id], s.context)
            if e is not None:
                out.append(e)
    if kind not in ("pie", "donut"):
        flat = any(s.id == "tick-y-0" for s in specs)  # horizontal bars: the numbers are on x
        value_axis = "x" if flat else "y"
        ticks = [
            t for t in (ax.get_xticklabels() if flat else ax.get_yticklabels()) if t.get_text() and t.get_visible()
        ]
        lo, hi = sorted(ax.get_xlim() if flat else ax.get_ylim())
        for k, t in enumerate(ticks):
            if lo <= t.get_position()[1 - flat] <= hi:
                text = t.get_text().replace("\u2212", "-")
                e = element(f"tick-{value_axis}-n{k}", "tick_label", text, t, {"axis": value_axis})
                if e is not None:
                    out.append(e)
    return out
