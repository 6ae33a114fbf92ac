"""The fidelity set and rubricloop-judge-bench: kappa by hand, labelled documents, one run end to end."""

import random
import shutil

import pytest

from documents.fidelity import QTYPES, make_document, near_miss, split_seeds
from evaluation.judge_bench import cohen_kappa, main, summarize


def test_cohen_kappa_by_hand():
    # p_o = 3/4; p_e = 1/2 * 1/4 + 1/2 * 3/4 = 1/2; kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2
    assert cohen_kappa(["yes", "yes", "no", "no"], ["yes", "no", "no", "no"]) == pytest.approx(0.5)
    assert cohen_kappa(["yes", "no"], ["yes", "no"]) == 1.0
    assert cohen_kappa(["yes", "yes"], ["yes", "yes"]) == 1.0  # p_e = 1 and full agreement
    assert cohen_kappa([], []) is None


def test_withheld_counts_as_wrong_and_apart():
    rows = [
        {"truth": "yes", "answer": "yes", "seconds": 1.0},
        {"truth": "no", "answer": "no", "seconds": 1.0},
        {"truth": "yes", "answer": "withheld", "seconds": 1.0},
        {"truth": "no", "answer": "yes", "seconds": 3.0},
    ]
    m = summarize(rows)
    assert m["coverage"] == 0.75 and m["agreement"] == 0.5 and m["false_yes"] == 1 and m["false_no"] == 0
    # as wrong: answers yes, no, no, yes vs truth yes, no, yes, no -> p_o 1/2, p_e 1/2 -> 0
    assert m["kappa"] == pytest.approx(0.0)
    # decided only: yes, no, yes vs yes, no, no -> p_o 2/3, p_e 2/3*1/3 + 1/3*2/3 = 4/9 -> 0.4
    assert m["kappa_decided"] == pytest.approx((2 / 3 - 4 / 9) / (1 - 4 / 9))
    assert m["seconds_per_check"] == 1.5


def test_documents_are_labelled_and_seeded():
    a, b = make_document(5), make_document(5)
    assert [q.question for q in a.questions] == [q.question for q in b.questions]
    assert a.image.tobytes() == b.image.tobytes()
    assert split_seeds("dev", 3) == [0, 1, 2] and split_seeds("test", 2) == [1000, 1001]
    docs = [make_document(s) for s in range(8)]
    assert {d.kind for d in docs} == {"slide", "chart", "poster", "webpage"}
    qs = [q for d in docs for q in d.questions]
    assert {q.qtype for q in qs} <= set(QTYPES) and {q.answer for q in qs} == {"yes", "no"}
    assert 0.3 < sum(q.answer == "yes" for q in qs) / len(qs) < 0.8
    rng = random.Random(0)
    for text in ("Revenue", "Net margin 12.5%", "Q3"):
        assert all(near_miss(text, rng) != text for _ in range(20))


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
def test_bench_prints_kappa_per_judge(tmp_path, capsys):
    assert main(["--split", "dev", "--docs", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if l.startswith("kappa ")]
    assert [l.split()[2] for l in lines] == ["judge=ocr", "judge=ocr-keywords"]
    n_checks = len(make_document(0).questions)  # 24 since weight, colour, between, row and style were added
    assert (tmp_path / "judge_bench.json").exists() and (tmp_path / "verdicts.jsonl").read_text().count(
        "\n"
    ) == 2 * n_checks


def test_bad_option_exits_2():
    with pytest.raises(SystemExit) as e:
        main(["--docs", "0"])
    assert e.value.code == 2


def test_markdown_table_rows():
    from evaluation.judge_bench import markdown_table

    m = summarize(
        [{"truth": "yes", "answer": "yes", "seconds": 0.5}, {"truth": "no", "answer": "withheld", "seconds": 0.25}]
    )
    report = {"judges": {"ocr": {"all": m, "by_type": {"weight": m}}, "ocr-keywords": {"all": m, "by_type": {}}}}
    rows = markdown_table(report).splitlines()
    # coverage 1/2, agreement 1/2 (withheld counted wrong: yes, yes vs yes, no -> p_o 1/2, p_e 1/2 -> kappa 0)
    assert rows[2] == "| weight | 2 | 0.50 | 0.50 | 0.000 | 1.000 | 0 | 0 | 0.38 | - | - |"
    assert rows[3].startswith("| all | 2 | 0.50 |") and rows[3].endswith("| 0.50 | 0.000 |")
