"""``matador site DIR``: the static site, built once per module and read as files and in a browser.

The plain tests read the folder; the browser tests (slow) open its pages in
headless Chromium from disk. The explain page's expected answers are worked
out by hand from spec/SPEC.md and variants/gamerules-com.yaml (double-six,
halves summing to seven, matadors [0-0] [1-6] [2-5] [3-4], draw only when no
tile can be played, no reserve unless the option ``draw=reserve_two`` keeps two).
"""

from __future__ import annotations

import html
import io
import itertools
import json
import random
import re
import stat
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from browser import shoot
from fitting import flat, unfitted

from reference_engine.cli import run
from reference_engine.disputes.explain import Situation, answer
from reference_engine.engine.compiled import compiled
from reference_engine.rules import Catalog

if TYPE_CHECKING:
    from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[1]
VARIANTS = sorted(path.stem for path in (REPO / "variants").glob("*.yaml"))
SCHEMAS = ("variant.schema.json", "case.schema.json", "record.schema.json", "protocol.schema.json")
LANGUAGES = ("en", "fr", "pl", "ht")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of every shipped variant, built once for this module."""
    folder = tmp_path_factory.mktemp("site") / "public"
    status, out, err = _run("site", str(folder))
    assert (status, err) == (0, ""), err
    assert len(unfitted(out)) == 1 and str(folder) in out
    return folder


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


# --------------------------------------------------------------------------- the folder


@pytest.mark.slow
def test_the_site_has_every_page_kind(site: Path) -> None:
    for name in (
        "index.html",
        "matrix.html",
        "explain.html",
        "notation.html",
        "assets/site.css",
        "assets/explain.js",
        "assets/matrix.js",
        "assets/explain-data.js",
    ):
        assert (site / name).is_file(), name
    for variant in VARIANTS:
        assert (site / "variants" / f"{variant}.html").is_file(), variant
        for lang in LANGUAGES:
            sheet = (site / "sheets" / f"{variant}-{lang}.html").read_text(encoding="utf-8")
            assert f'<html lang="{lang}">' in sheet


@pytest.mark.slow
def test_every_variant_appears_on_the_index_and_the_matrix(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    matrix = (site / "matrix.html").read_text(encoding="utf-8")
    for variant in VARIANTS:
        assert f'href="variants/{variant}.html"' in index, variant
        assert f'href="variants/{variant}.html">{variant}</a></th>' in matrix, variant


def _says(node: Any) -> Iterator[str]:
    """Every ``says`` of a citation anywhere in a parsed variant file."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "says" and isinstance(value, str):
                yield value
            else:
                yield from _says(value)
    elif isinstance(node, list):
        for item in node:
            yield from _says(item)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pagat", "gamerules-com"])
def test_every_citation_of_a_variant_file_is_on_its_page(site: Path, variant: str) -> None:
    data = yaml.safe_load((REPO / "variants" / f"{variant}.yaml").read_text(encoding="utf-8"))
    page = html.unescape((site / "variants" / f"{variant}.html").read_text(encoding="utf-8"))
    says = set(_says(data))
    assert len(says) > 5
    missing = [text for text in says if " ".join(text.split()) not in page]
    assert not missing


@pytest.mark.slow
def test_a_gap_links_from_the_matrix_to_its_reading(site: Path) -> None:
    # gamerules-com's file reads the silence on drawing as gap draw-rule-silent.
    matrix = (site / "matrix.html").read_text(encoding="utf-8")
    assert 'href="variants/gamerules-com.html#gap-draw-rule-silent"' in matrix
    page = (site / "variants" / "gamerules-com.html").read_text(encoding="utf-8")
    assert 'id="gap-draw-rule-silent"' in page


@pytest.mark.slow
def test_the_schemas_are_copied_as_they_are(site: Path) -> None:
    for name in SCHEMAS:
        assert (site / "spec" / name).read_bytes() == (REPO / "spec" / name).read_bytes()


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.mark.slow
def test_every_internal_link_resolves(site: Path) -> None:
    checked = 0
    for page in _pages(site):
        for link in _parse(page).links:
            assert not re.match(r"^(https?:)?//", link), f"{page.name} loads {link} from outside"
            target, _, fragment = link.partition("#")
            path = (page.parent / target).resolve() if target else page
            assert path.is_file(), f"{page.relative_to(site)} links to {link}"
            if fragment and path.suffix == ".html":
                assert fragment in _parse(path).ids, f"{page.relative_to(site)}: {link}"
            checked += 1
    assert checked > 500


@pytest.mark.slow
def test_a_second_build_replaces_the_first_whole(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    assert _run("site", str(folder), "--variant", "dutch")[0] == 0
    (folder / "CNAME").write_text("rules.example\n", encoding="utf-8")
    (folder / "notes").mkdir()
    (folder / "notes" / "mine.txt").write_text("mine", encoding="utf-8")
    (folder / "empty").mkdir()
    (folder / "assets" / "mine").mkdir()
    folder.chmod(0o700)
    status, out, _ = _run("site", str(folder), "--variant", "german")
    assert status == 0 and "1 variant" in out
    assert (folder / "variants" / "german.html").is_file()
    assert not (folder / "variants" / "dutch.html").exists()  # the earlier site's: gone
    # the user's files and folders beside it are not the site's: kept as they were
    assert (folder / "CNAME").read_text(encoding="utf-8") == "rules.example\n"
    assert (folder / "empty").is_dir() and (folder / "assets" / "mine").is_dir()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # (a private folder stays private)
    assert (folder / "notes" / "mine.txt").read_text(encoding="utf-8") == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temporary folder left


def test_a_file_the_new_site_would_write_over_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    assert _run("site", str(folder), "--variant", "dutch")[0] == 0
    mine = folder / "variants" / "german.html"
    mine.write_text("my own page", encoding="utf-8")
    status, out, err = _run("site", str(folder), "--variant", "german")
    assert status != 0 and out == "" and len(unfitted(err)) == 1
    assert "variants/german.html there is not the earlier site's" in err
    assert mine.read_text(encoding="utf-8") == "my own page"
    assert (folder / "variants" / "dutch.html").is_file()


@pytest.mark.parametrize(
    "marker",
    ["", "not json", "[]", '{"generator": "something else"}', '{"generator": "matador site"}'],
)
def test_a_file_named_like_the_manifest_is_not_one(tmp_path: Path, marker: str) -> None:
    """A folder whose manifest is not one this command wrote is refused, and nothing in it
    is touched."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "matador-site.json").write_text(marker, encoding="utf-8")
    (folder / "index.html").write_text("my own page", encoding="utf-8")
    status, out, err = _run("site", str(folder), "--variant", "dutch")
    assert status != 0 and out == "" and len(unfitted(err)) == 1
    assert "is not the manifest of a site made by matador site" in err
    assert (folder / "index.html").read_text(encoding="utf-8") == "my own page"


@pytest.mark.parametrize("name", ["", " ", "a" * 300])
def test_a_folder_name_that_names_no_folder_gets_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = _run("site", name, "--variant", "dutch")
    assert status != 0 and out == "" and len(unfitted(err)) == 1, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda tmp: tmp / "a-file", "it is a file, not a folder"),
        (lambda tmp: tmp / "foreign", "not empty and holds no site"),
        (lambda tmp: tmp / "no" / "such" / "folder", "does not exist"),
        (lambda tmp: tmp / "a-file" / "site", "does not exist"),
        (lambda tmp: Path("/proc/matador-site"), "cannot make a folder in /proc"),
    ],
    ids=["a file", "a foreign folder", "no parent", "a file as parent", "unwritable"],
)
def test_a_bad_folder_gets_one_line(
    tmp_path: Path, make: Callable[[Path], Path], words: str
) -> None:
    (tmp_path / "a-file").write_text("keep me", encoding="utf-8")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("keep me", encoding="utf-8")
    status, out, err = _run("site", str(make(tmp_path)), "--variant", "dutch")
    assert status != 0 and out == ""
    assert len(unfitted(err)) == 1 and err.startswith("matador site: ") and words in flat(err)
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "keep me"
    assert (tmp_path / "foreign" / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_an_unknown_variant_gets_one_line(tmp_path: Path) -> None:
    status, out, err = _run("site", str(tmp_path / "out"), "--variant", "no-such-variant")
    assert status == 1 and out == "" and len(unfitted(err)) == 1 and "no-such-variant" in err
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- in a browser


def _explain(
    page: Page,
    site: Path,
    *,
    variant: str,
    hand: list[str],
    ends: tuple[int, int],
    boneyard: int,
    options: dict[str, str] | None = None,
) -> None:
    page.goto((site / "explain.html").as_uri())
    page.select_option("#variant", variant)
    for name, value in (options or {}).items():
        page.select_option(f"#option-{name}", value)
    for tile in hand:
        page.check(f"#tile-{tile}")
    page.select_option("#end-left", str(ends[0]))
    page.select_option("#end-right", str(ends[1]))
    page.fill("#boneyard", str(boneyard))
    page.click("#explain-button")


@pytest.mark.slow
def test_every_page_loads_without_errors(page: Page, site: Path) -> None:
    for path in _pages(site):
        page.goto(path.as_uri())
        assert page.locator("h1").count() == 1, path.name
    # the fixture fails the test if any page logged an error


_HEADINGS_AND_LABELS = """() => {
  const levels = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => +h.tagName[1]);
  const unlabelled = [...document.querySelectorAll("input, select, textarea")]
    .filter((c) => c.labels.length === 0).map((c) => c.id || c.outerHTML);
  return {levels, unlabelled};
}"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["index.html", "matrix.html", "explain.html", "variants/pagat.html"]
)
def test_headings_go_in_order_and_every_control_has_a_label(
    page: Page, site: Path, name: str
) -> None:
    page.goto((site / name).as_uri())
    found = page.evaluate(_HEADINGS_AND_LABELS)
    levels = found["levels"]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), levels
    assert found["unlabelled"] == []


@pytest.mark.slow
def test_the_rule_filter_hides_and_shows_rows(page: Page, site: Path) -> None:
    page.goto((site / "matrix.html").as_uri())
    rows = page.locator("#matrix tbody tr")
    total = rows.count()
    page.fill("#rule-filter", "draw")
    visible = page.locator("#matrix tbody tr:not([hidden])")
    # draw_when and draws_per_turn (after_single_draw says "draw" too)
    assert {visible.nth(i).get_attribute("data-rule") for i in range(visible.count())} == {
        "draw_when",
        "draws_per_turn",
        "after_single_draw",
    }
    shoot(page, "site-matrix-filtered")
    page.fill("#rule-filter", "")
    assert page.locator("#matrix tbody tr:not([hidden])").count() == total
    page.check("#only-differ")
    # every shipped variant plays double-six at its defaults: max_pip never differs
    assert page.locator('#matrix tbody tr[data-rule="max_pip"]').is_hidden()
    assert page.locator('#matrix tbody tr[data-rule="matador_modes"]').is_visible()
    page.uncheck("#only-differ")
    page.select_option("#rule-group", "scoring")
    assert page.locator('#matrix tbody tr[data-rule="points"]').is_visible()
    assert page.locator('#matrix tbody tr[data-rule="opener"]').is_hidden()
    page.select_option("#rule-group", "")
    page.locator('#matrix tbody tr[data-rule="draw_when"] td details').first.locator(
        "summary"
    ).click()
    shoot(page, "site-matrix")


@pytest.mark.slow
def test_the_explain_page_answers_a_known_position(page: Page, site: Path) -> None:
    # [2-4] joins 3 with its 4 (leaving 2) and 5 with its 2 (leaving 4); [6-6] makes 9
    # and 11: no way. A playable tile is held, so no draw (draw_when no_play) and no pass.
    _explain(page, site, variant="gamerules-com", hand=["2-4", "6-6"], ends=(3, 5), boneyard=3)
    assert page.text_content("#legal") == "Legal: 2-4@L:2 2-4@R:4"
    refused = page.text_content('[data-play="6-6@L"]') or ""
    assert "does_not_match_end" in refused
    assert "pass_not_allowed" in (page.text_content('[data-play="pass"]') or "")
    assert "draw_not_allowed" in (page.text_content('[data-play="draw"]') or "")
    shoot(page, "site-explain")
    status, out, _ = _run(
        "explain",
        "--hand",
        "2-4,6-6",
        "--ends",
        "3,5",
        "--boneyard",
        "3",
        "--variant",
        "gamerules-com",
        "--action",
        "6-6@L",
    )
    assert status == 0 and "legal: 2-4@L:2 2-4@R:4" in out and "[does_not_match_end]" in out


@pytest.mark.slow
def test_the_explain_page_reads_a_pasted_position_as_the_command_line(
    page: Page, site: Path
) -> None:
    """The position of test_the_explain_page_answers_a_known_position, pasted whole: the
    form is filled for the seat to act, and the answer is the same."""
    position = "ends: 3, 5; seat 0: 0-1; seat 1: 2-4 6-6; boneyard: 0-0 1-1 1-2; to act: 1"
    page.goto((site / "explain.html").as_uri())
    page.select_option("#variant", "gamerules-com")
    page.fill("#position", position)
    page.click("#position-button")
    assert page.is_checked("#tile-2-4") and page.is_checked("#tile-6-6")
    assert not page.is_checked("#tile-0-1")
    assert page.input_value("#boneyard") == "3"
    assert page.text_content("#legal") == "Legal: 2-4@L:2 2-4@R:4"
    status, out, _ = _run(
        "explain", "--position", position, "--variant", "gamerules-com", "--action", "6-6@L"
    )
    assert status == 0 and "legal: 2-4@L:2 2-4@R:4" in out
    page.fill("#position", "ends: 3; seat 0: 0-1; to act: 0")
    page.click("#position-button")
    assert "cannot be read" in (page.text_content("#problems") or "")
    page.fill("#position", position.replace("ends: 3, 5", "ends: 2/5 identical free, 5"))
    page.click("#position-button")
    assert "matador explain --position" in (page.text_content("#problems") or "")


@pytest.mark.slow
def test_the_explain_page_follows_an_option(page: Page, site: Path) -> None:
    # draw=reserve_two keeps two tiles: with two left nobody draws, so a stuck player passes.
    _explain(
        page,
        site,
        variant="gamerules-com",
        hand=["6-6"],
        ends=(3, 5),
        boneyard=2,
        options={"draw": "reserve_two"},
    )
    assert page.text_content("#legal") == "Legal: pass"
    assert "reserve_reached" in (page.text_content('[data-play="draw"]') or "")


def _situations(rules: Any, count: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    tiles = [str(tile) for tile in compiled(rules).tiles]
    for _ in range(count):
        players = rng.choice(rules.players)
        hand = rng.sample(tiles, rng.randint(1, 6))
        unseen = len(tiles) - len(hand) - players + 1
        yield {
            "players": players,
            "hand": hand,
            "ends": [rng.randint(0, rules.max_pip), rng.randint(0, rules.max_pip)],
            "boneyard": rng.choice([0, 1, 2, 3, unseen]),
            "drawn": rng.choice([None, hand[0]]),
        }


def _engine(rules: Any, data: dict[str, Any]) -> dict[str, Any]:
    """What the engine answers: the legal actions and the reason for each refusal."""
    base = answer(rules, Situation.from_data({**data, "drawn": data["drawn"]}))
    result: dict[str, Any] = {"legal": base.legal, "refused": {}}
    for tile in data["hand"]:
        for end in ("L", "R"):
            asked = answer(rules, Situation.from_data({**data, "action": f"{tile}@{end}"}))
            if asked.verdict == "no":
                result["refused"][f"{tile}@{end}"] = [asked.reason, asked.rule]
    for action in ("draw", "pass"):
        asked = answer(rules, Situation.from_data({**data, "action": action}))
        if asked.verdict == "no":
            result["refused"][action] = [asked.reason, asked.rule]
    return result


_PAGE_ANSWER = """([variant, chosen, s]) => {
  const E = window.MatadorExplain;
  const v = E.data.variants.find((x) => x.id === variant);
  const a = E.answer(E.profileFor(v, chosen), s);
  const refused = {};
  a.tiles.forEach((t) => t.ends.forEach((e) => {
    if (e.refused) refused[t.tile + "@" + e.end] = [e.refused.reason, e.refused.rule];
  }));
  if (a.draw) refused.draw = [a.draw.reason, a.draw.rule];
  if (a.pass) refused.pass = [a.pass.reason, a.pass.rule];
  return {legal: a.legal, refused: refused};
}"""


@pytest.mark.slow
def test_the_explain_page_agrees_with_the_engine(page: Page, site: Path) -> None:
    page.goto((site / "explain.html").as_uri())
    data = json.loads((site / "assets" / "explain-data.json").read_text(encoding="utf-8"))
    catalog, rng, compared = Catalog.shipped(), random.Random(7), 0
    for variant in data["variants"]:
        keys = list(variant["profiles"])
        for key in rng.sample(keys, min(3, len(keys))):
            chosen = dict(item.split("=") for item in key.split(",")) if key else {}
            rules = catalog.resolve(variant["id"], chosen)
            for situation in _situations(rules, 12, rng):
                expected = _engine(rules, situation)
                got = page.evaluate(_PAGE_ANSWER, [variant["id"], chosen, situation])
                assert got == expected, (variant["id"], chosen, situation)
                compared += 1
    assert compared > 300


@pytest.mark.slow
def test_the_explain_form_works_from_the_keyboard(page: Page, site: Path) -> None:
    page.goto((site / "explain.html").as_uri())
    page.focus("#variant")
    reached: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        reached.append(focused)
        if focused == "tile-2-4":
            page.keyboard.press("Space")
        if focused == "explain-button":
            break
    assert {"players", "tile-2-4", "end-left", "end-right", "boneyard", "explain-button"} <= set(
        reached
    )
    assert page.is_checked("#tile-2-4")
    page.keyboard.press("Enter")
    assert (page.text_content("#legal") or "").startswith("Legal: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "index.html",
        "matrix.html",
        "explain.html",
        "variants/pagat.html",
        "variants/gamerules-com.html",
    ],
)
def test_pages_fit_a_phone(phone_page: Page, site: Path, name: str) -> None:
    phone_page.goto((site / name).as_uri())
    if name == "explain.html":
        phone_page.check("#tile-3-4")
        phone_page.click("#explain-button")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone_page, "site-phone-" + name.replace("/", "-").removesuffix(".html"))


@pytest.mark.slow
def test_screenshots_of_each_page_kind(page: Page, site: Path) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    for name, shot in (
        ("index.html", "site-index"),
        ("variants/pagat.html", "site-variant"),
        ("sheets/pagat-fr.html", "site-sheet"),
    ):
        page.goto((site / name).as_uri())
        shoot(page, shot)
