"""Product identity: a digest of an implementation's own files and version.

The same files give the same id on any machine: paths are relative and sorted, contents are
hashed byte for byte, and nothing about the host enters the digest.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

PRODUCT_DOMAIN = b"lispex-court/product/v1\x00"


@cache
def product_id(version: str, *package_dirs: Path) -> str:
    h = hashlib.sha256(PRODUCT_DOMAIN)
    h.update(version.encode() + b"\x00")
    for root in package_dirs:
        for path in sorted(root.rglob("*")):
            if path.is_dir() or "__pycache__" in path.parts or path.suffix not in (".py", ".toml"):
                continue
            rel = f"{root.name}/{path.relative_to(root).as_posix()}"
            data = path.read_bytes()
            h.update(f"{rel}\x00{len(data)}\x00".encode())
            h.update(data)
    return h.hexdigest()


KERNEL_DIR = Path(__file__).resolve().parent
