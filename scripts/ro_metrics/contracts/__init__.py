"""Layer 1: the spec's vocabulary, the published tables' contracts, step records, file I/O."""
