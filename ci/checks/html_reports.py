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
  (`#webpolicy-data`), and the findings shown are the data's, one for one;
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


def check_page(driver, page, screenshots):
    name = page.name
    source = page.read_text(encoding="utf-8")
    # The markup outside the data and the findings' text: tags and styles.
    tags = " ".join(re.findall(r"<[a-zA-Z][^>]*>", source)) + " ".join(re.findall(r"<style>(.*?)</style>", source, re.DOTALL))
    for pattern in [r"\ssrc\s*=", r"<link\b", r"url\(", r"@import", r"<iframe\b", r"<img\b", r"<object\b", r"<embed\b"]:
        check(not re.search(pattern, tags, re.IGNORECASE), f"{name}: the page would fetch something ({pattern})")
    driver.get(page.resolve().as_uri())
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(function (r) { return r.name; })")
    check(resources == [], f"{name}: the browser loaded {resources}")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, f"{name}: script errors: {errors}")

    data = json.loads(driver.find_element(By.ID, "webpolicy-data").get_attribute("textContent"))
    diagnostics = data["diagnostics"]
    for severity in ["error", "warning", "info"]:
        cell = driver.find_element(By.CSS_SELECTOR, f'#severity-counts td[data-severity="{severity}"]')
        expected = sum(1 for d in diagnostics if d["severity"] == severity)
        check(int(cell.text) == expected, f"{name}: the page shows {cell.text} {severity}s, the data has {expected}")
    items = driver.find_elements(By.CSS_SELECTOR, "#items .item")
    check(len(items) == len(diagnostics), f"{name}: {len(items)} findings shown, the data has {len(diagnostics)}")
    check([i.get_attribute("data-rule") for i in items] == [d["rule"] for d in diagnostics], f"{name}: the findings shown are not the data's, in order")

    if diagnostics:
        select = Select(driver.find_element(By.ID, "filter-kind"))
        for severity in sorted({d["severity"] for d in diagnostics}):
            select.select_by_value(severity)
            visible = [i for i in items if i.is_displayed()]
            expected = sum(1 for d in diagnostics if d["severity"] == severity)
            check(len(visible) == expected and all(i.get_attribute("data-kind") == severity for i in visible),
                  f"{name}: filtering on {severity} shows {len(visible)} findings, {expected} expected")
            check(shown_count(driver) == (expected, len(diagnostics)), f"{name}: the count after filtering on {severity} reads {shown_count(driver)}")
        select.select_by_value("")
        rule = diagnostics[0]["rule"]
        search = driver.find_element(By.ID, "filter-text")
        search.send_keys(rule)
        visible = [i for i in items if i.is_displayed()]
        check(0 < len(visible) <= len(diagnostics) and all(rule in i.text for i in visible), f"{name}: searching '{rule}' shows {len(visible)} findings")
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
    print(f"{name}: {len(diagnostics)} findings; counts, filters and accessibility checked in chromium")


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
