"""Product identity: SHA-256 over a product's own files (its back end, the topaz common code,
this kernel and the data it reads) and its version."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from .data import DATA_DIR

KERNEL_DIR = Path(__file__).resolve().parent
ID_DOMAIN = b"lispex-court/topaz-product-id/v1\x00"


@cache
def product_id(version: str, *dirs: Path) -> str:
    h = hashlib.sha256(ID_DOMAIN + version.encode() + b"\x00")
    roots = [*dirs, DATA_DIR]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".py", ".toml") or "__pycache__" in path.parts:
                continue
            rel = f"{root.name}/{path.relative_to(root).as_posix()}"
            h.update(rel.encode() + b"\x00" + path.read_bytes() + b"\x00")
    return h.hexdigest()
