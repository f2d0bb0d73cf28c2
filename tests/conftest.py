import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402

# A suite started in the background by a non-interactive shell (`pytest &` in a script) inherits
# SIGINT ignored, and so would every court the tests start: the court, like Python, keeps an
# ignored SIGINT ignored. The interrupt tests send SIGINT as a user's Ctrl-C does, so the suite
# takes SIGINT back (an exec resets a handled signal to its default in the children).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _no_ci_side_effects(monkeypatch):
    """Tests must not write into a real CI job's step summary or annotations."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
