"""The controller's end of a run: aggregate the payloads, check thresholds and the
baseline, reach the verdict, and write the outputs, for a run and for `bizbench
merge` alike."""
