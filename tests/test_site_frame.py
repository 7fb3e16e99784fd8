"""The site read as a visitor does: sheets in the site's frame, the matrix's sticky header, the
explain page's key and its refusal of a position it cannot answer, and an accessibility sweep.

The site is built once for this module (tests/test_site.py has the folder's other tests). The
browser tests open the pages from disk in headless Chromium (tests/browser.py) at a desktop
width (1280 CSS pixels) and a phone's (390), and save screenshots for people to look at.
"""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser import shoot

from reference_engine.cli import run
from reference_engine.rules import Catalog
from reference_engine.sheets.model import build_sheet
from reference_engine.sheets.render import render_html

if TYPE_CHECKING:
    from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[1]
VARIANTS = sorted(path.stem for path in (REPO / "variants").glob("*.yaml"))
LANGUAGES = ("en", "fr", "pl", "ht")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of every shipped variant, built once for this module."""
    folder = tmp_path_factory.mktemp("site") / "public"
    out, err = io.StringIO(), io.StringIO()
    assert run(["site", str(folder)], out, err) == 0, err.getvalue()
    return folder


# --------------------------------------------------------------------------- the rule sheets


def _inside_main(page: str) -> str:
    found = re.search(r"<main[^>]*>(.*)</main>", page, re.DOTALL)
    assert found is not None
    return found.group(1).strip()


@pytest.mark.parametrize("variant", ["pagat", "gamerules-com"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sheet_keeps_its_content_inside_the_site_frame(
    site: Path, variant: str, lang: str
) -> None:
    page = (site / "sheets" / f"{variant}-{lang}.html").read_text(encoding="utf-8")
    standalone = render_html(build_sheet(Catalog.shipped().resolve(variant), lang))
    # the sheet's body is the sheets package's, unchanged
    assert _inside_main(page) == _inside_main(standalone)
    assert page.count("<main") == 1 and page.count("<h1") == 1
    assert f'<html lang="{lang}">' in page
    # the way back and across: the home page, the variant's page, the same sheet in every language
    assert 'href="../index.html"' in page
    assert f'href="../variants/{variant}.html"' in page
    for other in LANGUAGES:
        assert f'href="{variant}-{other}.html" hreflang="{other}"' in page
    assert page.count('aria-current="page"') == 1
    # the sheet's A4 style sheet is kept for print only; the site's style sheet is for the screen
    assert '<style media="print">' in page and "column-fill: balance" in page
    assert '<link rel="stylesheet" href="../assets/site.css" media="screen">' in page


def _layout(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
      const main = document.querySelector("main");
      const style = getComputedStyle(main);
      const p = getComputedStyle(document.querySelector("main section.opening p"));
      const box = (css) => document.querySelector(css).getBoundingClientRect();
      return {
        columns: style.columnCount,
        width: main.getBoundingClientRect().width,
        text: parseFloat(p.fontSize),
        equipment: box("section.equipment").left,
        deal: box("section.deal").left,
        siteHeader: getComputedStyle(document.querySelector("header.site")).display,
        nav: getComputedStyle(document.querySelector("nav.sheet-nav")).display,
        scroll: document.documentElement.scrollWidth,
      };
    }"""
        )
    )


def test_a_sheet_reads_well_on_a_wide_screen_and_prints_as_before(page: Page, site: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto((site / "sheets" / "pagat-fr.html").as_uri())
    screen = _layout(page)
    # readable type (the print sheet's 8.4 pt is 11 px), the width of the page used: the
    # sheet's first sections side by side, and no print columns on screen
    assert screen["text"] >= 16
    assert float(screen["width"]) > 1000
    assert float(screen["deal"]) > float(screen["equipment"]) + 300
    assert screen["columns"] == "auto"
    assert screen["siteHeader"] != "none"
    shoot(page, "site-sheet-desktop", full_page=False)
    page.emulate_media(media="print")
    printed = _layout(page)
    assert printed["columns"] == "2"  # the sheet's own A4 layout
    assert printed["siteHeader"] == "none" and printed["nav"] == "none"
    assert float(printed["text"]) < 12


def test_a_sheet_fits_a_phone(phone_page: Page, site: Path) -> None:
    phone_page.goto((site / "sheets" / "gamerules-com-pl.html").as_uri())
    phone = _layout(phone_page)
    assert phone["scroll"] <= 390
    assert phone["text"] >= 15
    assert float(phone["deal"]) == float(phone["equipment"])  # one column
    shoot(phone_page, "site-phone-sheet")


def test_the_language_links_of_a_sheet_lead_to_the_same_sheet(page: Page, site: Path) -> None:
    page.goto((site / "sheets" / "pagat-en.html").as_uri())
    page.click('nav.sheet-nav a[hreflang="pl"]')
    assert page.url.endswith("/sheets/pagat-pl.html")
    assert page.get_attribute("html", "lang") == "pl"
    page.click("nav.sheet-nav .up a")
    assert page.url.endswith("/variants/pagat.html")


# --------------------------------------------------------------------------- the matrix


_HEADER_IN_VIEW = """() => {
  const box = document.querySelector(".scroll");
  box.scrollTop = box.scrollHeight;
  box.scrollLeft = box.scrollWidth;
  const head = document.querySelector("#matrix thead th:nth-child(3)").getBoundingClientRect();
  const corner = document.querySelector("#matrix thead th.rule-col").getBoundingClientRect();
  const rows = [...document.querySelectorAll("#matrix tbody tr")];
  const last = rows[rows.length - 1].querySelector("th").getBoundingClientRect();
  const frame = box.getBoundingClientRect();
  const names = [...document.querySelectorAll("#matrix thead th.variant-col")];
  const shown = names.filter((th) => {
    const r = th.getBoundingClientRect();
    return r.left >= frame.left - 1 && r.right <= frame.right + 1;
  }).length;
  return {top: box.scrollTop, left: box.scrollLeft, frameTop: frame.top, frameLeft: frame.left,
          variants: names.length, wholly: shown,
          frameBottom: frame.bottom, headTop: head.top, cornerLeft: corner.left,
          lastTop: last.top, lastLeft: last.left};
}"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_matrix_header_and_first_column_stay_in_view(
    page: Page, phone_page: Page, site: Path, phone: bool
) -> None:
    shown = phone_page if phone else page
    if not phone:
        shown.set_viewport_size({"width": 1280, "height": 900})
    shown.goto((site / "matrix.html").as_uri())
    seen = shown.evaluate(_HEADER_IN_VIEW)
    # the box scrolled to its last row and column, yet the variant names are at its top
    # and the rule names at its left (a border's width either way); at 1280 pixels every
    # variant's column fits, with no sideways scrolling; a phone scrolls sideways
    assert seen["top"] > 500
    if phone:
        assert seen["left"] > 100
    else:
        assert seen["left"] == 0 and seen["wholly"] == seen["variants"] == 15
    assert abs(seen["headTop"] - seen["frameTop"]) <= 2
    assert abs(seen["cornerLeft"] - seen["frameLeft"]) <= 2
    assert abs(seen["lastLeft"] - seen["frameLeft"]) <= 2
    assert seen["frameTop"] < seen["lastTop"] < seen["frameBottom"]  # the last rule is in view
    shoot(shown, "site-matrix-scrolled" + ("-phone" if phone else ""), full_page=False)


# --------------------------------------------------------------------------- the explain page


def _position(page: Page, site: Path, *, boneyard: str, left: str = "3") -> None:
    page.goto((site / "explain.html").as_uri())
    page.select_option("#variant", "gamerules-com")
    page.check("#tile-2-4")
    page.select_option("#end-left", left)
    page.select_option("#end-right", "5")
    page.fill("#boneyard", boneyard)
    page.click("#explain-button")


def test_the_boneyard_field_says_what_it_takes(page: Page, site: Path) -> None:
    page.goto((site / "explain.html").as_uri())
    page.select_option("#variant", "gamerules-com")
    field = page.locator("#boneyard")
    # double-six: 28 tiles, at least one in the hand
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("0", "27")
    assert field.get_attribute("required") is not None


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("-3", "Tiles left to draw is -3"),
        ("", "Tiles left to draw is empty"),
        ("2.5", "Tiles left to draw is 2.5"),
        ("28", "Tiles left to draw is 28, more than the 27"),
        ("27", "too few tiles for that boneyard"),  # 27 unseen, but another player holds one
    ],
    ids=["negative", "empty", "fraction", "over the set", "over the unseen"],
)
def test_an_invalid_boneyard_is_refused_not_changed(
    page: Page, site: Path, typed: str, words: str
) -> None:
    _position(page, site, boneyard="3")
    assert page.locator("#legal").count() == 1  # a first, valid answer
    page.fill("#boneyard", typed)
    page.click("#explain-button")
    verdict = page.text_content("#verdict") or ""
    assert verdict.startswith("Not answered") and words in verdict, verdict
    assert page.locator("#legal").count() == 0  # the earlier answer is gone
    assert page.get_attribute("#verdict", "role") == "alert"
    if words.startswith("Tiles left"):
        assert page.get_attribute("#boneyard", "aria-invalid") == "true"


def test_an_end_out_of_the_set_is_refused(page: Page, site: Path) -> None:
    page.goto((site / "explain.html").as_uri())
    page.select_option("#variant", "gamerules-com")
    # a value the double-six set has not, put in the list as a stale or edited page would
    page.evaluate(
        """() => { const s = document.getElementById("end-left");
                   s.add(new Option("9", "9")); s.value = "9"; }"""
    )
    page.check("#tile-2-4")
    page.click("#explain-button")
    verdict = page.text_content("#verdict") or ""
    assert "The left end is 9, more than the 6 the set allows" in verdict
    assert page.locator("#legal").count() == 0
    shoot(page, "site-explain-refused", full_page=False)


def test_a_valid_boneyard_is_answered_as_typed(page: Page, site: Path) -> None:
    _position(page, site, boneyard="4")
    assert "4 tile(s) to draw" in (page.text_content("#verdict") or "")
    assert page.get_attribute("#boneyard", "aria-invalid") is None


def test_the_explain_page_has_a_key_to_the_notation(page: Page, site: Path) -> None:
    page.goto((site / "explain.html").as_uri())
    legend = page.text_content("#legend") or ""
    for mark in ("@L", "@R", "E2", ":n", "2-5@R:5", "x", "3-4@Lx", "^n", "3-4@L^3", "draw", "pass"):
        assert mark in legend, mark
    page.click("#legend a[href='notation.html']")
    assert page.url.endswith("/notation.html")
    assert page.text_content("h1") == "Matador action notation"
    assert "placement = " in (page.text_content("pre") or "")  # the grammar, as spec/notation.md
    assert page.locator("table").count() == 1


# --------------------------------------------------------------------------- every page

_AUDIT = """() => {
  const hidden = (el) => el.closest("[aria-hidden='true']") !== null;
  const titled = (el) => [...el.children].some(
    (c) => c.tagName.toLowerCase() === "title" && c.textContent.trim() !== "");
  const named = (el) => (el.getAttribute("aria-label") || "").trim() !== "" ||
    (el.getAttribute("aria-labelledby") || "") !== "" || titled(el);
  const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => +h.tagName[1]);
  return {
    lang: document.documentElement.lang,
    title: document.title,
    levels,
    images: [...document.querySelectorAll("img")]
      .filter((i) => !i.hasAttribute("alt") && !hidden(i)).length,
    svgs: [...document.querySelectorAll("svg")].filter((s) => !hidden(s) && !named(s)
      && !(s.closest("[role='img'][aria-label]"))).length,
    unlabelled: [...document.querySelectorAll("input, select, textarea")]
      .filter((c) => c.labels.length === 0 && !c.getAttribute("aria-label")).map((c) => c.id),
    home: [...document.querySelectorAll("a[href]")].some((a) => a.href === HOME),
    svgCount: document.querySelectorAll("svg").length,
  };
}"""


def test_every_page_passes_the_accessibility_sanity_check(page: Page, site: Path) -> None:
    home = (site / "index.html").as_uri()
    titles: dict[str, str] = {}
    svgs = 0
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 4 + len(VARIANTS) * (1 + len(LANGUAGES))
    for path in pages:
        name = str(path.relative_to(site))
        page.goto(path.as_uri())
        if name == "explain.html":  # its form and answer are drawn by the script: fill them
            page.check("#tile-3-4")
            page.click("#explain-button")
        found = page.evaluate(_AUDIT.replace("HOME", repr(home)))
        expected_lang = name.removesuffix(".html").rsplit("-", 1)[1] if "sheets/" in name else "en"
        assert found["lang"] == expected_lang, name
        levels = found["levels"]
        assert levels[0] == 1 and levels.count(1) == 1, name
        assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), (name, levels)
        assert (found["images"], found["svgs"], found["unlabelled"]) == (0, 0, []), name
        assert found["home"], f"{name} has no link to the home page"
        assert found["title"].endswith(" · Matador reference"), name
        titles[found["title"]] = name
        svgs += found["svgCount"]
    assert len(titles) == len(pages)  # every title is different
    assert svgs > 300  # the check did meet the drawings
    for variant in VARIANTS:
        assert any(t.startswith(f"{variant}: ") for t in titles), variant
        for lang, language in (("fr", "French"), ("ht", "Haitian Creole")):
            assert titles_named(titles, f"sheets/{variant}-{lang}.html").startswith(
                f"{variant} rule sheet in {language}: "
            )


def titles_named(titles: dict[str, str], name: str) -> str:
    """The title of the page ``name`` (its path in the site)."""
    return next(title for title, path in titles.items() if path == name)


@pytest.mark.parametrize("name", ["explain.html", "notation.html", "sheets/pagat-ht.html"])
def test_more_pages_fit_a_phone(phone_page: Page, site: Path, name: str) -> None:
    phone_page.goto((site / name).as_uri())
    if name == "explain.html":
        phone_page.fill("#boneyard", "-1")
        phone_page.click("#explain-button")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone_page, "site-phone-" + name.replace("/", "-").removesuffix(".html") + "-2")
