#!/usr/bin/env python3
"""Canonical dump (JSONL) -> one CSV file per normalised PostgreSQL table.

Usage: pg_csv.py DUMP_DIR OUT_DIR [--jobs=N]

Tables and column order match scripts/bench/pg_schema.sql. NULL is written
as \\N (load with COPY ... (FORMAT csv, NULL '\\N')), booleans as t/f,
text arrays as PostgreSQL array literals. Nested dump rows become child
tables: company_industries, industry_super, employment, education,
deal_firms, deal_partners, deal_angels, financings, articles. Every field
of the dump is kept (descriptions included), so the database holds the same
data as the index. Files are converted in parallel (one process per file).
"""

import csv
import os
import subprocess
import sys
from contextlib import contextmanager
from multiprocessing import Pool

try:
    import orjson as _json

    loads = _json.loads
except ImportError:  # the standard library is fast enough, only slower
    import json as _json

    loads = _json.loads

NULL = "\\N"


def v(x):
    """A CSV cell: None -> \\N, bool -> t/f, everything else as is."""
    if x is None:
        return NULL
    if x is True:
        return "t"
    if x is False:
        return "f"
    return x


def arr(items):
    """A text[] literal; items are simple enum words (no quoting needed)."""
    return "{" + ",".join(items) + "}" if items else NULL


def place(row):
    loc = row.get("location") or {}
    return [v(loc.get(k)) for k in ("city", "state", "region", "country")]


def locations(r, w):
    w["locations"].writerow([r["permalink"], r["name"], r["type"], v(r.get("parent"))])


def industries(r, w):
    w["industries"].writerow([r["permalink"], r["name"], r["type"]])
    for s in r.get("super_categories", []):
        w["industry_super"].writerow([r["permalink"], s])


COMPANY = ["legal_name", "domain", "short_description", "long_description", "num_employees", "ipo_status",
           "founded_on", "linkedin", "twitter", "facebook", "pitchbook", "crunchbase", "address"]


def companies(r, w):
    w["companies"].writerow([r["id"], r["name"], r["permalink"]] + [v(r.get(k)) for k in COMPANY] + place(r))
    for i in r.get("industries", []):
        w["company_industries"].writerow([r["id"], i])


FIRM = ["legal_name", "description", "domain", "website", "linkedin", "pitchbook", "crunchbase", "image",
        "num_employees", "investment_stage", "contact_email", "contact_phone"]


def firms(r, w):
    w["firms"].writerow([r["id"], r["name"], r["permalink"]] + [v(r.get(k)) for k in FIRM] + place(r))


PERSON = ["title", "linkedin_url", "crunchbase_url", "twitter_url", "location", "city", "country_code", "about"]
EMPLOYMENT = ["title", "company_id", "company_name", "company_url", "linkedin_company_id", "location",
              "description", "start_date", "end_date", "is_current"]
EDUCATION = ["school_name", "school_id", "school_url", "degree", "field_of_study", "start_date", "end_date",
             "description"]


def people(r, w):
    w["people"].writerow([r["id"], r["name"]] + [v(r.get(k)) for k in PERSON]
                         + [arr(r.get("roles", [])), v(r.get("email")), v(r.get("phone"))])
    for n, e in enumerate(r.get("employment", [])):
        w["employment"].writerow([r["id"], n] + [v(e.get(k, False if k == "is_current" else None)) for k in EMPLOYMENT])
    for n, e in enumerate(r.get("education", [])):
        w["education"].writerow([r["id"], n] + [v(e.get(k)) for k in EDUCATION])


DEAL = ["intermediate", "date", "created_at", "total_round_raised", "short_description", "long_description"]


def deals(r, w):
    val = r.get("valuation") or {}
    w["deals"].writerow([r["id"], r["company_id"], r["round_type"], v(r.get("pre", False)), v(r.get("extension", False))]
                        + [v(r.get(k)) for k in DEAL]
                        + [v(val.get("type")), v(val.get("currency")), v(val.get("usd")), v(val.get("native"))])
    for f in r.get("investors", []):
        w["deal_firms"].writerow([r["id"], f["firm_id"], v(f.get("lead", False)), v(f.get("financing_type"))])
        for p in f.get("partner_ids", []):
            w["deal_partners"].writerow([r["id"], f["firm_id"], p])
    for a in r.get("angels", []):
        w["deal_angels"].writerow([r["id"], a["person_id"], v(a.get("financing_type"))])
    for f in r.get("financings", []):
        w["financings"].writerow([f["id"], r["id"], f["type"], v(f.get("size_usd")), v(f.get("size_native")),
                                  v(f.get("currency"))])
    for n, a in enumerate(r.get("articles", [])):
        w["articles"].writerow([r["id"], n, v(a.get("link")), v(a.get("date")), v(a.get("is_primary", False))])


# dump file -> (converter, tables it writes)
FILES = {
    "locations.jsonl": (locations, ["locations"]),
    "industries.jsonl": (industries, ["industries", "industry_super"]),
    "companies.jsonl": (companies, ["companies", "company_industries"]),
    "investors.jsonl": (firms, ["firms"]),
    "people.jsonl": (people, ["people", "employment", "education"]),
    "deals.jsonl": (deals, ["deals", "deal_firms", "deal_partners", "deal_angels", "financings", "articles"]),
}


def convert(job):
    dump, out, name = job
    fn, tables = FILES[name]
    handles = {t: open(os.path.join(out, t + ".csv"), "w", newline="", encoding="utf-8") for t in tables}
    writers = {t: csv.writer(h, lineterminator="\n") for t, h in handles.items()}
    rows = 0
    with dump_lines(dump, name) as src:
        for line in src:
            if line.strip():
                fn(loads(line), writers)
                rows += 1
    for h in handles.values():
        h.close()
    return name, rows


def dump_file(dump, name):
    """The path of dump file `name`: plain, else compressed (`.zst`)."""
    plain = os.path.join(dump, name)
    if os.path.exists(plain) or not os.path.exists(plain + ".zst"):
        return plain
    return plain + ".zst"


@contextmanager
def dump_lines(dump, name):
    """The lines of dump file `name`, decompressed by `zstd -dc` if need be."""
    path = dump_file(dump, name)
    if not path.endswith(".zst"):
        with open(path, "rb") as src:
            yield src
        return
    try:
        proc = subprocess.Popen(["zstd", "-dcq", path], stdout=subprocess.PIPE)
    except FileNotFoundError:
        raise SystemExit(f"{path}: reading a compressed dump needs the zstd tool (apt-get install zstd)")
    try:
        yield proc.stdout
    finally:
        proc.stdout.close()
        if proc.wait() != 0:
            raise RuntimeError(f"zstd -dc {path} failed with status {proc.returncode}")


def main(argv):
    args = [a for a in argv if not a.startswith("--jobs")]
    jobs = 2
    for a in argv:
        if a.startswith("--jobs="):
            jobs = int(a.split("=", 1)[1])
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    dump, out = args
    os.makedirs(out, exist_ok=True)
    # largest files first so the pool finishes together
    names = sorted(FILES, key=lambda n: -os.path.getsize(dump_file(dump, n)))
    with Pool(jobs) as pool:
        for name, rows in pool.imap_unordered(convert, [(dump, out, n) for n in names]):
            print(f"  {name}: {rows} rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
