"""Products (implementations the court can run) and courts (fixed panels of products).

Built-in products are described by the TOML manifests in ``court/products/``; a user's
``court.toml`` may add foreign products and courts. A product is *available* when the court can
actually start it; a court with an unavailable member is ``unavailable`` and names what is
missing and where it looked. Nothing ever falls back to another product.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import MAX_CONFIG_BYTES, FileRefused, read_bounded, safe_text

PROTOCOLS = ("court-worker/v1", "observation-json", "lispex-cli")

FIXED_COURTS: dict[str, tuple[str, ...]] = {
    "tree-rust": ("tree", "vm"),
    "rust-topaz": ("vm", "topaz-vm"),
    "all-four": ("tree", "vm", "topaz-tree", "topaz-vm"),
    # The Lispex tree interpreter against GNU Guile: a witness that shares no code with the kernel.
    "witness": ("tree", "guile"),
    # One member of each built-in lineage against every witness: Schemes nobody here wrote, each
    # a lineage of its own, so a majority of lineages can name the odd one out.
    "panel": ("tree", "topaz-vm", "guile", "chez", "mit"),
}
DEFAULT_COURT = "tree-rust"


class ConfigError(Exception):
    """A malformed manifest or court.toml; the CLI reports it as a usage error."""


@dataclass
class Product:
    id: str
    title: str
    protocol: str
    family: str = "foreign"
    version: str = ""
    # court-worker/v1 products shipped here: module + implementation id
    worker_module: str | None = None
    impl: str | None = None
    # foreign products: the command, with {file}, {input}, {label}, {profile} and {limits_json}
    # placeholders (court/workers/adapters.py), and arguments added per input / per meter limit
    command: list[str] = field(default_factory=list)
    input_args: list[str] = field(default_factory=list)
    limit_args: list[str] = field(default_factory=list)
    origin: str = "builtin"  # where the manifest came from
    # Members of one meter model count every meter identically, so between them the resource
    # outcome and the meter figures are normative. None: this product shares its meters with
    # nobody (the default for a foreign product that names none).
    meter_model: str | None = None
    # What the product shares with others: members of one lineage share a kernel (reader,
    # normalizer, values, numeric tower, primitives), so a bug there is one voice, not several.
    # A product that names none is its own lineage.
    lineage: str = ""
    # Commands that must be on PATH for the product to run (a worker that drives another program).
    requires: list[str] = field(default_factory=list)
    # A file of named, explained known differences between this product and Lispex, if any.
    known_differences: Path | None = None

    def __post_init__(self) -> None:
        if not self.lineage:
            self.lineage = self.id

    def route(self) -> str:
        if self.worker_module:
            route = f"python -m {self.worker_module} --impl {self.impl}"
            if self.requires:
                route += f" (driving {', '.join(self.requires)} from PATH)"
            return route
        return " ".join(self.command)

    def availability(self) -> tuple[bool, str]:
        """(available, why-not). Checks only what can be checked without starting it."""
        import shutil

        for exe in self.requires:
            if shutil.which(exe) is None:
                return False, f"command {exe!r} not found on PATH"
        if self.worker_module:
            import importlib.util

            if importlib.util.find_spec(self.worker_module) is None:
                return False, f"module {self.worker_module} is not installed"
            if self.worker_module == "implementations.worker":
                from implementations import registry

                if self.impl not in registry.ids():
                    return False, f"implementation {self.impl!r} is not in this distribution"
            return True, ""
        if not self.command:
            return False, "no command"
        exe = self.command[0]
        if "/" in exe:
            ok = Path(exe).exists()
        else:
            ok = shutil.which(exe) is not None
        return (True, "") if ok else (False, f"command {exe!r} not found")


def _product_from(data: dict[str, Any], origin: str, pid: str | None = None,
                  folder: Path | None = None) -> Product:
    pid = pid or data.get("id")
    if not pid or not isinstance(pid, str):
        raise ConfigError(f"{origin}: a product needs an id")
    protocol = data.get("protocol", "court-worker/v1")
    if protocol not in PROTOCOLS:
        raise ConfigError(f"{origin}: product {pid}: protocol must be one of {', '.join(PROTOCOLS)}")
    command = data.get("command", [])
    input_args = data.get("input", [])
    limit_args = data.get("limit", [])
    if not isinstance(command, list) or not all(isinstance(x, str) for x in command):
        raise ConfigError(f"{origin}: product {pid}: command must be a list of strings")
    if not isinstance(input_args, list) or not all(isinstance(x, str) for x in input_args):
        raise ConfigError(f"{origin}: product {pid}: input must be a list of strings")
    if not isinstance(limit_args, list) or not all(isinstance(x, str) for x in limit_args):
        raise ConfigError(f"{origin}: product {pid}: limit must be a list of strings")
    if not data.get("worker_module") and not command:
        raise ConfigError(f"{origin}: product {pid}: needs a command")
    meter_model = data.get("meter_model")
    if meter_model is not None and (not isinstance(meter_model, str) or not meter_model):
        raise ConfigError(f"{origin}: product {pid}: meter_model must be a non-empty string")
    known = {"id", "title", "family", "version", "protocol", "worker_module", "impl", "command",
             "input", "meter_model", "limit", "lineage", "requires", "known_differences"}
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"{origin}: product {pid}: unknown keys {sorted(unknown)}")
    for key in ("title", "family", "worker_module", "impl"):
        if key in data and not (isinstance(data[key], str) and data[key]):
            raise ConfigError(f"{origin}: product {pid}: {key} must be a non-empty string")
    if "version" in data and not isinstance(data["version"], str | int | float):
        raise ConfigError(f"{origin}: product {pid}: version must be a string")
    if command and not command[0]:
        raise ConfigError(f"{origin}: product {pid}: the command's program must not be empty")
    lineage = data.get("lineage", pid)
    if not isinstance(lineage, str) or not lineage:
        raise ConfigError(f"{origin}: product {pid}: lineage must be a non-empty string")
    requires = data.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(x, str) and x for x in requires):
        raise ConfigError(f"{origin}: product {pid}: requires must be a list of command names")
    differences = data.get("known_differences")
    if differences is not None and not isinstance(differences, str):
        raise ConfigError(f"{origin}: product {pid}: known_differences must be a path")
    diff_path = None
    if differences:
        diff_path = Path(differences)
        if not diff_path.is_absolute():
            diff_path = (folder or Path.cwd()) / diff_path
    return Product(id=pid, title=data.get("title", pid), protocol=protocol,
                   family=data.get("family", "foreign"), version=str(data.get("version", "")),
                   worker_module=data.get("worker_module"), impl=data.get("impl"),
                   command=list(command), input_args=list(input_args),
                   limit_args=list(limit_args), origin=origin, meter_model=meter_model,
                   lineage=lineage, requires=list(requires), known_differences=diff_path)


def builtin_products() -> dict[str, Product]:
    out = {}
    # The manifests are package data beside this module (a plain listing: importlib.resources
    # would cost every `court` start more than reading them).
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "products")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".toml"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                data = tomllib.loads(f.read())
            p = _product_from(data, f"builtin:court/products/{name}", folder=Path(folder))
            out[p.id] = p
    return out


def load_manifest(path: Path) -> Product:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from None
    return _product_from(data, str(path), folder=path.parent)


@dataclass
class Config:
    products: dict[str, Product]
    courts: dict[str, tuple[str, ...]]
    source: str | None  # the court.toml read, if any


def find_config(start: Path) -> Path | None:
    """The nearest ``court.toml`` in ``start`` or a parent folder, as pytest finds its
    configuration. A file of that name that defines neither products nor courts belongs to
    something else: it is passed over, so it cannot hide the built-in courts."""
    for folder in (start, *start.parents):
        candidate = folder / "court.toml"
        if candidate.is_file() and _is_court_config(candidate):
            return candidate.resolve()
    return None


def _is_court_config(path: Path) -> bool:
    try:
        data = tomllib.loads(read_bounded(path, MAX_CONFIG_BYTES, "court.toml").decode("utf-8"))
    except (FileRefused, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # ours or not, it cannot be read: load_config says why
    return "products" in data or "courts" in data


def load_config(path: Path | None = None, *, search_cwd: bool = True) -> Config:
    """Built-in products and courts, plus a court.toml (given, or the nearest one found from the
    current folder up: `find_config`)."""
    products = builtin_products()
    courts = dict(FIXED_COURTS)
    if path is None and search_cwd:
        path = find_config(Path.cwd())
    if path is None:
        return Config(products, courts, None)
    try:
        data = tomllib.loads(read_bounded(path, MAX_CONFIG_BYTES, "court.toml").decode("utf-8"))
    except FileRefused as e:
        raise ConfigError(safe_text(str(e))) from None
    except OSError as e:
        raise ConfigError(f"cannot read {safe_text(str(path))}: {e.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{safe_text(str(path))}: {e}") from None
    for table in ("products", "courts"):
        if not isinstance(data.get(table, {}), dict):
            raise ConfigError(f"{path}: {table} must be a table ([{table}.NAME])")
    for pid, pdata in (data.get("products") or {}).items():
        if not isinstance(pdata, dict):
            raise ConfigError(f"{path}: products.{pid} must be a table")
        if pid in FIXED_COURTS or (pid in products and products[pid].origin.startswith("builtin")):
            raise ConfigError(f"{path}: product id {pid!r} is taken by a built-in product")
        products[pid] = _product_from(pdata, str(path), pid, folder=path.parent)
    for cid, cdata in (data.get("courts") or {}).items():
        members = cdata.get("members") if isinstance(cdata, dict) else None
        if not isinstance(members, list) or not members or \
                not all(isinstance(m, str) for m in members):
            raise ConfigError(f"{path}: courts.{cid}.members must be a non-empty list of ids")
        if cid in FIXED_COURTS:
            raise ConfigError(f"{path}: court {cid!r} is a fixed court and cannot be redefined")
        courts[cid] = tuple(members)
    unknown = set(data) - {"products", "courts"}
    if unknown:
        raise ConfigError(f"{path}: unknown tables {sorted(unknown)}")
    return Config(products, courts, str(path))


@dataclass
class Resolution:
    """A court's members and whether each can run."""

    court: str
    members: tuple[str, ...]
    products: dict[str, Product]
    missing: list[str]
    attempted_routes: list[str]

    @property
    def available(self) -> bool:
        return not self.missing

    def meter_models(self) -> dict[str, str | None]:
        return {m: p.meter_model for m, p in self.products.items()}

    def witnesses(self) -> set[str]:
        """The members that are witnesses: products that carry a file of known differences
        from Lispex (another language mapped onto it). The others are built-ins."""
        return {m for m, p in self.products.items() if p.known_differences is not None}

    def lineages(self) -> dict[str, str]:
        """Each member's lineage (a member with no manifest is its own)."""
        return {m: self.products[m].lineage if m in self.products else m for m in self.members}


def resolve(config: Config, court: str | None = None, impls: list[str] | None = None, *,
            name_unknown_routes: bool = True) -> Resolution:
    """Members of a named court, or of an ad-hoc panel (``--impl a,b``). Raises ConfigError for an
    unknown court name.

    ``attempted_routes`` names where the court looked for each missing member; with
    ``name_unknown_routes=False`` a member no manifest describes adds no route (the MCP server,
    which offers only the products named at its start, reports no route for the others).
    """
    if impls:
        name, members = "+".join(impls), tuple(impls)
    else:
        name = court or DEFAULT_COURT
        if name not in config.courts:
            close = difflib.get_close_matches(name, list(config.courts), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"unknown court {name!r}{hint}; known: {', '.join(config.courts)}")
        members = config.courts[name]
    if len(set(members)) != len(members):
        raise ConfigError(f"court {name!r} names a product twice; each member runs once")
    found: dict[str, Product] = {}
    missing: list[str] = []
    attempted: list[str] = []
    for m in members:
        p = config.products.get(m)
        if p is None:
            missing.append(m)
            if name_unknown_routes:
                where = config.source or "no court.toml"
                attempted.append(f"{m}: no manifest in the built-in products (court/products/) "
                                 f"or in {where}")
            continue
        ok, why = p.availability()
        if ok:
            found[m] = p
        else:
            missing.append(m)
            attempted.append(f"{p.origin}: {p.route()} ({why})")
    return Resolution(name, members, found, missing, attempted)
