"""Seeded bugs for measuring the fuzzer's power (bench/fuzz_power.py)."""
