"""The README stays a front page: at most 250 lines, the Quick start's two commands, and links that resolve.

``mkdocs build --strict`` (run by ``.ci/run``) checks the links and anchors of the pages under ``docs/``
and that every page is in ``mkdocs.yml``'s nav; the README lies outside the site, so its links are
checked here, with the heading slugs Python-Markdown's ``toc`` extension gives (what MkDocs and GitHub
link to for these headings).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
QUICK_START = [
    "bash scripts/setup.sh && .venv/bin/rubricloop-refine",
    "bash scripts/setup.sh && .venv/bin/python -m pytest -q -n auto",
]


def _slug(heading: str) -> str:
    """The anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"[-\s]+", "-", text).strip("-")


def _anchors(page: Path) -> set[str]:
    """Every heading anchor of ``page`` (headings inside fenced code blocks are not headings)."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6} (.+)$", line)):
            anchors.add(_slug(m.group(1)))
    return anchors


def test_readme_is_short():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= 250, f"README.md has {n} lines; move the detail into a docs/ page"


def test_quick_start_block_is_the_two_commands():
    text = README.read_text(encoding="utf-8")
    after = text.split("## Quick start", 1)[1]
    block = after.split("```bash\n", 1)[1].split("```", 1)[0]
    assert block.splitlines() == QUICK_START


def test_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(local) >= 10, local  # the docs pages are linked
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else README
        assert target.exists(), f"README.md links to {link}: {path} does not exist"
        if anchor:
            assert anchor in _anchors(target), f"README.md links to {link}: no heading with that anchor"


def test_every_docs_page_is_in_the_nav():
    """The same rule ``mkdocs build --strict`` applies, here without mkdocs installed."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, flags=re.M))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert pages and pages == listed, (pages - listed, listed - pages)


def test_slug_matches_markdown_toc():
    assert _slug("Judge existing images: `rubricloop-judge`") == "judge-existing-images-rubricloop-judge"
    assert _slug("What a rerun trusts, and what fails loudly") == "what-a-rerun-trusts-and-what-fails-loudly"
