"""Where a case's prediction comes from: prediction files, the case itself, the live
hook or model, and the cache."""
