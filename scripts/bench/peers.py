#!/usr/bin/env python3
"""Our collection searches against DuckDB and PostgreSQL, on the same dump.

Usage (run by scripts/bench/peers.sh, which installs and prepares everything):
  peers.py load --csv DIR --duckdb FILE --pg DBNAME [--engines duckdb,postgresql]
      loads pg_csv.py's CSV files into both engines (PostgreSQL: pg_schema.sql,
      COPY, pg_indexes.sql; DuckDB: the same schema with text for text[]),
      then the derived tables of peers_derived.sql (+ peers_indexes.sql on
      PostgreSQL); prints the load time per engine and step.
  peers.py run REQUESTS.jsonl --duckdb FILE --pg DBNAME [--rounds 3] [--engines ...]
      replays the requests our bench exported (`search_latency
      --write-requests`), translated to SQL, on both engines: one warm-up pass
      (whose answers are compared with ours), then ROUNDS timed passes, one
      client, one request at a time. Prints per class and engine n, p50,
      p99 (per-round nearest-rank percentiles, median over rounds, as the
      Rust bench does), the mismatches, and the ratio peer / ours. Exits 1
      on any mismatch of total_count or of the page (ids, in order).

A request is answered by two statements, the exact count and the requested
page (ORDER BY the sort key, nulls last, then the kind's default order =
our doc id order, recomputed in SQL as `rank`). Timings are client wall
time of both statements including fetching the rows. The translation covers
the keys the bench's classes use and refuses any other (a request it cannot
state exactly is an error, never an approximation). Meanings: the module doc
of src/query/request.rs and the oracle in tests/it/oracle/mod.rs.
"""

import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- SQL text


def lit(text):
    return "'" + str(text).replace("'", "''") + "'"


def in_list(column, values):
    if not values:
        return "FALSE"
    return f"{column} IN ({', '.join(lit(v) for v in values)})"


def money_range(column, r):
    """Whole-USD bounds: the minimum rounds up, the maximum down."""
    conds = []
    if r.get("min") is not None:
        conds.append(f"{column} >= {math.ceil(r['min'])}")
    if r.get("max") is not None:
        conds.append(f"{column} <= {math.floor(r['max'])}")
    return conds


def date_range(column, r):
    conds = []
    if r.get("min") is not None:
        conds.append(f"{column} >= DATE {lit(r['min'])}")
    if r.get("max") is not None:
        conds.append(f"{column} <= DATE {lit(r['max'])}")
    return conds


def round_keys(keys):
    return [k["type"] + ("/pre" if k["pre"] else "") + ("/ext" if k["extension"] else "") for k in keys]


class Unsupported(Exception):
    pass


def refuse_set(block, keys, where):
    """Refuses the keys of `block` this translator does not state."""
    for k in keys:
        if block.get(k) not in (None, [], False):
            raise Unsupported(f"{where}.{k}")


# ---------------------------------------------------------------- filters


def company_conds(f, c):
    """CompanyFilter on the company_x row aliased `c`."""
    conds = []
    if f["ids"] is not None:
        conds.append(in_list(f"{c}.id", f["ids"]))
    if f["locations"] is not None:
        conds.append(f"EXISTS (SELECT 1 FROM company_places cp WHERE cp.company_id = {c}.id AND "
                     f"{in_list('cp.location', f['locations'])})")
    if f["industries"] is not None:
        conds.append(f"EXISTS (SELECT 1 FROM company_industries ci WHERE ci.company_id = {c}.id AND "
                     f"{in_list('ci.industry', f['industries'])})")
    if f["super_categories"] is not None:
        conds.append(f"EXISTS (SELECT 1 FROM company_supers cs WHERE cs.company_id = {c}.id AND "
                     f"{in_list('cs.super_category', f['super_categories'])})")
    if f["employee_count"] is not None:
        conds.append(in_list(f"{c}.num_employees", f["employee_count"]))
    if f["ipo_status"] is not None:
        conds.append(in_list(f"{c}.ipo_status", f["ipo_status"]))
    if f["total_raised"] is not None:
        conds += money_range(f"{c}.total_raised_usd", f["total_raised"])
    return conds


def deal_conds(f, cols):
    """DealFilter on the columns named by `cols` (round_key, size, date, created)."""
    conds = []
    if f["financing_types"] is not None:
        conds.append(in_list(cols["round_key"], round_keys(f["financing_types"])))
    if f["size"] is not None:
        conds += money_range(cols["size"], f["size"])
    if f["date"] is not None:
        conds += date_range(cols["date"], f["date"])
    if f["created"] is not None:
        conds += date_range(cols["created"], f["created"])
    return conds


DEAL_COLS = {"round_key": "d.round_key", "size": "d.size_usd", "date": "d.date", "created": "d.created_day"}


def latest_cols(c):
    return {"round_key": f"{c}.latest_round_key", "size": f"{c}.latest_size_usd",
            "date": f"{c}.latest_date", "created": f"{c}.latest_created_day"}


def latest_deal_conds(f, c):
    """LatestDealFilter: the company's latest deal (none: every predicate is false)."""
    refuse_set(f, ["investor_locations"], "latest_deal")
    conds = deal_conds(f["deal"], latest_cols(c))
    if f["investor_ids"] is not None:
        conds.append(f"EXISTS (SELECT 1 FROM deal_firms lf WHERE lf.deal_id = {c}.latest_deal_id AND "
                     f"{in_list('lf.firm_id', f['investor_ids'])})")
    return conds


def where(conds):
    return " WHERE " + " AND ".join(conds) if conds else ""


def statements(id_col, from_sql, conds, order, q):
    """(count statement, page statement) of a plain filtered listing."""
    w = where(conds)
    count = f"SELECT count(*) FROM {from_sql}{w}"
    page = (f"SELECT {id_col} FROM {from_sql}{w} ORDER BY {order} "
            f"LIMIT {q['page_size']} OFFSET {q['page'] * q['page_size']}")
    return count, page


# ---------------------------------------------------------------- endpoints

COMPANY_SORT = {
    "most_recent_raise": None,
    "oldest_raise": "c.latest_date ASC",
    "most_recent_founded": "c.founded_on DESC",
    "oldest_founded": "c.founded_on ASC",
    "largest_valuation": "c.latest_valuation_usd DESC",
    "smallest_valuation": "c.latest_valuation_usd ASC",
    "largest_total_raise": "c.total_raised_usd DESC",
    "smallest_total_raise": "c.total_raised_usd ASC",
    "most_funding_rounds": "c.num_funding_rounds DESC",
    "most_investors": "c.num_investors DESC",
}


def order_by(key, rank):
    return f"{key} NULLS LAST, {rank}" if key else rank


def companies(q):
    if q["semantic"] is not None:
        raise Unsupported("semantic")
    refuse_set(q["investors"], ["investor_ids", "people_ids"], "investors")
    conds = []
    ids = q["identifiers"]
    if ids is not None:
        refuse_set(ids, ["linkedin", "crunchbase", "permalinks"], "identifiers")
        conds.append(f"({in_list('c.id', ids['ids'])} OR {in_list('c.domain_key', ids['domains'])})")
    conds += company_conds(q["company"], "c")
    conds += latest_deal_conds(q["latest_deal"], "c")
    return statements("c.id", "company_x c", conds, order_by(COMPANY_SORT[q["sort"]], "c.rank"), q)


DEAL_SORT = {
    "most_recent_deal": None,
    "oldest_deal": "d.date ASC",
    "largest_raise": "d.size_usd DESC",
    "smallest_raise": "d.size_usd ASC",
}


def deals(q):
    refuse_set(q["investors"], ["investor_ids", "people_ids"], "investors")
    conds = []
    if q["deal_ids"] is not None:
        conds.append(in_list("d.id", q["deal_ids"]))
    conds += deal_conds(q["deal"], DEAL_COLS)
    company = company_conds(q["company"], "c")
    source = "deal_x d JOIN company_x c ON c.id = d.company_id" if company else "deal_x d"
    return statements("d.id", source, conds + company, order_by(DEAL_SORT[q["sort"]], "d.rank"), q)


def matching(entity_col, source, conds, min_deals):
    """Entities with at least `min_deals` qualifying rows, with their count."""
    return (f"SELECT {entity_col} AS id, count(*) AS n FROM {source}{where(conds)} "
            f"GROUP BY {entity_col} HAVING count(*) >= {min_deals}")


def grouped(m, table, q):
    count = f"SELECT count(*) FROM ({m}) m"
    page = (f"SELECT e.id FROM ({m}) m JOIN {table} e ON e.id = m.id ORDER BY m.n DESC, e.rank "
            f"LIMIT {q['page_size']} OFFSET {q['page'] * q['page_size']}")
    return count, page


def min_deals(f):
    n = f["min_matching_deals"]
    n = 1 if n is None else n
    if n < 1:
        raise Unsupported("min_matching_deals 0")
    return n


def portfolio_source(deal_table_join, company):
    return deal_table_join + (" JOIN company_x c ON c.id = d.company_id" if company else "")


def investors(q):
    refuse_set(q, ["identifiers", "locations", "employee_count"], "investors")
    p = q["portfolio"]
    if p is None or q["sort"] != "matching_deals":
        raise Unsupported(f"/investors without portfolio or sort {q['sort']}")
    if p["semantic"] is not None:
        raise Unsupported("portfolio.semantic")
    company = company_conds(p["company"], "c")
    conds = deal_conds(p["deal"], DEAL_COLS) + company
    if p["only_lead_deals"]:
        conds.append("f.lead")
    source = portfolio_source("deal_firms f JOIN deal_x d ON d.id = f.deal_id", company)
    return grouped(matching("f.firm_id", source, conds, min_deals(p)), "firm_x", q)


def people(q):
    refuse_set(q["person"], ["contact_types", "job_titles", "education_schools", "linkedin_companies"], "person")
    if q["identifiers"] is not None or q["person_type"] != "any":
        raise Unsupported("people identifiers / person_type")
    if q["investor"] is not None:
        if q["company"] is not None or q["person"]["roles"] is not None:
            raise Unsupported("people investor mode with company or person keys")
        return people_investor(q)
    if q["company"] is None:
        raise Unsupported("people without company or investor block")
    return people_company(q)


INVESTMENT_TYPE = {"all": [], "angel": ["pd.angel"], "institutional": ["pd.partner"]}


def people_investor(q):
    inv = q["investor"]
    refuse_set(inv, ["firms", "locations", "employee_count"], "investor")
    f = inv["deals"]
    if f is None or q["sort"] != "filtered_deal_count":
        raise Unsupported("investor mode without deals or sort " + q["sort"])
    if f["semantic"] is not None:
        raise Unsupported("investor.deals.semantic")
    company = company_conds(f["portfolio"], "c")
    conds = INVESTMENT_TYPE[f["investment_type"]] + deal_conds(f["deal"], DEAL_COLS) + company
    if f["only_lead_deals"]:
        conds.append("pd.led")
    source = portfolio_source("person_deals pd JOIN deal_x d ON d.id = pd.deal_id", company)
    return grouped(matching("pd.person_id", source, conds, min_deals(f)), "person_x", q)


PERSON_SORT = {
    "most_recent_deal_date": "p.most_recent_deal_date DESC",
    "total_raised": "c.total_raised_usd DESC",
    "latest_deal_size": "c.latest_size_usd DESC",
}


def people_company(q):
    e = q["company"]
    if e["semantic"] is not None or e["investor_people_ids"] is not None:
        raise Unsupported("company.semantic / investor_people_ids")
    if q["sort"] not in PERSON_SORT:
        raise Unsupported("people sort " + q["sort"])
    conds = company_conds(e["company"], "c") + latest_deal_conds(e["latest_deal"], "c")
    roles = q["person"]["roles"]
    if roles is not None:
        conds.insert(0, f"EXISTS (SELECT 1 FROM person_roles r WHERE r.person_id = p.id AND "
                        f"{in_list('r.role', roles)})")
    source = "person_x p JOIN company_x c ON c.id = p.employer_company_id"
    return statements("p.id", source, conds, order_by(PERSON_SORT[q["sort"]], "p.rank"), q)


ENDPOINTS = {"companies": companies, "deals": deals, "investors": investors, "people": people}


def translate(request):
    return ENDPOINTS[request["endpoint"]](request)


# ---------------------------------------------------------------- engines


def sql_file(name):
    """The ';;'-separated statements of scripts/bench/NAME."""
    with open(os.path.join(HERE, name)) as f:
        text = f.read()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("--")]
    chunks = "\n".join(lines).replace(";;", "\x00").split("\x00")
    return [s.strip().rstrip(";") for s in chunks if s.strip()]


def plain_sql_file(name):
    """The ';'-terminated statements of a plain SQL file (no ';' inside statements)."""
    with open(os.path.join(HERE, name)) as f:
        lines = [line.split("--")[0] for line in f]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


CSV_TABLES = ["locations", "industries", "industry_super", "companies", "company_industries", "firms",
              "people", "employment", "education", "deals", "deal_firms", "deal_partners", "deal_angels",
              "financings", "articles"]


class Duck:
    name = "DuckDB"

    def __init__(self, path):
        import duckdb
        self.version = duckdb.__version__
        self.con = duckdb.connect(path)
        self.con.execute("SET TimeZone = 'UTC'")

    def execute(self, sql):
        self.con.execute(sql)

    def rows(self, sql):
        return self.con.execute(sql).fetchall()

    def schema(self):
        return [s.replace("text[]", "text") for s in plain_sql_file("pg_schema.sql")]

    def copy(self, table, path):
        self.con.execute(f"COPY {table} FROM {lit(path)} (FORMAT csv, NULLSTR '\\N', HEADER false)")

    def roles_sql(self):
        return ("CREATE TABLE person_roles AS SELECT DISTINCT id AS person_id, "
                "unnest(string_split(replace(replace(roles, '{', ''), '}', ''), ',')) AS role "
                "FROM people WHERE roles IS NOT NULL")

    def indexes(self):
        return []

    def analyze(self):
        self.con.execute("CHECKPOINT")

    def refresh_stats(self):
        """DuckDB keeps its statistics as it writes: nothing to do."""


class Pg:
    name = "PostgreSQL"

    def __init__(self, dbname):
        import psycopg
        self.con = psycopg.connect(dbname=dbname, autocommit=True,
                                   options="-c TimeZone=UTC -c maintenance_work_mem=1GB -c work_mem=64MB")
        self.version = self.rows("SHOW server_version")[0][0]

    def execute(self, sql):
        self.con.execute(sql)

    def rows(self, sql):
        return self.con.execute(sql).fetchall()

    def schema(self):
        return plain_sql_file("pg_schema.sql")

    def copy(self, table, path):
        with self.con.cursor() as cur, open(path, "rb") as f:
            with cur.copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, NULL '\\N')") as cp:
                while chunk := f.read(1 << 20):
                    cp.write(chunk)

    def roles_sql(self):
        return ("CREATE TABLE person_roles AS SELECT DISTINCT id AS person_id, unnest(roles) AS role "
                "FROM people WHERE roles IS NOT NULL")

    def indexes(self):
        return plain_sql_file("pg_indexes.sql")

    def derived_indexes(self):
        return sql_file("peers_indexes.sql")

    def analyze(self):
        self.con.execute("VACUUM ANALYZE")

    def refresh_stats(self):
        """Statistics for the tables just written, before the next derived
        table is planned: at M, `company_x` planned right after the COPY
        (before autovacuum had analyzed anything) was still running after
        18 minutes on both cores."""
        self.con.execute("ANALYZE")


# ---------------------------------------------------------------- load


def timed(label, fn, report):
    t0 = time.perf_counter()
    fn()
    report.append((label, time.perf_counter() - t0))


def load(engine, csv_dir):
    """Schema, COPY, the engine's indexes, derived tables; returns [(step, seconds)]."""
    report = []
    for s in engine.schema():
        engine.execute(s)
    timed("COPY", lambda: [engine.copy(t, os.path.join(csv_dir, t + ".csv")) for t in CSV_TABLES], report)
    timed("dump indexes", lambda: [engine.execute(s) for s in engine.indexes()], report)

    def derive():
        engine.refresh_stats()
        for s in sql_file("peers_derived.sql") + [engine.roles_sql()]:
            engine.execute(s)
            engine.refresh_stats()
        for s in getattr(engine, "derived_indexes", list)():
            engine.execute(s)
        engine.analyze()
    timed("derived tables + indexes + analyze", derive, report)
    return report


def engines(args):
    """The engines named by --engines (default both), connected."""
    names = opt(args, "--engines", "duckdb,postgresql").split(",")
    unknown = set(names) - {"duckdb", "postgresql"}
    if unknown:
        sys.exit(f"peers.py: unknown engines {sorted(unknown)}")
    return ([Duck(opt(args, "--duckdb"))] if "duckdb" in names else []) + (
        [Pg(opt(args, "--pg"))] if "postgresql" in names else [])


def cmd_load(args):
    csv_dir = opt(args, "--csv")
    for engine in engines(args):
        report = load(engine, csv_dir)
        total = sum(s for _, s in report)
        steps = ", ".join(f"{label} {s:.1f} s" for label, s in report)
        print(f"load {engine.name} {engine.version}: {total:.1f} s ({steps})", flush=True)
    return 0


# ---------------------------------------------------------------- run


def answer(engine, sqls):
    count_sql, page_sql = sqls
    t0 = time.perf_counter()
    total = engine.rows(count_sql)[0][0]
    page = [str(r[0]) for r in engine.rows(page_sql)]
    return (time.perf_counter() - t0) * 1e6, total, page


def replay(engine, lines, sqls, rounds):
    """Warm-up pass (answers kept), then `rounds` timed passes: (answers, times[round][i])."""
    answers = [answer(engine, s)[1:] for s in sqls]
    times = [[answer(engine, s)[0] for s in sqls] for _ in range(rounds)]
    return answers, times


def mismatches(lines, answers, engine_name, shown=3):
    bad = []
    for line, (total, page) in zip(lines, answers):
        if total != line["total_count"] or page != line["page"]:
            bad.append(line)
            if len([b for b in bad if b["class"] == line["class"]]) <= shown:
                what = "total_count" if total != line["total_count"] else "page"
                print(f"MISMATCH {engine_name} {line['class']} ({what}): ours {line['total_count']} "
                      f"{line['page'][:5]}, theirs {total} {page[:5]}\n  request {json.dumps(line['request'])}")
    return bad


def percentile(sorted_samples, p):
    rank = min(max(math.ceil(p * len(sorted_samples)), 1), len(sorted_samples))
    return sorted_samples[rank - 1]


def summary(per_round):
    """Median over rounds of each round's nearest-rank p50 / p99."""
    p50s, p99s = [], []
    for samples in per_round:
        s = sorted(samples)
        p50s.append(percentile(s, 0.50))
        p99s.append(percentile(s, 0.99))
    med = lambda v: sorted(v)[len(v) // 2]
    return med(p50s), med(p99s)


def fmt(us):
    return f"{us:.0f} µs" if us < 1000 else f"{us / 1000:.2f} ms"


def class_rows(lines, results):
    """Per class: ours and each engine's (p50, p99, mismatches)."""
    classes = list(dict.fromkeys(line["class"] for line in lines))
    table = []
    for cls in classes:
        idx = [i for i, line in enumerate(lines) if line["class"] == cls]
        rounds = len(lines[idx[0]]["engine_us"])
        ours = summary([[lines[i]["engine_us"][r] for i in idx] for r in range(rounds)])
        peers = {}
        for name, (answers, times, bad) in results.items():
            peers[name] = summary([[t[i] for i in idx] for t in times]) + (
                sum(1 for b in bad if b["class"] == cls),)
        table.append((cls, len(idx), ours, peers))
    return table


def print_table(table, names):
    head = f"{'class':<20} {'n':>5} {'ours p50':>10} {'ours p99':>10}"
    for name in names:
        head += f" | {name + ' p50':>16} {'p99':>10} {'bad':>4} {'x p50':>7} {'x p99':>7}"
    print(head)
    for cls, n, (o50, o99), peers in table:
        row = f"{cls:<20} {n:>5} {fmt(o50):>10} {fmt(o99):>10}"
        for name in names:
            p50, p99, bad = peers[name]
            row += f" | {fmt(p50):>16} {fmt(p99):>10} {bad:>4} {p50 / o50:>6.0f}x {p99 / o99:>6.0f}x"
        print(row)


def client_floor(engine, n=200):
    """Median client time of `SELECT 1` (driver and round-trip overhead), µs."""
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        engine.rows("SELECT 1")
        times.append((time.perf_counter() - t0) * 1e6)
    return sorted(times)[n // 2]


def cmd_run(args):
    path, rounds = args[0], int(opt(args, "--rounds", "3"))
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    sqls = [translate(line["request"]) for line in lines]
    results = {}
    for engine in engines(args):
        t0 = time.perf_counter()
        answers, times = replay(engine, lines, sqls, rounds)
        bad = mismatches(lines, answers, engine.name)
        results[f"{engine.name}"] = (answers, times, bad)
        print(f"{engine.name} {engine.version}: {len(lines)} requests x (1 warm-up + {rounds} rounds) "
              f"in {time.perf_counter() - t0:.0f} s; {len(bad)} mismatches; client floor (SELECT 1) "
              f"{fmt(client_floor(engine))}", flush=True)
    print(f"\nper class: p50 / p99 of each round (nearest rank), median over {rounds} rounds; ours = the "
          f"search call in process (engine only); peers = count + page statements from a Python client; "
          f"x = peer / ours")
    print_table(class_rows(lines, results), list(results))
    return 1 if any(bad for _, _, bad in results.values()) else 0


def opt(args, name, default=None):
    if name in args:
        return args[args.index(name) + 1]
    if default is None:
        sys.exit(f"peers.py: {name} is required")
    return default


def main(argv):
    if not argv or argv[0] not in ("load", "run"):
        print(__doc__, file=sys.stderr)
        return 2
    return cmd_load(argv[1:]) if argv[0] == "load" else cmd_run(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
