"""The HTML report in a real browser (headless Chromium): the rows, statuses, sorting, filters,
drill-down and charts it draws, on the small project and on a tree of 800 files."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.report_helpers import BUILT_BY_A_HELPER, Run, copy_project

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)

# Under pytest -n, in one worker: one Chromium serves every test here (each worker would start its own).
pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        webdriver = None
    if webdriver is None or CHROMIUM is None or CHROMEDRIVER is None:
        reason = (
            "the browser tests need selenium (the dev extra) and Chromium with its driver: "
            "apt-get install chromium chromium-driver (Debian packages)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {reason}")
        pytest.skip(reason)
    with tempfile.TemporaryDirectory() as profile:
        options = Options()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture
def page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, browser: Any) -> Any:
    """The small project's report, open in the browser."""
    monkeypatch.chdir(copy_project(tmp_path))
    out = tmp_path / "report.html"
    assert run("report", ".", "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    return browser


def rows(driver: Any) -> list[dict[str, str]]:
    """The table as drawn: each row's name, file and statuses."""
    found: list[dict[str, str]] = driver.execute_script(
        """return [...document.querySelectorAll('#rows tr')].map((tr) => ({
            name: tr.querySelector('td.name').firstChild.textContent,
            file: tr.querySelector('td.file').textContent,
            strict: tr.querySelector('td.strict .status').dataset.status,
            lax: tr.querySelector('td.lax .status').dataset.status,
            findings: tr.querySelector('td.count').textContent}))"""
    )
    return found


def test_rows_and_statuses(page: Any) -> None:
    drawn = {r["name"]: (r["strict"], r["lax"], r["findings"]) for r in rows(page)}
    assert drawn == {
        "FallsBack.construct": ("fails", "falls-back", "1"),
        "Outer.construct": ("fails", "falls-back", "1"),
        "Fails.construct": ("fails", "fails", "1"),
        "Dynamic.construct": ("warnings", "warnings", "1"),
        "Clean.construct": ("no-finding", "no-finding", "0"),
        "double": ("no-finding", "no-finding", "0"),
    }
    assert page.find_element("id", "shown").text == "6 of 6 entries"
    no_finding, compiles = page.execute_script(
        """const probe = document.createElement('span');
        probe.className = 'status compiles';
        document.body.appendChild(probe);
        const shown = document.querySelector('#rows .status.no-finding');
        return [shown, probe].map((s) => getComputedStyle(s).backgroundColor);"""
    )
    assert no_finding != compiles, "no finding is no green light"
    assert page.find_element("css selector", "#rows .status.no-finding").text == "no finding"
    lax = page.find_element("css selector", "#rows tr td.lax .status")
    assert lax.text in ("fails at 1 line", "falls back at 1 line")


def test_sorting_and_filtering(page: Any) -> None:
    from selenium.webdriver.support.ui import Select

    page.find_element("css selector", 'th[data-sort="name"]').click()
    names = [r["name"] for r in rows(page)]
    assert names == sorted(names, key=str.lower)
    page.find_element("css selector", 'th[data-sort="name"]').click()
    assert [r["name"] for r in rows(page)] == sorted(names, key=str.lower, reverse=True)
    Select(page.find_element("id", "filter-lax")).select_by_value("falls-back")
    assert sorted(r["name"] for r in rows(page)) == ["FallsBack.construct", "Outer.construct"]
    Select(page.find_element("id", "filter-lax")).select_by_value("")
    Select(page.find_element("id", "filter-rule")).select_by_value("dynamic-shape-op")
    assert [r["name"] for r in rows(page)] == ["Dynamic.construct"]
    Select(page.find_element("id", "filter-rule")).select_by_value("")
    page.find_element("css selector", 'svg [data-level="strict"][data-status="fails"]').click()
    assert sorted(r["name"] for r in rows(page)) == ["Fails.construct", "FallsBack.construct", "Outer.construct"]
    page.find_element("id", "filter-text").send_keys("helpers")
    assert rows(page) == [], "no entry is defined in helpers.py"


def test_drill_down_shows_source_findings_and_call_path(page: Any, tmp_path: Path) -> None:
    row = next(r for r in page.find_elements("css selector", "#rows tr") if r.text.startswith("Outer.construct"))
    row.click()
    detail = page.find_element("id", "detail")
    assert detail.find_element("id", "detail-name").text == "Outer.construct"
    blocks = detail.find_elements("css selector", ".function")
    assert [b.find_element("tag name", "h4").text.split()[0] for b in blocks] == ["Outer.construct", "clip"]
    assert "return self.inner(x) + 1" in blocks[0].text
    assert "return np.maximum(x, 0)" in blocks[1].text
    via = blocks[1].find_element("css selector", ".via").text
    assert (
        via
        == "called by Outer.construct (pkg/nets.py:39) → FallsBack.construct (pkg/nets.py:9) → scale (pkg/helpers.py:9)"
    )
    note = blocks[1].find_element("css selector", ".note")
    assert "MS101" in note.text and "pkg/helpers.py:5:" in note.text and "hint: " in note.text
    link = note.find_element("tag name", "a")
    assert link.text == "third-party-call-in-graph"
    assert link.get_attribute("href").endswith("/rules/third-party-call-in-graph.md")
    assert "FallsBack.construct" in detail.find_element("id", "also-reaches").text
    link_to_entry = page.current_url
    assert link_to_entry.endswith("#entry=pkg%2Fnets.py%3A%3AOuter.construct")
    page.get("about:blank")
    page.get(link_to_entry)
    assert page.find_element("id", "detail-name").text == "Outer.construct", "a link opens its entry"
    from selenium.webdriver.common.keys import Keys

    clean = next(r for r in page.find_elements("css selector", "#rows tr") if r.text.startswith("Clean.construct"))
    clean.send_keys(Keys.ENTER)
    assert page.find_element("id", "detail-name").text == "Clean.construct", "Enter on a row opens it too"
    screenshot = tmp_path / "drill-down.png"
    assert page.save_screenshot(str(screenshot)) and screenshot.stat().st_size > 10_000


def test_class_level_finding_and_findings_outside_entries(page: Any) -> None:
    row = next(r for r in page.find_elements("css selector", "#rows tr") if r.text.startswith("Fails.construct"))
    row.click()
    detail = page.find_element("id", "detail").text
    assert (
        "Building the Cells (in their classes, __init__ and what it calls)" in detail
        and "self.layers = [nn.Dense(2, 2), nn.Dense(2, 2)]" in detail
    )
    outside = page.find_element("id", "outside").text
    assert outside.startswith("Findings outside graph entries (1)") and "MS207" in outside and "init()" in outside


def test_charts_are_drawn(page: Any) -> None:
    segments = page.find_elements("css selector", "#chart-status rect.segment")
    assert {(s.get_attribute("data-level"), s.get_attribute("data-status")) for s in segments} == {
        ("strict", "no-finding"),
        ("strict", "warnings"),
        ("strict", "fails"),
        ("lax", "no-finding"),
        ("lax", "warnings"),
        ("lax", "falls-back"),
        ("lax", "fails"),
    }
    bars = page.find_elements("css selector", "#chart-rules rect.bar")
    assert len(bars) == 4 and all(b.size["width"] > 0 for b in bars)
    cut = page.execute_script(
        """return [...document.querySelectorAll('svg text')].filter((t) =>
            t.getBBox().x + t.getBBox().width > t.ownerSVGElement.viewBox.baseVal.width).map((t) => t.textContent)"""
    )
    assert cut == [], "every label fits in its chart"
    assert "2 with no finding, 1 with warnings, 2 fall back, 1 fail" in page.find_element("id", "chart-status").text


def test_a_tree_of_800_files_renders_thousands_of_rows(tmp_path: Path, run: Run, browser: Any) -> None:
    cell = textwrap.dedent(
        """
        class Block{i}(nn.Cell):  # mslint: inputs=float32[2]
            def construct(self, x):
                return {body}
        """
    )
    for n in range(800):
        folder = tmp_path / "tree" / f"part{n % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(cell.format(i=i, body="np.sum(x)" if (n + i) % 7 == 0 else "x * 2") for i in range(4))
        (folder / f"m{n}.py").write_text(f"import numpy as np\nfrom mindspore import nn\n{body}")
    out = tmp_path / "tree.html"
    code, stdout, _ = run("report", str(tmp_path / "tree"), "-o", str(out))
    assert code == 0 and "3200 graph entries in 800 files" in stdout
    started = time.perf_counter()
    browser.get(out.as_uri())
    assert browser.find_element("id", "shown").text == "3200 of 3200 entries"
    loaded = time.perf_counter() - started
    assert len(browser.find_elements("css selector", "#rows tr")) == 3200
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "filter-lax")).select_by_value("falls-back")
    falling_back = sum(1 for n in range(800) for i in range(4) if (n + i) % 7 == 0)
    assert browser.find_element("id", "shown").text == f"{falling_back} of 3200 entries"
    print(f"3200 rows loaded in {loaded:.2f} s")


def test_compare_marks_changed_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, browser: Any) -> None:
    root = copy_project(tmp_path)
    monkeypatch.chdir(root)
    old, out = tmp_path / "old.json", tmp_path / "report.html"
    assert run("report", "--format", "json", "-o", str(old), ".")[0] == 0
    helpers = root / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("np.maximum(x, 0)", "x.clip(0)"))
    (root / "pkg" / "added.py").write_text(
        "from mindspore import nn\n\n\nclass Added(nn.Cell):\n    def construct(self, x):\n        return x.asnumpy()\n"
    )
    assert run("report", ".", "--compare", str(old), "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    assert (
        "1 new finding, 1 fixed; 1 new entry, 2 changed status, 0 removed" in browser.find_element("id", "trend").text
    )
    browser.find_element("id", "filter-changed").click()
    changed = browser.execute_script(
        """return Object.fromEntries([...document.querySelectorAll('#rows tr')].map((tr) => [
            tr.querySelector('td.name').firstChild.textContent,
            [...tr.querySelectorAll('.badge')].map((b) => b.textContent)]))"""
    )
    assert changed == {
        "Added.construct": ["new", "+1"],
        "FallsBack.construct": ["changed"],
        "Outer.construct": ["changed"],
    }


@pytest.mark.mindspore
def test_verified_statuses_and_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, browser: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("net.py").write_text(
        "from mindspore import nn\n\n\n"
        "class ToHost(nn.Cell):  # mslint: inputs=float32[2]\n    def construct(self, x):\n        return x.asnumpy()\n"
    )
    code, out, err = run("verify", "--all", "--format", "json", "net.py")
    assert code == 0, err
    Path("verify.json").write_text(out)
    assert run("report", "net.py", "--verify-results", "verify.json", "-o", "report.html")[0] == 0
    browser.get((tmp_path / "report.html").as_uri())
    verified = browser.find_elements("css selector", "#rows td.verified .status")
    assert [v.get_attribute("data-status") for v in verified] == ["fails", "falls-back"]
    browser.find_element("css selector", "#rows tr").click()
    evidence = browser.find_element("id", "evidence").text
    assert evidence.startswith("STRICT: fails") and "\nLAX: falls back\n" in evidence
    assert "fallback: " in evidence and "net.py:6" in evidence
    assert "verify: confirmed" in browser.find_element("css selector", "#detail .note").text


def test_a_finding_that_breaks_building_a_cell_is_in_its_drill_down(tmp_path: Path, run: Run, browser: Any) -> None:
    (tmp_path / "net.py").write_text(BUILT_BY_A_HELPER)
    out = tmp_path / "report.html"
    assert run("report", str(tmp_path / "net.py"), "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    row = next(r for r in browser.find_elements("css selector", "#rows tr") if r.text.startswith("Net.construct"))
    row.click()
    detail = browser.find_element("id", "detail").text
    assert "Building the Cells (in their classes, __init__ and what it calls)" in detail
    assert "return nn.Conv2d(cin, cout, 3, padding=1)" in detail and "MS206" in detail
    assert browser.find_element("id", "outside").text == "", "not a finding outside the entries"


@pytest.mark.parametrize("width", [1024, 1800, 2560])
def test_the_table_stays_readable_with_verify_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, browser: Any, width: int
) -> None:
    """With the Verified column, at every width from a laptop to a wide screen (at 1800 px the
    drill-down takes a side of the page): no rule name is broken across lines, the entry and
    file columns keep room for a name, and nothing runs off the page."""
    root = copy_project(tmp_path)
    monkeypatch.chdir(root)
    nets = str((root / "pkg" / "nets.py").resolve())
    compiled = [
        {"path": nets, "name": name, "level": level, "status": "compiled"}
        for name in ("FallsBack", "Fails", "Dynamic", "Clean", "Outer")
        for level in ("strict", "lax")
    ]
    results = tmp_path / "verify.json"
    results.write_text(json.dumps({"findings": [], "compiler_only": [], "compiles": compiled}))
    out = tmp_path / "report.html"
    assert run("report", ".", "--verify-results", str(results), "-o", str(out))[0] == 0
    browser.set_window_size(width, 1000)
    try:
        browser.get(out.as_uri())
        next(r for r in browser.find_elements("css selector", "#rows tr") if r.text.startswith("Outer")).click()
        measured = browser.execute_script(
            """const widths = [...document.querySelectorAll('#entry-table th')].map((th) => th.offsetWidth);
            const broken = [...document.querySelectorAll('#rows td.rules .rule')]
                .filter((rule) => new Set([...rule.getClientRects()].map((r) => Math.round(r.top))).size > 1)
                .map((rule) => rule.textContent);
            const rules = document.querySelectorAll('#rows td.rules .rule').length;
            return {widths, broken, rules, page: document.documentElement.scrollWidth, window: window.innerWidth};"""
        )
    finally:
        browser.set_window_size(*(int(n) for n in FLAGS[-1].split("=")[1].split(",")))
    entry_width, file_width, *_, rules_width, verified_width = measured["widths"]
    assert measured["rules"] == 4 and measured["broken"] == [], f"rule names broken across lines at {width} px"
    assert min(entry_width, file_width, rules_width, verified_width) >= 120, measured["widths"]
    assert measured["page"] <= measured["window"], "the page is wider than the window"
