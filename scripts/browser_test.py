"""End-to-end test of the pages in a real browser (headless Chromium through
Playwright), against a running server. Run by scripts/browser-test.sh:

    python browser_test.py BASE_URL API_KEY CHROMIUM_PATH

The explorer (/): every control of every operation's form has a label;
enter the key, pick the company search, add a location filter through the
lookup autocomplete (by keyboard), set the page size, run, and check
the table (ids and names in order), the total count and the credits used
against the API's own answer for the same request (fetched here with
urllib); page forward and back and check again; check the curl command's
body; check an API error is shown from its envelope; check the key
survives a reload (session storage). The reference (/docs): every
operation of /openapi.json has its article. Any request the pages make to
another origin fails the test.
"""

import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from playwright.sync_api import expect, sync_playwright

BASE, KEY, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]
# Flags that keep Chromium off the (closed) network and quiet.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SEARCH = "searchCompanyCollection"
LOCATION_TEXT = "United States"
PAGE_SIZE = 5
foreign = []


def say(message):
    print(f"browser: {message}", flush=True)


def api(method, path, body=None):
    """The API's own answer, with the same key."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply)
    except urllib.error.HTTPError as error:
        return json.load(error)


def the_location():
    """The permalink the autocomplete should offer first for LOCATION_TEXT."""
    found = api("GET", "/v1/location/search?" + urllib.parse.urlencode({"name": LOCATION_TEXT}))
    first = found["data"]["locations"][0]
    assert first["name"] == LOCATION_TEXT, found
    return first["permalink"]


def guard(route):
    """Lets requests to the server through; fails any other."""
    if route.request.url.startswith(BASE + "/"):
        route.continue_()
    else:
        foreign.append(route.request.url)
        route.abort()


def table(page):
    """The result table as (ids, names), and the meta block's figures."""
    ids = page.locator("#results tbody td[data-col=id]").all_inner_texts()
    names = page.locator("#results tbody td[data-col=name]").all_inner_texts()
    meta = {
        key: page.locator(f"#meta [data-key={key}] dd").inner_text()
        for key in ("total_count", "page", "page_size", "credits_used")
    }
    return ids, names, meta


def check_page(page, body, number):
    """The table and meta shown equal the API's answer for `body`."""
    expect(page.locator("#status")).to_contain_text("OK")
    expect(page.locator("#page-info")).to_contain_text(f"Page {number + 1} of")
    expected = api("POST", "/v1/companies", body)
    assert expected["success"], expected
    rows = expected["data"]["companies"]
    ids, names, meta = table(page)
    assert ids == [r["id"] for r in rows], (ids, rows)
    assert names == [r["name"] for r in rows], (names, rows)
    want = {k: str(expected["meta"][k]) for k in meta}
    assert meta == want, (meta, want)
    assert int(meta["credits_used"]) == len(rows), meta
    say(f"page {number + 1}: {len(ids)} rows, total_count {meta['total_count']}, "
        f"credits_used {meta['credits_used']}: equal to the API's answer")
    return int(meta["total_count"])


def curl_body(page):
    text = page.locator("#curl").inner_text()
    assert "Authorization: Bearer $FUNDSEARCH_KEY" in text and f"{BASE}/v1/companies" in text, text
    quoted = re.search(r"-d '(.*)'", text, re.S).group(1)
    return json.loads(quoted.replace("'\\''", "'"))


def add_location(page, permalink):
    """Types into the locations autocomplete and picks the suggestion."""
    company = page.locator("details.group", has=page.locator("summary", has_text=re.compile(r"^company$")))
    company.locator("summary").first.click()
    box = company.get_by_role("combobox", name=re.compile(r"^locations"))
    box.press_sequentially(LOCATION_TEXT[:10], delay=30)
    option = company.locator(f"[role=option][data-value='{permalink}']")
    expect(option).to_be_visible()
    # by keyboard: down to the suggestion, Enter
    for _ in range(company.get_by_role("option").count()):
        box.press("ArrowDown")
        if option.get_attribute("aria-selected") == "true":
            break
    expect(box).to_have_attribute("aria-activedescendant", option.get_attribute("id"))
    box.press("Enter")
    expect(company.locator(f".chips li[data-value='{permalink}']")).to_be_visible()
    expect(box).to_have_attribute("aria-expanded", "false")


UNLABELLED = """() => [...document.querySelectorAll("input, select, button")]
    .filter((e) => e.tagName === "BUTTON" ? !e.textContent.trim() && !e.getAttribute("aria-label")
                                          : !e.labels.length && !e.getAttribute("aria-label"))
    .map((e) => e.id || e.outerHTML)"""


def labels(page):
    """Every control of every operation's form has a label."""
    operations = page.locator("#endpoint option").evaluate_all("(os) => os.map((o) => o.value)")
    for operation in operations:
        page.get_by_label("Endpoint", exact=True).select_option(operation)
        for add in page.get_by_role("button", name=re.compile(r"^Add .* item$")).all():
            add.click()
        assert page.evaluate(UNLABELLED) == [], (operation, page.evaluate(UNLABELLED))
    say(f"every control of the {len(operations)} operations' forms has a label")


def explorer(page):
    permalink = the_location()
    page.goto(BASE + "/")
    expect(page.locator(f"#endpoint option[value={SEARCH}]")).to_have_count(1)
    labels(page)
    page.get_by_label("API key", exact=True).fill(KEY)
    page.get_by_label("Endpoint", exact=True).select_option(SEARCH)
    add_location(page, permalink)
    page.get_by_label("page_size", exact=True).fill(str(PAGE_SIZE))
    page.get_by_role("button", name="Run request").click()
    body = {"company": {"locations": [permalink]}, "page_size": PAGE_SIZE}
    total = check_page(page, body, 0)
    assert total > 2 * PAGE_SIZE, f"{permalink} has {total} companies: too few to page"
    assert curl_body(page) == body
    page.get_by_role("button", name="Next page").click()
    check_page(page, dict(body, page=1), 1)
    assert curl_body(page) == dict(body, page=1)
    page.get_by_role("button", name="Previous page").click()
    check_page(page, dict(body, page=0), 0)
    expect(page.get_by_role("button", name="Previous page")).to_be_disabled()
    errors(page)
    page.reload()
    expect(page.get_by_label("API key", exact=True)).to_have_value(KEY)
    expect(page.get_by_label("Endpoint", exact=True)).to_have_value(SEARCH)
    say("the key and the endpoint survive a reload")


def errors(page):
    """An API error is shown from its envelope."""
    page.get_by_label("page_size", exact=True).fill("0")
    page.get_by_role("button", name="Run request").click()
    expected = api("POST", "/v1/companies", {"page_size": 0})
    code = expected["error"]["code"]
    expect(page.locator("#status")).to_contain_text(f"Error 400 {code}")
    expect(page.locator("#error")).to_contain_text(expected["error"]["message"])
    expect(page.locator("#results")).to_be_hidden()
    say(f"an invalid page_size shows the API's error: 400 {code}")


def docs(page):
    """/docs has one article per operation of the served document."""
    document = json.load(urllib.request.urlopen(BASE + "/openapi.json", timeout=30))
    wanted = sorted(
        f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item
    )
    page.goto(BASE + "/docs")
    headings = page.locator("main article h3").all_inner_texts()
    shown = sorted(" ".join(h.split()) for h in headings)
    assert shown == wanted, (shown, wanted)
    expect(page.locator("nav[aria-label=Contents] a[href^='#op-']")).to_have_count(len(wanted))
    say(f"/docs lists all {len(wanted)} operations of /openapi.json")


def main():
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_default_timeout(15000)
        page.route("**/*", guard)
        console = []
        # the 400 of the error check is logged as a failed resource: expected
        page.on("console", lambda m: console.append(m.text)
                if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
        page.on("pageerror", lambda e: console.append(str(e)))
        explorer(page)
        docs(page)
        browser.close()
    assert not foreign, f"requests to other origins: {foreign}"
    assert not console, f"errors in the page: {console}"
    say(f"passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
