#!/usr/bin/env python3
"""End-to-end test of the playground page in headless Chromium (Debian's chromium and
chromium-driver, PyPI's selenium), run by PlaygroundBrowserTests.swift.

usage: browser_test.py URL SCREENSHOT.png TOUCH_WORD MOUSE_WORD

Types "said Lord" into the text box and waits for "Henry" in the suggestion bar; draws a swipe
over the on-screen keyboard with synthesized touch pointer events through the keys of TOUCH_WORD
and waits for it among the candidates; the same with mouse pointer events for MOUSE_WORD; saves
a screenshot. Prints one JSON object (what was seen, the page load time from the Navigation
Timing API) and exits 0 when everything was seen, 1 otherwise, 2 when the browser cannot start.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def key_centres(driver):
    """Viewport coordinates of each key's centre, read from the drawn keyboard."""
    return driver.execute_script("""
        const out = {};
        for (const g of document.querySelectorAll('#keyboard g[data-key]')) {
            const r = g.querySelector('rect').getBoundingClientRect();
            out[g.dataset.key] = [r.left + r.width / 2, r.top + r.height / 2];
        }
        return out;""")


def swipe(driver, word, kind):
    """Draws `word` over the keys with one pointer of `kind` (touch or mouse), 8 moves a letter."""
    driver.execute_script("document.getElementById('keyboard').scrollIntoView({block: 'center'});")
    keys = key_centres(driver)
    centres = [keys[c] for c in word]
    pointer = PointerInput(interaction.POINTER_TOUCH if kind == "touch" else interaction.POINTER_MOUSE, kind)
    actions = ActionBuilder(driver, mouse=pointer, duration=15)
    moves = actions.pointer_action
    moves.move_to_location(round(centres[0][0]), round(centres[0][1]))
    moves.pointer_down()
    for (ax, ay), (bx, by) in zip(centres, centres[1:]):
        for i in range(1, 9):
            t = i / 8
            moves.move_to_location(round(ax + (bx - ax) * t), round(ay + (by - ay) * t))
    moves.pointer_up()
    actions.perform()


def load(driver, navigate):
    """Navigates (get or refresh), waits for the keyboard and the load event; the Navigation
    Timing figures in milliseconds: start to load event, and the document's request to response end."""
    navigate()
    wait = WebDriverWait(driver, 15)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#keyboard g[data-key]"))
    wait.until(lambda d: d.execute_script("const n = performance.getEntriesByType('navigation')[0]; return n && n.loadEventEnd > 0;"))
    return driver.execute_script(
        "const n = performance.getEntriesByType('navigation')[0]; return [n.loadEventEnd - n.startTime, n.responseEnd - n.requestStart];")


def main():
    url, screenshot, touch_word, mouse_word = sys.argv[1:5]
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,1200", "--no-first-run", "--disable-extensions"]:
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except WebDriverException as error:
        print(json.dumps({"error": f"chromium did not start: {error.msg}"}))
        return 2
    result = {"ok": False}
    try:
        # The page re-renders the bar and the candidates as answers arrive: an element found a
        # moment ago may be gone (stale). Waits retry on that; lists are read in one script.
        wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])

        def words(selector):
            return driver.execute_script(
                "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.getAttribute('data-word'));", selector)

        result["loadMs"], result["documentMs"] = load(driver, lambda: driver.get(url))
        # A second load with the browser warm (what a person reloading sees; the first includes
        # starting the renderer).
        result["reloadMs"], result["reloadDocumentMs"] = load(driver, driver.refresh)
        # Every resource came from this server (no CDN).
        result["foreignResources"] = driver.execute_script(
            "return performance.getEntriesByType('resource').map(r => r.name).filter(n => !n.startsWith(location.origin));")

        box = driver.find_element(By.ID, "text")
        box.send_keys("said Lord")
        bar = "#panes .pane:first-child .bar button"
        try:
            wait.until(lambda d: "Henry" in words(bar))
        except TimeoutException:
            pass
        result["bar"] = words(bar)
        result["henry"] = "Henry" in result["bar"]

        # Tap "Henry": the text takes it.
        if result["henry"]:
            for attempt in range(5):
                try:
                    driver.find_element(By.CSS_SELECTOR, bar + '[data-word="Henry"]').click()
                    break
                except StaleElementReferenceException:
                    if attempt == 4:
                        raise
            wait.until(lambda d: d.find_element(By.ID, "text").get_attribute("value").startswith("said Lord Henry"))
        result["textAfterTap"] = box.get_attribute("value")

        candidates = "#panes .pane:first-child .candidates li[data-word]"
        for kind, word in [("touch", touch_word), ("mouse", mouse_word)]:
            driver.execute_script("document.querySelectorAll('.candidates').forEach(c => c.replaceChildren());")
            swipe(driver, word, kind)
            try:
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, candidates))
            except TimeoutException:
                pass
            seen = words(candidates)
            result[f"{kind}Candidates"] = seen
            result[f"{kind}Found"] = word in seen
        result["traceDrawn"] = len(driver.find_element(By.CSS_SELECTOR, "#keyboard .trace").get_attribute("points").split()) >= 2
        result["text"] = box.get_attribute("value")
        driver.execute_script("window.scrollTo(0, 0);")
        time.sleep(0.2)
        driver.save_screenshot(screenshot)
        result["screenshot"] = screenshot
        result["ok"] = result["henry"] and result["touchFound"] and result["mouseFound"] and result["traceDrawn"] \
            and not result["foreignResources"]
    finally:
        driver.quit()
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
