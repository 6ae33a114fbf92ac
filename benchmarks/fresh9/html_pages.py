"""The Chromium pages of the ninth tester's set (``benchmarks/fresh9_pages.py``): a narrow till
receipt in a monospace face with a totals table and a barcode, a product roadmap on a horizontal
timeline with milestone cards above and below the line, a 16:9 slide comparing two options side by
side around a "VS" disc, a dark dashboard with KPI tiles and sparklines, and a newsletter with a
coloured sidebar, in Liberation Mono, DejaVu Sans, Liberation Sans, DejaVu Sans and DejaVu Serif.

Each function takes ``t(eid, role, text, **context)`` (as ``benchmarks/fresh7/html_pages.py``: the
element's markup, a span with ``data-eid``) and ``rng`` (the content) and returns (html, (width,
height)); ``benchmarks/fresh7/html_pages.draw`` renders it and takes every element's box from the DOM.
"""

from __future__ import annotations

from benchmarks.fresh9 import vocab as V


def receipt(t, rng):
    shop, street = rng.choice(V.SHOPS), rng.choice(V.STREETS)
    goods = rng.sample(V.GOODS, 5)
    sub = sum(p for _, p in goods)
    vat = round(sub * 0.2, 2)
    rows = "".join(
        f"<tr><td>{t(f'item-{i}', 'table_cell', g, ordinal=i + 1)}</td>"
        f"<td class=r>{t(f'price-{i}', 'table_cell', f'{p:.2f}', row=g, column='EUR')}</td></tr>"
        for i, (g, p) in enumerate(goods)
    )
    tot = "".join(
        f"<tr class={c}><td>{label}</td><td class=r>{t(c, 'table_cell', f'{v:.2f}', row=label, column='EUR')}</td></tr>"
        for c, label, v in (("sub", "Subtotal", sub), ("vat", "VAT 20%", vat), ("tot", "Total", sub + vat))
    )
    return (
        f"""<html><head><style>
body{{margin:0;background:#d9d4c7;font-family:'Liberation Mono';color:#1d1d1d}}
.r{{text-align:right}} .paper{{width:400px;margin:18px auto;background:#fffef8;padding:22px 26px}}
h1{{font-size:24px;text-align:center;margin:0}} .addr{{text-align:center;font-size:15px;margin-top:4px}}
.dash{{border-top:2px dashed #777;margin:12px 0}} table{{width:100%;border-collapse:collapse;font-size:16px}}
td{{padding:3px 0}} th{{font-size:15px;text-align:left;border-bottom:1px solid #999}}
tr.tot td{{font-size:20px;font-weight:bold;padding-top:6px}}
.bar{{height:46px;margin:14px 20px 6px;background:repeating-linear-gradient(90deg,#111 0 2px,#fff 2px 5px,#111 5px 6px,
#fff 6px 9px)}} .foot{{text-align:center;font-size:14px}}
</style></head><body><div class=paper><h1>{t("title", "title", shop)}</h1>
<div class=addr>{t("addr", "subtitle", street)}</div><div class=dash></div>
<table><tr><th>{t("h-0", "table_header", "Item", ordinal=1)}</th><th class=r>{
            t("h-1", "table_header", "EUR", ordinal=2)
        }</th></tr>{rows}</table><div class=dash></div><table>{tot}</table><div class=dash></div>
<div class=bar></div>
<div class=foot>{t("footer", "footer", f"Receipt {rng.randint(10000, 99999)} - thank you for shopping")}</div>
</div></body></html>""",
        (460, 640),
    )


def roadmap(t, rng):
    firm = rng.choice(V.FIRMS)
    stones = rng.sample(V.MILESTONES, 4)
    year = rng.choice([2026, 2027])
    cards = ""
    for i, (name, note) in enumerate(stones):
        top = i % 2 == 0
        cards += (
            f"<div class='m {'up' if top else 'dn'}' style='left:{60 + 215 * i}px'>"
            f"<div class=q>{t(f'q-{i}', 'badge', f'Q{i + 1} {year}')}</div>"
            f"<div class=card><div class=n>{t(f'ms-{i}', 'section_heading', name, ordinal=i + 1)}</div>"
            f"<div class=d>{t(f'note-{i}', 'paragraph', note, heading=name)}</div></div></div>"
        )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'DejaVu Sans';background:#f6f8fb;color:#1f2a44;width:960px;height:560px;position:relative}}
h1{{margin:0;padding:30px 48px 0;font-size:30px}} .sub{{padding:6px 48px;font-size:17px;color:#5a6785}}
.line{{position:absolute;left:40px;right:40px;top:320px;height:4px;background:#3a86ff}}
.m{{position:absolute;width:190px}} .m.up{{top:130px}} .m.dn{{top:336px}}
.q{{display:inline-block;background:#3a86ff;color:#fff;font-size:13px;padding:3px 9px;border-radius:10px}}
.m.up .q{{position:absolute;top:176px}} .m.dn .q{{position:absolute;top:-34px}}
.m.dn .card{{margin-top:14px}}
.card{{background:#fff;border:1px solid #cdd6e6;border-radius:8px;padding:10px 12px;box-shadow:0 2px 4px #0001}}
.n{{font-weight:bold;font-size:17px}} .d{{font-size:14px;margin-top:4px;color:#44506b}}
.foot{{position:absolute;bottom:18px;left:48px;font-size:13px;color:#7a86a0}}
</style></head><body><h1>{t("title", "title", f"{firm} product roadmap")}</h1>
<div class=sub>{t("subtitle", "subtitle", f"What we plan to ship in {year}")}</div><div class=line></div>{cards}
<div class=foot>{t("footer", "footer", "Dates are targets and may move as priorities change.")}</div>
</body></html>""",
        (960, 560),
    )


def compare(t, rng):
    a, b = rng.choice(V.OPTIONS)
    pros = rng.sample(V.PROS, 6)
    cols = ""
    for c, (name, items) in enumerate(((a, pros[:3]), (b, pros[3:]))):
        lis = "".join(
            f"<li><span class=ok>&#10003;</span> {t(f'pro-{c}-{k}', 'list_item', s, heading=name, ordinal=k + 1)}</li>"
            for k, s in enumerate(items)
        )
        cost = f"${rng.randint(120, 900)}k"
        cols += (
            f"<div class='col c{c}'><h2>{t(f'opt-{c}', 'section_heading', name, ordinal=c + 1)}</h2><ul>{lis}</ul>"
            f"<div class=cost>{t(f'costl-{c}', 'card_label', f'Three year cost, option {c + 1}')}<br><b>"
            f"{t(f'cost-{c}', 'card_value', cost, card=f'Three year cost, option {c + 1}')}</b></div></div>"
        )
    return (
        f"""<html><head><style>
body{{margin:0;width:1280px;height:720px;font-family:'Liberation Sans';background:#ffffff;color:#22223b;
position:relative}}
h1{{margin:0;padding:40px 64px 8px;font-size:42px}} .sub{{padding:0 64px;font-size:20px;color:#6c6f93}}
.cols{{display:flex;gap:120px;padding:34px 64px}} .col{{flex:1;border-radius:14px;padding:22px 30px}}
.c0{{background:#edf6f9}} .c1{{background:#fdf0d5}} h2{{margin:0 0 8px;font-size:28px}}
ul{{list-style:none;padding:0;font-size:21px;line-height:1.9;margin:0}} .ok{{color:#2a9d8f;font-weight:bold}}
.cost{{margin-top:14px;font-size:16px;color:#4a4e69}} .cost b{{font-size:30px;color:#22223b}}
.vs{{position:absolute;left:600px;top:330px;width:80px;height:80px;border-radius:40px;background:#22223b;
color:#fff;font-size:28px;font-weight:bold;text-align:center;line-height:80px}}
.rec{{position:absolute;left:64px;right:64px;bottom:34px;background:#22223b;color:#fff;font-size:20px;
padding:14px 24px;border-radius:10px}}
</style></head><body><h1>{t("title", "title", f"{a} or {b.lower()}?")}</h1>
<div class=sub>{t("subtitle", "subtitle", "Options reviewed by the steering group")}</div>
<div class=cols>{cols}</div><div class=vs>VS</div>
<div class=rec>{t("rec", "footer", f"Recommendation: {rng.choice((a, b)).lower()}, decision due next month")}</div>
</body></html>""",
        (1280, 720),
    )


def _spark(rng, color: str) -> str:
    pts = " ".join(f"{x * 16},{30 - rng.randint(0, 28)}" for x in range(9))
    return f"<svg width=130 height=32><polyline points='{pts}' fill=none stroke='{color}' stroke-width=2 /></svg>"


def dark_kpi(t, rng):
    nav = rng.sample(V.NAV, 4)
    kpis = rng.sample(V.KPIS, 4)
    firm = rng.choice(V.FIRMS)
    links = "".join(f"<span class=l>{t(f'nav-{i}', 'nav_item', s, ordinal=i + 1)}</span>" for i, s in enumerate(nav))
    tiles = ""
    for i, (label, unit) in enumerate(kpis):
        v = rng.randint(12, 980)
        value = f"${v}k" if unit == "$" else (f"{v / 10:.1f}%" if unit == "%" else f"{v * 7:,}")
        up = rng.random() < 0.6
        delta = f"{'+' if up else '-'}{rng.uniform(0.5, 14):.1f}% vs last month"
        color = "#34d399" if up else "#f87171"
        tiles += (
            f"<div class=tile><div class=k>{t(f'kl-{i}', 'card_label', label)}</div>"
            f"<div class=v>{t(f'kv-{i}', 'card_value', value, card=label)}</div>"
            f"<div class=dl style='color:{color}'>{t(f'kd-{i}', 'paragraph', delta, card=label)}</div>"
            f"{_spark(rng, color)}</div>"
        )
    accts = rng.sample(V.ACCOUNTS, 4)
    lis = "".join(
        f"<li>{t(f'acct-{k}', 'list_item', s, heading='Top accounts', ordinal=k + 1)}</li>" for k, s in enumerate(accts)
    )
    refreshed = f"Last refreshed {rng.randint(1, 12)}:{rng.choice(['05', '20', '45'])} UTC"
    return (
        f"""<html><head><style>
body{{margin:0;width:1100px;height:640px;font-family:'DejaVu Sans';background:#0f172a;color:#e2e8f0}}
.nav{{display:flex;align-items:center;gap:28px;padding:16px 36px;background:#020617;font-size:15px}}
.brand{{font-weight:bold;font-size:19px;color:#7dd3fc;margin-right:30px}} .l{{color:#94a3b8}}
h1{{margin:26px 36px 4px;font-size:28px;font-weight:normal}} .sub{{margin:0 36px;font-size:15px;color:#94a3b8}}
.tiles{{display:flex;gap:18px;padding:24px 36px}} .tile{{flex:1;background:#1e293b;border-radius:12px;padding:16px}}
.k{{font-size:14px;color:#94a3b8}} .v{{font-size:32px;font-weight:bold;margin:8px 0 4px}} .dl{{font-size:13px}}
h2{{margin:6px 36px;font-size:18px;color:#cbd5e1}} ul{{margin:0 36px;padding-left:20px;font-size:16px;
line-height:1.7;color:#cbd5e1}}
</style></head><body><div class=nav><span class=brand>{t("brand", "nav_item", firm, ordinal=0)}</span>{links}</div>
<h1>{t("title", "title", "Revenue operations")}</h1>
<div class=sub>{t("subtitle", "subtitle", refreshed)}</div>
<div class=tiles>{tiles}</div><h2>{t("acct-h", "section_heading", "Top accounts")}</h2><ul>{lis}</ul>
</body></html>""",
        (1100, 640),
    )


def news_sidebar(t, rng):
    name = rng.choice(V.NEWSLETTERS)
    picks = rng.sample(range(len(V.TOPICS)), 4)
    topics = [V.TOPICS[k] for k in picks]
    side = "".join(
        f"<li>{t(f'toc-{i}', 'list_item', s, heading='In this issue', ordinal=i + 1)}</li>"
        for i, s in enumerate(topics)
    )
    main = "".join(
        f"<h2>{t(f'h-{i}', 'section_heading', topics[i])}</h2>"
        f"<p>{t(f'p-{i}', 'paragraph', V.STORIES[picks[i]], heading=topics[i])}</p>"
        for i in range(2)
    )
    issue, month = rng.randint(12, 88), rng.choice(["March", "April", "May", "June", "September", "November"])
    return (
        f"""<html><head><style>
body{{margin:0;width:940px;height:620px;display:flex;font-family:'DejaVu Serif';background:#fff;color:#262626}}
.side{{width:230px;background:#5f0f40;color:#fbe9f1;padding:30px 22px;font-family:'Liberation Sans'}}
.side h3{{margin:0 0 10px;font-size:17px;text-transform:none;letter-spacing:1px}}
.side ul{{padding-left:18px;margin:0;font-size:16px;line-height:1.6}}
.side .contact{{margin-top:40px;font-size:13px;color:#e9b8cf}}
.main{{flex:1;padding:30px 40px}} h1{{margin:0;font-size:36px;color:#5f0f40}}
.iss{{font-size:15px;color:#777;margin:6px 0 14px;border-bottom:1px solid #ddd;padding-bottom:10px}}
h2{{font-size:21px;margin:16px 0 4px}} p{{font-size:16px;line-height:1.5;margin:0}}
.btn{{display:inline-block;margin-top:22px;background:#fb8b24;color:#fff;padding:10px 20px;border-radius:6px;
font-family:'Liberation Sans';font-size:16px}}
.foot{{margin-top:22px;font-size:12px;color:#888}}
</style></head><body><div class=side><h3>{t("toc-h", "section_heading", "In this issue")}</h3><ul>{side}</ul>
<div class=contact>Questions? Write to the editors at any time.</div></div>
<div class=main><h1>{t("title", "title", name)}</h1>
<div class=iss>{t("date", "paragraph", f"Issue {issue}, {month} 2026", label="date")}</div>{main}
<div class=btn>{t("btn", "button", rng.choice(["Read the full issue", "Open in browser", "See all stories"]))}</div>
<div class=foot>{t("footer", "footer", "You receive this because you work here. Manage preferences.")}</div>
</div></body></html>""",
        (940, 620),
    )


PAGES = {"receipt": receipt, "roadmap": roadmap, "compare": compare, "dark_kpi": dark_kpi, "news_sidebar": news_sidebar}
