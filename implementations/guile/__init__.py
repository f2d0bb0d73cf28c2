"""The witness: GNU Guile 3.0 running Lispex through a prelude written here (see worker.py)."""
