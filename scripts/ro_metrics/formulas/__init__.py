"""Layer 2: the committee's formulas and the rows of the tables computed from them."""
