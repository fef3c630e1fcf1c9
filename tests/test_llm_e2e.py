"""The endpoint end to end: live answers, concurrency, retries, the stop on a refused key,
secrets, the cache, serial against -n 2, and the judge and embedding rungs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bizhelpers import Suite, doc, glob_escape, jsonl
from llmstub import Failure, Stub

KEY = "sk-test-SECRET-0042"
ENV = "BIZBENCH_TEST_KEY"
LIVE = ("--bizbench-predictions", "gpt=llm:stub-chat")

ROWS = [
    {"id": "g1", "question": "Who audits Norvale?", "expected": "Smith & Lowe LLP"},
    {"id": "g2", "question": "What is the capital of France?", "expected": "Paris"},
]
FIN = [
    {"financebench_id": "fb-1", "question": "What is Norvale's FY2022 capex (in USD millions)?",
     "answer": "$412.00", "evidence": [{"evidence_text": "Purchases of PP&E (412)"}]},
]  # fmt: skip


def write_ini(suite: Suite, stub: Stub, **extra: str) -> None:
    keys = {
        "bizbench_llm_base_url": stub.base_url,
        "bizbench_llm_api_key_env": ENV,
        "bizbench_llm_backoff": "0",
        **extra,
    }
    suite.write("pytest.ini", "[pytest]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items()))


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)


def questions(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"q{i:02d}", "question": f"Question number {i}?", "expected": "yes"}
        for i in range(n)
    ]


def stripped(report: dict[str, Any]) -> dict[str, Any]:
    """The report without what timing decides: the run and every latency."""
    del report["run"]
    for bench in report["benchmarks"].values():
        for entry in bench["models"].values():
            for key in [k for k in entry["metrics"] if k.startswith("latency_")]:
                del entry["metrics"][key]
            for document in entry["documents"]:
                document.pop("latency_ms", None)
    return report


@pytest.mark.usefixtures("keyed")
def test_live_answers_usage_latency_and_tokens(suite: Suite, stub: Stub) -> None:
    suite.write("qa/g.qa.jsonl", jsonl(ROWS))
    suite.write("qa/fin.qa.jsonl", jsonl(FIN))
    write_ini(suite, stub)
    stub.answers = {
        "Who audits Norvale?": "Smith & Lowe LLP",
        "capital of France": "Lyon",
        "Purchases of PP&E": "$412 million",
    }
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    result.assert_outcomes(passed=3, failed=1)  # with bizbench::gate; g2's answer is wrong
    docs = suite.documents("qa-answer", "gpt")
    assert [docs[i]["score"] for i in ("g1", "g2", "fb-1")] == [1.0, 0.0, 1.0]
    assert docs["g1"]["details"]["answer"]["actual"] == "Smith & Lowe LLP"
    assert docs["g2"]["details"]["answer"]["actual"] == "Lyon"
    # the stub counts words: "Question: Who audits Norvale?\nAnswer:" is 5, its answer 4
    assert docs["g1"]["details"]["usage"] == {"prompt_tokens": 5, "completion_tokens": 4}
    assert docs["g2"]["details"]["usage"] == {"prompt_tokens": 8, "completion_tokens": 1}
    # open book: the evidence line (4 words) and the question (11 words)
    assert docs["fb-1"]["details"]["usage"] == {"prompt_tokens": 15, "completion_tokens": 2}
    assert all(d["latency_ms"] > 0 for d in docs.values())
    metrics = suite.metrics("qa-answer", "gpt")
    assert (metrics["tokens_prompt"], metrics["tokens_completion"]) == (28, 7)
    assert metrics["latency_p50_ms"] > 0
    assert sorted(stub.prompts()) == sorted(
        [
            "Question: Who audits Norvale?\nAnswer:",
            "Question: What is the capital of France?\nAnswer:",
            "Evidence:\nPurchases of PP&E (412)\n\n"
            "Question: What is Norvale's FY2022 capex (in USD millions)?\nAnswer:",
        ]
    )
    assert {r["body"]["model"] for r in stub.requests} == {"stub-chat"}
    assert {r["auth"] for r in stub.requests} == {f"Bearer {KEY}"}


@pytest.mark.parametrize("concurrency", [1, 4])
def test_calls_run_concurrently_up_to_the_setting(
    suite: Suite, stub: Stub, concurrency: int
) -> None:
    suite.write("qa/q.qa.jsonl", jsonl(questions(16)))
    write_ini(suite, stub, bizbench_llm_concurrency=str(concurrency))
    stub.latency = 0.05
    stub.answers = {"Question number": "yes"}
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    result.assert_outcomes(passed=17)  # with bizbench::gate
    assert len(stub.requests) == 16  # each question asked once
    if concurrency == 1:
        assert stub.max_in_flight == 1
    else:
        assert 1 < stub.max_in_flight <= concurrency


def test_retries_then_the_item_fails_with_the_error(suite: Suite, stub: Stub) -> None:
    suite.write("qa/g.qa.jsonl", jsonl(ROWS))
    write_ini(suite, stub, bizbench_llm_retries="2")
    stub.answers = {"Norvale": "Smith & Lowe LLP"}
    stub.failures = [
        Failure("Norvale", 429, retry_after="0"),
        Failure("Norvale", 500),
        Failure("France", 503, times=99, body="overloaded"),
    ]
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    result.assert_outcomes(passed=1, failed=2)  # g2 and the gate
    prompts = stub.prompts()
    assert sum("Norvale" in p for p in prompts) == 3  # 429, 500, then the answer
    assert sum("France" in p for p in prompts) == 3  # 1 + 2 retries
    failed = suite.documents("qa-answer", "gpt")["g2"]
    error = (
        f"LLMError: HTTP 503 from {stub.base_url}/chat/completions: overloaded "
        "(gave up after 3 attempts)"
    )
    assert failed["outcome"] == "failed"
    assert failed["details"] == {"error": error, "refusal": False}


@pytest.mark.parametrize("workers", [0, 2])
def test_a_refused_key_stops_the_run_naming_the_variable(
    suite: Suite, stub: Stub, keyed: None, workers: int
) -> None:
    suite.write("qa/q.qa.jsonl", jsonl(questions(12)))
    write_ini(suite, stub, bizbench_llm_concurrency="2")
    stub.key = "another-key"
    if workers:
        result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", *LIVE)
    else:
        result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    # each process fails the item that met the refusal, then stops
    assert 2 <= result.parseoutcomes()["failed"] <= max(1, workers) + 1  # + the gate
    assert "passed" not in result.parseoutcomes()
    message = (
        f"the endpoint {stub.base_url}/chat/completions answered HTTP 401: the API key is "
        f"missing or wrong; the environment variable {ENV} (ini bizbench_llm_api_key_env) "
        "holds a key it refused"
    )
    result.stdout.fnmatch_lines([f"*Interrupted: {message}*"])
    assert len(stub.requests) <= 2 * max(1, workers)  # at most the calls already in flight
    assert suite.report()["completeness"]["complete"] is False
    assert KEY not in result.stdout.str() + result.stderr.str()


def test_the_key_reaches_no_file_and_no_output(suite: Suite, stub: Stub, keyed: None) -> None:
    suite.write("qa/g.qa.jsonl", jsonl(ROWS))
    write_ini(suite, stub, bizbench_prediction_cache=".cache", bizbench_llm_retries="0")
    stub.key = KEY
    stub.echo_auth = True  # the server quotes the Authorization header in its error
    stub.answers = {"Norvale": "Smith & Lowe LLP"}
    stub.failures = [Failure("France", 500, times=9)]
    result = suite.pytester.runpytest(
        "-p", "no:cacheprovider", "-v", "-rA", "--junitxml=junit.xml", *LIVE,
        "-o", "log_cli=true", "--log-cli-level=DEBUG", "--log-file=run.log",
        "--log-file-level=DEBUG",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=2)  # g2 and the gate
    error = suite.documents("qa-answer", "gpt")["g2"]["details"]["error"]
    assert error.endswith("stub failure Bearer *** (gave up after 1 attempt)")
    written = [p for p in suite.path.rglob("*") if p.is_file()]
    assert any(p.parent.name == ".cache" for p in written)
    assert "HTTP Request: POST" in (suite.path / "run.log").read_text()  # httpx's log
    for path in written:
        assert KEY.encode() not in path.read_bytes(), path
    assert KEY not in result.stdout.str() + result.stderr.str()


@pytest.mark.usefixtures("keyed")
def test_a_second_identical_run_makes_no_request(suite: Suite, stub: Stub) -> None:
    rows = [
        *ROWS,
        {"id": "g3", "question": "Who is Ostra's auditor?", "expected": "Smith & Lowe LLP"},
    ]
    suite.write("qa/g.qa.jsonl", jsonl(rows))
    write_ini(suite, stub, bizbench_prediction_cache=".cache", bizbench_judge_model="stub-judge")
    stub.answers = {
        # the QA judge's prompt quotes the answer it grades
        '"answer": "The Smith and Lowe partnership"': '{"score": 90, "reason": "same firm"}',
        "Ostra": "The Smith and Lowe partnership",
        "Norvale": "Smith & Lowe LLP",
        "France": "Paris",
    }
    suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    first = suite.report()
    judged = [r for r in stub.requests if r["body"]["model"] == "stub-judge"]
    assert len(judged) == 1
    assert judged[0]["body"]["messages"][0]["content"].startswith(
        "You grade a system's answer to a question"
    )
    assert len(stub.requests) == 4
    answer = first["benchmarks"]["qa-answer"]["models"]["gpt"]["documents"][2]["details"]
    assert (answer["answer"]["rung"], answer["answer"]["score"]) == ("judge", 0.9)
    stub.reset_counts()
    suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    assert stub.requests == []
    second = suite.report()
    del first["run"], second["run"]
    assert second == first  # latencies too: a cached reply keeps its own


@pytest.mark.usefixtures("keyed")
def test_serial_and_two_workers_give_the_same_report(suite: Suite, stub: Stub) -> None:
    rows = questions(12)
    suite.write("qa/q.qa.jsonl", jsonl(rows[:7]))
    suite.write("qa/r.qa.jsonl", jsonl(rows[7:]))
    write_ini(suite, stub, bizbench_llm_concurrency="3")
    stub.latency = 0.01
    stub.answers = {f"number {i}?": "yes" if i % 3 else "no" for i in range(12)}
    reports = []
    for args in (["-p", "no:xdist"], ["-n", "2"]):
        stub.reset_counts()
        result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, *LIVE)
        result.assert_outcomes(passed=9, failed=4)  # with bizbench::gate; every third is wrong
        assert len(stub.requests) == 12  # every question asked once, by one process
        reports.append(stripped(suite.report()))
    assert reports[1]["completeness"] == reports[0]["completeness"]
    assert reports[1] == reports[0]


GROUND_TRUTH = {
    "vendor": "Acme Corporation",
    "note": "Paid in full",
    "terms": "Net 30 days",
    "city": "Springfield",
}
EXTRACTED = {
    "vendor": "ACME Corp International",
    "note": "Settled completely",
    "terms": "Thirty days net",
    "city": "Shelbyville",
}


def write_fields(suite: Suite) -> None:
    suite.cases(
        "cases/a.ground-truth.jsonl", [doc("inv-1", GROUND_TRUTH, extracted_fields=EXTRACTED)]
    )


@pytest.mark.usefixtures("keyed")
def test_embedding_and_judge_rungs_on_the_endpoint(suite: Suite, stub: Stub) -> None:
    write_fields(suite)
    write_ini(suite, stub, bizbench_judge_model="stub-judge", bizbench_embedding_model="stub-embed")
    stub.vectors = {
        "Acme Corporation": [1.0, 0.0, 0.0],
        "ACME Corp International": [0.96, 0.28, 0.0],  # cosine 0.96
        **{GROUND_TRUTH[f]: [1.0, 0.0, 0.0] for f in ("note", "terms", "city")},
        **{EXTRACTED[f]: [0.0, 1.0, 0.0] for f in ("note", "terms", "city")},  # cosine 0
    }
    stub.answers = {
        '"extracted": "Settled completely"': '```json\n{"score": 70}\n```',
        '"extracted": "Thirty days net"': "I would give it a score: 40.",
        '"extracted": "Shelbyville"': "Looks different to me.",
    }
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(
        passed=1, failed=1
    )  # passed: the gate  # an unscored field fails the item
    entry = suite.report()["benchmarks"]["field-accuracy"]
    assert entry["config"]["rungs_available"] == ["exact", "fuzzy", "embedding", "judge"]
    assert "scoring_note" not in entry["config"]
    (document,) = entry["models"]["default"]["documents"]
    details = document["details"]
    assert (details["vendor"]["rung"], details["vendor"]["score"]) == ("embedding", 1.0)
    assert details["vendor"]["cosine"] == 0.96
    assert (details["note"]["rung"], details["note"]["score"]) == ("judge", 0.7)
    assert (details["terms"]["rung"], details["terms"]["score"]) == ("judge", 0.4)
    city = details["city"]
    assert (city["score"], city["unscored"]) == (0.0, True)
    assert city["reason"] == (
        "judge-error: JudgeReplyError: no 0-100 score in the judge's reply 'Looks different to me.'"
    )
    assert document["score"] == pytest.approx((1.0 + 0.7 + 0.4 + 0.0) / 4)
    paths = stub.paths()
    assert (paths.count("/v1/embeddings"), paths.count("/v1/chat/completions")) == (4, 3)
    prompt = stub.prompts()[0]
    assert prompt.startswith("You grade one field that a system extracted")
    values = json.loads(prompt.rstrip().splitlines()[-1])
    assert values["field"] in {"note", "terms", "city"}


def test_a_conftest_judge_wins_over_the_endpoint(suite: Suite, stub: Stub) -> None:
    write_fields(suite)
    write_ini(suite, stub, bizbench_judge_model="stub-judge")
    suite.write(
        "conftest.py", "def pytest_bizbench_judge(field, expected, actual):\n    return 100\n"
    )
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)  # with bizbench::gate
    details = suite.documents()["inv-1"]["details"]
    assert {details[f]["rung"] for f in GROUND_TRUTH} == {"judge"}
    assert stub.requests == []


def test_without_the_extra_the_run_says_what_to_install(suite: Suite, stub: Stub) -> None:
    write_fields(suite)
    write_ini(suite, stub, bizbench_judge_model="stub-judge")
    suite.write("conftest.py", "import sys\nsys.modules['httpx'] = None  # not installed\n")
    result = suite.pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    hint = glob_escape("needs the llm extra: pip install 'pytest-bizbench[llm]'")
    result.stderr.fnmatch_lines([f"*{hint}*"])
    assert stub.requests == []


@pytest.mark.parametrize(
    ("args", "ini", "message"),
    [
        (LIVE, "", "*but ini bizbench_llm_base_url is not*"),
        (("--bizbench-predictions", "m=llm:"), "url", "*m=llm:: name an endpoint model*"),
        (
            ("--bizbench-predictions", "m=llm:x", "--bizbench-predictions", "m=llm:y"),
            "url",
            "*give an llm: model no other source*",
        ),
        (LIVE, "url\nbizbench_llm_concurrency = 0", "*bizbench_llm_concurrency = '0' must be*"),
    ],
)
def test_bad_llm_options(
    suite: Suite, stub: Stub, args: tuple[str, ...], ini: str, message: str
) -> None:
    suite.write("qa/g.qa.jsonl", jsonl(ROWS))
    ini = ini.replace("url", f"bizbench_llm_base_url = {stub.base_url}")
    suite.write("pytest.ini", f"[pytest]\n{ini}\n")
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_an_llm_model_answers_qa_rows_only(suite: Suite, stub: Stub) -> None:
    suite.cases("cases/a.ground-truth.jsonl", [doc("inv-1", GROUND_TRUTH)])
    write_ini(suite, stub)
    result = suite.pytester.runpytest("-p", "no:cacheprovider", *LIVE)
    result.assert_outcomes(failed=2)  # inv-1 and the gate
    details = suite.documents("field-accuracy", "gpt")["inv-1"]["details"]
    assert details["error"] == "TypeError: an llm: model answers QA rows only, not GroundTruthCase"
    assert stub.requests == []


def test_collect_only_asks_nothing(suite: Suite, stub: Stub) -> None:
    suite.write("qa/g.qa.jsonl", jsonl(ROWS))
    write_ini(suite, stub, bizbench_judge_model="stub-judge")
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "--collect-only", *LIVE)
    assert result.ret == pytest.ExitCode.OK
    assert stub.requests == []


@pytest.mark.usefixtures("keyed")
def test_the_endpoint_judge_decides_undetermined_answers_with_the_nonanswer_rubric(
    suite: Suite, stub: Stub
) -> None:
    # a claim beside a cue that does not name the gold: undetermined, for the judge
    answer = (
        "The excerpt does not name Norvale's auditor, but its audit committee has nine members."
    )
    suite.write("qa/g.qa.jsonl", jsonl(ROWS[:1]))
    suite.write("preds.jsonl", jsonl([{"id": "g1", "answer": answer}]))
    write_ini(suite, stub, bizbench_judge_model="stub-judge")
    stub.answers = {"You decide whether": '{"score": 95}'}
    suite.pytester.runpytest("--bizbench-predictions", "preds.jsonl", "-p", "no:cacheprovider")
    (document,) = suite.report()["benchmarks"]["qa-answer"]["models"]["default"]["documents"]
    details = document["details"]
    assert (details["refusal"], details["refusal_rung"]) == (True, "judge")
    (prompt,) = stub.prompts()
    assert prompt.startswith("You decide whether a system's answer")
    assert json.loads(prompt.rstrip().splitlines()[-1])["question"] == "Who audits Norvale?"


# The judge and embedding rungs fetched ahead: the scoring of the items a process will
# run is planned before they run, and its requests are made concurrently.

N_DOCS = 12


def many_fields(suite: Suite) -> None:
    """N_DOCS documents whose `note` fuzzy matching cannot decide (similarity < 0.9):
    even ones are close for the embedding model, odd ones are not."""
    suite.cases(
        "cases/m.ground-truth.jsonl",
        [
            doc(f"d{i:02d}", {"note": f"Paid in full {i}"},
                extracted_fields={"note": f"Settled completely {i}"})
            for i in range(N_DOCS)
        ],
    )  # fmt: skip


def script_models(stub: Stub) -> None:
    stub.latency = 0.05
    stub.vectors = {
        **{f"Paid in full {i}": [1.0, 0.0, 0.0] for i in range(N_DOCS)},
        **{f"Settled completely {i}": [0.96, 0.28, 0.0] for i in range(0, N_DOCS, 2)},
        **{f"Settled completely {i}": [0.0, 1.0, 0.0] for i in range(1, N_DOCS, 2)},
    }
    # the judge grades document i at 5 * i (its prompt quotes the extracted value)
    stub.answers = {
        f'"extracted": "Settled completely {i}"': json.dumps({"score": 5 * i})
        for i in range(N_DOCS)
    }


MODELS = {
    "judge": {"bizbench_judge_model": "stub-judge"},
    "embedding": {"bizbench_embedding_model": "stub-embed"},
    "both": {"bizbench_judge_model": "stub-judge", "bizbench_embedding_model": "stub-embed"},
}


@pytest.mark.parametrize("rungs", list(MODELS))
def test_judge_and_embedding_calls_are_made_concurrently_with_the_serial_report(
    suite: Suite, stub: Stub, rungs: str
) -> None:
    many_fields(suite)
    script_models(stub)
    reports, most = [], []
    for concurrency in (1, 4):
        write_ini(suite, stub, bizbench_llm_concurrency=str(concurrency), **MODELS[rungs])
        stub.reset_counts()
        result = suite.pytester.runpytest("-p", "no:cacheprovider")
        assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
        paths = stub.paths()
        embedded = N_DOCS if rungs != "judge" else 0
        judged = {"judge": N_DOCS, "embedding": 0, "both": N_DOCS // 2}[rungs]
        # each request made once: the plan's request is the one the scoring takes
        assert (paths.count("/v1/embeddings"), paths.count("/v1/chat/completions")) == (
            embedded,
            judged,
        )
        reports.append(stripped(suite.report()))
        most.append(stub.max_in_flight)
    assert most[0] == 1
    assert 1 < most[1] <= 4
    assert reports[1] == reports[0]
    notes = {d["id"]: d["details"]["note"] for d in suite.documents().values()}
    if rungs == "judge":
        assert [(notes[f"d{i:02d}"]["rung"], notes[f"d{i:02d}"]["score"]) for i in (0, 3)] == [
            ("judge", 0.0),
            ("judge", 0.15),
        ]
    elif rungs == "embedding":
        assert [(notes[f"d{i:02d}"]["rung"], notes[f"d{i:02d}"]["score"]) for i in (0, 3)] == [
            ("embedding", 1.0),
            ("fuzzy", 0.0),
        ]
    else:  # the judge only where the embedding did not decide
        assert [(notes[f"d{i:02d}"]["rung"], notes[f"d{i:02d}"]["score"]) for i in (2, 3)] == [
            ("embedding", 1.0),
            ("judge", 0.15),
        ]
        assert (notes["d02"]["cosine"], notes["d03"]["cosine"]) == (0.96, 0.0)


def test_undetermined_answers_are_judged_concurrently(suite: Suite, stub: Stub) -> None:
    # a claim beside a cue that does not name the gold: undetermined, for the judge
    answer = "The excerpt does not name {0}'s auditor, but its audit committee has nine members."
    names = [f"Firm{i}" for i in range(N_DOCS)]
    rows = [{"id": f"g{i:02d}", "question": f"Who audits {n}?", "expected": "Smith & Lowe LLP"}
            for i, n in enumerate(names)]  # fmt: skip
    suite.write("qa/g.qa.jsonl", jsonl(rows))
    suite.write("preds.jsonl", jsonl([{"id": r["id"], "answer": answer.format(n)}
                                      for r, n in zip(rows, names, strict=True)]))  # fmt: skip
    stub.latency = 0.05
    # a non-answer for the even firms; the odd ones are attempts, which the QA judge grades 0
    stub.answers = {
        **{f'"question": "Who audits Firm{i}?"': '{"score": 100 }' for i in range(0, N_DOCS, 2)},
        "You decide whether": '{"score": 0}',
        "You grade a system's answer": '{"score": 0}',
    }
    reports, most = [], []
    for concurrency in (1, 4):
        write_ini(suite, stub, bizbench_llm_concurrency=str(concurrency),
                  bizbench_judge_model="stub-judge")  # fmt: skip
        stub.reset_counts()
        suite.pytester.runpytest("--bizbench-predictions", "preds.jsonl", "-p", "no:cacheprovider")
        prompts = stub.prompts()
        # every answer asked once with the non-answer rubric; the odd (attempts) then once
        # with the QA rubric, which is planned after the first reply came in
        assert sum(p.startswith("You decide whether") for p in prompts) == N_DOCS
        assert sum(p.startswith("You grade a system's answer") for p in prompts) == N_DOCS // 2
        assert len(prompts) == N_DOCS + N_DOCS // 2
        reports.append(stripped(suite.report()))
        most.append(stub.max_in_flight)
    assert most[0] == 1
    assert 1 < most[1] <= 4
    assert reports[1] == reports[0]
    details = {d["id"]: d["details"] for d in suite.documents("qa-answer").values()}
    assert (details["g00"]["refusal"], details["g00"]["refusal_rung"]) == (True, "judge")
    assert (details["g01"]["refusal"], details["g01"]["answer"]["rung"]) == (False, "judge")


def test_fetched_ahead_serially_and_on_two_workers_alike(suite: Suite, stub: Stub) -> None:
    many_fields(suite)
    script_models(stub)
    write_ini(suite, stub, bizbench_llm_concurrency="3", **MODELS["both"])
    reports = []
    for args in (["-p", "no:xdist"], ["-n", "2"]):
        stub.reset_counts()
        suite.pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
        paths = stub.paths()
        # each request made once, by the one process that runs its item
        assert (paths.count("/v1/embeddings"), paths.count("/v1/chat/completions")) == (
            N_DOCS,
            N_DOCS // 2,
        )
        assert 1 < stub.max_in_flight <= 3 * (2 if "-n" in args else 1)  # 3 per process
        reports.append(stripped(suite.report()))
    assert reports[1] == reports[0]


def test_fetched_ahead_replies_are_cached(suite: Suite, stub: Stub) -> None:
    many_fields(suite)
    script_models(stub)
    write_ini(suite, stub, bizbench_prediction_cache=".cache", **MODELS["both"])
    suite.pytester.runpytest("-p", "no:cacheprovider")
    assert len(stub.requests) == N_DOCS + N_DOCS // 2
    first = suite.report()
    stub.reset_counts()
    suite.pytester.runpytest("-p", "no:cacheprovider")
    assert stub.requests == []
    second = suite.report()
    del first["run"], second["run"]
    assert second == first


def test_a_failed_call_fetched_ahead_fails_its_field_as_a_serial_call_would(
    suite: Suite, stub: Stub
) -> None:
    many_fields(suite)
    script_models(stub)
    reports = []
    for concurrency in (1, 4):
        write_ini(suite, stub, bizbench_llm_concurrency=str(concurrency),
                  bizbench_llm_retries="1", **MODELS["judge"])  # fmt: skip
        stub.failures = [Failure("Settled completely 5", 500, times=2, body="down")]
        stub.reset_counts()
        suite.pytester.runpytest("-p", "no:cacheprovider")
        assert len(stub.requests) == N_DOCS + 1  # d05: 1 + 1 retry
        reports.append(stripped(suite.report()))
    assert reports[1] == reports[0]
    note = suite.documents()["d05"]["details"]["note"]
    assert (note["score"], note["unscored"]) == (0.0, True)
    assert note["reason"] == (
        f"judge-error: LLMError: HTTP 500 from {stub.base_url}/chat/completions: down "
        "(gave up after 2 attempts)"
    )


def test_a_refused_key_met_ahead_stops_the_run_once(suite: Suite, stub: Stub, keyed: None) -> None:
    many_fields(suite)
    write_ini(suite, stub, bizbench_llm_concurrency="2", **MODELS["judge"])
    stub.key = "another-key"
    result = suite.pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([f"*Interrupted: *HTTP 401*{ENV} (ini bizbench_llm_api_key_env)*"])
    assert len(stub.requests) <= 2  # the calls already in flight when the first came back
    assert KEY not in result.stdout.str() + result.stderr.str()


def test_with_a_conftest_hook_nothing_is_fetched_ahead(suite: Suite, stub: Stub) -> None:
    """An embedding hook beside the endpoint's judge: planning would run the hook
    twice, so nothing is planned; each judge call is made when its field is scored."""
    many_fields(suite)
    script_models(stub)
    write_ini(suite, stub, bizbench_llm_concurrency="4", **MODELS["judge"])
    suite.write(
        "conftest.py",
        "CALLS = []\n"
        "def pytest_bizbench_embed(texts):\n"
        "    CALLS.append(texts)\n"
        "    return [[1.0, 0.0], [0.0, 1.0]]\n"
        "def pytest_sessionfinish(session):\n"
        "    print('EMBED CALLS', len(CALLS))\n",
    )
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "-s")
    result.stdout.fnmatch_lines([f"*EMBED CALLS {N_DOCS}"])  # once per field, never twice
    assert len(stub.requests) == N_DOCS
    assert stub.max_in_flight == 1
    notes = [d["details"]["note"] for d in suite.documents().values()]
    assert {(n["rung"], n["cosine"]) for n in notes} == {("judge", 0.0)}


def test_a_builtin_registered_with_its_own_judge_is_not_fetched_ahead(
    suite: Suite, stub: Stub
) -> None:
    """A configured `field-accuracy` registered from a conftest replaces the built-in:
    its judge is user code, so it is never run in a plan pass (once per field)."""
    many_fields(suite)
    script_models(stub)
    write_ini(suite, stub, bizbench_llm_concurrency="4", **MODELS["judge"])
    suite.write(
        "conftest.py",
        "from pytest_bizbench.benchmarks.field_accuracy import FieldAccuracy\n"
        "from pytest_bizbench.scoring import FieldLadder, LadderConfig\n"
        "CALLS = []\n"
        "def judge(field, expected, actual):\n"
        "    CALLS.append(field)\n"
        "    return 50\n"
        "def pytest_bizbench_add_benchmarks(config):\n"
        "    return [FieldAccuracy(FieldLadder(LadderConfig(), judge=judge))]\n"
        "def pytest_sessionfinish(session):\n"
        "    print('JUDGE CALLS', len(CALLS))\n",
    )
    result = suite.pytester.runpytest("-p", "no:cacheprovider", "-s")
    result.stdout.fnmatch_lines([f"*JUDGE CALLS {N_DOCS}"])
    assert stub.requests == []
    assert {d["details"]["note"]["judge_score"] for d in suite.documents().values()} == {50.0}
