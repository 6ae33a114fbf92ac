"""String pools of the tenth tester's pages (``benchmarks/fresh10_pages.py``), written for this set:
none is taken from ``documents/engines/vocab.py`` or ``benchmarks/fresh7`` .. ``benchmarks/fresh9``. A
seed draws from them with ``random.Random``; a page never draws one string twice (the matplotlib
reader finds an artist by its string)."""

CLINICS = ["Riverside Clinic", "Hillcrest Surgery", "Bayview Practice", "Elmfield Health", "Northbank Medical"]
PORTS = ["Rotterdam", "Antwerp", "Hamburg", "Valencia", "Gdansk", "Piraeus", "Marseille", "Genoa"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
HOURS = ["8 am", "10 am", "12 pm", "2 pm", "4 pm", "6 pm"]
STORES = ["Canal Street", "Market Square", "Airport Mall", "Old Town", "Harbour Front", "University Park"]
BRIDGE = [
    "Opening balance", "New contracts", "Price increase", "Lost customers", "Currency effect", "Discounts",
    "Upsell", "Closing balance",
]  # fmt: skip
CHARTED = [
    ("Website sessions", "Sign-ups"), ("Calls answered", "Callbacks"), ("Orders shipped", "Returns"),
    ("Visitors", "Memberships sold"),
]  # fmt: skip
PEOPLE = [
    "Ines Carvalho", "Rafael Brandt", "Noor Siddiqui", "Eamon Walsh", "Greta Holm", "Tomas Novak",
    "Adaeze Nwosu", "Lucia Ferraro", "Benedikt Roth", "Mira Castellanos", "Oskar Jansen", "Farah Aziz",
    "Colm Doherty", "Sanna Virtanen", "Hugo Lemaire",
]  # fmt: skip
CHIEFS = [("Chief Executive", "CEO"), ("Managing Director", "MD")]
DIVISIONS = [
    ("Head of Engineering", ["Platform Lead", "Mobile Lead", "QA Manager"]),
    ("Head of Sales", ["Account Director", "Partner Manager", "Sales Operations"]),
    ("Head of People", ["Recruiting Lead", "Learning Partner", "Payroll Officer"]),
    ("Head of Finance", ["Financial Controller", "Treasury Analyst", "Procurement Lead"]),
    ("Head of Design", ["Brand Designer", "UX Researcher", "Content Designer"]),
]  # fmt: skip
ORGS = ["Quayline Logistics", "Fernhill Studios", "Brackenridge Foods", "Sundial Energy", "Wildmere Outdoor"]
FAQ = [
    ("How do I reset my password?", "Open the sign-in page, choose Forgot password and follow the emailed link."),
    ("Can I change my delivery address?", "Yes, until the parcel leaves our warehouse. Edit it under Orders."),
    ("Which payment methods do you accept?", "Visa, Mastercard, PayPal and bank transfer for business accounts."),
    ("How long does a refund take?", "Refunds reach your account within five working days of the return."),
    ("Do you ship outside the EU?", "We ship to the UK, Norway and Switzerland; duties are paid on arrival."),
    ("Can I pause my subscription?", "Pause for up to three months from the Billing tab at no extra cost."),
    ("Is my data stored securely?", "All data is encrypted at rest and kept in data centres in Ireland."),
    ("How do I add a team member?", "Go to Settings, then Team, and send an invite to their work email."),
]  # fmt: skip
HELP_BRANDS = ["Parcelwise", "Tidyhome", "Brightbox", "Loomly Cloud", "Cartwheel"]
DEVICES = [
    ("Halden X2 Cordless Drill", "Compact power for everyday jobs"),
    ("Nordvik 27 Monitor", "Colour-accurate display for studios"),
    ("Aeris Air Purifier 400", "Quiet filtration for rooms up to 40 m2"),
    ("Kestrel E-Bike City", "Light frame, long range, easy on hills"),
    ("Vela Espresso Pro", "Barista pressure in a home machine"),
]  # fmt: skip
SPEC_ROWS = [
    "Weight", "Dimensions", "Battery life", "Charging time", "Warranty", "Power", "Noise level", "Colour",
    "Material", "Connectivity",
]  # fmt: skip
SPEC_VALUES = {
    "Weight": ["1.4 kg", "2.1 kg", "6.8 kg", "18.5 kg"], "Dimensions": ["32 x 21 x 9 cm", "61 x 46 x 20 cm"],
    "Battery life": ["9 hours", "14 hours", "70 km range"], "Charging time": ["45 minutes", "3.5 hours"],
    "Warranty": ["2 years", "3 years", "5 years"], "Power": ["18 V", "250 W", "1450 W"],
    "Noise level": ["24 dB", "38 dB", "52 dB"], "Colour": ["Graphite", "Sage green", "Arctic white"],
    "Material": ["Recycled aluminium", "Steel and oak"], "Connectivity": ["USB-C and Wi-Fi", "Bluetooth 5.3"],
}  # fmt: skip
FEATURES = [
    "Tool-free assembly", "Energy class A", "Spare parts for ten years", "Repairable by design",
    "Free returns within 30 days", "Made in Portugal",
]  # fmt: skip
BOARD_COLUMNS = ["Backlog", "In progress", "Review", "Done"]
TICKETS = [
    "Migrate billing to new API", "Fix login timeout on Safari", "Write onboarding email series",
    "Design dark mode palette", "Audit cookie banner", "Add CSV export to reports", "Update privacy notice",
    "Load test checkout", "Translate help centre to German", "Clean up unused feature flags",
    "Refresh pricing page copy", "Set up error alerts",
]  # fmt: skip
TAGS = ["Bug", "Feature", "Content", "Ops", "Design", "Legal"]
SQUADS = ["Team Falcon", "Team Otter", "Team Juniper", "Team Comet"]
AIRLINES = ["Aurelia Air", "Northwind Airways", "Baltic Blue", "Solent Jet"]
AIRPORTS = [
    ("LIS", "Lisbon"), ("CPH", "Copenhagen"), ("DUB", "Dublin"), ("VIE", "Vienna"), ("OSL", "Oslo"),
    ("ATH", "Athens"), ("PRG", "Prague"), ("BCN", "Barcelona"),
]  # fmt: skip
PASSENGERS = ["MS INES CARVALHO", "MR EAMON WALSH", "MS GRETA HOLM", "MR HUGO LEMAIRE", "MS FARAH AZIZ"]
