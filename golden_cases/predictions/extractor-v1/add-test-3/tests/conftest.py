import pytest


@pytest.fixture
def sample_invoice(tmp_path):
    path = tmp_path / "invoice.txt"
    path.write_text("Total: 42.50\n(300.00)\n", encoding="utf-8")
    return path
