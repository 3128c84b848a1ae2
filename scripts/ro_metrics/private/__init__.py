"""Private reports: one packet per evaluated subject version (shared/spec/private-reports.md),
the report's view and page, its PDF and its ZIP, made from the published data and the
version's own corpus files only."""
