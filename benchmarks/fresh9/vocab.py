"""String pools of the ninth tester's pages (``benchmarks/fresh9_pages.py``), written for this set:
none is taken from ``documents/engines/vocab.py``, ``benchmarks/fresh7`` or ``benchmarks/fresh8``. A
seed draws from them with ``random.Random``; a page never draws one string twice (the matplotlib
reader finds an artist by its string)."""

SHOPS = [
    "Marigold Grocers", "Northgate Hardware", "Tidewater Books", "Cobalt Coffee Bar", "Fennel & Fig Deli",
    "Greystone Pharmacy", "Lanternfish Market", "Redwood Garden Supply",
]  # fmt: skip
STREETS = ["14 Harbour Row", "210 Elm Avenue", "9 Mill Lane", "77 Station Road", "3 Quayside Walk"]
GOODS = [
    ("Sourdough loaf", 4.2), ("Oat milk 1L", 2.35), ("Free range eggs", 3.9), ("Cheddar block", 5.75),
    ("Espresso beans", 11.5), ("Basmati rice 2kg", 6.4), ("Olive oil 500ml", 8.95), ("Dark chocolate", 2.8),
    ("Paper towels", 3.15), ("Dish soap", 2.6), ("Greek yoghurt", 3.45), ("Blueberries", 4.1),
]  # fmt: skip
FIRMS = [
    "Vantage Orbital", "Mossgrove Health", "Brightwater Labs", "Kilnworth Ceramics", "Stratus Ledger",
    "Oakhollow Media", "Pelican Mobility", "Seabright Insurance",
]  # fmt: skip
MILESTONES = [
    ("Beta launch", "Invite the first 500 users"), ("Payments live", "Cards and bank transfers"),
    ("Mobile app", "iOS and Android release"), ("SOC 2 audit", "External review completed"),
    ("EU region", "Data hosted in Frankfurt"), ("Partner API", "Public endpoints and docs"),
    ("Offline sync", "Works without a connection"), ("Team plans", "Shared billing and roles"),
]  # fmt: skip
OPTIONS = [
    ("Build in-house", "Buy a platform"), ("Lease the fleet", "Own the fleet"),
    ("Hire an agency", "Grow our own team"), ("Single vendor", "Best of breed"),
]  # fmt: skip
PROS = [
    "Full control of the roadmap", "Lower cost after year two", "Faster time to market", "Vendor handles upgrades",
    "No hiring needed", "Predictable monthly fees", "Deep fit with our workflow", "Proven at larger firms",
    "Staff keep the know-how", "Support included in price", "Easier to switch later", "Fewer contracts to manage",
]  # fmt: skip
KPIS = [
    ("Monthly recurring revenue", "$"), ("Active workspaces", ""), ("Churn rate", "%"), ("Net promoter score", ""),
    ("Average deal size", "$"), ("Trial conversions", "%"), ("Tickets resolved", ""), ("Uptime this month", "%"),
]  # fmt: skip
NAV = ["Overview", "Accounts", "Billing", "Reports", "Settings", "Alerts"]
ACCOUNTS = [
    "Harbourview Clinics", "Nimbus Freightways", "Pallas Architecture", "Quarry Hill Schools", "Rowan & Finch",
    "Solstice Hotels", "Tern Valley Farms", "Umber Textiles",
]  # fmt: skip
NEWSLETTERS = ["The Weekly Ledger", "Field Notes", "The Workshop Bulletin", "Harbour Lights", "The Green Desk"]
TOPICS = [
    "New office opens in Leeds", "Meet the support team", "Quarterly results at a glance", "Volunteer day recap",
    "Tips for safer passwords", "Upcoming training dates", "A new benefits portal", "Our recycling numbers",
]  # fmt: skip
STORIES = [
    "The new office has room for eighty people and a rooftop garden.",
    "Support answered nine in ten tickets within the first hour.",
    "Revenue grew for the sixth quarter in a row, led by renewals.",
    "Forty staff planted trees along the river path on Saturday.",
    "Use a password manager and turn on two step sign in today.",
    "Spring courses cover spreadsheets, writing and public speaking.",
    "Claims, leave requests and payslips now live in one place.",
    "We sent a third less waste to landfill than a year earlier.",
]  # fmt: skip
FUELS = ["Solar", "Wind", "Hydro", "Gas", "Biomass", "Nuclear"]
YEARS = ["FY2019", "FY2020", "FY2021", "FY2022", "FY2023", "FY2024"]
SPECIES = ["Alder", "Birch", "Cedar", "Hazel", "Linden", "Maple", "Rowan", "Willow"]
DEPARTMENTS = ["Finance", "Logistics", "Marketing", "Research", "Legal", "Procurement"]
TASKS = [
    "Requirements", "Vendor selection", "Prototype", "Security review", "Pilot rollout", "Staff training",
    "Data migration", "Go-live",
]  # fmt: skip
MONTHS3 = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
