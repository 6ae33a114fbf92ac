"""Report: the OCR judge and the text editor on the adversarial set (issue 17), per split.

Usage::

    python benchmarks/adversarial_refine.py                          # both splits, 8 documents each
    python benchmarks/adversarial_refine.py --split report --n 16 --iterations 2 --out runs/adversarial

The documents are :mod:`documents.adversarial`'s (dev = seeds 0..n-1, report = seeds
1000..1000+n-1; nobody tunes on report). Per split it reports:

The judge (``rewards.judges.ocr.OCRJudge`` on checks compiled as the importers compile them), on the
clean and on the erroneous page of every document, every question (also those false on the clean
page): per question type and page false yes, false no and withheld counts; Cohen's kappa with
withheld counted as a wrong answer (``evaluation.judge_bench.summarize``); the locator phrases the
compiled specs represent (``spec.text.locators``) and those handed to a VLM (``vlm_parts`` that start
with "locator"), the false yes given to questions whose spec represents no element, and those
of questions whose locator was dropped (no element represented, none handed to a VLM: every
question of the set names its element).

Refine (``refine.loop.RefineLoop``: OCR judge, template writer, ``refine.editors.text.TextEditor``,
``--iterations`` edits) of the erroneous page towards the rubric (the questions true on the clean
page), measured against the ground truth by tesseract, never by the judge's verdicts:

- errors fixed: the error's element region (its box, or for a missing item its slot, padded)
  cropped from best.png reads the correct text (``reads_in_box``), or reads as the clean page's
  region does where tesseract misreads that too (``fixed_in_box``); also counted on the last
  iteration's image (the loop keeps the first iteration of the best pass rate, so a fix the judge
  cannot confirm is not kept);
- contradictions: the wrong string is still on the page (more often than on the clean page) and
  the right one was added (more often than on the erroneous page) (``is_contradiction``);
- strings written twice: a rubric string read more often in best.png than on the clean page
  (``written_twice``);
- additions outside a slot: editor actions that placed text whose box overlaps neither the box nor
  the slot of its check's element; rewrites elsewhere: rewrites of another string than the
  element's (``outside_element``);
- pixels damaged: pixels where best.png differs from the erroneous page outside every
  ground-truth text element's box and every written string's box (``damaged_pixels``); and the
  same outside also every box the editor reported changing (its erase boxes): damage its own
  record does not show;
- pass rate (the judge's share of "yes" over the rubric) before and after.

``--out`` keeps per document ``<split>/<doc>/before_after.png`` (the erroneous page beside
best.png), ``clean.png``, ``erroneous.png``, ``truth.json`` (``Document.truth``) and the refine
run, and ``adversarial_refine.json`` (the figures, per split and per document, and every verdict).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from documents.adversarial import QTYPES, Document, make_checks, make_document, make_item, split_seeds  # noqa: E402
from evaluation.judge_bench import summarize  # noqa: E402
from refine.edit_audit import kept_actions, occurrences  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from refine.loop import RefineLoop  # noqa: E402
from refine.writers.template import TemplateWriter  # noqa: E402
from rewards.judges.ocr import OCRJudge  # noqa: E402
from rewards.text.ocr.text_match import Line  # noqa: E402

Box = tuple[int, int, int, int]
PAD = 8
"""Pixels above and below an element's box read for "errors fixed"; at the sides the pad is twice
the box's height (a rewrite may be set a little wider than the string it replaces)."""


# -- the metric functions (pure: lines and boxes in, counts out) -------------------------------


def overlaps(a: Box | None, b: Box | None) -> bool:
    """Whether two boxes (x0, y0, x1, y1, end-exclusive) share a pixel; False when either is None."""
    if a is None or b is None:
        return False
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def is_contradiction(wrong: str, right: str, out: list[Line], clean: list[Line], erroneous: list[Line]) -> bool:
    """Wrong and right string both on the output page: ``wrong`` read more often in ``out`` than
    in ``clean`` (where it may stand inside the right string, "Source: sales" in "Source: sales
    data") and ``right`` read more often in ``out`` than in ``erroneous`` (the right string was
    added; it may already stand inside a decoy). False for a missing item (``wrong`` = "")."""
    if not wrong:
        return False
    return occurrences(wrong, out) > occurrences(wrong, clean) and occurrences(right, out) > occurrences(
        right, erroneous
    )


def written_twice(text: str, out: list[Line], clean: list[Line]) -> bool:
    """``text`` read more often in ``out`` than on the clean page (and at least twice), or read
    right after its own first words more often than there (``after_own_prefix``)."""
    return occurrences(text, out) > max(1, occurrences(text, clean)) or after_own_prefix(text, out, clean)


def after_own_prefix(text: str, out: list[Line], clean: list[Line]) -> bool:
    """Whether ``out`` holds ``text`` right after its own first words (one word or more, 4
    characters at least, fewer than all) more often than ``clean`` does: a copy written after the
    start of the string it repeats ("... the bottom club enters Top two clubs are promoted; the
    bottom club enters the play-off."), which holds the whole string once."""
    words = text.split()
    for k in range(1, len(words)):
        prefix = " ".join(words[:k])
        if len(prefix) >= 4 and occurrences(f"{prefix} {text}", out) > occurrences(f"{prefix} {text}", clean):
            return True
    return False


def wrote_text(action: dict) -> bool:
    """Whether an editor action (``TextEditor.last_actions`` entry) wrote text."""
    return bool(action.get("box")) and not action["action"].startswith(("skip", "fail"))


def outside_element(action: dict, element_box: Box, slot: Box | None) -> bool:
    """Whether a written action's box overlaps neither its element's box nor its slot."""
    return wrote_text(action) and not (
        overlaps(tuple(action["box"]), element_box) or overlaps(tuple(action["box"]), slot)
    )


def damaged_pixels(before: Image.Image, after: Image.Image, text_boxes: list[Box]) -> int:
    """Pixels where ``after`` differs from ``before`` (any RGB channel) outside every box of
    ``text_boxes`` (x0, y0, x1, y1, end-exclusive, pixels): graphics changed. Raises ValueError
    when the sizes differ."""
    if before.size != after.size:
        raise ValueError(f"image sizes differ: {before.size} vs {after.size}")
    changed = (np.asarray(before.convert("RGB")) != np.asarray(after.convert("RGB"))).any(2)
    inside = np.zeros(changed.shape, bool)
    for x0, y0, x1, y1 in text_boxes:
        inside[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = True
    return int((changed & ~inside).sum())


def crop_for_reading(image: Image.Image, box: Box, angle: int = 0, along: int | None = None) -> Image.Image:
    """The region ``box`` of ``image`` padded by ``PAD`` across the text and ``along`` pixels
    along it (None: twice the text's height), turned so that text printed at ``angle`` (90:
    bottom to top) reads left to right."""
    x0, y0, x1, y1 = box
    height = (x1 - x0) if angle else (y1 - y0)
    along = 2 * height if along is None else along
    px, py = (PAD, along) if angle else (along, PAD)
    crop = image.crop((max(0, x0 - px), max(0, y0 - py), min(image.width, x1 + px), min(image.height, y1 + py)))
    return crop.rotate(-angle, expand=True) if angle else crop


def reads_in_box(image: Image.Image, box: Box, text: str, read, angle: int = 0, along: int | None = None) -> bool:
    """Whether the region ``box`` of ``image`` (padded: ``crop_for_reading``) reads ``text``
    (``read``: image -> OCR lines)."""
    return occurrences(text, read(crop_for_reading(image, box, angle, along))) > 0


def fixed_in_box(doc: Document, best: Image.Image, box: Box, text: str, read, angle: int = 0, along=None) -> bool:
    """Whether ``best`` has its error at ``box`` fixed: the region reads ``text``
    (``reads_in_box``), or, where tesseract misreads even the clean page there (a footer's
    "www.filmweek.org" read "wwwfilmweek.org" in the crop), it reads as the clean page's region
    does and not as the erroneous page's."""
    if reads_in_box(best, box, text, read, angle, along):
        return True
    seen = {
        name: [ln.text for ln in read(crop_for_reading(image, box, angle, along))]
        for name, image in (("best", best), ("clean", doc.clean), ("erroneous", doc.erroneous))
    }
    return seen["best"] == seen["clean"] != seen["erroneous"]


class ReadOnceJudge(OCRJudge):
    """The OCR judge, reading each distinct image (by its pixels) once per language: the refine
    loop judges the erroneous page the report has read already, and best.png it has judged."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._reads: dict[tuple[str, str | None], list[Line]] = {}

    def read(self, image: Image.Image, lang: str | None = None) -> list[Line]:
        rgb = image.convert("RGB")
        key = (hashlib.sha1(rgb.tobytes() + str(rgb.size).encode()).hexdigest(), lang or self.lang)
        if key not in self._reads:
            self._reads[key] = super().read(rgb, lang)
        return self._reads[key]


# -- the judge ---------------------------------------------------------------------------------


def judge_rows(doc: Document, judge: OCRJudge, lines: dict[str, list[Line]]) -> list[dict]:
    """One row per (page, question): qtype, page, truth, answer, reason, locator counts."""
    rows = []
    checks = {c.id: c for c in make_checks(doc, rubric_only=False)}
    for page, image in (("clean", doc.clean), ("erroneous", doc.erroneous)):
        for q in doc.questions:
            check = checks[q.id]
            t0 = time.perf_counter()
            v = judge.judge_lines(lines[page], image.size, check, image)
            text = check.spec.text if check.spec is not None else None
            vlm = [p for p in (check.spec.vlm_parts if check.spec else ()) if str(p).startswith("locator")]
            rows.append(
                {
                    "doc": doc.id,
                    "check": q.id,
                    "qtype": q.qtype,
                    "page": page,
                    "question": q.question,
                    "truth": q.answer_clean if page == "clean" else q.answer_erroneous,
                    "answer": v.answer,
                    "reason": v.reason,
                    "seconds": time.perf_counter() - t0,
                    "locators": len(getattr(text, "locators", ()) or ()),
                    "vlm_locators": len(vlm),
                    "element": getattr(text, "element", None) is not None,
                }
            )
    return rows


def judge_figures(rows: list[dict]) -> dict:
    """Per page and question type: n, false yes, false no, withheld, kappa (withheld counted as a
    wrong answer); overall kappa; locator phrases represented and handed to a VLM."""
    by: dict = {}
    for page in ("clean", "erroneous"):
        rs = [r for r in rows if r["page"] == page]
        by[page] = {
            t: summarize([r for r in rs if r["qtype"] == t]) for t in QTYPES if any(r["qtype"] == t for r in rs)
        }
        by[page]["all"] = summarize(rs)
    qs = [r for r in rows if r["page"] == "clean"]  # locators are the question's, the same on both pages
    rep, vlm = sum(r["locators"] for r in qs), sum(r["vlm_locators"] for r in qs)
    return {
        "all": summarize(rows),
        "by_page": by,
        "locators_represented": rep,
        "locators_to_vlm": vlm,
        "locator_share_represented": rep / (rep + vlm) if rep + vlm else None,
        "questions_with_element": sum(r["element"] for r in qs),
        "questions": len(qs),
        "false_yes_without_element": sum(
            r["answer"] == "yes" and r["truth"] == "no" and not r["element"] for r in rows
        ),
        # every question of the set names its element: one whose spec represents no element and
        # hands no locator to a VLM dropped its locator
        "questions_locator_dropped": sum(not r["element"] and not r["vlm_locators"] for r in qs),
        "false_yes_locator_dropped": sum(
            r["answer"] == "yes" and r["truth"] == "no" and not r["element"] and not r["vlm_locators"] for r in rows
        ),
    }


# -- refine --------------------------------------------------------------------------------------


def refine_doc(
    doc: Document, folder: Path, iterations: int, judge: OCRJudge
) -> tuple[Image.Image, Image.Image, list[dict], dict]:
    """Refine the erroneous page into ``folder/run`` (``judge`` in the loop); (best image, the
    last iteration's image, the kept actions, the item's summary)."""
    folder.mkdir(parents=True, exist_ok=True)
    doc.erroneous.save(folder / "erroneous.png")
    doc.clean.save(folder / "clean.png")
    (folder / "truth.json").write_text(json.dumps(doc.truth(), indent=1))
    item = make_item(doc, folder / "erroneous.png")
    loop = RefineLoop(judge, TemplateWriter(), TextEditor(), iterations=iterations)
    summary = loop.run([item], folder / "run")
    run_dir = folder / "run" / summary["items"][0]["best_image"].split("/")[0]
    best = Image.open(run_dir / "best.png").convert("RGB")
    last = Image.open(run_dir / f"iter_{len(summary['items'][0]['scores']) - 1}.png").convert("RGB")
    return best, last, kept_actions(run_dir), summary["items"][0]


def measure_refine(
    doc: Document, best: Image.Image, actions: list[dict], lines: dict[str, list[Line]], read, last=None
) -> dict:
    """The refine figures of one document (module docstring) against its ground truth; with
    ``last`` (the last iteration's image) also the errors fixed there (``fixed_last``: an edit
    the loop did not keep when the judge's pass rate did not rise)."""
    out_lines = read(best)
    by_id = {e.id: e for e in doc.elements}
    qs = {q.id: q for q in doc.questions}
    row = defaultdict(int)
    row["errors"] = len(doc.errors)
    row["details"] = []
    for err in doc.errors:
        e = by_id[err.element]
        region = e.slot if e.slot is not None else e.box
        # a missing item's slot is its place; it is read with little more around it
        along = PAD if e.slot is not None else None
        fixed = fixed_in_box(doc, best, region, err.correct, read, e.angle, along)
        contra = is_contradiction(err.shown, err.correct, out_lines, lines["clean"], lines["erroneous"])
        row["fixed"] += fixed
        if last is not None:
            row["fixed_last"] += fixed or fixed_in_box(doc, last, region, err.correct, read, e.angle, along)
        row["contradictions"] += contra
        row["details"].append(
            {"kind": err.kind, "element": e.id, "correct": err.correct, "fixed": fixed, "contra": contra}
        )
    wanted = {q.asked for q in doc.questions if q.answer_clean == "yes"}
    twice = sorted(t for t in wanted if written_twice(t, out_lines, lines["clean"]))
    row["written_twice"] = len(twice)
    row["twice"] = twice
    for a in actions:
        if not wrote_text(a) or a.get("check") not in qs:
            continue
        e = by_id[qs[a["check"]].element]
        if outside_element(a, e.box, e.slot):
            key = "rewrites_elsewhere" if a["action"].startswith("replace") else "additions_outside_slot"
            row[key] += 1
            row["details"].append({"outside": key, "text": a["text"], "action": a["action"], "box": a["box"]})
    # the strings written: each action's box and the ink it laid (``inked``: a lengthened rewrite
    # runs past the old string's box, and that is the new text, not damage)
    boxes = [e.box for e in doc.elements] + [
        tuple(b) for a in actions if wrote_text(a) for b in [a["box"], *a.get("inked", [])]
    ]
    row["damaged_px"] = damaged_pixels(doc.erroneous, best, boxes)
    # the same outside every box the editor reported changing (erases too): what is left is
    # damage the editor's own record does not show; the difference is written or erased pixels
    # beyond the written strings' boxes
    every = boxes + [tuple(b) for a in actions if wrote_text(a) for b in a.get("boxes", [])]
    row["damaged_px_outside_reported"] = damaged_pixels(doc.erroneous, best, every)
    row["written"] = sum(wrote_text(a) for a in actions)
    return dict(row)


def side_by_side(before: Image.Image, after: Image.Image, gap: int = 12) -> Image.Image:
    """``before`` and ``after`` side by side on white."""
    canvas = Image.new("RGB", (before.width + after.width + gap, max(before.height, after.height)), (255, 255, 255))
    canvas.paste(before, (0, 0))
    canvas.paste(after, (before.width + gap, 0))
    return canvas


def run_split(split: str, n: int, out: Path, iterations: int, log=print) -> dict:
    """Judge and refine the ``n`` documents of ``split``; its figures (and per-document rows)."""
    judge = ReadOnceJudge()
    jrows, rrows = [], []
    for seed in split_seeds(split, n):
        t0 = time.time()
        doc = make_document(seed)
        lines = {"clean": judge.read(doc.clean), "erroneous": judge.read(doc.erroneous)}
        jrows.extend(judge_rows(doc, judge, lines))
        folder = out / split / doc.id
        best, last, actions, item = refine_doc(doc, folder, iterations, judge)
        side_by_side(doc.erroneous, best).save(folder / "before_after.png")
        r = measure_refine(doc, best, actions, lines, judge.read, last)
        scores = item["scores"]
        r |= {
            "doc": doc.id,
            "pass_before": scores[0]["pass_rate"],
            "pass_after": scores[item["best_iteration"]]["pass_rate"],
            "stop_reason": item["stop_reason"],
            "seconds": time.time() - t0,
        }
        rrows.append(r)
        log(
            f"{split} {doc.id}: fixed {r['fixed']}/{r['errors']}, contradictions {r.get('contradictions', 0)}, "
            f"twice {r['written_twice']}, outside slot {r.get('additions_outside_slot', 0)}, "
            f"elsewhere {r.get('rewrites_elsewhere', 0)}, damaged px {r['damaged_px']}, "
            f"pass {r['pass_before']:.2f} -> {r['pass_after']:.2f}, {r['seconds']:.0f} s",
            flush=True,
        )
    tot = lambda k: sum(r.get(k, 0) for r in rrows)  # noqa: E731
    by_kind: dict = defaultdict(lambda: [0, 0])
    for r in rrows:
        for d in r["details"]:
            if "kind" in d:
                by_kind[d["kind"]][0] += d["fixed"]
                by_kind[d["kind"]][1] += 1
    refine = {
        "documents": len(rrows),
        "errors_fixed": f"{tot('fixed')}/{tot('errors')}",
        "errors_fixed_in_last_iteration": f"{tot('fixed_last')}/{tot('errors')}",
        "fixed_by_kind": {k: f"{a}/{b}" for k, (a, b) in sorted(by_kind.items())},
        "contradictions": tot("contradictions"),
        "written_twice": tot("written_twice"),
        "additions_outside_slot": tot("additions_outside_slot"),
        "rewrites_elsewhere": tot("rewrites_elsewhere"),
        "damaged_px": tot("damaged_px"),
        "damaged_px_outside_reported": tot("damaged_px_outside_reported"),
        "strings_written": tot("written"),
        "pass_rate_before": sum(r["pass_before"] for r in rrows) / max(1, len(rrows)),
        "pass_rate_after": sum(r["pass_after"] for r in rrows) / max(1, len(rrows)),
        "seconds_per_doc": tot("seconds") / max(1, len(rrows)),
        "stop_reasons": dict(Counter(re.sub(r"\d+", "N", str(r["stop_reason"])) for r in rrows)),
    }
    return {"judge": judge_figures(jrows), "refine": refine, "documents": rrows, "verdicts": jrows}


def _f(x, d: int = 3) -> str:
    if isinstance(x, dict):
        return ", ".join(f"{k} {v}" for k, v in x.items())
    return "-" if x is None else (f"{x:.{d}f}" if isinstance(x, float) else str(x))


def print_split(split: str, fig: dict) -> None:
    """The split's judge table (per page and type) and refine figures."""
    j = fig["judge"]
    print(f"\n[{split}] judge: kappa {_f(j['all']['kappa'])} (withheld counted wrong), n {j['all']['n']}")
    print(f"  {'page':<10} {'type':<14} {'n':>3} {'f_yes':>5} {'f_no':>5} {'withh':>5} {'kappa':>6}")
    for page, types in j["by_page"].items():
        for t, m in types.items():
            print(
                f"  {page:<10} {t:<14} {m['n']:>3} {m['false_yes']:>5} {m['false_no']:>5} {m['withheld']:>5} "
                f"{_f(m['kappa']):>6}"
            )
    print(
        f"  locators represented {j['locators_represented']}, to a VLM {j['locators_to_vlm']} "
        f"(share represented {_f(j['locator_share_represented'], 2)}); questions with an element "
        f"{j['questions_with_element']}/{j['questions']}; false yes without element {j['false_yes_without_element']}; "
        f"locator dropped {j['questions_locator_dropped']} (false yes {j['false_yes_locator_dropped']})"
    )
    print(f"[{split}] refine:")
    for k, v in fig["refine"].items():
        print(f"  {k:24s} {_f(v)}")


def markdown(figures: dict) -> str:
    """The splits side by side as two Markdown tables: refine figures, then the judge's false yes /
    false no / withheld per question type on the clean and the erroneous page."""
    splits = list(figures)
    head = "| | " + " | ".join(splits) + " |\n|---|" + "---:|" * len(splits)
    rows = [head]
    for k in figures[splits[0]]["refine"]:
        rows.append(f"| {k} | " + " | ".join(_f(figures[s]["refine"][k]) for s in splits) + " |")
    for k in ("kappa",):
        rows.append(f"| judge {k} | " + " | ".join(_f(figures[s]["judge"]["all"][k]) for s in splits) + " |")
    for k in (
        "locators_represented",
        "locators_to_vlm",
        "locator_share_represented",
        "questions_with_element",
        "questions",
        "false_yes_without_element",
        "questions_locator_dropped",
        "false_yes_locator_dropped",
    ):
        rows.append(f"| judge {k} | " + " | ".join(_f(figures[s]["judge"][k]) for s in splits) + " |")
    cols = [f"{s} {page}" for s in splits for page in ("clean", "erroneous")]
    judge = ["", "| type | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for t in (*QTYPES, "all"):
        cells = []
        for s in splits:
            for page in ("clean", "erroneous"):
                m = figures[s]["judge"]["by_page"][page].get(t)
                cells.append(f"{m['n']}: {m['false_yes']}/{m['false_no']}/{m['withheld']}" if m else "-")
        if any(c != "-" for c in cells):
            judge.append(f"| {t} | " + " | ".join(cells) + " |")
    judge.append("(n: false yes / false no / withheld)")
    return "\n".join(rows + judge)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("dev", "report", "both"), default="both")
    ap.add_argument("--n", type=int, default=8, help="documents per split (default 8)")
    ap.add_argument("--iterations", type=int, default=2, help="refine edits per document (default 2)")
    ap.add_argument(
        "--out", type=Path, default=None, help="images, runs and adversarial_refine.json (default: a temp folder)"
    )
    args = ap.parse_args(argv)
    if args.n < 1 or args.iterations < 0:
        ap.error("--n must be >= 1 and --iterations >= 0")
    out = args.out or Path(tempfile.mkdtemp(prefix="adversarial_"))
    out.mkdir(parents=True, exist_ok=True)
    splits = ("dev", "report") if args.split == "both" else (args.split,)
    figures = {s: run_split(s, args.n, out, args.iterations) for s in splits}
    for s, fig in figures.items():
        print_split(s, fig)
    print("\n" + markdown(figures))
    (out / "adversarial_refine.json").write_text(json.dumps(figures, indent=2, default=str))
    print(f"\nimages, runs and adversarial_refine.json: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
