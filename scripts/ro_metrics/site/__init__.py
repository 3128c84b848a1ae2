"""Layer 7: the static site, in each language: the index, the version and case pages,
the findings page and the report page, and where each page lives (site_files)."""
