"""Generate a realistic invoice-extraction suite for the performance benchmarks.

Writes `root/cases/part-XX.ground-truth.jsonl` (500 documents a file) and
`root/predictions.jsonl` with the kind of noise a real extractor produces, so every
rung of the field ladder (exact, fuzzy, number, date, set, nested) is exercised.
Deterministic for a given seed, so runs on different days time the same work.

Usage: python benchmarks/generate.py ROOT --docs 2000 [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

DOCS_PER_FILE = 500

_VENDOR_HEADS = (
    "Acme",
    "Globex",
    "Initech",
    "Umbrella",
    "Stark",
    "Wayne",
    "Pinecrest",
    "Oakridge",
    "Bluewater",
    "Northwind",
    "Contoso",
    "Fabrikam",
    "Tailspin",
    "Litware",
    "Woodgrove",
    "Proseware",
    "Adventure Works",
    "Lucerne",
    "Margie's",
    "Alpine Ski",
)
_VENDOR_MIDS = (
    "",
    " Industrial",
    " Medical Supplies",
    " Software",
    " Logistics",
    " Consulting",
    " Office Products",
    " Engineering",
)
_VENDOR_TAILS = (" GmbH", " Inc.", " Ltd", " LLC", " S.A.", " AG", " B.V.", "")
_BUYERS = (
    "Hooli",
    "Vandelay Industries",
    "Dunder Mifflin Paper Company",
    "Soylent Corp",
    "Cyberdyne Systems",
    "Massive Dynamic",
    "Gringotts Bank",
    "Wonka Industries",
    "Tyrell Corporation",
    "Oceanic Airlines",
)
_ITEMS = (
    "Consulting services",
    "Software licence (annual)",
    "Widgets, blue",
    "Shipping and handling",
    "Maintenance contract Q3",
    "Cloud hosting",
    "Office chairs",
    "Printer toner cartridges",
    "On-site training day",
    "Hardware support",
    "Travel expenses",
    "Data migration",
)
_CURRENCIES = (("USD", "$"), ("EUR", "€"), ("GBP", "£"), ("CHF", "CHF "))
_COUNTRIES = ("DE", "FR", "GB", "NL", "IT", "ES", "AT", "BE")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _money(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def _ground_truth(rng: random.Random, n: int) -> dict[str, Any]:
    """One invoice's true fields: 8 always, plus due_date and po_number sometimes."""
    vendor = rng.choice(_VENDOR_HEADS) + rng.choice(_VENDOR_MIDS) + rng.choice(_VENDOR_TAILS)
    issued = date(2022, 1, 1) + timedelta(days=rng.randrange(3 * 365))
    items = [
        {"description": rng.choice(_ITEMS), "amount": _money(rng, 20, 5000)}
        for _ in range(rng.randint(2, 3))
    ]
    net = round(sum(item["amount"] for item in items), 2)
    tax = round(net * rng.choice((0.0, 0.07, 0.19, 0.2, 0.21)), 2)
    country = rng.choice(_COUNTRIES)
    truth: dict[str, Any] = {
        "vendor_name": vendor.strip(),
        "invoice_number": f"INV-{issued.year}-{n:06d}",
        "invoice_date": issued.isoformat(),
        "total_amount": round(net + tax, 2),
        "tax_amount": tax,
        "currency": rng.choice(_CURRENCIES)[0],
        "line_items": items,
        "buyer": {
            "name": rng.choice(_BUYERS),
            "vat_id": f"{country}{rng.randrange(10**8, 10**9)}",
        },
    }
    if rng.random() < 0.6:
        truth["due_date"] = (issued + timedelta(days=rng.choice((14, 30, 45, 60)))).isoformat()
    if rng.random() < 0.4:
        truth["po_number"] = f"PO-{rng.randrange(10**5, 10**6)}"
    return truth


def _typo(rng: random.Random, text: str) -> str:
    """One OCR-like slip: a dropped, doubled or swapped character."""
    if len(text) < 4:
        return text
    i = rng.randrange(1, len(text) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return text[:i] + text[i + 1 :]
    if kind == 1:
        return text[:i] + text[i] + text[i:]
    return text[: i - 1] + text[i] + text[i - 1] + text[i + 1 :]


def _recase(rng: random.Random, text: str) -> str:
    return rng.choice((str.upper, str.lower, str.title))(text)


def _amount(rng: random.Random, value: float, symbol: str) -> Any:
    """A number as an extractor returns it: float, formatted string, or slightly off."""
    roll = rng.random()
    if roll < 0.35:
        return f"{symbol}{value:,.2f}"
    if roll < 0.45:
        return f"{value:.2f}"
    if roll < 0.50:
        return round(value * rng.uniform(0.8, 1.2), 2)  # wrong number
    return value


def _date(rng: random.Random, iso: str) -> str:
    """A date as printed on the invoice: ISO, DD/MM/YYYY or `05 Mar 2024`."""
    day = date.fromisoformat(iso)
    roll = rng.random()
    if roll < 0.35:
        return day.strftime("%d/%m/%Y")
    if roll < 0.45:
        return f"{day.day:02d} {_MONTHS[day.month - 1]} {day.year}"
    if roll < 0.48:
        return (day + timedelta(days=1)).isoformat()  # off by one
    return iso


def _prediction(rng: random.Random, truth: dict[str, Any]) -> dict[str, Any]:
    """The extractor's output for one invoice: mostly right, noisy the way OCR+LLMs are."""
    symbol = dict(_CURRENCIES)[truth["currency"]]
    vendor = truth["vendor_name"]
    roll = rng.random()
    if roll < 0.15:
        vendor = _recase(rng, vendor)
    elif roll < 0.25:
        vendor = _typo(rng, vendor)
    elif roll < 0.28:
        vendor = vendor.split(" ")[0]  # legal form dropped: usually below strictness
    items = [
        {
            "description": _recase(rng, item["description"])
            if rng.random() < 0.2
            else item["description"],
            "amount": _amount(rng, item["amount"], symbol),
        }
        for item in truth["line_items"]
    ]
    rng.shuffle(items)
    if rng.random() < 0.05:
        items.pop()
    if rng.random() < 0.05:
        items.append({"description": "Discount", "amount": -_money(rng, 5, 50)})
    vat_id = truth["buyer"]["vat_id"]
    pred: dict[str, Any] = {
        "vendor_name": vendor,
        "invoice_number": truth["invoice_number"].lower()
        if rng.random() < 0.1
        else truth["invoice_number"],
        "invoice_date": _date(rng, truth["invoice_date"]),
        "total_amount": _amount(rng, truth["total_amount"], symbol),
        "tax_amount": _amount(rng, truth["tax_amount"], ""),
        "currency": truth["currency"].lower() if rng.random() < 0.1 else truth["currency"],
        "line_items": items,
        "buyer": {
            "name": _recase(rng, truth["buyer"]["name"])
            if rng.random() < 0.2
            else truth["buyer"]["name"],
            "vat_id": f"{vat_id[:2]} {vat_id[2:]}" if rng.random() < 0.15 else vat_id,
        },
    }
    if "due_date" in truth:
        pred["due_date"] = _date(rng, truth["due_date"])
    if "po_number" in truth:
        pred["po_number"] = truth["po_number"]
    if rng.random() < 0.08:
        del pred[rng.choice(sorted(pred))]  # a field the extractor did not find
    return pred


def generate_suite(root: Path, n_docs: int, seed: int = 0) -> None:
    """Write `n_docs` invoices under `root/cases/` and their noisy predictions."""
    rng = random.Random(seed)
    cases = root / "cases"
    cases.mkdir(parents=True, exist_ok=True)
    with (root / "predictions.jsonl").open("w", encoding="utf-8") as preds:
        for start in range(0, n_docs, DOCS_PER_FILE):
            part = cases / f"part-{start // DOCS_PER_FILE:02d}.ground-truth.jsonl"
            with part.open("w", encoding="utf-8") as out:
                for n in range(start + 1, min(start + DOCS_PER_FILE, n_docs) + 1):
                    doc_id = f"doc-{n:06d}"
                    truth = _ground_truth(rng, n)
                    doc = {"id": doc_id, "labels": ["invoice"], "ground_truth": truth}
                    out.write(json.dumps(doc, ensure_ascii=False) + "\n")
                    row = {"id": doc_id, "extracted_fields": _prediction(rng, truth)}
                    preds.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    """Command line: generate a suite into a directory for manual runs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    generate_suite(args.root, args.docs, args.seed)


if __name__ == "__main__":
    main()
