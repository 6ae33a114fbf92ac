"""The Chromium pages of the eighth tester's set (``benchmarks/fresh8_pages.py``): an invoice with a
coloured header band, a three-tier pricing table, a bordered certificate, an event agenda with times
and rooms, and a two-column article with a pull quote that repeats a sentence of the body, in
Liberation Sans, Liberation Serif, DejaVu Serif and DejaVu Sans.

Each function takes ``t(eid, role, text, **context)`` (as ``benchmarks/fresh7/html_pages.py``: the
element's markup, a span with ``data-eid``) and ``rng`` (the content) and returns (html, (width,
height)); ``benchmarks/fresh7/html_pages.draw`` renders it and takes every element's box from the DOM.
"""

from __future__ import annotations

from benchmarks.fresh8 import vocab as V


def invoice(t, rng):
    company, client = rng.sample(V.COMPANIES, 2)
    services = rng.sample(V.SERVICES, 3)
    amounts = [rng.randint(4, 60) * 50 for _ in services]
    no = f"INV-{rng.randint(1000, 9999)}"
    day, month = rng.randint(2, 27), rng.choice(V.MONTHS)
    body = "".join(
        f"<tr><td>{t(f'desc-{i}', 'table_cell', s, row=s, column='Service')}</td><td class=n>1</td>"
        f"<td class=n>{t(f'amt-{i}', 'table_cell', f'{a:,}.00', row=s, column='Amount')}</td></tr>"
        for i, (s, a) in enumerate(zip(services, amounts))
    )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Sans';color:#222;width:880px}}
.band{{background:#264653;color:#fff;padding:26px 44px}} .band h1{{margin:0;font-size:34px}}
.band .no{{font-size:18px;margin-top:6px;color:#cfe3e0}}
.wrap{{padding:24px 44px}} .to{{font-size:17px;line-height:1.5}}
table{{width:100%;border-collapse:collapse;margin-top:22px;font-size:17px}}
th{{text-align:left;background:#e9f1f0;padding:9px 6px}} td{{padding:9px 6px;border-bottom:1px solid #ddd}}
.n{{text-align:right}} .tot{{margin-top:20px;text-align:right;font-size:21px}}
.foot{{margin-top:40px;font-size:14px;color:#666}}
</style></head><body><div class=band><h1>{t("title", "title", company)}</h1>
<div class=no>{t("inv-no", "subtitle", f"Invoice {no}")}</div></div><div class=wrap>
<div class=to><b>{t("billed-h", "section_heading", "Billed to")}</b><br>{
            t("client", "paragraph", client, heading="Billed to")
        }<br>{t("date", "paragraph", f"Issued {day} {month} 2025", label="date")}</div>
<table><tr><th>{t("h-0", "table_header", "Service", ordinal=1)}</th><th class=n>{
            t("h-1", "table_header", "Qty", ordinal=2)
        }</th><th class=n>{t("h-2", "table_header", "Amount", ordinal=3)}</th></tr>{body}</table>
<div class=tot>{t("total-l", "card_label", "Amount due")}&nbsp;&nbsp;<b>{
            t("total", "card_value", f"EUR {sum(amounts):,}.00", card="Amount due")
        }</b></div>
<div class=foot>{t("footer", "footer", f"Please pay within {rng.choice([14, 21, 30])} days. Thank you.")}</div>
</div></body></html>""",
        (880, 600),
    )


def pricing3(t, rng):
    names = rng.choice(V.TIERS)
    feats = rng.sample(V.FEATURES, 9)
    prices = sorted(rng.sample(range(5, 120), 3))
    buttons = rng.sample(V.BUTTONS, 3)
    cards = ""
    for i, name in enumerate(names):
        lis = "".join(
            f"<li>{t(f'feat-{i}-{k}', 'list_item', f, heading=name, ordinal=k + 1)}</li>"
            for k, f in enumerate(feats[3 * i : 3 * i + 3])
        )
        cards += (
            f"<div class='c{' hi' if i == 2 else ''}'><h2>{t(f'tier-{i}', 'section_heading', name, ordinal=i + 1)}"
            f"</h2><div class=p>{t(f'price-{i}', 'card_value', f'${prices[i]}', card=name)}<small> per month"
            f"</small></div><ul>{lis}</ul><div class=b>{t(f'btn-{i}', 'button', buttons[i])}</div></div>"
        )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'DejaVu Sans';background:#fffaf2;color:#2b2d42}}
h1{{text-align:center;font-size:34px;margin:30px 0 4px}} .s{{text-align:center;font-size:18px;color:#6c6f7f}}
.row{{display:flex;gap:22px;justify-content:center;margin-top:28px}}
.c{{background:#fff;border:2px solid #e7dcc8;width:250px;padding:22px}} .c.hi{{border-color:#d62828}}
h2{{margin:0;font-size:22px}} .p{{font-size:36px;font-weight:bold;margin:10px 0}} .p small{{font-size:14px}}
ul{{padding-left:20px;font-size:16px;line-height:1.8}}
.b{{margin-top:14px;text-align:center;padding:10px;font-size:17px;background:#2b2d42;color:#fff}}
.hi .b{{background:#d62828}}
</style></head><body><h1>{t("title", "title", "Simple pricing for every team")}</h1>
<div class=s>{t("subtitle", "subtitle", "All plans include a 14 day free trial")}</div>
<div class=row>{cards}</div></body></html>""",
        (900, 580),
    )


def certificate(t, rng):
    person, signer = rng.sample(V.PEOPLE, 2)
    course, org = rng.choice(V.COURSES), rng.choice(V.COMPANIES)
    day, month = rng.randint(2, 27), rng.choice(V.MONTHS)
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'DejaVu Serif';background:#fdfbf5;color:#3a2e1f;width:960px;height:640px}}
.frame{{position:absolute;inset:22px;border:6px double #b08d57;text-align:center}}
h1{{font-size:42px;margin:54px 0 0;letter-spacing:2px;color:#7a5c2e}}
.sub{{font-size:19px;margin-top:10px;font-style:italic}}
.name{{font-size:40px;margin-top:30px;font-family:'Liberation Serif';font-weight:bold}}
.for{{font-size:19px;margin-top:22px}} .course{{font-size:26px;margin-top:8px}}
.date{{font-size:17px;margin-top:30px}} .sig{{position:absolute;bottom:40px;left:0;right:0;font-size:16px}}
</style></head><body><div class=frame><h1>{t("title", "title", "Certificate of Completion")}</h1>
<div class=sub>{t("subtitle", "subtitle", "This certifies that")}</div>
<div class=name>{t("name", "paragraph", person)}</div>
<div class=for>has successfully completed the course</div>
<div class=course>{t("course", "section_heading", course)}</div>
<div class=date>{t("date", "paragraph", f"Awarded on {day} {month} 2025", label="date")}</div>
<div class=sig>{t("footer", "footer", f"{signer}, Director of Training, {org}")}</div>
</div></body></html>""",
        (960, 640),
    )


def agenda(t, rng):
    sessions = rng.sample(V.SESSIONS, 5)
    city, org = rng.choice(V.CITIES), rng.choice(V.COMPANIES)
    day, month = rng.randint(2, 27), rng.choice(V.MONTHS)
    rows, hour = "", 9
    for i, s in enumerate(sessions):
        room = rng.choice(V.ROOMS)
        rows += (
            f"<tr><td class=tm>{hour:02d}:{rng.choice(['00', '30'])}</td><td>"
            f"{t(f'sess-{i}', 'list_item', s, heading='Programme', ordinal=i + 1)}</td><td class=rm>{room}</td></tr>"
        )
        hour += rng.choice([1, 2])
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Sans';background:#f4f1fb;color:#2d1e4f;width:860px}}
.hd{{padding:32px 48px 12px}} h1{{margin:0;font-size:36px}} .meta{{font-size:18px;margin-top:8px;color:#5b4b8a}}
h2{{margin:18px 48px 6px;font-size:22px;border-bottom:2px solid #5b4b8a;padding-bottom:4px}}
table{{margin:0 48px;border-collapse:collapse;width:764px;font-size:18px}}
td{{padding:10px 6px;border-bottom:1px solid #d9d2ec}} .tm{{width:80px;font-weight:bold}} .rm{{color:#7d6fab}}
.foot{{margin:24px 48px;font-size:14px;color:#6d6287}}
</style></head><body><div class=hd><h1>{t("title", "title", f"{org} Partner Summit")}</h1>
<div class=meta>{t("date", "paragraph", f"{day} {month} 2025", label="date")}</div>
<div class=meta>{t("venue", "paragraph", f"Congress Centre, {city}", label="venue")}</div></div>
<h2>{t("prog-h", "section_heading", "Programme", ordinal=1)}</h2><table>{rows}</table>
<div class=foot>{t("footer", "footer", "Times are local. Sessions may change without notice.")}</div>
</body></html>""",
        (860, 620),
    )


def article(t, rng):
    headline = rng.choice(V.HEADLINES)
    author = rng.choice(V.PEOPLE)
    heads = rng.sample(V.SECTIONS, 2)
    sents = rng.sample(V.SENTENCES, 4)
    quote = sents[2]  # the pull quote repeats the first sentence of the second section's paragraph
    cols = "".join(
        f"<h3>{t(f'h-{c}', 'section_heading', h, ordinal=c + 1)}</h3>"
        f"<p>{t(f'p-{c}', 'paragraph', f'{sents[2 * c]} {sents[2 * c + 1]}', heading=h)}</p>"
        for c, h in enumerate(heads)
    )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Serif';background:#fff;color:#1a1a1a;width:900px}}
.w{{padding:30px 50px}} h1{{font-size:34px;margin:0;line-height:1.2}}
.by{{font-size:16px;color:#666;margin:10px 0 16px;font-family:'Liberation Sans'}}
.cols{{column-count:2;column-gap:36px;font-size:17px;line-height:1.5}}
h3{{margin:4px 0;font-size:20px;break-after:avoid}}
p{{margin:0 0 12px}}
.pq{{margin:14px 0;padding:12px 18px;border-left:5px solid #c1121f;font-size:22px;font-style:italic;
color:#c1121f;break-inside:avoid}}
</style></head><body><div class=w><h1>{t("title", "title", headline)}</h1>
<div class=by>{t("byline", "subtitle", f"By {author}")}</div>
<div class=cols>{cols}<div class=pq>{t("quote", "pull_quote", quote)}</div></div>
<div class=by>{t("footer", "footer", f"Published {rng.randint(2, 27)} {rng.choice(V.MONTHS)} 2025")}</div>
</div></body></html>""",
        (900, 560),
    )


PAGES = {"invoice": invoice, "pricing3": pricing3, "certificate": certificate, "agenda": agenda, "article": article}
