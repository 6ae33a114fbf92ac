"""What the fidelity set (``documents.fidelity``) draws: per document kind its titles,
column headings and items, and the navigation items, sources, notes, badges, fills, inks, note
faces and table rows all kinds share. Changing any entry changes the documents every seed draws
(and so the judge bench's figures)."""

VOCAB = {
    "slide": {
        "titles": ["Quarterly Revenue Review", "Market Outlook 2025", "Operating Plan FY24", "Customer Growth Update"],
        "heads": [("Revenue", "Costs"), ("Highlights", "Risks"), ("Regions", "Products")],
        "items": [
            "North America 42%",
            "Europe 31%",
            "Asia Pacific 19%",
            "Latin America 8%",
            "Net margin 12.5%",
            "Churn rate 3.2%",
            "New accounts 1,240",
            "Headcount 318",
            "Capex $4.2M",
            "Opex $9.8M",
        ],
    },
    "chart": {
        "titles": ["Sales by Region 2024", "Energy Mix by Source", "Monthly Active Users", "Revenue per Segment"],
        "heads": [("Series", "Notes"), ("Legend", "Key facts")],
        "items": [
            "Solar 24%",
            "Wind 31%",
            "Hydro 12%",
            "Coal 18%",
            "Gas 15%",
            "Peak in July",
            "Low in February",
            "Growth 7.4%",
            "Average 3,150",
            "Median 2,980",
        ],
    },
    "poster": {
        "titles": ["Spring Design Festival", "City Jazz Night", "Annual Science Fair", "Open Studio Weekend"],
        "heads": [("Program", "Tickets"), ("Speakers", "Venue")],
        "items": [
            "Doors open 18:00",
            "Main stage 19:30",
            "Adults $25",
            "Students $12",
            "Hall B, Level 2",
            "Workshops daily",
            "Free parking",
            "Live music",
            "Food market",
            "Family area",
        ],
    },
    "webpage": {
        "titles": ["Every Child Deserves Care", "Build Faster With Us", "Fresh Food Delivered", "Learn Data Science"],
        "heads": [("Features", "Pricing"), ("Services", "Contact")],
        "items": [
            "Free trial 14 days",
            "Basic plan $9",
            "Pro plan $29",
            "Team plan $99",
            "Support 24/7",
            "Call 555-0142",
            "Open Monday to Friday",
            "Secure payments",
            "Fast setup",
            "Cancel anytime",
        ],
    },
}
NAV = ["Home", "About", "Programs", "Blog", "Gallery", "Contact"]
SOURCES = [
    "Source: internal finance data",
    "Source: company filings 2024",
    "Data: national statistics office",
    "Source: annual survey 2023",
]
NOTES = [
    ("Results are unaudited", "and may change"),
    ("Figures in thousands", "unless stated"),
    ("Tickets sold at the door", "while stocks last"),
    ("Prices include tax", "for all plans"),
]
BADGES = ["NEW", "03", "TOP", "Q3", "BETA", "24"]
COUNT_WORDS = ["Total", "Bonus", "Draft"]
DARK = [(25, 40, 90), (20, 80, 60), (90, 30, 40), (40, 40, 40)]
BADGE_FILL = [(200, 60, 40), (30, 120, 70), (40, 70, 160), (120, 50, 140)]
LIGHT_BADGE = (245, 205, 70)  # a yellow badge with dark text: its text is not white
INKS = {
    "red": [(200, 30, 30), (220, 50, 40)],
    "blue": [(30, 70, 190), (20, 90, 210)],
    "green": [(30, 135, 55), (20, 150, 80)],
    "orange": [(235, 125, 20), (225, 110, 30)],
    "purple": [(125, 45, 165), (140, 60, 180)],
    "gray": [(128, 128, 128), (140, 140, 140)],
}
COLOUR_NOTES = [
    "Updated weekly",
    "Preliminary figures",
    "Limited seats",
    "Offer ends Friday",
    "Subject to change",
    "Best seller",
    "Members only",
    "Call for details",
]
NOTE_FACES = [
    ("dejavu/DejaVuSans.ttf", False),
    ("dejavu/DejaVuSans-Bold.ttf", True),
    ("dejavu/DejaVuSerif.ttf", False),
    ("liberation/LiberationSans-Regular.ttf", False),
    ("liberation/LiberationSans-Bold.ttf", True),
    ("liberation/LiberationSerif-Regular.ttf", False),
    ("liberation/LiberationSerif-Bold.ttf", True),
]
TABLE_LABELS = {
    "chart": ["Solar", "Wind", "Hydro", "Coal", "Gas", "Nuclear"],
    "slide": ["North", "South", "East", "West", "Online", "Retail"],
}
TABLE_HEADS = {"chart": ("Source", "2023", "2024", "Share"), "slide": ("Region", "Q1", "Q2", "Margin")}
