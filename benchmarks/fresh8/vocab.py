"""String pools of the eighth tester's pages (``benchmarks/fresh8_pages.py``), written for this set:
none is taken from ``documents/engines/vocab.py`` or ``benchmarks/fresh7``. A seed draws from them with
``random.Random``; a page never draws one string twice (the matplotlib reader finds an artist by its
string)."""

COMPANIES = [
    "Larkspur Analytics", "Copperline Freight", "Bellwether Dental", "Quillon Robotics", "Saltmarsh Brewing",
    "Ironbark Software", "Halcyon Travel", "Thistle & Vane", "Orchard Street Bakery", "Pinecrest Energy",
]  # fmt: skip
PEOPLE = [
    "Amara Okafor", "Tobias Lindqvist", "Priya Raghunathan", "Mateo Alvarez", "Yuki Tanabe", "Hannah Weiss",
    "Kwame Mensah", "Sofia Marchetti", "Declan Byrne", "Leila Haddad",
]  # fmt: skip
CITIES = ["Lisbon", "Tallinn", "Porto", "Ghent", "Aarhus", "Bilbao", "Krakow", "Utrecht", "Graz", "Turku"]
REGIONS = ["Nordics", "Iberia", "Benelux", "Alpine", "Baltics", "Balkans", "Levant", "Maghreb"]
PRODUCTS = ["Aurora", "Beacon", "Cascade", "Dynamo", "Ember", "Fathom", "Glacier", "Harbor", "Juniper", "Kestrel"]
CHANNELS = ["Retail stores", "Online shop", "Wholesale", "Marketplace", "Field sales", "Call centre"]
QUARTERS = ["Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024", "Q1 2025", "Q2 2025"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]
METRICS = [
    ("Customer satisfaction by region", "Satisfaction score (0-100)"),
    ("Average delivery time by hub", "Days to deliver"),
    ("Energy use per site", "Megawatt hours"),
    ("Open support cases by team", "Open cases"),
    ("Gross margin by product line", "Gross margin (%)"),
]
SERVICES = [
    "Site survey and report", "Cloud migration sprint", "Security review", "Onboarding workshop",
    "Data pipeline audit", "Custom dashboard build", "Annual support plan", "Accessibility testing",
]  # fmt: skip
TIERS = [("Basic", "Standard", "Premium"), ("Solo", "Studio", "Agency"), ("Lite", "Pro", "Business")]
FEATURES = [
    "Two user seats", "Ten user seats", "Unlimited seats", "Weekly backups", "Daily backups", "Custom domains",
    "Phone support", "Audit trail", "Shared calendars", "API access", "Offline mode", "Usage reports",
]  # fmt: skip
BUTTONS = ["Get started", "Try it free", "Book a demo", "Talk to sales", "Upgrade now", "Start today"]
COURSES = [
    "Advanced Spreadsheet Modelling", "Safe Forklift Operation", "Introduction to Data Privacy",
    "Project Management Foundations", "Customer Service Excellence", "First Aid at Work",
]  # fmt: skip
SESSIONS = [
    "Registration and coffee", "Opening keynote", "Panel on supply chains", "Lunch break", "Workshop on pricing",
    "Lightning talks", "Networking reception", "Closing remarks", "Product roadmap preview", "Investor roundtable",
]  # fmt: skip
ROOMS = ["Main Hall", "Room Atlas", "Room Boreal", "Garden Terrace"]
HEADLINES = [
    "Why small ports are winning the freight race",
    "The quiet return of the neighbourhood bakery",
    "How one city cut its energy bills by a third",
    "Inside the startups rebuilding rural broadband",
]
SECTIONS = ["The first signs", "What changed", "Counting the cost", "Looking ahead", "A local answer"]
SENTENCES = [
    "Volumes rose by 18 percent in the first half of the year.",
    "Owners say the change began with a single shared warehouse.",
    "Most of the savings came from replacing old street lamps.",
    "Residents were asked to vote on every major decision.",
    "The council expects the project to pay for itself by 2029.",
    "Smaller operators moved faster than their larger rivals.",
    "Demand for weekend deliveries doubled within a year.",
    "Training costs fell once the courses moved online.",
]
