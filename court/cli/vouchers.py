"""`court keys generate`, `court verify`, and the receipt options of `court compare` and
`court run`: the command line over court/vouchers/.

Building the parser imports nothing heavy; the cryptography loads only when a key is used.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .usage import UsageError

EXIT_USAGE, EXIT_HARNESS = 2, 3

KEYS_HELP = (
    "make a key pair for signing receipts",
    "Make an Ed25519 key pair in DIR: court-signing.key (the private key, readable by you "
    "alone)\nand court-signing.pub (the public key, for whoever verifies your receipts). "
    "The key id\nis the SHA-256 of the raw public key.",
    """examples:
  court keys generate ~/.court-keys
  court compare rule.lspx --receipt rule.receipt.json --signing-key ~/.court-keys/court-signing.key

exit codes:
  0  the pair was made (its key id is printed)
  2  usage error: DIR holds a key already, or cannot be written""",
)
VERIFY_HELP = (
    "check a signed receipt: signature, binding to the request, re-execution",
    "Check a receipt made by `court compare --receipt`, `court run --receipts` or the MCP "
    "tool\nlispex_compare, in order: envelope, signature, payload type, canonical form, "
    "statement,\ntrust policy, request (with --source / --input), court, products, "
    "re-execution (the\nrequest run again here), observations and verdict. Every check is "
    "listed, performed\nor not performed and why.",
    """examples:
  court verify rule.receipt.json --key court-signing.pub --source rule.lspx --input rule.input
  court verify rule.receipt.json --policy policy.toml --source rule.lspx --no-reexec
  court verify rule.receipt.json --key court-signing.pub --source rule.lspx --json

exit codes:
  0  verified: every check performed passed
  1  something differs: a signature, a digest, a product, a result or the verdict
  2  could not verify: no key, an unreadable receipt, a member unavailable, or the
     source/input needed for re-execution not given""",
)


def _command(sub: Any, name: str, text: tuple[str, str, str]) -> argparse.ArgumentParser:
    short, description, epilog = text
    return sub.add_parser(name, help=short, description=description, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def add_commands(sub: Any, parser_class: type) -> None:
    k = _command(sub, "keys", KEYS_HELP)
    ksub = k.add_subparsers(dest="keys_command", metavar="SUBCOMMAND", parser_class=parser_class)
    g = ksub.add_parser("generate", help="make an Ed25519 key pair in DIR")
    g.add_argument("dir", metavar="DIR", help="where the key pair goes (made if missing)")
    v = _command(sub, "verify", VERIFY_HELP)
    v.add_argument("receipt", metavar="RECEIPT", help="the receipt file (a DSSE envelope)")
    trust = v.add_mutually_exclusive_group()
    trust.add_argument("--key", action="append", default=[], metavar="PUB",
                       help="a trusted public key (PEM; repeatable)")
    trust.add_argument("--policy", metavar="FILE", help="a trust policy (TOML, docs/vouchers.md)")
    v.add_argument("--source", metavar="F", help="the program the receipt claims to answer")
    group = v.add_mutually_exclusive_group()
    group.add_argument("--input", "--input-file", dest="input_file", metavar="F",
                       help="a file holding the input datum of the request")
    group.add_argument("--input-datum", dest="input_text", metavar="DATUM",
                       help="the input datum of the request, as Lispex text")
    v.add_argument("--no-reexec", action="store_true",
                   help="do not run the request again (listed as not performed)")
    v.add_argument("--config", help="a court.toml defining the receipt's court, if not built in")
    v.add_argument("--json", action="store_true", help="print the verification summary as JSON")


def add_receipt_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--receipt", metavar="FILE",
                   help="also write a signed receipt of the result to FILE (needs --signing-key)")
    p.add_argument("--signing-key", metavar="KEY",
                   help="the private key that signs receipts (court keys generate)")


def add_run_receipt_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--receipts", metavar="DIR",
                   help="also write one signed receipt per case to DIR (needs --signing-key)")
    p.add_argument("--signing-key", metavar="KEY",
                   help="the private key that signs receipts (court keys generate)")


# -- signing ---------------------------------------------------------------------------------

def signing_key(args: argparse.Namespace, target: str) -> Any:
    """The signing key when ``--<target>`` asks for receipts (None otherwise); a usage error
    for one option without the other or a key that cannot be used, before anything runs."""
    want = getattr(args, target, None)
    path = getattr(args, "signing_key", None)
    flag = "--" + target.replace("_", "-")
    if want is None and path is None:
        return None
    if want is None:
        raise UsageError(f"court: --signing-key needs {flag} (where the receipt goes)")
    if path is None:
        raise UsageError(f"court: {flag} needs --signing-key KEY (court keys generate DIR)")
    if not str(want).strip():
        raise UsageError(f"court: {flag} must not be empty")
    from ..vouchers.keys import KeyFileError, load_signing_key

    try:
        return load_signing_key(Path(path))
    except KeyFileError as e:
        raise UsageError(f"court: {e}") from None


def write_atomically(path: Path, data: bytes) -> None:
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".receipt-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_receipt(path: Path, key: Any, res: Any, limits: Any, source: bytes,
                  input_text: str | None, filename: str, case: Any) -> None:
    from ..vouchers import receipt_bytes, receipt_for

    write_atomically(path, receipt_bytes(receipt_for(key, res, limits, source, input_text,
                                                     filename, case)))


def compare_receipt(args: argparse.Namespace, key: Any, res: Any, limits: Any, source: bytes,
                    input_text: str | None, case: Any) -> int | None:
    """Write `court compare`'s receipt; an exit status when it could not be written."""
    from ..vouchers import VoucherError

    path = Path(args.receipt)
    try:
        write_receipt(path, key, res, limits, source, input_text, Path(args.program).name, case)
    except OSError as e:
        print(f"court: cannot write the receipt {path}: {e.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except VoucherError as e:
        print(f"court: cannot make a receipt of this result: {e.message}", file=sys.stderr)
        return EXIT_HARNESS
    sys.stdout.flush()  # the result first, then where its receipt went
    print(f"receipt: {path} (key {key.id[:16]}...)", file=sys.stderr)
    return None


def read_cases(cases: list) -> dict[str, tuple[bytes, str | None] | None]:
    """Each case's source and input as they are before the run (None: unreadable; the run
    records that case's fault itself)."""
    out: dict[str, tuple[bytes, str | None] | None] = {}
    for case in cases:
        try:
            out[case.id] = (case.source(), case.input_text())
        except (OSError, UnicodeDecodeError):
            out[case.id] = None
    return out


def run_receipts(args: argparse.Namespace, key: Any, records: list, res: Any, limits: Any,
                 before: dict[str, tuple[bytes, str | None] | None]) -> int | None:
    """One receipt per judged case of `court run`, at DIR/<case id>.receipt.json; an exit
    status when one could not be written. A case without a result (malformed, not run), or
    whose files are not what they were when the run started, gets none, and is named: a
    receipt binds the bytes that ran, never a later edit."""
    from ..runner import case_limits
    from ..vouchers import VoucherError

    folder = Path(args.receipts)
    written, without, changed = 0, [], []
    for r in records:
        if r.result is None or before.get(r.case.id) is None:
            without.append(r.case.id)
            continue
        case = r.case
        try:
            if before[case.id] != (case.source(), case.input_text()):
                changed.append(case.id)
                continue
            source, input_text = before[case.id]  # type: ignore[misc]
            write_receipt(folder / f"{case.id}.receipt.json", key, res,
                          case_limits(limits, case), source, input_text,
                          case.program.name, r.result)
        except (OSError, UnicodeDecodeError) as e:
            print(f"court: cannot write the receipt of {case.id}: {e}", file=sys.stderr)
            return EXIT_USAGE
        except VoucherError as e:
            print(f"court: cannot make a receipt of {case.id}: {e.message}", file=sys.stderr)
            return EXIT_HARNESS
        written += 1
    print(f"receipts: {written} in {folder}" + (f"; none for {len(without)} case(s) without a "
          f"result: {', '.join(without[:5])}" if without else ""), file=sys.stderr)
    if changed:
        print(f"court: no receipt for {len(changed)} case(s) whose files changed during the "
              f"run: {', '.join(changed[:5])}", file=sys.stderr)
        return EXIT_HARNESS
    return None


# -- commands ---------------------------------------------------------------------------------

def run_keys(args: argparse.Namespace) -> int:
    if args.keys_command != "generate":
        raise UsageError("court keys: expected a subcommand: generate")
    if not args.dir.strip():
        raise UsageError("court keys generate: DIR must not be empty")
    from ..vouchers.keys import KeyFileError, generate

    try:
        private, public, kid = generate(Path(args.dir))
    except KeyFileError as e:
        raise UsageError(f"court keys generate: {e}") from None
    except OSError as e:
        raise UsageError(f"court keys generate: cannot write in {args.dir}: {e.strerror}") \
            from None
    print(f"private key: {private} (mode 0600: keep it to yourself)")
    print(f"public key:  {public} (give it to whoever verifies your receipts)")
    print(f"key id:      {kid}")
    return 0


def _read(path: str, what: str, limit: int) -> bytes:
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"court verify: cannot read {what} {path}: {e.strerror}") from None
    if len(data) > limit:
        raise UsageError(f"court verify: {what} {path} is larger than {limit} bytes")
    return data


def run_verify(args: argparse.Namespace) -> int:
    import json

    from ..corpus import MAX_INPUT_BYTES, MAX_PROGRAM_BYTES
    from ..vouchers.canonical import MAX_RECEIPT_BYTES
    from ..vouchers.keys import KeyFileError, load_public_key
    from ..vouchers.policy import PolicyError, load_policy
    from ..vouchers.verify import Request, verify

    keys, policy = [], None
    try:
        keys = [load_public_key(Path(k)) for k in args.key]
        policy = load_policy(Path(args.policy)) if args.policy else None
    except (KeyFileError, PolicyError) as e:
        print(f"court verify: {e}", file=sys.stderr)
        return EXIT_USAGE
    receipt = _read(args.receipt, "the receipt", MAX_RECEIPT_BYTES + 1)
    request = Request()
    if args.source is not None:
        request.source = _read(args.source, "the source", MAX_PROGRAM_BYTES)
    if args.input_file is not None or args.input_text is not None:
        request.input_given = True
        text = args.input_text
        if args.input_file is not None:
            data = _read(args.input_file, "the input", MAX_INPUT_BYTES)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise UsageError(f"court verify: the input {args.input_file} is not UTF-8") \
                    from None
        request.input_text = text
    v = verify(receipt, keys=keys, policy=policy, request=request, reexec=not args.no_reexec,
               config_path=Path(args.config) if args.config else None)
    if args.json:
        sys.stdout.write(json.dumps(v.to_json(), ensure_ascii=False) + "\n")
    else:
        for line in v.lines():
            print(line)
    return v.exit_status
