import pytest

from invoice_tools.cli import main


def test_unreadable_file_exits(tmp_path):
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.txt")])
