"""Calls to an endpoint, made one at a time or concurrently (issue 19).

Serves the test suite's OpenAI-compatible stub (`tests/llmstub.py`) on 127.0.0.1
with a fixed latency per reply and runs the plugin at each concurrency given,
serially and under `-n 2`, plus the same suite with no model call (the cost of
pytest and scoring alone). Modes:
- `live`: --questions QA rows answered with `--bizbench-predictions gpt=llm:stub`;
- `judge`: as many ground-truth documents whose one field only the judge model
  decides (fuzzy similarity below strictness), predictions inline;
- `embedding`: the same documents decided by the embedding model;
- `undetermined`: QA answers from a file that the non-answer detector leaves
  undetermined, each decided by the judge model (the non-answer rubric).
Prints wall time, the calling span (first request in to last reply out, as the
stub saw it: pytest's own start-up and scoring left out), requests and the most
requests in flight, and checks that every run's report agrees with the first
outside "run" and latencies.

Usage: python benchmarks/bench_llm.py [--mode live] [--questions 40] [--latency 0.2]
       [--concurrency 1 8]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from llmstub import Stub, serve  # noqa: E402


def _comparable(report: dict[str, Any]) -> dict[str, Any]:
    del report["run"]
    for bench in report["benchmarks"].values():
        for entry in bench["models"].values():
            entry["metrics"] = {
                k: v for k, v in entry["metrics"].items() if not k.startswith("latency_")
            }
            for document in entry["documents"]:
                document.pop("latency_ms", None)
    return report


def _run(root: Path, case_file: str, args: list[str]) -> tuple[float, dict[str, Any]]:
    report = root / "report.json"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    command += ["--bizbench-report", str(report), str(root / case_file)]
    start = time.perf_counter()
    subprocess.run(command, cwd=root, check=False, capture_output=True)
    wall = time.perf_counter() - start
    return wall, json.loads(report.read_text(encoding="utf-8"))


def _write_questions(root: Path, stub: Stub, n: int) -> tuple[str, list[str], list[str], str]:
    """(case file, args without calls, args with calls, ini lines): QA rows answered live."""
    rows = [{"id": f"q{i:03d}", "question": f"Question {i}?", "expected": "yes"} for i in range(n)]
    (root / "q.qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (root / "answers.json").write_text(json.dumps({r["id"]: "yes" for r in rows}))
    stub.answers = {"Question": "yes"}
    offline = ["--bizbench-predictions", "gpt=answers.json"]
    return "q.qa.jsonl", offline, ["--bizbench-predictions", "gpt=llm:stub"], ""


def _write_fields(
    root: Path, stub: Stub, n: int, mode: str
) -> tuple[str, list[str], list[str], str]:
    """Documents whose `note` only the judge (or embedding) model decides."""
    rows = [
        {"id": f"d{i:03d}", "ground_truth": {"note": f"Paid in full {i}"},
         "extracted_fields": {"note": f"Settled completely {i}"}}
        for i in range(n)
    ]  # fmt: skip
    (root / "d.ground-truth.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    stub.answers = {"Settled completely": '{"score": 80}'}
    stub.vectors = {
        **{f"Paid in full {i}": [1.0, 0.0] for i in range(n)},
        **{f"Settled completely {i}": [0.96, 0.28] for i in range(n)},
    }
    key = (
        "bizbench_judge_model = stub-judge"
        if mode == "judge"
        else ("bizbench_embedding_model = stub-embed")
    )
    return "d.ground-truth.jsonl", [], [], key + "\n"


def _write_undetermined(root: Path, stub: Stub, n: int) -> tuple[str, list[str], list[str], str]:
    """QA answers that state a fact beside "the excerpt does not name": the judge decides."""
    rows = [
        {"id": f"g{i:03d}", "question": f"Who audits Firm{i}?", "expected": "Smith & Lowe LLP"}
        for i in range(n)
    ]
    (root / "g.qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    answer = "The excerpt does not name Firm{}'s auditor, but its board has nine members."
    answers = {r["id"]: answer.format(i) for i, r in enumerate(rows)}
    (root / "answers.json").write_text(json.dumps(answers))
    stub.answers = {"You decide whether": '{"score": 100}'}
    files = ["--bizbench-predictions", "answers.json"]
    return "g.qa.jsonl", files, files, "bizbench_judge_model = stub-judge\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--mode", choices=["live", "judge", "embedding", "undetermined"], default="live"
    )
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    options = parser.parse_args()
    n = options.questions
    with tempfile.TemporaryDirectory() as tmp, serve(Stub(latency=options.latency)) as stub:
        root = Path(tmp)
        if options.mode == "live":
            case_file, offline, calling, ini = _write_questions(root, stub, n)
        elif options.mode == "undetermined":
            case_file, offline, calling, ini = _write_undetermined(root, stub, n)
        else:
            case_file, offline, calling, ini = _write_fields(root, stub, n, options.mode)
        print(f"{options.mode}: {n} cases, {options.latency * 1000:.0f} ms per reply\n")
        print("| run | wall s | calling span s | requests | max in flight |")
        print("|---|---:|---:|---:|---:|")
        first: dict[str, Any] | None = None
        for workers in ([], ["-n", "2"]):
            (root / "pytest.ini").write_text("[pytest]\n")
            wall, _ = _run(root, case_file, [*workers, *offline])
            label = "no model calls" + (", -n 2" if workers else "")
            print(f"| {label} | {wall:.2f} | – | 0 | 0 |")
            for concurrency in options.concurrency:
                (root / "pytest.ini").write_text(
                    f"[pytest]\nbizbench_llm_base_url = {stub.base_url}\n"
                    f"bizbench_llm_concurrency = {concurrency}\n{ini}"
                )
                stub.reset_counts()
                wall, report = _run(root, case_file, [*workers, *calling])
                label = f"{options.mode}, concurrency {concurrency}" + (", -n 2" if workers else "")
                requests, most = len(stub.requests), stub.max_in_flight
                print(f"| {label} | {wall:.2f} | {stub.span():.2f} | {requests} | {most} |")
                comparable = _comparable(report)
                first = first or comparable
                if comparable != first:
                    print(f"  !! {label}: report differs from the first run with calls")


if __name__ == "__main__":
    main()
