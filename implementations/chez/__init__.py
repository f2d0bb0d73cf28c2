"""The Chez Scheme witness."""
