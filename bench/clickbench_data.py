"""A generated ClickBench `hits` table: ClickBench's 105 columns and types (PostgreSQL dialect),
plausible web-analytics distributions, deterministic for a (rows, seed) pair.

    clickbench_data.py --rows N [--seed S] --out FILE.tsv     write COPY text format
    clickbench_data.py --create                               print the CREATE TABLE

The real data set is 100 M page views of a Russian web-analytics service (2013-07); this one has
its shape at any size: Zipf-skewed counters, users, regions, URLs and search phrases (so the
benchmark's top-10 queries have clear winners), most text columns empty, Cyrillic titles and
phrases (character counts differ from byte counts), July 2013 timestamps (a quarter on 14-15
July; EventTime unique while the table fits the month's seconds, so ORDER BY EventTime has one
answer), CounterID 62 frequent
(the benchmark's dashboard queries filter on it), one user 435090932899640449, and URL/Referer
hashes that hit the constants of queries 41 and 42.  Imported by test/clickbench/run.py and
bench/clickbench.py.
"""
import argparse
import datetime
import hashlib
import itertools
import random
import sys

# (name, SQL type) in ClickBench's order; every column is NOT NULL.
COLUMNS = [
    ("WatchID", "BIGINT"), ("JavaEnable", "SMALLINT"), ("Title", "TEXT"), ("GoodEvent", "SMALLINT"),
    ("EventTime", "TIMESTAMP"), ("EventDate", "DATE"), ("CounterID", "INTEGER"), ("ClientIP", "INTEGER"),
    ("RegionID", "INTEGER"), ("UserID", "BIGINT"), ("CounterClass", "SMALLINT"), ("OS", "SMALLINT"),
    ("UserAgent", "SMALLINT"), ("URL", "TEXT"), ("Referer", "TEXT"), ("IsRefresh", "SMALLINT"),
    ("RefererCategoryID", "SMALLINT"), ("RefererRegionID", "INTEGER"), ("URLCategoryID", "SMALLINT"),
    ("URLRegionID", "INTEGER"), ("ResolutionWidth", "SMALLINT"), ("ResolutionHeight", "SMALLINT"),
    ("ResolutionDepth", "SMALLINT"), ("FlashMajor", "SMALLINT"), ("FlashMinor", "SMALLINT"),
    ("FlashMinor2", "TEXT"), ("NetMajor", "SMALLINT"), ("NetMinor", "SMALLINT"), ("UserAgentMajor", "SMALLINT"),
    ("UserAgentMinor", "VARCHAR(255)"), ("CookieEnable", "SMALLINT"), ("JavascriptEnable", "SMALLINT"),
    ("IsMobile", "SMALLINT"), ("MobilePhone", "SMALLINT"), ("MobilePhoneModel", "TEXT"), ("Params", "TEXT"),
    ("IPNetworkID", "INTEGER"), ("TraficSourceID", "SMALLINT"), ("SearchEngineID", "SMALLINT"),
    ("SearchPhrase", "TEXT"), ("AdvEngineID", "SMALLINT"), ("IsArtifical", "SMALLINT"),
    ("WindowClientWidth", "SMALLINT"), ("WindowClientHeight", "SMALLINT"), ("ClientTimeZone", "SMALLINT"),
    ("ClientEventTime", "TIMESTAMP"), ("SilverlightVersion1", "SMALLINT"), ("SilverlightVersion2", "SMALLINT"),
    ("SilverlightVersion3", "INTEGER"), ("SilverlightVersion4", "SMALLINT"), ("PageCharset", "TEXT"),
    ("CodeVersion", "INTEGER"), ("IsLink", "SMALLINT"), ("IsDownload", "SMALLINT"), ("IsNotBounce", "SMALLINT"),
    ("FUniqID", "BIGINT"), ("OriginalURL", "TEXT"), ("HID", "INTEGER"), ("IsOldCounter", "SMALLINT"),
    ("IsEvent", "SMALLINT"), ("IsParameter", "SMALLINT"), ("DontCountHits", "SMALLINT"), ("WithHash", "SMALLINT"),
    ("HitColor", "CHAR"), ("LocalEventTime", "TIMESTAMP"), ("Age", "SMALLINT"), ("Sex", "SMALLINT"),
    ("Income", "SMALLINT"), ("Interests", "SMALLINT"), ("Robotness", "SMALLINT"), ("RemoteIP", "INTEGER"),
    ("WindowName", "INTEGER"), ("OpenerName", "INTEGER"), ("HistoryLength", "SMALLINT"),
    ("BrowserLanguage", "TEXT"), ("BrowserCountry", "TEXT"), ("SocialNetwork", "TEXT"), ("SocialAction", "TEXT"),
    ("HTTPError", "SMALLINT"), ("SendTiming", "INTEGER"), ("DNSTiming", "INTEGER"), ("ConnectTiming", "INTEGER"),
    ("ResponseStartTiming", "INTEGER"), ("ResponseEndTiming", "INTEGER"), ("FetchTiming", "INTEGER"),
    ("SocialSourceNetworkID", "SMALLINT"), ("SocialSourcePage", "TEXT"), ("ParamPrice", "BIGINT"),
    ("ParamOrderID", "TEXT"), ("ParamCurrency", "TEXT"), ("ParamCurrencyID", "SMALLINT"),
    ("OpenstatServiceName", "TEXT"), ("OpenstatCampaignID", "TEXT"), ("OpenstatAdID", "TEXT"),
    ("OpenstatSourceID", "TEXT"), ("UTMSource", "TEXT"), ("UTMMedium", "TEXT"), ("UTMCampaign", "TEXT"),
    ("UTMContent", "TEXT"), ("UTMTerm", "TEXT"), ("FromTag", "TEXT"), ("HasGCLID", "SMALLINT"),
    ("RefererHash", "BIGINT"), ("URLHash", "BIGINT"), ("CLID", "INTEGER"),
]
assert len(COLUMNS) == 105

# Constants the benchmark's queries look for.
SPECIAL_USER = 435090932899640449         # query 20
SPECIAL_REFERER_HASH = 3594120000172545465  # query 41
SPECIAL_URL_HASH = 2868770270353813622      # query 42
START = datetime.datetime(2013, 7, 1)
MONTH_SECONDS = 31 * 86400


def create_sql(table="hits"):
    cols = ",\n".join(f"    {name} {typ} NOT NULL" for name, typ in COLUMNS)
    return f"CREATE TABLE {table}\n(\n{cols}\n);\n"


def zipf_weights(n, s=1.1):
    """Cumulative Zipf weights for ranks 1..n."""
    return list(itertools.accumulate(1.0 / (k ** s) for k in range(1, n + 1)))


def skewed(rng, pool, k, s=1.1):
    return rng.choices(pool, cum_weights=zipf_weights(len(pool), s), k=k)


def hash64(text):
    """A signed 64-bit hash of a string (what the real data's *Hash columns are)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True)


WORDS_EN = ["google", "maps", "weather", "news", "video", "music", "games", "cars", "phone", "shop",
            "hotel", "flights", "recipes", "football", "cinema", "download", "free", "online", "best", "2013"]
WORDS_RU = ["погода", "новости", "купить", "фильмы", "игры", "авто", "москва", "скачать", "бесплатно",
            "работа", "квартира", "отзывы", "яндекс", "карта", "телефон", "музыка", "смотреть", "онлайн"]
DOMAINS = ["yandex.ru", "google.com", "google.ru", "maps.google.com", "mail.ru", "vk.com", "avito.ru",
           "news.yandex.ru", "auto.ru", "kinopoisk.ru", "livejournal.com", "odnoklassniki.ru", "rambler.ru",
           "wikipedia.org", "youtube.com", "irr.ru", "hh.ru", "market.yandex.ru", "images.google.ru",
           "docs.google.com", "lenta.ru", "rbc.ru", "sport-express.ru", "drom.ru", "example.org"]
PHONES = ["iPhone", "iPad", "Galaxy S4", "Galaxy Note II", "Nexus 4", "HTC One", "Lumia 920", "Xperia Z",
          "Optimus G", "GT-I9300", "Desire HD", "Redmi", "Moto X", "Galaxy Tab 2", "N9", "Ascend P6"]


def text_pools(rng, rows):
    """URL, referer, title and search-phrase pools, sized with the table."""
    def phrase():
        words = WORDS_RU if rng.random() < 0.6 else WORDS_EN
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))

    def path():
        segs = [rng.choice(WORDS_EN + ["id", "page", "catalog", "item", "search"]) for _ in range(rng.randint(0, 4))]
        q = f"?id={rng.randint(1, 99999)}" if rng.random() < 0.4 else ""
        return "/" + "/".join(segs) + q

    def url():
        scheme = "https://" if rng.random() < 0.3 else "http://"
        host = ("www." if rng.random() < 0.4 else "") + rng.choice(DOMAINS)
        return scheme + host + path()

    n_urls = max(50, rows // 4)
    urls = list(dict.fromkeys(url() for _ in range(n_urls)))
    rng.shuffle(urls)
    referers = list(dict.fromkeys(url() for _ in range(max(50, rows // 6))))
    rng.shuffle(referers)
    phrases = list(dict.fromkeys(phrase() for _ in range(max(50, rows // 20))))
    rng.shuffle(phrases)
    titles = []
    for _ in range(max(50, rows // 10)):
        words = WORDS_RU if rng.random() < 0.5 else WORDS_EN
        t = " ".join(rng.choice(words).capitalize() for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.15:
            t += " - Google Search" if rng.random() < 0.5 else " — Google"
        titles.append(t)
    titles = list(dict.fromkeys(titles))
    return urls, referers, titles, phrases


def generate(rows, seed=1):
    """The table as a list of 105 column lists (Python values)."""
    rng = random.Random(seed)
    urls, referers, titles, phrases = text_pools(rng, rows)
    url_hash = {u: hash64(u) for u in urls}
    ref_hash = {r: hash64(r) for r in referers}
    ref_hash[referers[0]] = SPECIAL_REFERER_HASH
    url_hash[urls[1]] = SPECIAL_URL_HASH
    ref_hash[""] = hash64("")
    url_hash[""] = hash64("")

    users = [SPECIAL_USER] + [rng.randrange(1, 2 ** 63) for _ in range(max(10, rows // 8))]
    counters = [62] + [rng.randint(1, 300000) for _ in range(max(10, rows // 200))]
    regions = list(range(1, 400))
    rng.shuffle(regions)
    ips = [rng.randint(-2 ** 31 + 10, 2 ** 31 - 1) for _ in range(max(10, rows // 5))]

    def ints(lo, hi):
        return [rng.randint(lo, hi) for _ in range(rows)]

    def pick(pool, weights=None):
        return rng.choices(pool, weights=weights, k=rows)

    def sparse(pool, p_nonempty):
        return [rng.choice(pool) if rng.random() < p_nonempty else "" for _ in range(rows)]

    # A quarter of the page views fall on the busy weekend of 14-15 July (query 43's window),
    # the rest over the month; each second used once while the table is small enough.
    busy_from, busy_len = 13 * 86400, 2 * 86400
    n_busy = min(rows // 4, busy_len)
    if rows - n_busy <= MONTH_SECONDS - busy_len:
        seconds = rng.sample(range(busy_from, busy_from + busy_len), n_busy)
        seconds += [s if s < busy_from else s + busy_len
                    for s in rng.sample(range(MONTH_SECONDS - busy_len), rows - n_busy)]
        rng.shuffle(seconds)
    else:
        seconds = [rng.randrange(MONTH_SECONDS) for _ in range(rows)]
    event_time = [START + datetime.timedelta(seconds=s) for s in seconds]
    client_time = [t + datetime.timedelta(seconds=rng.randint(-7200, 7200)) for t in event_time]
    local_time = [t + datetime.timedelta(hours=rng.choice([0, 1, 3, 4])) for t in event_time]
    url = [u if rng.random() < 0.97 else "" for u in skewed(rng, urls, rows, 1.05)]
    referer = [r if rng.random() < 0.7 else "" for r in skewed(rng, referers, rows, 1.05)]
    search_phrase = [p if rng.random() < 0.25 else "" for p in skewed(rng, phrases, rows, 1.0)]
    search_engine = [rng.choice([2, 3, 5]) if p else 0 for p in search_phrase]
    title = [t if rng.random() < 0.9 else "" for t in skewed(rng, titles, rows, 1.0)]
    mobile_model = sparse(PHONES, 0.08)
    mobile_phone = [PHONES.index(m) % 7 + 1 if m else 0 for m in mobile_model]
    res = pick([(1920, 1080), (1366, 768), (1280, 1024), (1024, 768), (1600, 900), (1440, 900), (0, 0)],
               [30, 25, 12, 10, 8, 8, 2])
    win = [(max(0, w - rng.randint(0, 300)), max(0, h - rng.randint(80, 300))) for w, h in res]

    cols = {
        "WatchID": [rng.randrange(-2 ** 63, 2 ** 63) for _ in range(rows)],
        "JavaEnable": pick([0, 1], [3, 7]),
        "Title": title,
        "GoodEvent": pick([1, 0], [99, 1]),
        "EventTime": event_time,
        "EventDate": [t.date() for t in event_time],
        "CounterID": [c for c in skewed(rng, counters, rows, 1.3)],
        "ClientIP": skewed(rng, ips, rows, 0.9),
        "RegionID": skewed(rng, regions, rows, 1.2),
        "UserID": skewed(rng, users, rows, 0.95),
        "CounterClass": pick([0, 1, 2], [80, 15, 5]),
        "OS": pick(list(range(0, 60)), None),
        "UserAgent": pick(list(range(0, 40)), None),
        "URL": url,
        "Referer": referer,
        "IsRefresh": pick([0, 1], [9, 1]),
        "RefererCategoryID": ints(0, 20),
        "RefererRegionID": ints(0, 400),
        "URLCategoryID": ints(0, 20),
        "URLRegionID": ints(0, 400),
        "ResolutionWidth": [w for w, _ in res],
        "ResolutionHeight": [h for _, h in res],
        "ResolutionDepth": pick([24, 32, 16, 0], [70, 25, 4, 1]),
        "FlashMajor": pick([0, 10, 11], [30, 20, 50]),
        "FlashMinor": ints(0, 9),
        "FlashMinor2": sparse(["0", "1", "2", "3", "5", "7"], 0.5),
        "NetMajor": ints(0, 4),
        "NetMinor": ints(0, 9),
        "UserAgentMajor": ints(0, 30),
        "UserAgentMinor": sparse(["0", "1", "5", "a", "11", "17", "22"], 0.6),
        "CookieEnable": pick([1, 0], [95, 5]),
        "JavascriptEnable": pick([1, 0], [97, 3]),
        "IsMobile": [1 if m else 0 for m in mobile_model],
        "MobilePhone": mobile_phone,
        "MobilePhoneModel": mobile_model,
        "Params": sparse(["utm=1", "ref=mail", "from=direct", "p=2&q=нет"], 0.05),
        "IPNetworkID": ints(0, 200000),
        "TraficSourceID": pick([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [5, 30, 10, 15, 5, 5, 5, 15, 4, 3, 3]),
        "SearchEngineID": search_engine,
        "SearchPhrase": search_phrase,
        "AdvEngineID": pick([0, 2, 3, 4, 13, 27], [95, 2, 1, 1, 0.5, 0.5]),
        "IsArtifical": pick([0, 1], [95, 5]),
        "WindowClientWidth": [w for w, _ in win],
        "WindowClientHeight": [h for _, h in win],
        "ClientTimeZone": pick([-1, 0, 180, 240, 360], [5, 10, 60, 20, 5]),
        "ClientEventTime": client_time,
        "SilverlightVersion1": ints(0, 5),
        "SilverlightVersion2": ints(0, 9),
        "SilverlightVersion3": ints(0, 60000),
        "SilverlightVersion4": ints(0, 9),
        "PageCharset": pick(["utf-8", "windows-1251", ""], [60, 35, 5]),
        "CodeVersion": pick([0, 1, 510, 511, 525, 601], None),
        "IsLink": pick([0, 1], [95, 5]),
        "IsDownload": pick([0, 1], [98, 2]),
        "IsNotBounce": pick([0, 1], [70, 30]),
        "FUniqID": [rng.randrange(0, 2 ** 63) if rng.random() < 0.7 else 0 for _ in range(rows)],
        "OriginalURL": [u if rng.random() < 0.05 else "" for u in skewed(rng, urls, rows, 1.0)],
        "HID": ints(0, 2 ** 31 - 1),
        "IsOldCounter": pick([0, 1], [90, 10]),
        "IsEvent": pick([0, 1], [95, 5]),
        "IsParameter": pick([0, 1], [97, 3]),
        "DontCountHits": pick([0, 1], [9, 1]),
        "WithHash": pick([0, 1], [90, 10]),
        "HitColor": pick(["E", "F", "T", "D"], [40, 30, 20, 10]),
        "LocalEventTime": local_time,
        "Age": pick([0, 17, 18, 25, 35, 45, 55], [40, 5, 15, 15, 10, 10, 5]),
        "Sex": pick([0, 1, 2], [40, 30, 30]),
        "Income": pick([0, 1, 2, 3, 4], [40, 20, 20, 15, 5]),
        "Interests": ints(0, 32767),
        "Robotness": pick([0, 1, 2], [90, 5, 5]),
        "RemoteIP": ints(-2 ** 31 + 10, 2 ** 31 - 1),
        "WindowName": ints(-2 ** 31 + 10, 2 ** 31 - 1),
        "OpenerName": ints(-2 ** 31 + 10, 2 ** 31 - 1),
        "HistoryLength": ints(0, 50),
        "BrowserLanguage": pick(["ru", "en", "uk", "de", "tr", ""], [70, 10, 8, 3, 3, 6]),
        "BrowserCountry": pick(["ru", "ua", "by", "kz", "us", ""], [70, 10, 5, 5, 3, 7]),
        "SocialNetwork": sparse(["vk", "facebook", "odnoklassniki", "twitter"], 0.02),
        "SocialAction": sparse(["like", "share", "comment"], 0.01),
        "HTTPError": pick([0, 404, 500], [98, 1.5, 0.5]),
        "SendTiming": ints(0, 5000),
        "DNSTiming": ints(0, 500),
        "ConnectTiming": ints(0, 1000),
        "ResponseStartTiming": ints(0, 3000),
        "ResponseEndTiming": ints(0, 5000),
        "FetchTiming": ints(0, 8000),
        "SocialSourceNetworkID": pick([0, 1, 2, 3], [95, 2, 2, 1]),
        "SocialSourcePage": sparse(["/feed", "/wall", "/groups/123"], 0.02),
        "ParamPrice": [rng.randint(1, 10 ** 7) if rng.random() < 0.02 else 0 for _ in range(rows)],
        "ParamOrderID": sparse([f"ord-{k}" for k in range(50)], 0.02),
        "ParamCurrency": sparse(["RUB", "USD", "EUR"], 0.02),
        "ParamCurrencyID": pick([0, 643, 840, 978], [97, 2, 0.5, 0.5]),
        "OpenstatServiceName": sparse(["direct.yandex.ru", "begun.ru"], 0.02),
        "OpenstatCampaignID": sparse([str(k) for k in range(100)], 0.02),
        "OpenstatAdID": sparse([str(k) for k in range(500)], 0.02),
        "OpenstatSourceID": sparse(["site1", "site2", "site3"], 0.02),
        "UTMSource": sparse(["yandex", "google", "vk", "email"], 0.05),
        "UTMMedium": sparse(["cpc", "banner", "email"], 0.05),
        "UTMCampaign": sparse(["summer", "sale", "brand", "распродажа"], 0.05),
        "UTMContent": sparse(["text", "image"], 0.03),
        "UTMTerm": sparse(WORDS_EN + WORDS_RU, 0.03),
        "FromTag": sparse(["main", "menu", "footer"], 0.03),
        "HasGCLID": pick([0, 1], [97, 3]),
        "RefererHash": [ref_hash[r] for r in referer],
        "URLHash": [url_hash[u] for u in url],
        "CLID": pick([0] + list(range(1, 50)), [90] + [10 / 49] * 49),
    }
    # The dashboard queries (37-43) read CounterID 62's page views of the first half of July;
    # the RefererHash/URLHash constants of 41 and 42 occur there.
    for i in range(0, rows, 97):
        cols["CounterID"][i] = 62
        cols["Referer"][i] = referers[0]
        cols["RefererHash"][i] = SPECIAL_REFERER_HASH
        cols["TraficSourceID"][i] = 6 if i % 2 else -1
    for i in range(3, rows, 89):
        cols["CounterID"][i] = 62
        cols["URL"][i] = urls[1]
        cols["URLHash"][i] = SPECIAL_URL_HASH
    return [cols[name] for name, _ in COLUMNS]


def _escape(v):
    if isinstance(v, str):
        return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    if isinstance(v, datetime.datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S")
    return str(v)


def write_tsv(path, rows, seed=1):
    """The table in PostgreSQL's COPY text format (tab-separated, also what DuckDB reads)."""
    cols = generate(rows, seed)
    with open(path, "w", encoding="utf-8") as f:
        for r in range(rows):
            f.write("\t".join(_escape(c[r]) for c in cols))
            f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--create", action="store_true", help="print the CREATE TABLE statement")
    args = ap.parse_args()
    if args.create:
        sys.stdout.write(create_sql())
        return 0
    if not args.out:
        ap.error("--out FILE is needed")
    write_tsv(args.out, args.rows, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
