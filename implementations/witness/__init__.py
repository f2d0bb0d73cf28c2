"""What the witness relays share: a court-worker/v1 worker driving a long-lived Scheme."""
