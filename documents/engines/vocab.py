"""Our own strings, colours and faces for the engine-drawn documents (drawn from by seed)."""

FACES = ("DejaVu Sans", "Liberation Sans", "DejaVu Serif", "Liberation Serif")
"""Font families installed on Debian (fonts-dejavu, fonts-liberation), known to matplotlib and fontconfig."""

PALETTES = (
    ("#2f6db5", "#e8862a", "#4b9e5f", "#c2414b", "#7d5ba6"),
    ("#1b4965", "#5fa8d3", "#ca6702", "#9b2226", "#94d2bd"),
    ("#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51"),
    ("#3a0ca3", "#4361ee", "#f72585", "#4cc9f0", "#7209b7"),
)
DARK_BANDS = ("#1d3557", "#14213d", "#2b2d42", "#283618", "#3c1642", "#0b3c5d")
ACCENTS = ("#e63946", "#fb8500", "#2a9d8f", "#8338ec", "#ff006e", "#3a86ff")
PAPERS = ("#ffffff", "#fbfaf7", "#f6f4ee", "#f4f7fb")

CHART_TITLES = (
    "Revenue by Region",
    "Monthly Active Users",
    "Orders per Channel",
    "Energy Mix 2025",
    "Survey Results",
    "Tickets Closed per Week",
    "Average Basket Size",
    "Share of Traffic Sources",
    "Crop Yield by Field",
    "Hiring by Department",
    "Visitors per Exhibit",
    "Water Use by Sector",
)
CHART_SUBTITLES = (
    "Figures for the fiscal year 2025",
    "Compared with the previous year",
    "All stores, seasonally adjusted",
    "Based on 1,240 responses",
    "Preliminary numbers, subject to revision",
)
CATEGORY_SETS = (
    ("North", "South", "East", "West"),
    ("Online", "Retail", "Partners", "Wholesale"),
    ("Sales", "Support", "Design", "Research", "Finance"),
    ("Coffee", "Tea", "Juice", "Water"),
    ("Solar", "Wind", "Hydro", "Gas", "Coal"),
    ("Search", "Social", "Email", "Direct"),
)
SERIES_SETS = (("2024", "2025"), ("Online store", "Retail stores"), ("Plan", "Actual"), ("Team A", "Team B", "Team C"))
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")
Y_TITLES = ("Revenue (USD millions)", "Users (thousands)", "Orders per day", "Share of total (%)", "Tonnes per hectare")
X_TITLES = ("Sales region", "Sales channel", "Department", "Product line", "Energy source", "Traffic source")
"""The category axis's title of each of ``CATEGORY_SETS``, in the same order."""
ICONS = ("\u2605", "\u2714", "\u26a1", "\u260e", "\u2709", "\u2691", "\u2699", "\u263a")
"""Glyphs drawn as icons beside text (star, check, bolt, phone, envelope, flag, gear, smile; DejaVu has them)."""
SOURCES = (
    "Source: Internal sales data",
    "Source: Company filings and analyst estimates",
    "Data: Regional offices",
    "Source: Customer survey, March 2025",
    "Source: Finance team monthly close",
    "Source: Open data portal",
)

SLIDE_TITLES = (
    "Quarterly Business Review",
    "Product Roadmap 2026",
    "Sales Kickoff",
    "Team Update",
    "Growth Plan",
    "Customer Success Review",
    "Annual Strategy Offsite",
    "Launch Readiness",
)
SLIDE_SUBTITLES = (
    "Results and priorities for the next quarter",
    "What we shipped and what comes next",
    "Prepared for the leadership team",
    "Northern region, fiscal year 2025",
    "Decisions needed this week",
)
HEADINGS = (
    "Key takeaways",
    "Next steps",
    "What we learned",
    "Priorities",
    "Highlights",
    "Open questions",
    "Risks",
    "Our approach",
    "Timeline",
    "Budget",
)
BULLETS = (
    "Revenue grew faster than planned",
    "Three new regional offices opened",
    "Customer churn fell for the third month",
    "Hiring plan approved for the autumn",
    "Support tickets resolved within one day",
    "Launch the partner portal in May",
    "Reduce shipping costs across all stores",
    "Expand the loyalty program nationwide",
    "New mobile app released in beta",
    "Onboarding time cut by two weeks",
    "Open data shared with every team",
    "Renew the warehouse lease",
    "Train every manager on the new tools",
    "Move billing to the new platform",
)
PARAGRAPHS = (
    "We closed the quarter ahead of plan, helped by strong demand in the north and a faster onboarding process.",
    "The new pricing model was tested with two hundred customers before the wider rollout in the spring.",
    "Every store now reports its numbers daily, which lets the regional teams react within the same week.",
    "Our goal for next year is to double the number of partners while keeping support costs flat.",
)
KPI_LABELS = ("Revenue", "Active users", "Orders", "Conversion rate", "New leads", "Churn", "Avg. order value", "NPS")
KPI_VALUES = {
    "Revenue": ("$4.2M", "$12.8M", "$860K", "$2.35M"),
    "Active users": ("18,450", "92,300", "5,210", "41.7K"),
    "Orders": ("3,902", "12,075", "640", "27,318"),
    "Conversion rate": ("3.4%", "2.85%", "5.1%", "11.2%"),
    "New leads": ("1,284", "356", "9,870", "2,046"),
    "Churn": ("1.9%", "4.25%", "0.8%", "2.6%"),
    "Avg. order value": ("$48.20", "$112", "$73.90", "$29.95"),
    "NPS": ("62", "47", "71", "38"),
}
KPI_DELTAS = ("+12% vs last month", "-3% vs last month", "+8.5% year over year", "+21 since Q1", "-0.4 pts")
BRANDS = ("Northwind", "Lumen", "Brightside", "Fieldnote", "Harbor & Co", "Copperleaf", "Quillstack")
NAV_ITEMS = ("Home", "Features", "Pricing", "Customers", "Docs", "Blog", "About", "Contact", "Careers")
HERO_TITLES = (
    "Plan your week in minutes",
    "Analytics your whole team can read",
    "Invoices that pay themselves",
    "The calm way to run support",
    "Ship reports, not spreadsheets",
)
HERO_TEXTS = (
    "Bring every project, file and conversation into one place, and see what needs you today.",
    "Connect your data sources once and share live dashboards with anyone in your company.",
    "Send branded invoices, collect payments online and reconcile your books automatically.",
)
BUTTONS = ("Start free trial", "Book a demo", "Get started", "Sign up", "Learn more", "Contact sales", "Download")
BADGES = ("NEW", "Beta", "v2.4", "Free for 30 days", "SALE", "Top rated", "Open source")
FOOTERS = (
    "© 2026 Northwind Inc. All rights reserved.",
    "Privacy · Terms · Cookies",
    "Made in Lisbon · Since 2014",
    "Questions? hello@example.com",
    "Prices include VAT",
    "Page 4 of 12",
)
POSTER_TITLES = (
    "City Jazz Night",
    "Spring Festival",
    "Science Fair 2026",
    "Open Studio Weekend",
    "Night Market",
    "Film Week",
    "Harvest Fair",
    "Robotics Expo",
)
POSTER_TAGLINES = (
    "Live music, food and friends",
    "Three days of talks and workshops",
    "Free entry for students",
    "Meet the makers behind the work",
    "Bring the whole family",
)
DATES = ("July 12-14, 2026", "Saturday, May 9 · 7 PM", "October 3, 2026", "June 20\u201321", "March 28 · 10 AM - 6 PM")
VENUES = (
    "Harbor Convention Center, Hall B",
    "Riverside Park Main Stage",
    "Old Town Library, Second Floor",
    "Central Station Market Hall",
    "North Campus Arts Building",
)
TICKETS = ("Tickets from $15", "Free admission", "Early bird $9 until May 1", "Students $5")
TABLE_COLUMNS = ("Region", "Revenue", "Orders", "Margin", "Growth", "Visits", "Returns")
TABLE_ROWS = (
    ("North", "South", "East", "West", "Central"),
    ("Q1", "Q2", "Q3", "Q4"),
    ("Online", "Retail", "Partners", "Wholesale"),
)
MENU_SECTIONS = {
    "Starters": ("Garlic Bread", "Today\u2019s Soup", "Caesar Salad", "Crispy Calamari", "Bruschetta"),
    "Mains": (
        "Grilled Salmon",
        "Chef\u2019s Special",
        "Mushroom Risotto",
        "Beef Burger",
        "Chicken Curry",
        "Margherita Pizza",
    ),
    "Desserts": ("Chocolate Cake", "Lemon Tart", "Apple Pie", "Vanilla Ice Cream", "Tiramisu"),
    "Drinks": ("Fresh Lemonade", "Iced Tea", "Espresso", "Cappuccino", "Sparkling Water"),
    "Breakfast": ("Pancake Stack", "Avocado Toast", "Eggs Benedict", "Granola Bowl", "Fruit Plate"),
}
RESTAURANTS = ("The Copper Pot", "Green Fork Bistro", "Harbor Kitchen", "Casa Lumen", "Blue Door Cafe")
FEATURE_TEXTS = (
    "Included in every plan.",
    "Set up in under five minutes.",
    "Your data stays in your region.",
    "Keeps working without a connection.",
    "Share with up to 50 people.",
    "Updated every 15 minutes.",
)
