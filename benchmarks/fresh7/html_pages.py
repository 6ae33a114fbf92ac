"""The Chromium pages of the seventh tester's set (``benchmarks/fresh7_pages.py``): a serif invoice,
a three-tier pricing table with a dark middle tier, a two-column resume, a dashboard with a dark
sidebar, a three-column newsletter (CSS columns) and a form with labels and drawn inputs, in
Liberation Serif, Liberation Sans Narrow, DejaVu Sans Condensed and DejaVu Serif.

Each function takes ``t(eid, role, text, **context)`` (returns the element's markup: a span with
``data-eid`` holding ``text``, the defect's string, or nothing for a missing element) and returns
(html, (width, height)); :func:`draw` renders it with :class:`documents.engines.browser.Browser` and
takes every element's box from the DOM (``Range.getBoundingClientRect``).
"""

from __future__ import annotations

import html as _html


def invoice(t):
    rows = [
        ("Brand workshop (2 days)", "2", "1,850.00", "3,700.00"),
        ("Logo refresh", "1", "2,400.00", "2,400.00"),
        ("Style guide, 40 pages", "1", "1,150.00", "1,150.00"),
    ]
    body = "".join(
        f"<tr><td>{t(f'desc-{i}', 'table_cell', d, row=d, column='Description')}</td><td class=n>{q}</td>"
        f"<td class=n>{u}</td><td class=n>{t(f'amt-{i}', 'table_cell', a, row=d, column='Amount')}</td></tr>"
        for i, (d, q, u, a) in enumerate(rows)
    )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Serif';background:#fff;color:#222;width:900px}}
.wrap{{padding:40px 56px}} h1{{font-size:40px;margin:0;letter-spacing:1px;color:#1b3a5c}}
.meta{{float:right;text-align:right;font-size:17px;line-height:1.5}}
.to{{margin-top:28px;font-size:17px;line-height:1.45}}
table{{width:100%;border-collapse:collapse;margin-top:30px;font-size:17px}}
th{{text-align:left;border-bottom:2px solid #1b3a5c;padding:8px 4px}}
td{{padding:9px 4px;border-bottom:1px solid #ddd}}
.n{{text-align:right}}
.tot{{margin-top:22px;text-align:right;font-size:22px}}
.foot{{position:absolute;bottom:24px;left:56px;font-size:14px;color:#777}}
</style></head><body><div class=wrap>
<div class=meta>{t("inv-no", "subtitle", "Invoice No. 2025-0317")}<br>
{t("date", "subtitle", "Issued 28 February 2025")}</div>
<h1>{t("title", "title", "Harbour & Finch Studio")}</h1>
<div class=to><b>{t("billto-h", "section_heading", "Bill to")}</b><br>
{t("client", "paragraph", "Meridian Coffee Roasters")}<br>14 Quay Street, Cork</div>
<table><tr><th>{t("h-desc", "table_header", "Description")}</th><th class=n>Qty</th><th class=n>Unit price</th>
<th class=n>{t("h-amt", "table_header", "Amount")}</th></tr>{body}</table>
<div class=tot>{t("total-l", "card_label", "Total due")}&nbsp;&nbsp;<b
>{t("total", "card_value", "EUR 7,250.00", card="Total due")}</b></div>
</div>
<div class=foot>{t("footer", "footer", "Payment within 30 days to IE29 AIBK 9311 5212 3456 78")}</div></body></html>""",
        (900, 640),
    )


def pricing(t):
    tiers = [
        ("Starter", "$9", ["3 projects", "Email support"], "Start free trial"),
        ("Growth", "$29", ["Unlimited projects", "Priority chat"], "Choose Growth"),
        ("Scale", "$79", ["Single sign-on", "Audit log export"], "Contact sales"),
    ]
    cards = ""
    for i, (name, price, feats, cta) in enumerate(tiers):
        dark = " dark" if i == 1 else ""
        lis = "".join(f"<li>{t(f'feat-{i}-{k}', 'list_item', f, heading=name)}</li>" for k, f in enumerate(feats))
        cards += (
            f"<div class='card{dark}'><h2>{t(f'tier-{i}', 'section_heading', name)}</h2>"
            f"<div class=price>{t(f'price-{i}', 'card_value', price, card=name)}<small>/month</small></div>"
            f"<ul>{lis}</ul><div class=btn>{t(f'cta-{i}', 'button', cta)}</div></div>"
        )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Sans Narrow';background:#f3f5f9;color:#1d2433}}
h1{{text-align:center;font-size:38px;margin:36px 0 6px}} .sub{{text-align:center;font-size:19px;color:#5b6475}}
.row{{display:flex;gap:26px;justify-content:center;margin-top:34px}}
.card{{background:#fff;border-radius:14px;width:250px;padding:26px 24px;box-shadow:0 2px 8px rgba(0,0,0,.08)}}
.card.dark{{background:#1d2433;color:#fff}}
h2{{margin:0;font-size:24px}}
.price{{font-size:44px;font-weight:bold;margin:12px 0}}
.price small{{font-size:16px;font-weight:normal}} ul{{padding-left:20px;font-size:18px;line-height:1.7}}
.btn{{margin-top:16px;text-align:center;border-radius:8px;padding:11px;font-size:18px;background:#3d6cf2;color:#fff}}
.dark .btn{{background:#ffcc4d;color:#1d2433}}
</style></head><body><h1>{t("title", "title", "Plans that grow with your team")}</h1>
<div class=sub>{t("subtitle", "subtitle", "Billed monthly. Cancel anytime.")}</div>
<div class=row>{cards}</div></body></html>""",
        (960, 600),
    )


def resume(t):
    skills = ["Python", "PostgreSQL", "Kubernetes", "Terraform"]
    sk = "".join(f"<li>{t(f'skill-{i}', 'list_item', s, heading='Skills')}</li>" for i, s in enumerate(skills))
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'DejaVu Serif';color:#222;display:flex;width:900px;height:700px}}
.side{{width:250px;background:#2f3e46;color:#e9ecef;padding:34px 26px;font-family:'DejaVu Sans Condensed'}}
.side h3{{font-size:16px;letter-spacing:1px;margin:26px 0 8px;color:#a3c4bc}}
.side ul{{padding-left:18px;font-size:16px;line-height:1.7;margin:0}}
.main{{padding:34px 40px;flex:1}} h1{{margin:0;font-size:36px}} .role{{font-size:19px;color:#52796f;margin-top:4px}}
h2{{font-size:20px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:30px}}
.job{{font-size:17px;font-weight:bold;margin-top:14px}}
.when{{font-size:15px;color:#666}}
p{{font-size:15px;line-height:1.5;margin:6px 0}}
</style></head><body><div class=side>{t("contact", "paragraph", "Rotterdam, Netherlands")}
<h3>{t("skills-h", "section_heading", "Skills")}</h3><ul>{sk}</ul>
<h3>{t("lang-h", "section_heading", "Languages")}</h3>
<div style="font-size:16px">{t("langs", "paragraph", "Dutch, English, German")}</div></div>
<div class=main><h1>{t("name", "title", "Noor van der Berg")}</h1>
<div class=role>{t("role", "subtitle", "Senior Backend Engineer")}</div>
<h2>{t("exp-h", "section_heading", "Experience")}</h2>
<div class=job>{t("job-0", "paragraph", "Lead Engineer, Tulip Logistics")}</div>
<div class=when>{t("when-0", "paragraph", "2021 to present")}</div>
<p>Moved order routing to an event queue; cut p99 latency from 900 ms to 120 ms.</p>
<div class=job>{t("job-1", "paragraph", "Backend Developer, Kanaal Media")}</div>
<div class=when>{t("when-1", "paragraph", "2017 to 2021")}</div>
<p>Built the subscription billing service used by 2 million readers.</p>
<h2>{t("edu-h", "section_heading", "Education")}</h2>
<div class=job>{t("edu", "paragraph", "MSc Computer Science, TU Delft")}</div>
</div></body></html>""",
        (900, 700),
    )


def dashboard(t):
    nav = ["Overview", "Orders", "Customers", "Settings"]
    nv = "".join(f"<div class=nav>{t(f'nav-{i}', 'nav_item', n, ordinal=i + 1)}</div>" for i, n in enumerate(nav))
    kpis = [("Active users", "18,402", "+4.1%"), ("Conversion", "3.27%", "-0.3%"), ("Avg. order", "$64.90", "+1.8%")]
    cards = "".join(
        f"<div class=k><div class=kl>{t(f'kl-{i}', 'card_label', lab)}</div>"
        f"<div class=kv>{t(f'kv-{i}', 'card_value', v, card=lab)}</div>"
        f"<div class=kd>{t(f'kd-{i}', 'badge', d, card=lab)}</div></div>"
        for i, (lab, v, d) in enumerate(kpis)
    )
    top = [("Lisbon", "1,204"), ("Porto", "866"), ("Braga", "341")]
    rows = "".join(
        f"<tr><td>{t(f'city-{i}', 'table_cell', c, row=c, column='City')}</td><td class=n>"
        f"{t(f'ord-{i}', 'table_cell', o, row=c, column='Orders')}</td></tr>"
        for i, (c, o) in enumerate(top)
    )
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Sans';display:flex;background:#eef1f6;width:1000px;height:600px}}
.side{{width:190px;background:#17202a;color:#c9d1d9;padding:24px 0}}
.brand{{font-size:22px;font-weight:bold;color:#fff;padding:0 22px 22px}}
.nav{{padding:11px 22px;font-size:17px}} .nav:first-of-type{{background:#2c3e50;color:#fff}}
.main{{flex:1;padding:28px 32px}} h1{{margin:0 0 20px;font-size:28px;color:#17202a}}
.ks{{display:flex;gap:18px}} .k{{background:#fff;border-radius:10px;padding:18px 20px;flex:1}}
.kl{{font-size:15px;color:#6b7785}}
.kv{{font-size:32px;font-weight:bold;margin:6px 0}}
.kd{{font-size:14px;color:#1e8449}}
table{{margin-top:26px;background:#fff;border-radius:10px;width:360px;border-collapse:collapse;font-size:16px}}
th,td{{padding:10px 16px;text-align:left;border-bottom:1px solid #e3e7ee}} .n{{text-align:right}}
</style></head><body><div class=side><div class=brand>{t("brand", "title", "Shopwise")}</div>{nv}</div>
<div class=main><h1>{t("title", "title", "Sales overview, March")}</h1><div class=ks>{cards}</div>
<table><tr><th>{t("th-city", "table_header", "City")}</th>
<th class=n>{t("th-ord", "table_header", "Orders")}</th></tr>{rows}</table>
</div></body></html>""",
        (1000, 600),
    )


def newsletter(t):
    paras = [
        "The river path between the old mill and Larch Bridge reopens on Saturday after eight months of repairs.",
        "Volunteers planted 340 young oaks along the east bank, and the council added six new benches.",
        "Cyclists are asked to keep to the gravel lane while the grass settles through the spring.",
    ]
    ps = "".join(f"<p>{t(f'p-{i}', 'paragraph', p)}</p>" for i, p in enumerate(paras))
    return (
        f"""<html><head><style>
body{{margin:0;font-family:'Liberation Serif';background:#fffdf7;color:#2b2b2b;width:960px}}
.mast{{text-align:center;border-bottom:3px double #2b2b2b;margin:26px 40px 0;padding-bottom:10px}}
.mast h1{{font-size:46px;margin:0;font-variant:normal}} .issue{{font-size:16px;color:#555;margin-top:4px}}
h2{{font-size:27px;margin:22px 40px 6px}} .by{{margin:0 40px;font-size:15px;font-style:italic;color:#555}}
.cols{{column-count:3;column-gap:30px;margin:14px 40px;font-size:16px;line-height:1.5;text-align:justify}}
p{{margin:0 0 10px}}
.box{{margin:8px 40px;padding:12px 16px;background:#2b2b2b;color:#fffdf7;font-size:18px}}
</style></head><body><div class=mast><h1>{t("title", "title", "The Millbrook Courier")}</h1>
<div class=issue>{t("issue", "subtitle", "Issue 58, April 2025")}</div></div>
<h2>{t("headline", "section_heading", "River path reopens this weekend")}</h2>
<div class=by>{t("byline", "paragraph", "By Marta Quinlan")}</div>
<div class=cols>{ps}</div>
<div class=box>{t("notice", "callout", "Next council meeting: 9 April, 7 pm, Town Hall")}</div></body></html>""",
        (960, 520),
    )


def form(t):
    fields = [("Full name", "Ada Lindqvist"), ("Work email", "ada@fjordpost.se"), ("Company size", "51 to 200")]
    fs = "".join(
        f"<label>{t(f'lab-{i}', 'card_label', lab)}</label>"
        f"<div class=in>{t(f'val-{i}', 'card_value', v, card=lab)}</div>"
        for i, (lab, v) in enumerate(fields)
    )
    return (
        f"""<html><head><style>
body{{margin:0;background:#e9eef2;font-family:'DejaVu Sans';width:760px;height:640px}}
.f{{background:#fff;width:520px;margin:36px auto;padding:30px 36px;border-radius:12px}} h1{{margin:0;font-size:26px}}
.help{{font-size:14px;color:#666;margin:6px 0 18px}}
label{{display:block;font-size:14px;font-weight:bold;margin-top:14px}}
.in{{border:1px solid #aab4be;border-radius:6px;padding:9px 11px;font-size:16px;margin-top:6px;color:#333}}
.chk{{margin-top:18px;font-size:14px}}
.btn{{margin-top:20px;display:inline-block;background:#0b7a75;color:#fff;padding:11px 26px;border-radius:6px}}
.btn{{font-size:16px}}
</style></head><body><div class=f><h1>{t("title", "title", "Request a product demo")}</h1>
<div class=help>{t("help", "paragraph", "We reply within one business day.")}</div>{fs}
<div class=chk>&#9745; {t("consent", "paragraph", "Send me the monthly product digest")}</div>
<div class=btn>{t("submit", "button", "Book my demo")}</div></div></body></html>""",
        (760, 640),
    )


PAGES = {
    "invoice": invoice,
    "pricing": pricing,
    "resume": resume,
    "dashboard": dashboard,
    "newsletter": newsletter,
    "form": form,
}


def draw(name: str, texts: dict[str, str], path, browser, pages: dict | None = None):
    """Render page ``name`` with ``texts`` (element id -> the string to draw instead; "" leaves the
    element out) in ``browser`` and save it to ``path``; returns (size, records) as
    :func:`.mpl_pages.draw` (text: the element's ``innerText``, what the page shows)."""
    import math

    recorded: dict[str, tuple[str, dict]] = {}

    def t(eid, role, text, **context):
        recorded[eid] = (role, context)
        s = texts.get(eid, text)
        return f'<span data-eid="{eid}">{_html.escape(s)}</span>' if s else ""

    page, (w, h) = (pages or PAGES)[name](t)
    image, boxes = browser.render(page, w, h)
    image.save(path)
    out = []
    for b in boxes:
        role, ctx = recorded[b["eid"]]
        x0, y0, x1, y1 = b["box"]
        out.append(
            {
                "eid": b["eid"],
                "role": role,
                "text": b["text"].strip(),
                "context": ctx,
                "angle": 0,
                "box": (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)),
                "color": b["color"],
                "lines": [tuple(round(v) for v in q) for q in b["lines"]],
            }
        )
    return (w, h), out
