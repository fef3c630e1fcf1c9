"""One item's run: its prediction scored by its benchmark into the payload that travels
on its test report."""
