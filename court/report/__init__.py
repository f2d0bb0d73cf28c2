"""Run reports: court-report.json (the source of truth) and the views made from it."""
