"""The Chromium pages of the eleventh tester's set (``benchmarks/fresh11_pages.py``): a recipe card
(a coloured band of timing stats, ingredients beside numbered method steps, a diet badge), a football
league table (club names with position numbers and crests, W/D/L form pills, the leader's row
highlighted), a seven-day weather forecast (a gradient hero with the current temperature and a grid of
day cards), a job posting (a navigation bar, tag chips, duties and perks lists, a sticky salary card
with a button) and a property listing (a photo block with a ribbon badge, a price, a row of facts, a
highlights list and an agent card), written the way designers write CSS: flex and grid, web-safe font
stacks (Georgia, Tahoma, "Segoe UI"/Roboto falling back to fontconfig's Liberation and DejaVu faces,
"Lucida Sans", Palatino) and unicode icons.

Each function takes ``t(eid, role, text, **context)`` (as ``benchmarks/fresh7/html_pages.py``: the
element's markup, a span with ``data-eid``) and ``rng`` (the content) and returns (html, (width,
height)); ``benchmarks/fresh7/html_pages.draw`` renders it and takes every element's box from the DOM.
"""

from __future__ import annotations

from benchmarks.fresh11 import vocab as V


def recipe(t, rng):
    name, tagline = rng.choice(V.RECIPES)
    ings = rng.sample(V.INGREDIENTS, 6)
    steps = V.STEPS[:2] + rng.sample(V.STEPS[2:5], 2) + V.STEPS[5:]
    stats = [("Prep", f"{rng.choice([10, 15, 20])} min"), ("Cook", f"{rng.choice([25, 35, 45, 55])} min"),
             ("Serves", str(rng.choice([2, 4, 6]))), ("Per serving", f"{rng.randint(310, 640)} kcal")]  # fmt: skip
    band = "".join(
        f"<div class=st><div class=sl>{t(f'sl-{i}', 'card_label', k)}</div>"
        f"<div class=sv>{t(f'sv-{i}', 'card_value', v, card=k)}</div></div>"
        for i, (k, v) in enumerate(stats)
    )
    ing = "".join(f"<li>{t(f'ing-{i}', 'list_item', s, heading='Ingredients', ordinal=i + 1)}</li>"
                  for i, s in enumerate(ings))  # fmt: skip
    meth = "".join(f"<li>{t(f'step-{i}', 'list_item', s, heading='Method', ordinal=i + 1)}</li>"
                   for i, s in enumerate(steps))  # fmt: skip
    cook = rng.choice(V.COOKS)
    return (
        f"""<html><head><style>
body{{margin:0;width:1000px;height:480px;font-family:Georgia,'Times New Roman',serif;background:#fffaf3;color:#3d2c1e}}
header{{padding:28px 44px 14px;display:flex;align-items:flex-start;justify-content:space-between}}
h1{{margin:0;font-size:34px;color:#7f3b08}} .tag{{font-style:italic;font-size:17px;color:#8c6d4f;margin-top:6px}}
.badge{{background:#5a8f29;color:#fff;font-family:Tahoma,Verdana,sans-serif;font-size:13px;font-weight:bold;
padding:6px 12px;border-radius:14px;letter-spacing:.5px}}
.band{{display:flex;background:#f4a259;margin:0 44px;border-radius:10px}}
.st{{flex:1;padding:12px 18px;border-right:1px solid rgba(255,255,255,.5);font-family:Tahoma,Verdana,sans-serif}}
.st:last-child{{border-right:none}} .sl{{font-size:12px;text-transform:uppercase;letter-spacing:1px;color:#5b3a1a}}
.sv{{font-size:22px;font-weight:bold;color:#2d1b0e;margin-top:2px}}
.cols{{display:grid;grid-template-columns:320px 1fr;gap:40px;padding:22px 44px}}
h2{{font-size:20px;margin:0 0 10px;border-bottom:2px solid #f4a259;padding-bottom:4px}}
ul{{margin:0;padding-left:20px;font-size:16px;line-height:1.75}}
ol{{margin:0;padding-left:24px;font-size:16px;line-height:1.6}} ol li{{margin-bottom:8px}}
footer{{padding:0 44px;font-size:13px;color:#8c6d4f}}
</style></head><body><header><div><h1>{t("title", "title", name)}</h1>
<div class=tag>{t("subtitle", "subtitle", tagline)}</div></div>
<span class=badge>{t("badge", "badge", rng.choice(["Vegetarian", "Gluten free", "Freezes well"]))}</span></header>
<div class=band>{band}</div><div class=cols><div><h2>{t("ing-h", "section_heading", "Ingredients")}</h2>
<ul>{ing}</ul></div><div><h2>{t("meth-h", "section_heading", "Method")}</h2><ol>{meth}</ol></div></div>
<footer>{t("footer", "footer", f"Recipe and photography by {cook}")}</footer></body></html>""",
        (1000, 480),
    )


def league_table(t, rng):
    clubs = rng.sample(V.CLUBS, 8)
    played = rng.randint(18, 30)
    pts = sorted(rng.sample(range(14, 3 * played - 8), 8), reverse=True)
    heads = ["Club", "P", "W", "D", "L", "GD", "Pts", "Form"]
    th = "".join(f"<th>{t(f'h-{i}', 'table_header', h, ordinal=i + 1)}</th>" for i, h in enumerate(heads))
    rows = ""
    for r, (club, p) in enumerate(zip(clubs, pts)):
        w = min(p // 3, played)
        d = min(p - 3 * w, played - w)
        lost = played - w - d
        gd = rng.randint(-14, 30) - 2 * r
        form = "".join(f"<i class={x}>{x.upper()}</i>" for x in rng.choices("wdl", k=5))
        rows += (
            f"<tr class={'lead' if r == 0 else ''}><td class=club><div class=cw><b class=pos>{r + 1}</b>"
            f"<span class=crest style='background:hsl({rng.randrange(360)},55%,45%)'></span>"
            f"{t(f'club-{r}', 'table_cell', club, ordinal=r + 1)}</div></td>"
            f"<td>{played}</td><td>{w}</td><td>{d}</td><td>{lost}</td><td>{gd:+d}</td>"
            f"<td class=pts>{t(f'pts-{r}', 'table_cell', str(p), row=club, column='Pts')}</td>"
            f"<td class=form>{form}</td></tr>"
        )
    league = rng.choice(V.LEAGUES)
    return (
        f"""<html><head><style>
body{{margin:0;width:940px;height:640px;font-family:'Segoe UI',Roboto,Arial,sans-serif;background:#0f3d2e;
color:#102a1f}}
.card{{margin:26px 36px;background:#fff;border-radius:12px;overflow:hidden}}
.head{{background:linear-gradient(90deg,#14532d,#166534);color:#fff;padding:18px 24px}}
h1{{margin:0;font-size:26px}} .sub{{font-size:14px;color:#bbf7d0;margin-top:4px}}
table{{width:100%;border-collapse:collapse;font-size:15px}}
th{{text-align:center;font-size:12px;text-transform:uppercase;color:#4b5563;padding:10px 6px;
border-bottom:2px solid #e5e7eb}} th:first-child{{text-align:left;padding-left:24px}}
td{{text-align:center;padding:9px 6px;border-bottom:1px solid #f0f0f0}}
td.club{{text-align:left;padding-left:24px}} .cw{{display:flex;align-items:center;gap:10px}}
.pos{{width:18px;color:#6b7280;font-weight:normal}} .crest{{width:16px;height:18px;border-radius:3px 3px 8px 8px}}
td.pts{{font-weight:bold}} tr.lead{{background:#ecfdf5}} tr.lead td.club{{font-weight:bold}}
.form i{{display:inline-block;width:18px;height:18px;line-height:18px;border-radius:50%;font-style:normal;
font-size:10px;color:#fff;margin:0 1px;font-weight:bold}} .w{{background:#16a34a}} .d{{background:#9ca3af}}
.l{{background:#dc2626}}
footer{{padding:10px 24px;font-size:12px;color:#6b7280}}
</style></head><body><div class=card><div class=head><h1>{t("title", "title", league)}</h1>
<div class=sub>{t("subtitle", "subtitle", f"Standings after matchday {played}")}</div></div>
<table><tr>{th}</tr>{rows}</table>
<footer>{t("footer", "footer", "Top two clubs are promoted; the bottom club enters the play-off.")}</footer></div>
</body></html>""",
        (940, 640),
    )


def weather(t, rng):
    town = rng.choice(V.FORECAST_TOWNS)
    skies = rng.sample(V.SKIES, 7)
    start = rng.randrange(7)
    days = [V.DAYS[(start + k) % 7] for k in range(6)]
    icons = {"Sunny spells": "&#9728;", "Light rain": "&#9730;", "Overcast": "&#9729;", "Thunderstorms": "&#9889;",
             "Clear skies": "&#9788;", "Drizzle": "&#9748;", "Snow showers": "&#10052;"}  # fmt: skip
    highs = rng.sample(range(3, 24), 6)
    cards = ""
    for i, d in enumerate(days):
        lo = highs[i] - rng.randint(4, 9)
        cards += (
            f"<div class=day><div class=dn>{t(f'day-{i}', 'section_heading', d)}</div>"
            f"<div class=ic>{icons[skies[i + 1]]}</div>"
            f"<div class=sk>{t(f'sky-{i}', 'paragraph', skies[i + 1], heading=d)}</div>"
            f"<div class=tp>{t(f'tp-{i}', 'card_value', f'{highs[i]}° / {lo}°', card=d)}</div></div>"
        )
    now = rng.randint(2, 21)
    facts = [("Humidity", f"{rng.randint(48, 94)}%"), ("Wind", f"{rng.randint(6, 38)} km/h"),
             ("UV index", str(rng.randint(1, 7)))]  # fmt: skip
    fact = "".join(
        f"<div class=fc><span>{t(f'fl-{i}', 'card_label', k)}</span>"
        f"<b>{t(f'fv-{i}', 'card_value', v, card=k)}</b></div>"
        for i, (k, v) in enumerate(facts)
    )
    updated = f"Updated {rng.randint(5, 9):02d}:{rng.choice(['10', '25', '40'])} local time"
    return (
        f"""<html><head><style>
body{{margin:0;width:1040px;height:420px;font-family:'Lucida Sans','DejaVu Sans',Verdana,sans-serif;
background:#e8eef5;color:#1e293b}}
.hero{{display:flex;align-items:center;gap:36px;padding:26px 40px;color:#fff;
background:linear-gradient(120deg,#1e3a8a,#3b82f6 70%,#60a5fa)}}
h1{{margin:0;font-size:30px}} .upd{{font-size:13px;color:#dbeafe;margin-top:6px}}
.now{{font-size:64px;font-weight:bold;line-height:1}} .nowsky{{font-size:18px;margin-top:4px}}
.facts{{margin-left:auto;display:grid;gap:6px}} .fc{{display:flex;justify-content:space-between;gap:24px;
font-size:14px;background:rgba(255,255,255,.15);padding:6px 12px;border-radius:6px}}
.grid{{display:grid;grid-template-columns:repeat(6,1fr);gap:14px;padding:24px 40px}}
.day{{background:#fff;border-radius:12px;padding:14px 10px;text-align:center;box-shadow:0 2px 6px rgba(30,41,59,.12)}}
.dn{{font-weight:bold;font-size:17px}} .ic{{font-size:34px;margin:8px 0}}
.sk{{font-size:13px;color:#475569;height:34px}}
.tp{{font-size:18px;font-weight:bold;color:#1d4ed8}}
footer{{padding:0 40px;font-size:12px;color:#64748b}}
</style></head><body><div class=hero><div><h1>{t("title", "title", f"{town} weather")}</h1>
<div class=upd>{t("subtitle", "subtitle", updated)}</div></div>
<div><div class=upd>Now</div><div class=now>{t("now", "card_value", f"{now}°C", card="Now")}</div>
<div class=nowsky>{t("nowsky", "paragraph", skies[0], heading="Now")}</div></div>
<div class=facts>{fact}</div></div><div class=grid>{cards}</div>
<footer>{t("footer", "footer", "Forecast issued by the regional met office.")}</footer></body></html>""",
        (1040, 420),
    )


def job_posting(t, rng):
    job, team = rng.choice(V.JOBS)
    firm = rng.choice(V.EMPLOYERS)
    city = rng.choice(V.TOWNS)
    nav = "".join(f"<a>{t(f'nav-{i}', 'nav_item', s, ordinal=i + 1)}</a>"
                  for i, s in enumerate(rng.sample(["Teams", "Life here", "Benefits", "Locations"], 3)))  # fmt: skip
    duties = "".join(
        f"<li>{t(f'duty-{i}', 'list_item', s, heading='What you will do', ordinal=i + 1)}</li>"
        for i, s in enumerate(rng.sample(V.DUTIES, 4))
    )
    perks = "".join(
        f"<li>{t(f'perk-{i}', 'list_item', s, heading='What we offer', ordinal=i + 1)}</li>"
        for i, s in enumerate(rng.sample(V.PERKS, 4))
    )
    lo = rng.randrange(48, 80) * 1000
    kinds = rng.sample(["Full time", "Hybrid", "Visa sponsorship", "Permanent"], 2)
    chips = "".join(f"<span class=chip>{t(f'chip-{i}', 'badge', c)}</span>" for i, c in enumerate(kinds))
    salary = f"GBP {lo:,} to {lo + rng.choice([8, 12, 15]) * 1000:,}"
    closing = f"{rng.randint(3, 28)} {rng.choice(['May', 'June', 'July'])}"
    button = rng.choice(["Apply now", "Start application"])
    return (
        f"""<html><head><style>
body{{margin:0;width:1040px;height:540px;font-family:Tahoma,Verdana,sans-serif;background:#fff;color:#1f2933}}
nav{{display:flex;align-items:center;gap:28px;padding:16px 44px;background:#102a43;color:#d9e2ec;font-size:15px}}
nav .brand{{font-size:20px;font-weight:bold;color:#fff;margin-right:auto}}
.wrap{{display:grid;grid-template-columns:1fr 300px;gap:40px;padding:26px 44px}}
h1{{margin:0;font-size:30px;color:#102a43}} .sub{{font-size:16px;color:#627d98;margin:6px 0 10px}}
.chip{{display:inline-block;background:#e0f2f1;color:#00695c;font-size:13px;padding:4px 12px;border-radius:12px;
margin-right:8px}}
h2{{font-size:18px;margin:22px 0 8px;color:#243b53}} ul{{margin:0;padding-left:20px;font-size:15px;line-height:1.7}}
.side{{background:#f0f4f8;border-radius:10px;padding:20px;align-self:start;border-left:5px solid #f0b429}}
.sl{{font-size:13px;color:#627d98;text-transform:uppercase;letter-spacing:1px}}
.sv{{font-size:22px;font-weight:bold;margin:4px 0 14px}}
.btn{{display:block;text-align:center;background:#f0b429;color:#102a43;font-weight:bold;padding:12px;border-radius:6px;
font-size:16px}}
footer{{position:absolute;bottom:18px;left:44px;font-size:12px;color:#829ab1}}
</style></head><body><nav><span class=brand>{t("brand", "nav_item", firm, ordinal=0)}</span>{nav}</nav>
<div class=wrap><div><h1>{t("title", "title", job)}</h1>
<div class=sub>{t("subtitle", "subtitle", f"{team} team · {city} or remote")}</div>{chips}
<h2>{t("duty-h", "section_heading", "What you will do")}</h2><ul>{duties}</ul>
<h2>{t("perk-h", "section_heading", "What we offer")}</h2><ul>{perks}</ul></div>
<div class=side><div class=sl>{t("sal-l", "card_label", "Salary")}</div>
<div class=sv>{t("sal-v", "card_value", salary, card="Salary")}</div>
<div class=sl>{t("close-l", "card_label", "Closing date")}</div>
<div class=sv>{t("close-v", "card_value", closing, card="Closing date")}</div>
<span class=btn>{t("btn", "button", button)}</span></div></div>
<footer>{t("footer", "footer", f"{firm} is an equal opportunity employer.")}</footer></body></html>""",
        (1040, 540),
    )


def listing(t, rng):
    street, town = rng.choice(V.STREETS), rng.choice(V.TOWNS)
    agent, agency = rng.choice(V.AGENTS)
    beds = rng.randint(2, 5)
    facts = [("Bedrooms", str(beds)), ("Bathrooms", str(rng.randint(1, beds - 1))),
             ("Floor area", f"{rng.randint(68, 190)} m²"),
             ("Tenure", rng.choice(["Freehold", "Leasehold"]))]  # fmt: skip
    fact = "".join(
        f"<div class=fa><div class=fv>{t(f'fv-{i}', 'card_value', v, card=k)}</div>"
        f"<div class=fl>{t(f'fl-{i}', 'card_label', k)}</div></div>"
        for i, (k, v) in enumerate(facts)
    )
    feats = "".join(f"<li>{t(f'ft-{i}', 'list_item', s, heading='Highlights', ordinal=i + 1)}</li>"
                    for i, s in enumerate(rng.sample(V.HOME_FEATURES, 4)))  # fmt: skip
    price = f"£{rng.randrange(240, 890) * 1000:,}"
    badge = rng.choice(["NEW LISTING", "PRICE REDUCED", "UNDER OFFER"])
    button = rng.choice(["Book a viewing", "Ask the agent"])
    near = f"{town}, {rng.choice(['three', 'ten', 'fifteen'])} minutes from the high street"
    footer = f"Energy rating {rng.choice('BCD')}, council tax band {rng.choice('CDEF')}."
    return (
        f"""<html><head><style>
body{{margin:0;width:1020px;height:500px;font-family:Palatino,'Palatino Linotype','Book Antiqua',serif;
background:#f7f5f2;color:#2e2a26}}
.wrap{{display:grid;grid-template-columns:430px 1fr;gap:36px;padding:34px 40px}}
.photo{{height:290px;border-radius:8px;position:relative;overflow:hidden;
background:linear-gradient(180deg,#a7c5eb 0 55%,#7a9e7e 55% 100%)}}
.house{{position:absolute;left:110px;top:90px;width:200px;height:130px;background:#d9a066}}
.roof{{position:absolute;left:95px;top:40px;width:0;height:0;border-left:115px solid transparent;
border-right:115px solid transparent;border-bottom:55px solid #8c3b2f}}
.ribbon{{position:absolute;top:16px;right:-34px;transform:rotate(0deg);right:16px;background:#b91c1c;color:#fff;
font-family:Arial,sans-serif;font-size:13px;font-weight:bold;padding:5px 12px;letter-spacing:1px}}
h1{{margin:0;font-size:30px}} .sub{{font-size:17px;color:#6b635b;margin:4px 0 12px}}
.price{{font-size:32px;font-weight:bold;color:#1f4e79;font-family:Arial,sans-serif}}
.facts{{display:grid;grid-template-columns:repeat(4,1fr);margin:18px 0;border-top:1px solid #d6d0c8;
border-bottom:1px solid #d6d0c8}} .fa{{padding:10px 4px;text-align:center}}
.fv{{font-size:20px;font-weight:bold;font-family:Arial,sans-serif}} .fl{{font-size:13px;color:#6b635b}}
h2{{font-size:19px;margin:0 0 6px}} ul{{margin:0;padding-left:20px;font-size:16px;line-height:1.7}}
.agent{{display:flex;align-items:center;gap:14px;margin-top:18px;background:#fff;padding:12px 16px;border-radius:8px}}
.av{{width:44px;height:44px;border-radius:50%;background:#1f4e79;flex:none}}
.an{{font-weight:bold;font-size:16px}} .ag{{font-size:13px;color:#6b635b}}
.btn{{margin-left:auto;background:#1f4e79;color:#fff;font-family:Arial,sans-serif;padding:10px 18px;
border-radius:6px;font-size:15px}}
footer{{padding:0 40px;font-size:12px;color:#8a8178}}
</style></head><body><div class=wrap><div><div class=photo><div class=roof></div><div class=house></div>
<span class=ribbon>{t("badge", "badge", badge)}</span></div>
<div class=agent><div class=av></div><div><div class=ag>Listed by</div><div class=an>{
            t("agent", "paragraph", agent, heading="Listed by")
        }</div>
<div class=ag>{agency}</div></div><span class=btn>{t("btn", "button", button)}</span></div></div>
<div><h1>{t("title", "title", street)}</h1><div class=sub>{t("subtitle", "subtitle", near)}</div>
<div class=price>{t("price", "card_value", price, card="Asking price")}</div><div class=facts>{fact}</div>
<h2>{t("hl-h", "section_heading", "Highlights")}</h2><ul>{feats}</ul></div></div>
<footer>{t("footer", "footer", footer)}</footer></body></html>""",
        (1020, 500),
    )


PAGES = {"recipe": recipe, "league_table": league_table, "weather": weather, "job_posting": job_posting,
         "listing": listing}  # fmt: skip
