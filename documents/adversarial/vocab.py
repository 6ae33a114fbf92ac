"""What the adversarial set draws: its document kinds, error kinds and question types, and per kind
the titles, headings, bullets, menu items, KPI labels, table rows, footers, dates, venues, axes,
series and colours. Changing any entry changes the documents every seed draws (and so the
adversarial report's figures)."""

KINDS = ("slide", "chart", "dashboard", "poster")
ERROR_KINDS = ("number", "date", "missing_word", "swapped", "list_item", "table_cell", "decoy")
QTYPES = (*ERROR_KINDS, "axis_title", "exact", "wrong_element")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
SPLITS = ("dev", "report")

TITLES = {
    "slide": ["QUARTERLY REVIEW", "BREAKFAST", "PRODUCT ROADMAP", "SALES KICKOFF", "Team Update", "Growth Plan"],
    "chart": ["Monthly Active Users", "Revenue by Region", "Energy Mix", "Orders per Channel", "Survey Results"],
    "dashboard": ["SALES DASHBOARD", "Operations Overview", "Marketing Pulse", "STORE METRICS", "Support Desk"],
    "poster": ["CITY JAZZ NIGHT", "SPRING FESTIVAL", "Science Fair", "OPEN STUDIO", "FOOD MARKET", "Film Week"],
}
DECOY_SUFFIX = ["COMBOS", "HIGHLIGHTS", "DETAILS", "NOTES", "SPECIALS", "AGENDA"]
HEADINGS = ["Key takeaways", "This quarter", "Next steps", "What we learned", "Priorities", "Program highlights"]
BULLETS = [
    "Revenue grew faster than planned",
    "Three new regional offices opened",
    "Customer churn fell for the third month",
    "Hiring plan approved for the autumn",
    "Support tickets resolved within one day",
    "Launch the partner portal in May",
    "Reduce shipping costs across all stores",
    "Expand the loyalty program nationwide",
    "Fresh coffee served all day long",
    "Live music on the main stage",
    "Workshops for young makers",
    "Free entry for students and seniors",
    "Local food trucks every evening",
    "Guided tours of the old harbor",
    "New mobile app released in beta",
    "Onboarding time cut by two weeks",
    "Open data shared with every team",
    "Meet the artists after each show",
]
NAV = ["Home", "Overview", "Results", "Team", "Pricing", "Contact", "About", "Reports", "Events", "Products"]
KPI_LABELS = ["Revenue", "Active users", "Orders", "Sessions", "Conversion", "New leads", "Churn", "Visitors"]
KPI_STYLE = {"Revenue": "money", "Conversion": "percent", "Churn": "percent"}  # the rest are counts
METRIC_COLUMNS = ["Revenue", "Orders", "Margin", "Visits", "Returns"]
ROW_LABELS = [["Q1", "Q2", "Q3", "Q4"], ["North", "South", "East", "West"], ["Online", "Retail", "Partners"]]
FOOTERS = [
    "Source: Internal sales data",
    "Source: Company filings and analyst estimates",
    "Source: Customer survey of regional stores",
    "Data: Regional offices and partner reports",
    "Source: Finance team monthly close",
]
MONTHS = ["January", "March", "April", "May", "June", "July", "September", "October", "November"]
VENUES = [
    "Harbor Convention Center, Hall B",
    "Riverside Park Main Stage",
    "Old Town Library, Second Floor",
    "Central Station Market Hall",
    "North Campus Arts Building",
]
AXES = [
    ("Users (thousands)", "Month", ["Jan", "Feb", "Mar", "Apr"]),
    ("Revenue (USD millions)", "Sales region", ["North", "South", "East", "West"]),
    ("Share of respondents (%)", "Age group", ["18-24", "25-34", "35-44", "45-54"]),
    ("Orders per day", "Quarter of the year", ["Q1", "Q2", "Q3", "Q4"]),
]
SERIES = ["Online store", "Retail partners", "Direct sales", "Mobile app", "Last year", "This year"]
INKS = [(25, 25, 30), (30, 40, 70), (45, 30, 30)]
BANDS = [(28, 52, 96), (20, 90, 80), (110, 30, 50), (40, 40, 48)]
PAPER = [(250, 250, 247), (255, 255, 255), (246, 244, 238)]
SWATCHES = [(52, 120, 200), (235, 140, 40), (70, 160, 90), (190, 60, 70)]
CARD_FILLS = [(234, 240, 250), (240, 246, 238), (250, 242, 232)]
