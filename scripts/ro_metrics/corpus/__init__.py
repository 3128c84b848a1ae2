"""Layer 3: reading, validating and cross-checking the corpus."""
