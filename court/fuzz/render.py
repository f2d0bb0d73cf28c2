"""The feedback table of `court fuzz --coverage`, as plain text."""

from __future__ import annotations

from .feedback import Coverage


def coverage_table(cov: Coverage, width: int = 96) -> str:
    lines = [f"coverage: {cov.programs} programs (Core IR walked for {cov.censused}); "
             "each figure is a number of programs"]
    for title, rows in cov.table():
        if not rows:
            continue
        if title in ("primitives", "producers"):
            rows = sorted(rows, key=lambda r: (r[1], r[0]))
            never = [name for name, n in rows if n == 0]
            reached = sum(1 for _, n in rows if n)
            among = " in the walked programs" if title == "primitives" else ""
            lines.append(f"{title}: {reached} of {len(rows)} reached{among}")
            if never:
                lines.extend(_wrap("  never: ", never, width))
            rare = [f"{name} {n}" for name, n in rows if n][:12]
            lines.extend(_wrap("  rarest: ", rare, width))
            continue
        lines.append(f"{title}:")
        lines.extend(_wrap("  ", [f"{name} {n}" for name, n in rows], width))
    return "\n".join(lines)


def _wrap(prefix: str, items: list[str], width: int) -> list[str]:
    out, line = [], prefix
    for item in items:
        piece = item if line == prefix else ", " + item
        if len(line) + len(piece) > width and line != prefix:
            out.append(line + ",")
            line = " " * len(prefix) + item
        else:
            line += piece
    out.append(line)
    return out
