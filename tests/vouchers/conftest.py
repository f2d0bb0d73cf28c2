import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from voucher_support import keypair  # noqa: E402


@pytest.fixture(scope="session")
def keys(tmp_path_factory):
    """(signing key, public key) of one pair for the whole session."""
    return keypair(tmp_path_factory.mktemp("keys"))


@pytest.fixture(scope="session")
def other_keys(tmp_path_factory):
    return keypair(tmp_path_factory.mktemp("other-keys"))
