"""The seventh tester's report split (``benchmarks/fresh7_pages.py --split report``): 6 pages drawn,
and their rubrics and errors written, after the judge fixes made on the dev split and before
these pages were judged: a ggplot grouped bar chart, a stacked area chart with an outside legend,
a donut with a centre label (matplotlib); an order confirmation, a conference schedule with a
sponsor column, a product page (Chromium). Nobody tunes on them.

``PAGES`` holds the draw functions (as ``mpl_pages`` and ``html_pages``: ``t(eid, role, text,
**context)``) and ``QUESTIONS`` the rubrics (as ``questions.PAGES``).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def grouped(t):
    with plt.style.context("ggplot"):
        fig, ax = plt.subplots(figsize=(9, 5.2), dpi=100)
        months = ["Jan", "Feb", "Mar", "Apr"]
        x = np.arange(4)
        a, b = [31, 35, 29, 40], [22, 27, 33, 30]
        ax.bar(x - 0.2, a, 0.4, label=t("leg-a", "legend_entry", "Online store"))
        ax.bar(x + 0.2, b, 0.4, label=t("leg-b", "legend_entry", "Retail partners"))
        ax.set_xticks(
            x, labels=[t(f"tick-{i}", "tick_label", m, axis="x", ordinal=i + 1) for i, m in enumerate(months)]
        )
        ax.set_title(t("title", "chart_title", "Units Sold per Channel"), fontsize=18)
        ax.set_ylabel(t("ylabel", "axis_title", "Thousand units", axis="y"), fontsize=13)
        ax.legend(loc="upper left", fontsize=12)
        ax.tick_params(labelsize=12)
        fig.subplots_adjust(left=0.1, right=0.97, bottom=0.1, top=0.9)
    return fig


def area(t):
    fig, ax = plt.subplots(figsize=(9.5, 5), dpi=100)
    x = np.arange(2015, 2025)
    ys = [np.linspace(5, 9, 10), np.linspace(2, 8, 10), np.linspace(1, 6, 10)]
    names = ["Coal", "Solar", "Offshore wind"]
    ax.stackplot(x, ys, labels=[t(f"leg-{i}", "legend_entry", n) for i, n in enumerate(names)],
                 colors=["#6c757d", "#ffb703", "#219ebc"])  # fmt: skip
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=12, frameon=False)
    ax.set_title(t("title", "chart_title", "Generation Capacity 2015-2024"), fontsize=18, loc="left")
    ax.set_ylabel(t("ylabel", "axis_title", "Gigawatts", axis="y"), fontsize=13)
    ax.text(2016, 19.5, t("note", "callout", "Coal plants retired from 2019"), fontsize=12, style="italic")
    ax.set_xlim(2015, 2024)
    ax.set_ylim(0, 24)
    fig.subplots_adjust(left=0.08, right=0.76, bottom=0.1, top=0.9)
    return fig


def donut(t):
    with plt.rc_context({"font.family": "Liberation Sans"}):
        fig, ax = plt.subplots(figsize=(8, 5.4), dpi=100)
        names, share = ["Rent", "Salaries", "Marketing", "Other"], [38, 41, 13, 8]
        wedges, _ = ax.pie(
            share, startangle=90, wedgeprops={"width": 0.38}, colors=["#e76f51", "#2a9d8f", "#e9c46a", "#8d99ae"]
        )
        ax.text(0, 0.06, t("centre", "callout", "EUR 1.2M"), ha="center", fontsize=20, fontweight="bold")
        ax.text(0, -0.16, t("centre-sub", "callout", "monthly costs"), ha="center", fontsize=12)
        ax.legend(wedges, [t(f"leg-{i}", "legend_entry", f"{n} {s}%") for i, (n, s) in enumerate(zip(names, share))],
                  loc="center left", bbox_to_anchor=(0.95, 0.5), fontsize=13, frameon=False)  # fmt: skip
        ax.set_title(t("title", "chart_title", "Where the Money Goes"), fontsize=18)
        fig.subplots_adjust(left=0.02, right=0.72, top=0.88, bottom=0.04)
    return fig


def order(t):
    items = [("Linen shirt, size M", "EUR 59.00"), ("Canvas tote bag", "EUR 24.50")]
    rows = "".join(
        f"<tr><td>{t(f'item-{i}', 'table_cell', n, row=n, column='Item')}</td>"
        f"<td class=r>{t(f'price-{i}', 'table_cell', p, row=n, column='Price')}</td></tr>"
        for i, (n, p) in enumerate(items)
    )
    return (
        f"""<html><head><style>
body{{margin:0;background:#f4efe6;font-family:'DejaVu Serif';width:720px;height:620px}}
.m{{background:#fff;width:560px;margin:30px auto;padding:30px 40px;text-align:center}}
h1{{font-size:28px;margin:0 0 8px}} .lead{{font-size:15px;color:#555}}
table{{width:100%;margin-top:26px;border-collapse:collapse;font-size:15px;text-align:left}}
td{{padding:9px 0;border-bottom:1px solid #e5ded2}} .r{{text-align:right}}
.tot{{margin-top:16px;font-size:19px;text-align:right}} .b{{display:inline-block;margin-top:26px;padding:12px 30px}}
.b{{background:#7f5539;color:#fff;font-family:'DejaVu Sans';font-size:15px;border-radius:4px}}
</style></head><body><div class=m><h1>{t("title", "title", "Thank you for your order")}</h1>
<div class=lead>{t("lead", "paragraph", "Order #48213 ships within 2 working days.")}</div>
<table>{rows}</table><div class=tot>{t("tot-l", "card_label", "Total")}
<b>{t("total", "card_value", "EUR 83.50", card="Total")}</b></div>
<div class=b>{t("btn", "button", "Track your parcel")}</div></div></body></html>""",
        (720, 620),
    )


def schedule(t):
    talks = [("09:30", "Opening keynote", "Priya Raman"), ("10:15", "Scaling search at Finn", "Jonas Lie"),
             ("11:00", "Coffee break", "")]  # fmt: skip
    rows = "".join(
        f"<div class=row><div class=time>{t(f'time-{i}', 'table_cell', tm, row=ti, column='Time')}</div>"
        f"<div><div class=talk>{t(f'talk-{i}', 'table_cell', ti, row=tm, column='Talk')}</div>"
        + (f"<div class=sp>{t(f'sp-{i}', 'table_cell', sp, row=ti, column='Speaker')}</div>" if sp else "")
        + "</div></div>"
        for i, (tm, ti, sp) in enumerate(talks)
    )
    sponsors = "".join(f"<li>{t(f'spon-{i}', 'list_item', s, heading='Sponsors')}</li>"
                       for i, s in enumerate(["Nordlys Cloud", "Fjell Bank", "Havn Labs"]))  # fmt: skip
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Sans';width:960px;height:560px;display:flex;background:#fff}}
.main{{flex:1;padding:34px 44px}} h1{{font-size:32px;margin:0;color:#0b3954}} .date{{font-size:17px;color:#087e8b}}
.row{{display:flex;gap:26px;border-top:1px solid #ddd;padding:14px 0}}
.time{{width:70px;font-size:18px;font-weight:bold}}
.talk{{font-size:18px}} .sp{{font-size:14px;color:#666;margin-top:3px}} .list{{margin-top:24px}}
.side{{width:230px;background:#0b3954;color:#fff;padding:34px 24px}} h2{{font-size:19px;margin:0 0 10px}}
ul{{padding-left:18px;font-size:16px;line-height:1.8}}
</style></head><body><div class=main><h1>{t("title", "title", "Bergen Dev Day 2025")}</h1>
<div class=date>{t("date", "subtitle", "Thursday 12 June, Main Hall")}</div><div class=list>{rows}</div></div>
<div class=side><h2>{t("spon-h", "section_heading", "Sponsors")}</h2><ul>{sponsors}</ul></div></body></html>""",
        (960, 560),
    )


def product(t):
    specs = ["Weight 1.2 kg", "Battery 18 hours", "Screen 14 inch"]
    li = "".join(f"<li>{t(f'spec-{i}', 'list_item', s, heading='Specifications')}</li>" for i, s in enumerate(specs))
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Serif';width:900px;height:560px;background:#fafafa}}
.p{{display:flex;gap:40px;padding:40px}} .img{{width:330px;height:330px;background:#d9e2ec;border-radius:16px}}
h1{{font-size:34px;margin:0}} .price{{font-size:30px;color:#b23a48;margin:12px 0}}
.badge{{display:inline-block;background:#2d6a4f;color:#fff;font-family:'Liberation Sans'}}
.badge{{font-size:14px;padding:4px 10px}}
h2{{font-size:20px;margin:22px 0 4px}} ul{{font-size:17px;line-height:1.6;margin:0}}
.btn{{margin-top:20px;display:inline-block;background:#111;color:#fff;font-family:'Liberation Sans';padding:12px 34px}}
</style></head><body><div class=p><div class=img></div><div>
<h1>{t("title", "title", "Aurora Laptop 14")}</h1><div class=price>{t("price", "card_value", "EUR 1,149")}</div>
<span class=badge>{t("badge", "badge", "In stock")}</span><h2>{t("spec-h", "section_heading", "Specifications")}</h2>
<ul>{li}</ul><div class=btn>{t("btn", "button", "Add to cart")}</div></div></div></body></html>""",
        (900, 560),
    )


PAGES = {"grouped": grouped, "area": area, "donut": donut, "order": order, "schedule": schedule, "product": product}

QUESTIONS = {
    "grouped": (
        "matplotlib",
        {"leg-b": ("typo", "Retail partnrs"), "ylabel": ("swap", "units Thousand")},
        [
            ("title", "title", "Units Sold per Channel", 'Is the chart title exactly "Units Sold per Channel"?', ""),
            (
                "title",
                "title",
                "Units Sold by Channel",
                'Is the chart title exactly "Units Sold by Channel"?',
                "missing",
            ),
            ("legend", "leg-a", "Online store", 'Does the legend include the label "Online store"?', ""),
            ("legend", "leg-b", "Retail partners", 'Does the legend include the label "Retail partners"?', ""),
            ("legend", None, "Wholesale", 'Does the legend include the label "Wholesale"?', "missing"),
            ("y_axis", "ylabel", "Thousand units", 'Does the y-axis title read exactly "Thousand units"?', ""),
            ("x_tick", "tick-2", "Mar", 'Is the third x-axis tick label from the left exactly "Mar"?', ""),
            (
                "x_tick",
                "tick-1",
                "Mar",
                'Is the second x-axis tick label from the left exactly "Mar"?',
                "wrong_element",
            ),
        ],
    ),
    "area": (
        "matplotlib",
        {"title": ("digit", "Generation Capacity 2015-2021"), "leg-2": ("drop_word", "Offshore")},
        [
            (
                "title",
                "title",
                "Generation Capacity 2015-2024",
                'Is the chart title exactly "Generation Capacity 2015-2024"?',
                "",
            ),
            (
                "title",
                "title",
                "Generation Capacity 2014-2024",
                'Is the chart title exactly "Generation Capacity 2014-2024"?',
                "digit",
            ),
            ("legend", "leg-1", "Solar", 'Does the legend include the label "Solar"?', ""),
            ("legend", "leg-2", "Offshore wind", 'Does the legend include the label "Offshore wind"?', ""),
            ("legend", "leg-2", "Onshore wind", 'Does the legend include the label "Onshore wind"?', "typo"),
            ("y_axis", "ylabel", "Gigawatts", 'Does the y-axis title read exactly "Gigawatts"?', ""),
            (
                "callout",
                "note",
                "Coal plants retired from 2019",
                'Is there a callout annotation that contains the exact text "Coal plants retired from 2019"?',
                "",
            ),
        ],
    ),
    "donut": (
        "matplotlib",
        {"centre": ("digit", "EUR 1.7M"), "leg-2": ("typo", "Marketng 13%")},
        [
            ("title", "title", "Where the Money Goes", 'Is the chart title exactly "Where the Money Goes"?', ""),
            ("centre", "centre", "EUR 1.2M", 'Does the text in the center of the donut read exactly "EUR 1.2M"?', ""),
            (
                "centre",
                "centre",
                "EUR 1.5M",
                'Does the text in the center of the donut read exactly "EUR 1.5M"?',
                "digit",
            ),
            ("legend", "leg-1", "Salaries 41%", 'Does the legend include the label "Salaries 41%"?', ""),
            ("legend", "leg-2", "Marketing 13%", 'Does the legend include the label "Marketing 13%"?', ""),
            ("legend", "leg-3", "Other 18%", 'Does the legend include the label "Other 18%"?', "digit"),
            (
                "callout",
                "centre-sub",
                "monthly costs",
                'Is there a callout annotation that contains the exact text "monthly costs"?',
                "",
            ),
        ],
    ),
    "order": (
        "chromium",
        {"total": ("digit", "EUR 88.50"), "btn": ("swap", "Track parcel your")},
        [
            (
                "title",
                "title",
                "Thank you for your order",
                'Does the main title at the top of the page read exactly "Thank you for your order"?',
                "",
            ),
            (
                "title",
                "title",
                "Thanks for your order",
                'Does the main title at the top of the page read exactly "Thanks for your order"?',
                "typo",
            ),
            (
                "text",
                "lead",
                "Order #48213 ships within 2 working days.",
                'Does the text below the title read exactly "Order #48213 ships within 2 working days."?',
                "",
            ),
            (
                "cell",
                "price-1",
                "EUR 24.50",
                "In the 'Canvas tote bag' row, does the 'Price' cell read exactly \"EUR 24.50\"?",
                "",
            ),
            (
                "cell",
                "price-0",
                "EUR 24.50",
                "In the 'Linen shirt, size M' row, does the 'Price' cell read exactly \"EUR 24.50\"?",
                "wrong_element",
            ),
            ("total", "total", "EUR 83.50", 'Does the total read exactly "EUR 83.50"?', ""),
            ("button", "btn", "Track your parcel", 'Is there a button labeled exactly "Track your parcel"?', ""),
            ("button", None, "Continue shopping", 'Is there a button labeled exactly "Continue shopping"?', "missing"),
        ],
    ),
    "schedule": (
        "chromium",
        {"talk-1": ("typo", "Scaling serch at Finn"), "spon-1": ("missing", "")},
        [
            (
                "title",
                "title",
                "Bergen Dev Day 2025",
                'Does the main title at the top of the page read exactly "Bergen Dev Day 2025"?',
                "",
            ),
            (
                "title",
                "title",
                "Bergen Dev Day 2024",
                'Does the main title at the top of the page read exactly "Bergen Dev Day 2024"?',
                "digit",
            ),
            (
                "subtitle",
                "date",
                "Thursday 12 June, Main Hall",
                'Does the subtitle directly beneath the title read exactly "Thursday 12 June, Main Hall"?',
                "",
            ),
            (
                "text",
                "talk-1",
                "Scaling search at Finn",
                'Is there a talk titled exactly "Scaling search at Finn"?',
                "",
            ),
            ("text", "talk-0", "Opening keynote", 'Is there a line that reads exactly "Opening keynote"?', ""),
            ("heading", "spon-h", "Sponsors", 'Is there a section heading that reads exactly "Sponsors"?', ""),
            ("item", "spon-1", "Fjell Bank", 'Is the second item under the "Sponsors" heading "Fjell Bank"?', ""),
            (
                "item",
                "spon-2",
                "Nordlys Cloud",
                'Is the third item under the "Sponsors" heading "Nordlys Cloud"?',
                "wrong_element",
            ),
        ],
    ),
    "product": (
        "chromium",
        {"price": ("digit", "EUR 1,179"), "spec-1": ("drop_word", "Battery hours")},
        [
            (
                "title",
                "title",
                "Aurora Laptop 14",
                'Does the main title at the top of the page read exactly "Aurora Laptop 14"?',
                "",
            ),
            (
                "title",
                "title",
                "Aurora Laptop 15",
                'Does the main title at the top of the page read exactly "Aurora Laptop 15"?',
                "digit",
            ),
            ("price", "price", "EUR 1,149", 'Does the price below the title read exactly "EUR 1,149"?', ""),
            ("badge", "badge", "In stock", 'Is there a badge reading exactly "In stock"?', ""),
            ("badge", None, "Sold out", 'Is there a badge reading exactly "Sold out"?', "missing"),
            (
                "item",
                "spec-1",
                "Battery 18 hours",
                'Is the second item under the "Specifications" heading "Battery 18 hours"?',
                "",
            ),
            (
                "item",
                "spec-2",
                "Screen 14 inch",
                'Is the third item under the "Specifications" heading "Screen 14 inch"?',
                "",
            ),
            ("button", "btn", "Add to cart", 'Is there a button labeled exactly "Add to cart"?', ""),
        ],
    ),
}
