#!/usr/bin/env python3
"""Opens webpolicy's HTML reports in a real browser (Debian's chromium, headless, through
Selenium) and checks what a reviewer gets:

    python3 ci/checks/html_reports.py [--screenshots DIR] PAGE.html...

For each page:
- nothing is requested from outside: no `src`, `<link>`, `url(` or `@import` (links to the
  rules' documentation are `<a href>`, followed only when clicked), and the browser loads no
  resource but the page itself;
- the browser logs no script error;
- the counts the page shows by severity are the counts in its JSON data
  (`#webpolicy-data`), and the findings shown are the data's, one for one (a folded finding,
  the same one in several files, counts for the places it lists: its `data-count`);
- the filters work: choosing a severity shows exactly the findings of that severity, and the
  text search narrows them and says how many are shown;
- axe-core (axe-selenium-python) finds no serious or critical accessibility violation;
- with --screenshots, a full-page PNG of each page goes to DIR (docs/images holds them).
Exits 1 naming what is wrong."""
import argparse
import json
import pathlib
import re
import sys

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,1000"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def shown_count(driver):
    text = driver.find_element(By.ID, "filter-shown").text
    match = re.match(r"Showing (\d+) of (\d+)", text)
    return (int(match[1]), int(match[2])) if match else (None, None)


def weight(item):
    """How many findings an item stands for: a folded one lists several places."""
    return int(item.get_attribute("data-count") or 1)


def check_page(driver, page, screenshots):
    name = page.name
    source = page.read_text(encoding="utf-8")
    # The markup outside the data and the findings' text: tags and styles.
    tags = " ".join(re.findall(r"<[a-zA-Z][^>]*>", source)) + " ".join(re.findall(r"<style>(.*?)</style>", source, re.DOTALL))
    for pattern in [r"\ssrc\s*=", r"<link\b", r"url\(", r"@import", r"<base\b", r"\b(form)?action\s*=", r"http-equiv",
                    r"<(iframe|img|object|embed|video|audio)\b"]:
        check(not re.search(pattern, tags, re.IGNORECASE), f"{name}: the page would fetch something ({pattern})")
    # An href is only a link a reader clicks, inside the page or to the rules' documentation.
    for tag in re.findall(r"<[a-zA-Z]+\b[^>]*\bhref\s*=[^>]*>", source):
        target = re.search(r'href="([^"]*)"', tag)
        inside = target and target[1].startswith("#")
        documentation = target and target[1].startswith("https://github.com/webpolicy/webpolicy/blob/") and "/docs/rules.md#" in target[1]
        check(tag.startswith("<a ") and (inside or documentation), f"{name}: {tag} leads outside the page")
    driver.get(page.resolve().as_uri())
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(function (r) { return r.name; })")
    check(resources == [], f"{name}: the browser loaded {resources}")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"{name}: script errors: {errors}")

    data = json.loads(driver.find_element(By.ID, "webpolicy-data").get_attribute("textContent"))
    items = driver.find_elements(By.CSS_SELECTOR, "#items .item")
    if "diagnostics" in data:  # lint, audit
        diagnostics = data["diagnostics"]
        for severity in ["error", "warning", "info"]:
            cell = driver.find_element(By.CSS_SELECTOR, f'#severity-counts td[data-severity="{severity}"]')
            expected = sum(1 for d in diagnostics if d["severity"] == severity)
            check(int(cell.text) == expected, f"{name}: the page shows {cell.text} {severity}s, the data has {expected}")
        check(sum(weight(i) for i in items) == len(diagnostics), f"{name}: {sum(weight(i) for i in items)} findings shown, the data has {len(diagnostics)}")
        shown_rules = sorted(rule for i in items for rule in [i.get_attribute("data-rule")] * weight(i))
        check(shown_rules == sorted(d["rule"] for d in diagnostics), f"{name}: the findings shown are not the data's")
        # Errors first, then warnings, then infos.
        order = {"error": 0, "warning": 1, "info": 2}
        ranks = [order[i.get_attribute("data-kind")] for i in items]
        check(ranks == sorted(ranks), f"{name}: the findings are not ordered by severity")
        kinds = {}
        for d in diagnostics:
            kinds[d["severity"]] = kinds.get(d["severity"], 0) + 1
        needle = diagnostics[0]["rule"] if diagnostics else None
    elif "explanation" in data:  # explain: no list to filter
        check(driver.find_element(By.CSS_SELECTOR, ".verdict").text.lower().startswith(data["verdict"]), f"{name}: the verdict shown is not the data's")
        kinds, needle = {}, None
    elif "groups" in data:  # diff with traces
        for outcome in ["changed", "unchanged"]:
            cell = driver.find_element(By.CSS_SELECTOR, f'#diff-counts td[data-count="{outcome}"]')
            check(int(cell.text) == data[outcome], f"{name}: the page shows {cell.text} {outcome}, the data has {data[outcome]}")
        kinds = {}
        for group in data["groups"]:
            kinds[group["change"]] = kinds.get(group["change"], 0) + len(group["requests"])
        check(len(items) == sum(kinds.values()), f"{name}: {len(items)} requests shown, the data lists {sum(kinds.values())}")
        needle = data["groups"][0]["requests"][0]["url"] if data["groups"] else None
    elif "differences" in data:  # diff of the policies alone
        for action in ["added", "removed", "changed"]:
            cell = driver.find_element(By.CSS_SELECTOR, f'#difference-counts td[data-count="{action}"]')
            check(int(cell.text) == data[action], f"{name}: the page shows {cell.text} {action}, the data has {data[action]}")
        kinds = {}
        for difference in data["differences"]:
            kinds[difference["action"]] = kinds.get(difference["action"], 0) + 1
        check(len(items) == len(data["differences"]), f"{name}: {len(items)} differences shown, the data has {len(data['differences'])}")
        needle = data["differences"][0]["name"] if data["differences"] else None
    else:  # simulate
        summary = data["summary"]
        for outcome in ["passed", "failed", "unchecked"]:
            cell = driver.find_element(By.CSS_SELECTOR, f'#outcome-counts td[data-outcome="{outcome}"]')
            check(int(cell.text) == summary[outcome], f"{name}: the page shows {cell.text} {outcome}, the data has {summary[outcome]}")
        for verdict, count in summary["verdicts"].items():
            cell = driver.find_element(By.CSS_SELECTOR, f'#verdict-counts td[data-verdict="{verdict}"]')
            check(int(cell.text) == count, f"{name}: the page shows {cell.text} {verdict}, the data has {count}")
        check(len(items) == data["shown"], f"{name}: {len(items)} requests shown, the data says {data['shown']}")
        kinds = {}
        for item in items:
            kinds[item.get_attribute("data-kind")] = kinds.get(item.get_attribute("data-kind"), 0) + 1
        if data["shown"] == summary["requests"]:
            check(kinds == {k: v for k, v in summary["verdicts"].items() if v}, f"{name}: the rows' verdicts {kinds} are not the data's")
        needle = items[0].find_elements(By.TAG_NAME, "td")[1].text.split(" ")[-1] if items else None

    if items:
        select = Select(driver.find_element(By.ID, "filter-kind"))
        for kind, expected in sorted(kinds.items()):
            select.select_by_value(kind)
            visible = [i for i in items if i.is_displayed()]
            check(sum(weight(i) for i in visible) == expected and all(i.get_attribute("data-kind") == kind for i in visible),
                  f"{name}: filtering on {kind} shows {sum(weight(i) for i in visible)}, {expected} expected")
            total = sum(weight(i) for i in items)
            check(shown_count(driver) == (expected, total), f"{name}: the count after filtering on {kind} reads {shown_count(driver)}")
        select.select_by_value("")
        search = driver.find_element(By.ID, "filter-text")
        search.send_keys(needle)
        visible = [i for i in items if i.is_displayed()]
        check(0 < len(visible) <= len(items) and all(needle.lower() in i.text.lower() for i in visible), f"{name}: searching '{needle}' shows {len(visible)}")
        search.clear()
        search.send_keys("no finding says this 9f8e7d")
        check(shown_count(driver)[0] == 0 and not [i for i in items if i.is_displayed()], f"{name}: a search matching nothing still shows findings")
        search.clear()
        driver.execute_script("document.getElementById('filter-text').dispatchEvent(new Event('input'))")

    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    check(not serious, f"{name}: accessibility violations: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']}" for v in serious))

    if screenshots:
        # The first screen, as a reviewer opening the page sees it.
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(pathlib.Path(screenshots) / (page.stem + ".png")))
        # And the coverage picture, where the page has one.
        sections = driver.find_elements(By.CSS_SELECTOR, "section[aria-labelledby='coverage']")
        if sections:
            sections[0].screenshot(str(pathlib.Path(screenshots) / (page.stem + "-coverage.png")))
    print(f"{name}: {len(items)} items; counts, filters and accessibility checked in chromium")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--screenshots")
    arguments = parser.parse_args()
    if arguments.screenshots:
        pathlib.Path(arguments.screenshots).mkdir(parents=True, exist_ok=True)
    driver = browser()
    try:
        for page in arguments.pages:
            check_page(driver, pathlib.Path(page), arguments.screenshots)
    finally:
        driver.quit()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
