"""A new user's pages: 18 documents drawn with matplotlib and headless Chromium, with rubrics a user
would write (true and false questions: wrong strings, wrong element, wrong position), and the same
pages with injected text errors for ``rubricloop-refine``. Written by a tester who did not write the
judge; the judge fixes of that round were made looking at the dev split only, the report split was
drawn and its questions written before it was judged (``docs/offline-judge.md``, "A new user's pages").
A third tester's 10 pages (``--split styles``: matplotlib dark_background and ggplot styles, a heatmap,
a waterfall, a donut; Chromium sidebar, timeline, boarding-pass, certificate and dark landing layouts)
were written before they were judged, and only measured.

    python benchmarks/tester_pages.py draw --split dev --out runs/tester_pages/dev   # needs Debian chromium
    rubricloop-judge data=runs/tester_pages/dev/rows.jsonl out=runs/tester_judge judge=ocr
    python benchmarks/tester_pages.py score runs/tester_judge/verdicts.jsonl --labels runs/tester_pages/dev/labels.json
    rubricloop-refine data=runs/tester_pages/dev/rows_refine.jsonl out=runs/tester_refine
    python benchmarks/tester_pages.py score runs/tester_refine --labels runs/tester_pages/dev/labels.json

``draw`` writes ``pages/`` (clean), ``bad/`` (injected errors), ``rows.jsonl`` (every question, on the
clean pages), ``rows_refine.jsonl`` (the true questions only, on the bad pages: the user's spec of the
document) and ``labels.json`` (``page/q<k>`` -> "yes" | "no"). ``score`` counts, against the labels,
true questions answered yes / false no / withheld and false ones answered no / false yes / withheld;
given a refine folder it counts the answers to the spec's (true) questions on each item's start
(iteration 0, with the injected errors) and kept image: a "no" there is an error left (or a false "no").
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent / "tester_pages"
sys.path.insert(0, str(HERE))
from charts import CHARTS  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]


def _screenshot(html: Path, png: Path, size: list[int]) -> None:
    """Chromium's screenshot of ``html`` at ``size`` (w, h) px. Raises SystemExit when it fails."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise SystemExit("error: Debian's chromium is needed to draw the HTML pages (apt-get install chromium)")
    args = [exe, *FLAGS, f"--window-size={size[0]},{size[1]}", f"--screenshot={png}", html.as_uri()]
    subprocess.run(args, capture_output=True, timeout=120, check=False)
    if not png.is_file():
        raise SystemExit(f"error: chromium drew nothing for {html}")


def draw(split: str, out: Path) -> None:
    """Draw ``split``'s pages clean and bad into ``out`` and write its rows and labels."""
    pages = json.loads((HERE / "questions.json").read_text())[split]
    for folder, bad in (("pages", False), ("bad", True)):
        (out / folder).mkdir(parents=True, exist_ok=True)
        for name, fn in CHARTS[split].items():
            fn(out / folder, bad)
        for name, page in pages.items():
            if page["html_size"]:
                html = HERE / split / (f"{name}_bad.html" if bad else f"{name}.html")
                _screenshot(html, out / folder / f"{name}.png", page["html_size"])
    labels = {}
    with open(out / "rows.jsonl", "w") as rows, open(out / "rows_refine.jsonl", "w") as refine:
        for name, page in pages.items():
            checks = [{"id": f"q{k}", "question": q} for k, (q, _) in enumerate(page["questions"])]
            labels |= {f"{name}/q{k}": a for k, (_, a) in enumerate(page["questions"])}
            row = {"id": name, "prompt": f"a {name} page", "criteria": [{"name": "text", "checks": checks}]}
            rows.write(json.dumps(row | {"image": f"pages/{name}.png"}, ensure_ascii=False) + "\n")
            if page["refine"]:
                true = [c for c, (_, a) in zip(checks, page["questions"]) if a == "yes"]
                row["criteria"][0]["checks"] = true
                refine.write(json.dumps(row | {"image": f"bad/{name}.png"}, ensure_ascii=False) + "\n")
    (out / "labels.json").write_text(json.dumps(labels, indent=1))
    true = sum(a == "yes" for a in labels.values())
    print(f"{split}: {len(pages)} pages, {len(labels)} questions ({true} true) -> {out}")


def counts(answers: dict[str, str], labels: dict[str, str]) -> Counter:
    """Counter of (label, answer) over the labelled questions; a question not answered is 'missing'."""
    return Counter((labels[k], answers.get(k, "missing")) for k in labels)


def line(c: Counter) -> str:
    """The counts as one line: true yes / false no / withheld; false no / false yes / withheld."""
    t, f = (lambda a: c[("yes", a)]), (lambda a: c[("no", a)])
    return (
        f"true: yes {t('yes')} / false no {t('no')} / withheld {t('withheld')};  "
        f"false: no {f('no')} / false yes {f('yes')} / withheld {f('withheld')}"
    )


def score(path: Path, labels_path: Path) -> None:
    """Print the counts of a judge's ``verdicts.jsonl`` or, for a refine folder, of its start and kept images."""
    labels = json.loads(labels_path.read_text())
    if path.is_file():
        recs = [json.loads(s) for s in path.read_text().splitlines() if s.strip()]
        print(line(counts({f"{r['item_id']}/{r['check']}": r["answer"] for r in recs}, labels)))
        return
    summary = json.loads((path / "summary.json").read_text())
    best = {it["id"]: it["best_iteration"] for it in summary["items"] if not it.get("error")}
    start, kept = {}, {}
    for item, it_best in best.items():
        for s in (path / item / "verdicts.jsonl").read_text().splitlines():
            r = json.loads(s)
            key = f"{item}/{r['check']}"
            start |= {key: r["answer"]} if r["iteration"] == 0 else {}
            kept |= {key: r["answer"]} if r["iteration"] == it_best else {}
    for name, got in (("start", start), ("kept ", kept)):  # the spec's questions: a "no" is an error left
        c = Counter(got.values())
        print(f"{name}: {len(got)} questions of the spec: yes {c['yes']} / no {c['no']} / withheld {c['withheld']}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="draw a split's pages and write its rows and labels")
    d.add_argument("--split", choices=["dev", "report", "styles"], default="dev")
    d.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("score", help="count a judge's verdicts.jsonl or a refine folder against the labels")
    s.add_argument("verdicts", type=Path)
    s.add_argument("--labels", type=Path, required=True)
    a = p.parse_args(argv)
    if a.cmd == "draw":
        draw(a.split, a.out)
    else:
        score(a.verdicts, a.labels)


if __name__ == "__main__":
    main()
