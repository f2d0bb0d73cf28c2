"""Differential fuzzing: generated programs through a court, findings minimised and saved."""
