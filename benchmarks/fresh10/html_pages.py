"""The Chromium pages of the tenth tester's set (``benchmarks/fresh10_pages.py``): an org chart of
cards joined by CSS connector lines (initials in circles, a name and a job title per card), a help
centre FAQ as an accordion (one question open, "+"/"−" signs, a search field), a product spec sheet
(a spec table with zebra rows, feature ticks, a price and a badge), a kanban board of four columns
with ticket cards, coloured tags and initials, and a boarding pass with a tear-off stub, written the
way designers write CSS: flex and grid, web-safe font stacks (Arial/Helvetica, Georgia, Verdana,
"Trebuchet MS", "Courier New", served by fontconfig as Liberation and DejaVu faces) and unicode icons.

Each function takes ``t(eid, role, text, **context)`` (as ``benchmarks/fresh7/html_pages.py``: the
element's markup, a span with ``data-eid``) and ``rng`` (the content) and returns (html, (width,
height)); ``benchmarks/fresh7/html_pages.draw`` renders it and takes every element's box from the DOM.
"""

from __future__ import annotations

from benchmarks.fresh10 import vocab as V


def _initials(name: str) -> str:
    return "".join(p[0] for p in name.split()[:2])


def org_chart(t, rng):
    org = rng.choice(V.ORGS)
    people = rng.sample(V.PEOPLE, 7)
    chief = rng.choice(V.CHIEFS)[0]
    divs = rng.sample(V.DIVISIONS, 3)

    def card(i: int, name: str, job: str, cls: str = "") -> str:
        return (
            f"<div class='card {cls}'><div class=av>{_initials(name)}</div><div>"
            f"<div class=nm>{t(f'name-{i}', 'section_heading', name)}</div>"
            f"<div class=jb>{t(f'job-{i}', 'paragraph', job, heading=name)}</div></div></div>"
        )

    branches = ""
    for k, (head, reports) in enumerate(divs):
        sub = rng.choice(reports)
        branches += (
            f"<div class=branch>{card(1 + 2 * k, people[1 + 2 * k], head)}<div class=stem></div>"
            f"{card(2 + 2 * k, people[2 + 2 * k], sub, 'small')}</div>"
        )
    as_of = rng.choice(["1 April", "1 July", "1 October"])
    return (
        f"""<html><head><style>
body{{margin:0;width:1100px;height:620px;font-family:Verdana,Geneva,sans-serif;background:#f4f1ea;color:#2b2d42}}
header{{padding:26px 40px 6px}} h1{{margin:0;font-size:26px;font-weight:bold}}
.sub{{font-size:14px;color:#6d6875;margin-top:6px}}
.top{{display:flex;justify-content:center;margin-top:18px}}
.card{{display:flex;gap:12px;align-items:center;background:#fff;border-radius:10px;padding:12px 16px;
box-shadow:0 1px 3px rgba(0,0,0,.15);width:250px;border-top:4px solid #ef8354}}
.card.small{{width:230px;border-top-color:#4f5d75}}
.av{{width:42px;height:42px;border-radius:50%;background:#4f5d75;color:#fff;display:grid;place-items:center;
font-size:15px;font-weight:bold;flex:none}}
.nm{{font-size:16px;font-weight:bold}} .jb{{font-size:13px;color:#555;margin-top:3px}}
.rail{{margin:0 auto;width:760px;height:34px;border:2px solid #9a8c98;border-bottom:none;margin-top:34px;
position:relative}} .rail:before{{content:'';position:absolute;left:379px;top:-36px;height:34px;
border-left:2px solid #9a8c98}}
.row{{display:grid;grid-template-columns:repeat(3,1fr);justify-items:center;padding:0 20px}}
.branch{{display:flex;flex-direction:column;align-items:center}}
.stem{{height:30px;border-left:2px solid #9a8c98}}
footer{{position:absolute;bottom:16px;left:40px;font-size:12px;color:#8d8d8d}}
</style></head><body><header><h1>{t("title", "title", f"{org} leadership team")}</h1>
<div class=sub>{t("subtitle", "subtitle", f"Reporting lines as of {as_of}")}</div>
</header><div class=top>{card(0, people[0], chief)}</div><div class=rail></div><div class=row>{branches}</div>
<footer>{t("footer", "footer", "Open roles are listed on the careers page.")}</footer></body></html>""",
        (1100, 620),
    )


def faq(t, rng):
    brand = rng.choice(V.HELP_BRANDS)
    items = rng.sample(V.FAQ, 5)
    opened = rng.randrange(5)
    rows = ""
    for i, (q, a) in enumerate(items):
        sign = "&#8722;" if i == opened else "+"
        answer = f"<div class=ans>{t(f'a-{i}', 'paragraph', a, heading=q)}</div>" if i == opened else ""
        rows += (
            f"<div class='qa{' open' if i == opened else ''}'><div class=q>"
            f"{t(f'q-{i}', 'section_heading', q)}<span class=sign>{sign}</span></div>{answer}</div>"
        )
    nav = "".join(
        f"<a>{t(f'nav-{i}', 'nav_item', s, ordinal=i + 1)}</a>"
        for i, s in enumerate(rng.sample(["Orders", "Returns", "Billing", "Account", "Shipping"], 3))
    )
    return (
        f"""<html><head><style>
body{{margin:0;width:900px;height:700px;font-family:Arial,Helvetica,sans-serif;background:#fff;color:#1f2937}}
nav{{display:flex;align-items:center;gap:26px;padding:14px 48px;border-bottom:1px solid #e5e7eb;font-size:15px}}
nav .brand{{font-weight:bold;font-size:19px;color:#7c3aed;margin-right:auto}} nav a{{color:#4b5563}}
.hero{{background:#f5f3ff;padding:26px 48px}} h1{{margin:0;font-size:30px}}
.search{{margin-top:14px;background:#fff;border:1px solid #c4b5fd;border-radius:24px;padding:10px 18px;
font-size:15px;color:#9ca3af;width:420px}}
.list{{padding:18px 48px}} .qa{{border:1px solid #e5e7eb;border-radius:8px;margin-bottom:10px}}
.q{{display:flex;justify-content:space-between;padding:13px 18px;font-size:17px;font-weight:bold}}
.sign{{color:#7c3aed;font-size:22px;line-height:18px}} .open{{border-color:#7c3aed}}
.ans{{padding:0 18px 14px;font-size:15px;line-height:1.5;color:#4b5563}}
.contact{{display:flex;align-items:center;gap:18px;padding:4px 48px;font-size:15px;color:#4b5563}}
.btn{{background:#7c3aed;color:#fff;padding:10px 20px;border-radius:6px;font-weight:bold}}
</style></head><body><nav><span class=brand>{t("brand", "nav_item", brand, ordinal=0)}</span>{nav}</nav>
<div class=hero><h1>{t("title", "title", "Frequently asked questions")}</h1>
<div class=search>&#128269;&nbsp; Search the help centre</div></div>
<div class=list>{rows}</div><div class=contact><span>Still stuck?</span>
<span class=btn>{t("btn", "button", rng.choice(["Contact support", "Chat with us", "Open a ticket"]))}</span></div>
</body></html>""",
        (900, 700),
    )


def spec_sheet(t, rng):
    name, tagline = rng.choice(V.DEVICES)
    rows = rng.sample(V.SPEC_ROWS, 6)
    body = "".join(
        f"<tr><td>{t(f'k-{i}', 'table_cell', r, ordinal=i + 1)}</td>"
        f"<td>{t(f'v-{i}', 'table_cell', rng.choice(V.SPEC_VALUES[r]), row=r, column='Value')}</td></tr>"
        for i, r in enumerate(rows)
    )
    why = "Why you will like it"
    feats = "".join(
        f"<li><span class=tick>&#10004;</span>{t(f'f-{i}', 'list_item', f, heading=why, ordinal=i + 1)}</li>"
        for i, f in enumerate(rng.sample(V.FEATURES, 3))
    )
    price = f"EUR {rng.randint(89, 1890)}"
    return (
        f"""<html><head><style>
body{{margin:0;width:1000px;height:640px;font-family:Georgia,'Times New Roman',serif;background:#fbfaf7;color:#222}}
.wrap{{display:grid;grid-template-columns:360px 1fr;gap:40px;padding:40px 48px}}
.photo{{height:300px;border-radius:12px;background:linear-gradient(135deg,#d8e2dc,#9db4c0);position:relative}}
.badge{{position:absolute;top:14px;left:14px;background:#e63946;color:#fff;font-family:Arial,sans-serif;
font-size:13px;font-weight:bold;padding:4px 10px;border-radius:4px;letter-spacing:1px}}
h1{{margin:0;font-size:30px}} .tag{{font-style:italic;color:#5c677d;margin:6px 0 14px;font-size:17px}}
.price{{font-family:Arial,sans-serif;font-size:28px;font-weight:bold;color:#1d3557}}
h2{{font-size:18px;margin:18px 0 6px;font-family:Arial,sans-serif;text-transform:uppercase;letter-spacing:1px}}
table{{border-collapse:collapse;width:100%;font-family:Arial,sans-serif;font-size:15px}}
td{{padding:7px 10px}} tr:nth-child(odd){{background:#eef1f4}} td:first-child{{color:#5c677d;width:42%}}
ul{{list-style:none;padding:0;margin:0;font-size:16px;line-height:1.8}} .tick{{color:#2a9d8f;margin-right:8px}}
.btn{{display:inline-block;margin-top:16px;background:#1d3557;color:#fff;font-family:Arial,sans-serif;
padding:11px 26px;border-radius:4px;font-size:16px}}
</style></head><body><div class=wrap><div><div class=photo><span class=badge>{
            t("badge", "badge", rng.choice(["NEW", "BESTSELLER", "ECO PICK"]))
        }</span></div>
<h2>{t("feat-h", "section_heading", "Why you will like it")}</h2><ul>{feats}</ul></div>
<div><h1>{t("title", "title", name)}</h1><div class=tag>{t("subtitle", "subtitle", tagline)}</div>
<div class=price>{t("price", "card_value", price, card="Price")}</div>
<h2>{t("spec-h", "section_heading", "Technical specifications")}</h2><table>{body}</table>
<span class=btn>{t("btn", "button", rng.choice(["Add to basket", "Find a retailer", "Compare models"]))}</span>
</div></div></body></html>""",
        (1000, 640),
    )


def kanban(t, rng):
    squad = rng.choice(V.SQUADS)
    tickets = rng.sample(V.TICKETS, 8)
    people = rng.sample(V.PEOPLE, 4)
    cols, k = "", 0
    for c, col in enumerate(V.BOARD_COLUMNS):
        n = 2
        cards = ""
        for j in range(n):
            tag = rng.choice(V.TAGS)
            cards += (
                f"<div class=tk><span class='tg {tag.lower()}'>{tag}</span>"
                f"<div class=tt>{t(f'tk-{k}', 'list_item', tickets[k], heading=col, ordinal=j + 1)}</div>"
                f"<div class=meta><span class=id>#{rng.randint(100, 999)}</span>"
                f"<span class=who>{_initials(rng.choice(people))}</span></div></div>"
            )
            k += 1
        cols += (
            f"<div class=col><div class=ch>{t(f'col-{c}', 'section_heading', col)}<span class=n>{n}</span></div>"
            f"{cards}</div>"
        )
    sprint = f"Sprint {rng.randint(14, 61)}, ends {rng.choice(['Friday', 'Thursday'])}"
    return (
        f"""<html><head><style>
body{{margin:0;width:1200px;height:380px;font-family:'Trebuchet MS',Helvetica,sans-serif;background:#eef2f7;
color:#172b4d}}
.top{{display:flex;align-items:baseline;gap:16px;padding:22px 32px 6px}} h1{{margin:0;font-size:26px}}
.sub{{font-size:15px;color:#5e6c84}}
.board{{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;padding:16px 32px}}
.col{{background:#dfe6ee;border-radius:8px;padding:10px}}
.ch{{display:flex;justify-content:space-between;font-size:15px;font-weight:bold;padding:4px 6px 10px}}
.n{{background:#c1c9d6;border-radius:10px;padding:0 8px;font-size:13px}}
.tk{{background:#fff;border-radius:6px;padding:10px 12px;margin-bottom:10px;box-shadow:0 1px 1px rgba(9,30,66,.25)}}
.tg{{font-size:11px;font-weight:bold;padding:2px 8px;border-radius:3px;color:#fff;background:#6554c0}}
.tg.bug{{background:#de350b}} .tg.feature{{background:#00875a}} .tg.ops{{background:#0052cc}}
.tg.content{{background:#ff991f}}
.tt{{font-size:15px;margin:8px 0}} .meta{{display:flex;justify-content:space-between;font-size:12px;color:#6b778c}}
.who{{width:24px;height:24px;border-radius:50%;background:#172b4d;color:#fff;display:grid;place-items:center;
font-size:10px}}
.btn{{margin-left:auto;background:#0052cc;color:#fff;padding:8px 16px;border-radius:4px;font-size:14px}}
</style></head><body><div class=top><h1>{t("title", "title", f"{squad} sprint board")}</h1>
<span class=sub>{t("subtitle", "subtitle", sprint, place="right")}</span>
<span class=btn>{t("btn", "button", rng.choice(["+ New ticket", "Start review", "Close sprint"]))}</span></div>
<div class=board>{cols}</div></body></html>""",
        (1200, 380),
    )


def boarding_pass(t, rng):
    airline = rng.choice(V.AIRLINES)
    (a, ca), (b, cb) = rng.sample(V.AIRPORTS, 2)
    flight = f"{airline[:2].upper()} {rng.randint(100, 989)}"
    fields = [
        ("Flight", flight), ("Date", f"{rng.randint(2, 28)} {rng.choice(['MAR', 'JUN', 'SEP', 'NOV'])}"),
        ("Boarding", f"{rng.randint(6, 21):02d}:{rng.choice(['05', '20', '35', '50'])}"),
        ("Gate", f"{rng.choice('ABCD')}{rng.randint(2, 48)}"), ("Seat", f"{rng.randint(3, 31)}{rng.choice('ACDF')}"),
        ("Zone", str(rng.randint(1, 5))),
    ]  # fmt: skip
    grid = "".join(
        f"<div class=f><div class=l>{t(f'l-{i}', 'card_label', k)}</div>"
        f"<div class=v>{t(f'v-{i}', 'card_value', v, card=k)}</div></div>"
        for i, (k, v) in enumerate(fields)
    )
    name = rng.choice(V.PASSENGERS)
    return (
        f"""<html><head><style>
body{{margin:0;width:1000px;height:420px;background:#cfd8dc;font-family:Helvetica,Arial,sans-serif;color:#102a43}}
.pass{{display:flex;margin:30px;height:360px;border-radius:16px;overflow:hidden;background:#fff}}
.main{{flex:1;padding:0}} .band{{background:#0b4f6c;color:#fff;padding:14px 28px;display:flex;
justify-content:space-between;align-items:center}} .air{{font-size:22px;font-weight:bold}}
.kind{{font-size:14px;letter-spacing:2px}}
.route{{display:flex;align-items:center;gap:26px;padding:16px 28px 4px}} .code{{font-size:44px;font-weight:bold}}
.city{{font-size:14px;color:#486581}} .plane{{font-size:30px;color:#0b4f6c}}
.pax{{padding:4px 28px;font-family:'Courier New',monospace;font-size:17px}}
.grid{{display:grid;grid-template-columns:repeat(6,1fr);gap:8px;padding:14px 28px}}
.l{{font-size:12px;color:#627d98;text-transform:none}} .v{{font-size:22px;font-weight:bold;margin-top:2px}}
.note{{padding:4px 28px;font-size:13px;color:#829ab1}}
.stub{{width:210px;border-left:3px dashed #bcccdc;padding:18px 20px;background:#f0f4f8;font-size:14px}}
.bars{{height:150px;margin-top:18px;background:repeating-linear-gradient(0deg,#102a43 0 3px,#f0f4f8 3px 5px,
#102a43 5px 6px,#f0f4f8 6px 10px)}}
</style></head><body><div class=pass><div class=main><div class=band>
<span class=air>{t("title", "title", airline)}</span><span class=kind>BOARDING PASS</span></div>
<div class=route><div><div class=code>{a}</div><div class=city>{ca}</div></div><div class=plane>&#9992;</div>
<div><div class=code>{b}</div><div class=city>{cb}</div></div></div>
<div class=pax>{t("pax", "paragraph", name, label="passenger")}</div><div class=grid>{grid}</div>
<div class=note>{t("footer", "footer", "Gate closes 20 minutes before departure.")}</div></div>
<div class=stub><b>{a} &#8594; {b}</b><br>{name.split()[-1]}<div class=bars></div></div></div></body></html>""",
        (1000, 420),
    )


PAGES = {"org_chart": org_chart, "faq": faq, "spec_sheet": spec_sheet, "kanban": kanban, "boarding_pass": boarding_pass}
