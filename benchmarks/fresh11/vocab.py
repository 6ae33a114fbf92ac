"""String pools of the eleventh tester's pages (``benchmarks/fresh11_pages.py``), written for this set:
none is taken from ``documents/engines/vocab.py`` or ``benchmarks/fresh7`` .. ``benchmarks/fresh10``. A
seed draws from them with ``random.Random``; a page never draws one string twice (the matplotlib
reader finds an artist by its string)."""

SURVEY_ITEMS = [
    "Clear career path", "Fair workload", "Trust in leadership", "Useful feedback", "Flexible hours",
    "Tools that work", "Recognition", "Office comfort", "Team spirit", "Pay transparency",
]  # fmt: skip
SURVEY_FIRMS = ["Harrowgate Insurance", "Pellucid Labs", "Tamsin Retail Group", "Corbel Engineering"]
CITIES = [
    "Leipzig", "Utrecht", "Bologna", "Tampere", "Ghent", "Poznan", "Bilbao", "Aarhus", "Graz", "Nantes",
]  # fmt: skip
SLOPE_TOPICS = [
    ("Share of trips made by bicycle", "% of trips"), ("Homes with a heat pump", "% of homes"),
    ("Residents working from home", "% of residents"),
]  # fmt: skip
COURIERS = ["Swiftpost", "Larkway Parcels", "Cobalt Freight", "Meridian Couriers"]
DEPARTMENTS = [
    "Customer service", "Warehouse", "Finance office", "Field engineers", "Marketing", "Legal team",
    "Research lab", "Facilities",
]  # fmt: skip
RECIPES = [
    ("Roasted squash risotto", "A creamy autumn dish that rewards slow stirring"),
    ("Lemon and thyme chicken", "One tray, forty minutes, very little washing up"),
    ("Smoky black bean chilli", "Hearty enough for a crowd and better the next day"),
    ("Spiced carrot soup", "Warming, bright and ready in half an hour"),
]  # fmt: skip
INGREDIENTS = [
    "2 tbsp olive oil", "1 large onion, diced", "3 garlic cloves", "400 g chopped tomatoes", "1 tsp ground cumin",
    "250 ml vegetable stock", "Juice of half a lemon", "A handful of parsley", "150 g arborio rice",
    "1 tsp smoked paprika", "200 g crème fraîche", "Salt and black pepper",
]  # fmt: skip
STEPS = [
    "Warm the oil in a wide pan over a medium heat.", "Soften the onion for eight minutes, stirring often.",
    "Add the garlic and spices and cook for one minute.", "Pour in the stock and bring it to a gentle simmer.",
    "Season to taste and scatter the herbs on top.", "Rest for five minutes before serving.",
]  # fmt: skip
COOKS = ["Marguerite Olsen", "Dev Raman", "Kasia Wronska", "Tobias Ekholm"]
CLUBS = [
    "Ashford Rovers", "Kingsmere United", "Port Ellis Athletic", "Drayton Wanderers", "Castleford Town",
    "Redbridge Albion", "Millbay City", "Hollins Park", "Stanmoor Celtic", "Fernside Harriers",
]  # fmt: skip
LEAGUES = ["Northern Premier Division", "County League One", "Coastal Football League"]
FORECAST_TOWNS = ["Innsbruck", "Trondheim", "Galway", "Ljubljana", "Brest"]
SKIES = ["Sunny spells", "Light rain", "Overcast", "Thunderstorms", "Clear skies", "Drizzle", "Snow showers"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
JOBS = [
    ("Senior Data Engineer", "Data Platform"), ("Product Designer", "Design"),
    ("Customer Success Manager", "Customer Experience"), ("Backend Developer", "Payments"),
]  # fmt: skip
EMPLOYERS = ["Oxbow Analytics", "Wrenfield Bank", "Tallgrass Health", "Quillon Software"]
DUTIES = [
    "Own the roadmap for your area with the product lead", "Review pull requests and mentor two juniors",
    "Run user interviews every fortnight", "Keep our service level above 99.9 percent",
    "Write clear documentation for other teams", "Present results at the monthly town hall",
    "Improve onboarding for new customers", "Plan capacity for the peak season",
]  # fmt: skip
PERKS = ["Hybrid working", "30 days holiday", "Learning budget", "Pension match", "Cycle scheme", "Private health"]
STREETS = ["14 Larch Crescent", "7 Orchard Row", "22 Whitlow Lane", "3 Kestrel Mews", "58 Abbey Gardens"]
TOWNS = ["Harrogate", "Stroud", "Kendal", "Totnes", "Ludlow"]
AGENTS = [
    ("Priya Lindqvist", "Cresswell Homes"),
    ("Owen Marchetti", "Birch and Vale"),
    ("Hana Kowal", "Keystone Lettings"),
]
HOME_FEATURES = [
    "South-facing garden", "Off-street parking", "Open-plan kitchen", "Solar panels", "Wood burner",
    "Home office", "Walk to station", "New roof 2023",
]  # fmt: skip
