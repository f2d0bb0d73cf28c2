"""The MIT/GNU Scheme witness."""
