"""Case files to pytest items: the collector, the case items, error items, selection
and `bizbench validate`."""
