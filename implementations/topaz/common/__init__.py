"""Code both topaz back ends use; part of each one's product identity."""

from pathlib import Path

COMMON_DIR = Path(__file__).resolve().parent
