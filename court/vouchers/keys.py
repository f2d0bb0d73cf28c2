"""Ed25519 key pairs for signing receipts, and key ids.

A key id is the SHA-256 (hex) of the raw 32-byte public key, so anyone holding the public key
computes it alike. The private key file is created readable by its owner alone, and a private
key file that others may read is refused, as ssh refuses one.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .canonical import sha256

PRIVATE_NAME = "court-signing.key"
PUBLIC_NAME = "court-signing.pub"
MAX_KEY_FILE = 16 << 10


class KeyFileError(Exception):
    """A key file that cannot be used: missing, unreadable, not Ed25519, readable by others."""


def key_id(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return sha256(raw)


@dataclass(frozen=True)
class PublicKey:
    key: Ed25519PublicKey
    id: str
    origin: str

    def verifies(self, signature: bytes, message: bytes) -> bool:
        try:
            self.key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def pem(self) -> bytes:
        return self.key.public_bytes(serialization.Encoding.PEM,
                                     serialization.PublicFormat.SubjectPublicKeyInfo)


@dataclass(frozen=True)
class SigningKey:
    key: Ed25519PrivateKey
    id: str
    origin: str

    def sign(self, message: bytes) -> bytes:
        return self.key.sign(message)

    def public(self) -> PublicKey:
        return PublicKey(self.key.public_key(), self.id, self.origin)


def generate(folder: Path) -> tuple[Path, Path, str]:
    """A new key pair in ``folder`` (created if missing): the private key (PKCS#8 PEM, mode
    0600) and the public key (SubjectPublicKeyInfo PEM). Refuses to replace existing files."""
    folder.mkdir(parents=True, exist_ok=True)
    private_path, public_path = folder / PRIVATE_NAME, folder / PUBLIC_NAME
    for p in (private_path, public_path):
        if p.exists():
            raise KeyFileError(f"{p} exists; a key is never overwritten (move it away first)")
    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(serialization.Encoding.PEM,
                                    serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    # O_EXCL with mode 0600: the file is never readable by others, not even for an instant.
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private_pem)
    os.chmod(private_path, 0o600)  # against a umask that took bits away, never added
    public_path.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return private_path, public_path, key_id(key.public_key())


def _read(path: Path, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_KEY_FILE + 1)
    except OSError as e:
        raise KeyFileError(f"{what} {path}: cannot read it: {e.strerror}") from None
    if len(data) > MAX_KEY_FILE:
        raise KeyFileError(f"{what} {path}: larger than a key file ({MAX_KEY_FILE} bytes)")
    return data


def load_signing_key(path: Path) -> SigningKey:
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise KeyFileError(f"signing key {path}: cannot read it: {e.strerror}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise KeyFileError(f"signing key {path}: readable by others (mode "
                        f"{stat.S_IMODE(mode):04o}); run chmod 600 {path}")
    data = _read(path, "signing key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise KeyFileError(f"signing key {path}: not an unencrypted PEM private key ({e})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"signing key {path}: not an Ed25519 key")
    return SigningKey(key, key_id(key.public_key()), str(path))


def public_key_from_pem(data: bytes, origin: str) -> PublicKey:
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as e:
        raise KeyFileError(f"public key {origin}: not a PEM public key ({e})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"public key {origin}: not an Ed25519 key")
    return PublicKey(key, key_id(key), origin)


def load_public_key(path: Path) -> PublicKey:
    return public_key_from_pem(_read(path, "public key"), str(path))
