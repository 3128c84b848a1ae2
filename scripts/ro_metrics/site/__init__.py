"""Layer 7: the static site, in each language: the index, the version and case pages,
the findings page and the report page, and the writing of only the pages whose bytes
change (with each job's manifest)."""
