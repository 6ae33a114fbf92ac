"""The seventh tester's rubrics and injected errors, written by hand before any page was judged.

``PAGES[name] = (engine, defects, questions)``: ``defects`` maps an element id to (kind, the string
drawn on the defect page; "" = not drawn); each question is (form, element id or None, the quoted
string, the question, its kind when false on the clean page: typo, digit, swap, drop_word,
missing (the string is nowhere on the page), wrong_element (another element's string); "" when
true). A question's truth on a page is whether its element is drawn there with exactly the quoted
string (``form`` "mention": the string is in the element's text).
"""

Q = tuple[str, str | None, str, str, str]

HSTACK: list[Q] = [
    ("title", "title", "Sprint 42 Ticket Status", 'Is the chart title exactly "Sprint 42 Ticket Status"?', ""),
    ("title", "title", "Sprint 24 Ticket Status", 'Is the chart title exactly "Sprint 24 Ticket Status"?', "digit"),
    ("legend", "leg-prog", "In review", 'Does the legend include the label "In review"?', ""),
    ("legend", "leg-block", "Blocked", 'Does the legend include the label "Blocked"?', ""),
    ("legend", None, "Cancelled", 'Does the legend include the label "Cancelled"?', "missing"),
    ("y_tick", "tick-Payments", "Payments", 'Is the second y-axis category label from the top exactly "Payments"?', ""),
    (
        "y_tick",
        "tick-Mobile",
        "Platform",
        'Is the third y-axis category label from the top exactly "Platform"?',
        "wrong_element",
    ),
    ("x_axis", "xlabel", "Tickets closed", 'Is the x-axis label exactly "Tickets closed"?', ""),
    (
        "source",
        "source",
        "Data: Jira export, 14 March 2025",
        'Does the source note at the bottom read exactly "Data: Jira export, 14 March 2025"?',
        "",
    ),
]
SCATTER: list[Q] = [
    ("title", "title", "Revenue versus Headcount", 'Is the chart title exactly "Revenue versus Headcount"?', ""),
    ("title", "title", "Headcount versus Revenue", 'Is the chart title exactly "Headcount versus Revenue"?', "swap"),
    (
        "x_axis",
        "xlabel",
        "Annual revenue (USD, log scale)",
        'Is the x-axis label exactly "Annual revenue (USD, log scale)"?',
        "",
    ),
    ("y_axis", "ylabel", "Employees", 'Does the y-axis title read exactly "Employees"?', ""),
    ("y_axis", "ylabel", "Employes", 'Does the y-axis title read exactly "Employes"?', "typo"),
    ("callout", "ann-1", "Acme Labs", 'Is there a callout annotation that contains the exact text "Acme Labs"?', ""),
    ("callout", "ann-3", "Initech", 'Is there a callout annotation that contains the exact text "Initech"?', ""),
    ("callout", None, "Umbrella", 'Is there a callout annotation that contains the exact text "Umbrella"?', "missing"),
]
TWO_PANELS: list[Q] = [
    (
        "title",
        "suptitle",
        "Growth Review, Spring 2025",
        'Does the main title at the top read exactly "Growth Review, Spring 2025"?',
        "",
    ),
    (
        "title",
        "suptitle",
        "Growth Review, Spring 2024",
        'Does the main title at the top read exactly "Growth Review, Spring 2024"?',
        "digit",
    ),
    ("panel", "p1-title", "(a) Weekly signups", 'Is the title of the left panel exactly "(a) Weekly signups"?', ""),
    (
        "panel",
        "p2-title",
        "(b) Monthly churn by plan",
        'Is the title of the right panel exactly "(b) Monthly churn by plan"?',
        "",
    ),
    (
        "panel",
        "p2-title",
        "(b) Monthly churn",
        'Is the title of the right panel exactly "(b) Monthly churn"?',
        "drop_word",
    ),
    ("y_axis", "p2-y", "Churn (%)", 'Does the y-axis title of the right panel read exactly "Churn (%)"?', ""),
    ("x_tick", "p2-tick-2", "Enterprise", 'Is the third x-axis tick label from the left exactly "Enterprise"?', ""),
    ("x_axis", "p1-x", "Week", 'Is the x-axis label of the left panel exactly "Week"?', ""),
]
TABLE: list[Q] = [
    ("title", "title", "Q1 Fulfilment by Warehouse", 'Is the chart title exactly "Q1 Fulfilment by Warehouse"?', ""),
    ("header", "h2", "On time", 'Is the header of the third column exactly "On time"?', ""),
    ("header", "h3", "Refunds", 'Is the header of the fourth column exactly "Refunds"?', "missing"),
    ("cell", "c1-1", "9,815", "In the 'Gdansk' row, does the 'Orders' cell read exactly \"9,815\"?", ""),
    ("cell", "c2-2", "97.9%", "In the 'Valencia' row, does the 'On time' cell read exactly \"97.9%\"?", ""),
    ("cell", "c2-2", "97.6%", "In the 'Valencia' row, does the 'On time' cell read exactly \"97.6%\"?", "digit"),
    ("cell", "c3-3", "1.4%", "In the 'Bremen' row, does the 'Returns' cell read exactly \"1.4%\"?", "wrong_element"),
    ("row", "c0-0", "Rotterdam", 'Is the first row label in the first column exactly "Rotterdam"?', ""),
]
DARK_LINE: list[Q] = [
    ("title", "title", "p95 Latency after Migration", 'Is the chart title exactly "p95 Latency after Migration"?', ""),
    (
        "title",
        "title",
        "p99 Latency after Migration",
        'Is the chart title exactly "p99 Latency after Migration"?',
        "digit",
    ),
    ("legend", "leg-a", "Checkout API", 'Does the legend include the label "Checkout API"?', ""),
    ("legend", "leg-b", "Search API", 'Does the legend include the label "Search API"?', ""),
    ("y_axis", "ylabel", "Milliseconds", 'Does the y-axis title read exactly "Milliseconds"?', ""),
    ("x_axis", "xlabel", "Hour of day (UTC)", 'Is the x-axis label exactly "Hour of day (UTC)"?', ""),
    ("x_axis", "xlabel", "Hour of the day (UTC)", 'Is the x-axis label exactly "Hour of the day (UTC)"?', "missing"),
    ("end", "end-b", "48 ms", 'Is the label at the right end of the red line exactly "48 ms"?', ""),
]
PIE: list[Q] = [
    ("title", "title", "Revenue Mix FY2024", 'Is the chart title exactly "Revenue Mix FY2024"?', ""),
    ("title", "title", "Revenue Mix FY2023", 'Is the chart title exactly "Revenue Mix FY2023"?', "digit"),
    ("legend", "leg-0", "Subscriptions", 'Does the legend include the label "Subscriptions"?', ""),
    ("legend", "leg-2", "Consulting", 'Does the legend include the label "Consulting"?', ""),
    ("legend", None, "Licensing", 'Does the legend include the label "Licensing"?', "missing"),
    ("slice", "pct-1", "27%", 'Is there a slice label reading exactly "27%"?', ""),
    ("slice", "pct-3", "9%", 'Is there a slice label reading exactly "9%"?', ""),
    ("slice", None, "36%", 'Is there a slice label reading exactly "36%"?', "digit"),
]
LOG_BARS: list[Q] = [
    ("title", "title", "Support Tickets by Channel", 'Is the chart title exactly "Support Tickets by Channel"?', ""),
    ("value", "val-1", "6,300", 'Is the value label above the "Chat" bar "6,300"?', ""),
    ("value", "val-2", "870", 'Is the value label above the "Phone" bar "870"?', ""),
    ("value", "val-0", "48,700", 'Is the value label above the "Email" bar "48,700"?', "digit"),
    ("value", "val-3", "870", 'Is the value label above the "Forum" bar "870"?', "wrong_element"),
    ("x_tick", "tick-3", "Forum", 'Is the fourth x-axis tick label from the left exactly "Forum"?', ""),
    ("y_axis", "ylabel", "Tickets (log scale)", 'Does the y-axis title read exactly "Tickets (log scale)"?', ""),
]
KPI: list[Q] = [
    (
        "title",
        "title",
        "Store Performance, Week 11",
        'Does the main title at the top read exactly "Store Performance, Week 11"?',
        "",
    ),
    ("card", "lab-1", "Footfall", 'Is there a KPI card labeled exactly "Footfall"?', ""),
    ("card", "lab-2", "Basket size", 'Is there a KPI card labeled exactly "Basket size"?', ""),
    ("card", None, "Basket value", 'Is there a KPI card labeled exactly "Basket value"?', "missing"),
    ("value", "val-0", "EUR 84,310", 'Does the "Net sales" card show the value "EUR 84,310"?', ""),
    ("value", "val-1", "12,947", 'Does the "Footfall" card show the value "12,947"?', ""),
    ("value", "val-1", "12,974", 'Does the "Footfall" card show the value "12,974"?', "digit"),
    ("value", "val-2", "EUR 84,310", 'Does the "Basket size" card show the value "EUR 84,310"?', "wrong_element"),
    (
        "footer",
        "footer",
        "Prepared by the retail analytics team",
        'Does the footer read exactly "Prepared by the retail analytics team"?',
        "",
    ),
]
INVOICE: list[Q] = [
    (
        "title",
        "title",
        "Harbour & Finch Studio",
        'Does the main title at the top of the page read exactly "Harbour & Finch Studio"?',
        "",
    ),
    (
        "title",
        "title",
        "Harbor & Finch Studio",
        'Does the main title at the top of the page read exactly "Harbor & Finch Studio"?',
        "typo",
    ),
    ("meta", "inv-no", "Invoice No. 2025-0317", 'Is the invoice number line exactly "Invoice No. 2025-0317"?', ""),
    ("meta", "inv-no", "Invoice No. 2025-0371", 'Is the invoice number line exactly "Invoice No. 2025-0371"?', "digit"),
    ("cell", "amt-1", "2,400.00", "In the 'Logo refresh' row, does the 'Amount' cell read exactly \"2,400.00\"?", ""),
    (
        "cell",
        "desc-2",
        "Style guide, 40 pages",
        'Is the third row label in the first column exactly "Style guide, 40 pages"?',
        "",
    ),
    (
        "cell",
        "amt-2",
        "3,700.00",
        "In the 'Style guide, 40 pages' row, does the 'Amount' cell read exactly \"3,700.00\"?",
        "wrong_element",
    ),
    ("total", "total", "EUR 7,250.00", 'Does the total due read exactly "EUR 7,250.00"?', ""),
    ("heading", "billto-h", "Bill to", 'Is there a section heading that reads exactly "Bill to"?', ""),
    (
        "footer",
        "footer",
        "Payment within 30 days to IE29 AIBK 9311 5212 3456 78",
        'Does the footer read exactly "Payment within 30 days to IE29 AIBK 9311 5212 3456 78"?',
        "",
    ),
]
PRICING: list[Q] = [
    (
        "title",
        "title",
        "Plans that grow with your team",
        'Does the main title at the top of the page read exactly "Plans that grow with your team"?',
        "",
    ),
    (
        "subtitle",
        "subtitle",
        "Billed monthly. Cancel anytime.",
        'Does the subtitle directly beneath the title read exactly "Billed monthly. Cancel anytime."?',
        "",
    ),
    (
        "subtitle",
        "subtitle",
        "Billed yearly. Cancel anytime.",
        'Does the subtitle directly beneath the title read exactly "Billed yearly. Cancel anytime."?',
        "missing",
    ),
    ("heading", "tier-1", "Growth", 'Is there a section heading that reads exactly "Growth"?', ""),
    ("price", "price-2", "$79", 'Does the "Scale" card show the price "$79"?', ""),
    ("price", "price-1", "$9", 'Does the "Growth" card show the price "$9"?', "wrong_element"),
    (
        "item",
        "feat-1-0",
        "Unlimited projects",
        'Is the first item under the "Growth" heading "Unlimited projects"?',
        "",
    ),
    ("item", "feat-2-1", "Audit log export", 'Is the second item under the "Scale" heading "Audit log export"?', ""),
    ("button", "cta-0", "Start free trial", 'Is there a button labeled exactly "Start free trial"?', ""),
    ("button", "cta-2", "Contact sale", 'Is there a button labeled exactly "Contact sale"?', "typo"),
]
RESUME: list[Q] = [
    (
        "title",
        "name",
        "Noor van der Berg",
        'Does the main title at the top of the page read exactly "Noor van der Berg"?',
        "",
    ),
    (
        "subtitle",
        "role",
        "Senior Backend Engineer",
        'Does the subtitle directly beneath the title read exactly "Senior Backend Engineer"?',
        "",
    ),
    (
        "subtitle",
        "role",
        "Senior Frontend Engineer",
        'Does the subtitle directly beneath the title read exactly "Senior Frontend Engineer"?',
        "missing",
    ),
    ("heading", "exp-h", "Experience", 'Is there a section heading that reads exactly "Experience"?', ""),
    ("item", "skill-2", "Kubernetes", 'Is the third item under the "Skills" heading "Kubernetes"?', ""),
    ("item", "skill-1", "Terraform", 'Is the second item under the "Skills" heading "Terraform"?', "wrong_element"),
    (
        "text",
        "edu",
        "MSc Computer Science, TU Delft",
        'Does the text under the "Education" heading read exactly "MSc Computer Science, TU Delft"?',
        "",
    ),
    ("text", "when-0", "2021 to present", 'Is there a line that reads exactly "2021 to present"?', ""),
    ("text", "when-1", "2016 to 2021", 'Is there a line that reads exactly "2016 to 2021"?', "digit"),
]
DASHBOARD: list[Q] = [
    (
        "title",
        "title",
        "Sales overview, March",
        'Does the main title at the top of the dashboard read exactly "Sales overview, March"?',
        "",
    ),
    ("brand", "brand", "Shopwise", 'Is the brand name at the top of the sidebar exactly "Shopwise"?', ""),
    ("nav", "nav-2", "Customers", 'Is the third link of the sidebar menu from the top exactly "Customers"?', ""),
    (
        "nav",
        "nav-1",
        "Settings",
        'Is the second link of the sidebar menu from the top exactly "Settings"?',
        "wrong_element",
    ),
    ("card", "kl-1", "Conversion", 'Is there a KPI card labeled exactly "Conversion"?', ""),
    ("value", "kv-0", "18,402", 'Does the "Active users" card show the value "18,402"?', ""),
    ("value", "kv-2", "$64.90", 'Does the "Avg. order" card show the value "$64.90"?', ""),
    ("value", "kv-1", "3.72%", 'Does the "Conversion" card show the value "3.72%"?', "digit"),
    ("cell", "ord-1", "866", "In the 'Porto' row, does the 'Orders' cell read exactly \"866\"?", ""),
    ("header", "th-ord", "Orders", 'Is the header of the second column exactly "Orders"?', ""),
]
NEWSLETTER: list[Q] = [
    (
        "title",
        "title",
        "The Millbrook Courier",
        'Does the main title at the top of the page read exactly "The Millbrook Courier"?',
        "",
    ),
    (
        "title",
        "title",
        "The Milbrook Courier",
        'Does the main title at the top of the page read exactly "The Milbrook Courier"?',
        "typo",
    ),
    (
        "subtitle",
        "issue",
        "Issue 58, April 2025",
        'Does the subtitle directly beneath the title read exactly "Issue 58, April 2025"?',
        "",
    ),
    (
        "heading",
        "headline",
        "River path reopens this weekend",
        'Is there a section heading that reads exactly "River path reopens this weekend"?',
        "",
    ),
    (
        "heading",
        "headline",
        "River path reopens weekend",
        'Is there a section heading that reads exactly "River path reopens weekend"?',
        "drop_word",
    ),
    ("byline", "byline", "By Marta Quinlan", 'Is there a byline that reads exactly "By Marta Quinlan"?', ""),
    (
        "callout",
        "notice",
        "Next council meeting: 9 April, 7 pm, Town Hall",
        'Does the dark notice box read exactly "Next council meeting: 9 April, 7 pm, Town Hall"?',
        "",
    ),
    ("mention", "p-1", "340 young oaks", 'Does the page mention "340 young oaks"?', ""),
]
FORM: list[Q] = [
    (
        "title",
        "title",
        "Request a product demo",
        'Does the main title at the top of the page read exactly "Request a product demo"?',
        "",
    ),
    (
        "text",
        "help",
        "We reply within one business day.",
        'Does the text below the title read exactly "We reply within one business day."?',
        "",
    ),
    ("label", "lab-1", "Work email", 'Is there a field labeled exactly "Work email"?', ""),
    ("label", None, "Phone number", 'Is there a field labeled exactly "Phone number"?', "missing"),
    ("value", "val-2", "51 to 200", 'Does the "Company size" field show the value "51 to 200"?', ""),
    ("value", "val-0", "Ada Lindqvist", 'Does the "Full name" field show the value "Ada Lindqvist"?', ""),
    ("value", "val-0", "Ada Lindquist", 'Does the "Full name" field show the value "Ada Lindquist"?', "typo"),
    ("button", "submit", "Book my demo", 'Is there a button labeled exactly "Book my demo"?', ""),
    ("button", "submit", "Book a demo", 'Is there a button labeled exactly "Book a demo"?', "missing"),
]

PAGES: dict[str, tuple[str, dict[str, tuple[str, str]], list[Q]]] = {
    "hstack": ("matplotlib", {"title": ("typo", "Sprint 42 Ticket Stauts"), "leg-prog": ("swap", "review In")}, HSTACK),
    "scatter_log": ("matplotlib", {"ylabel": ("typo", "Employess"), "ann-3": ("missing", "")}, SCATTER),
    "two_panels": (
        "matplotlib",
        {"suptitle": ("digit", "Growth Review, Spring 2023"), "p2-title": ("drop_word", "(b) Monthly churn plan")},
        TWO_PANELS,
    ),
    "table": ("matplotlib", {"c1-1": ("digit", "9,816"), "h2": ("typo", "On tine")}, TABLE),
    "dark_line": ("matplotlib", {"xlabel": ("swap", "Hour day of (UTC)"), "end-b": ("digit", "46 ms")}, DARK_LINE),
    "pie_legend": ("matplotlib", {"leg-2": ("typo", "Consultng"), "pct-1": ("digit", "21%")}, PIE),
    "log_bars": (
        "matplotlib",
        {"val-1": ("digit", "6,800"), "title": ("drop_word", "Support Tickets Channel")},
        LOG_BARS,
    ),
    "kpi_boxes": ("matplotlib", {"val-1": ("digit", "12,941"), "lab-2": ("typo", "Baskte size")}, KPI),
    "invoice": ("chromium", {"amt-1": ("digit", "2,900.00"), "title": ("typo", "Harbour & Fnich Studio")}, INVOICE),
    "pricing": (
        "chromium",
        {"price-2": ("digit", "$78"), "feat-1-0": ("drop_word", "Unlimited"), "cta-0": ("swap", "Start trial free")},
        PRICING,
    ),
    "resume": ("chromium", {"role": ("typo", "Senior Backend Enginer"), "skill-2": ("typo", "Kubernetis")}, RESUME),
    "dashboard": ("chromium", {"kv-0": ("digit", "18,482"), "nav-2": ("typo", "Custmers")}, DASHBOARD),
    "newsletter": (
        "chromium",
        {"issue": ("digit", "Issue 56, April 2025"), "headline": ("swap", "River path reopens weekend this")},
        NEWSLETTER,
    ),
    "form": ("chromium", {"submit": ("typo", "Bok my demo"), "val-2": ("digit", "51 to 900")}, FORM),
}
