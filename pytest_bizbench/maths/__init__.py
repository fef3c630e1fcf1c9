"""Numbers as every stage formats them, and the statistics of comparisons."""
