"""What `court --help` and each subcommand's help say: the command in user words, examples, and
the exit codes. Plain data, so building the parser stays cheap."""

from __future__ import annotations

SUMMARY = """Lispex Court runs Lispex programs on several implementations at once and tells you
where they disagree: one program (compare), a whole corpus with reports (run), or programs it
generates itself (fuzz)."""

EPILOG = """examples:
  court eval prog.lspx                       run a program on the tree interpreter
  court compare prog.lspx --court all-four   run it on four implementations and compare
  court run corpus --court tree-rust         run every corpus case, write reports/
  court run -k 'numbers and not slow'        only some cases (pytest-style -k)
  court run --last-failed                    only the cases that failed last time
  court fuzz --seconds 60                    look for disagreements in generated programs

exit codes:
  0  success: the members agree, no case failed
  1  a disagreement, a broken expectation or a finding (eval: the program's own status)
  2  usage error: a bad flag, a missing file, a malformed input datum
  3  the harness could not do its job: an unavailable court, a case it could not judge,
     an internal error
  5  court run: no case selected
  130  interrupted (Ctrl-C); 143 terminated (SIGTERM); reports written are marked incomplete

`court COMMAND --help` shows each command's options; docs/cli.md and docs/court.md explain more,
docs/troubleshooting.md helps when something goes wrong."""

COMMANDS: dict[str, tuple[str, str, str]] = {
    "eval": (
        "run one program on one implementation, in process",
        "Run one program on one implementation and print what `lispex run` prints: the "
        "program's\noutput, then the values of its last form. Warnings and the diagnostic go "
        "to stderr.",
        """examples:
  court eval prog.lspx
  court eval prog.lspx --impl vm --input '(1 2 3)'
  court eval prog.lspx --json                 the whole observation as JSON

implementations: tree (default), vm, topaz-tree, topaz-vm

exit codes:
  0  the program ran to the end
  1  a source error or a runtime error
  2  a resource limit was reached, or a usage error (bad flag, file, input datum)
  3  the implementation could not run the program at all""",
    ),
    "disasm": (
        "print a program's bytecode, with source positions",
        "Print the bytecode a compiling implementation makes of a program, each instruction "
        "with\nthe source position it came from.",
        """examples:
  court disasm prog.lspx
  court disasm prog.lspx --impl topaz-vm

exit codes:
  0  printed
  1  the program has a source error
  2  usage error (bad flag, missing file, an implementation without bytecode)""",
    ),
    "core-ir": (
        "show each kernel's Core IR id of a program and where two differ",
        "Normalize a program with each named implementation's own kernel, print each one's "
        "Core IR\nid and, where two ids differ, the first node at which the trees part: its "
        "form and\nchild indices, its source position, and both nodes' canonical text.",
        """examples:
  court core-ir prog.lspx                          tree and topaz-tree
  court core-ir prog.lspx --impl tree,topaz-vm --json

exit codes:
  0  the ids agree
  1  the ids differ, or a kernel reads no Core IR (its diagnostic is printed)
  2  usage error (bad flag, unreadable file, unknown implementation)""",
    ),
    "compare": (
        "run one program on every member of a court and compare",
        "Run one program on every member of a court (or an ad-hoc panel) under the same "
        "limits,\nand show each member's result, the verdict and the first axis on which "
        "they differ.\nA disagreement is run twice to confirm it. On a narrow terminal the "
        "table is compact;\n--wide adds resources and product ids.",
        """examples:
  court compare prog.lspx                          the default court, tree-rust
  court compare prog.lspx --court all-four --input '(age 19)'
  court compare prog.lspx --impl tree,topaz-tree --json
  court compare prog.lspx --plain                  stable text for logs and scripts

exit codes:
  0  the members agree (or are not comparable, without --strict)
  1  the members disagree (or are not comparable, with --strict)
  2  usage error (bad flag, missing file, malformed input datum, unknown court)
  3  the court cannot run here: a member is unavailable""",
    ),
    "run": (
        "run a corpus on a court and write reports",
        "Run every case of a corpus (programs with blessed expectations) on a court, compare "
        "the\nmembers with each other and with the expectations, print a failure section with "
        "the\ncommand that reproduces each failure, and write court-report.json, junit.xml,\n"
        "summary.md and report.html to --report-dir.",
        """examples:
  court run                                  the corpus/ folder on tree-rust
  court run corpus/numbers --court all-four --jobs 2
  court run -k 'list and not tail'           case ids holding "list" but not "tail"
  court run --filter 'numbers/*' --filter 'strings/*'
  court run --last-failed                    rerun what failed in the last report
  court run --shard 2/4 --report-dir rep2    one of four stable slices, for CI

exit codes:
  0    every selected case was run and judged, and none failed
  1    a finding (disagreement, one-sided limit, member fault) or a broken expectation
       (with --strict: also not-comparable cases)
  2    usage error: a bad option, -k expression, file, case or court.toml; nothing was run
  3    the harness failed: an infrastructure error in some case, an unavailable court,
       reports that could not be written, or totals that do not add up
  5    no case selected: the filter or shard matched nothing, or the corpus is empty
  130  interrupted by SIGINT (Ctrl-C); 143 by SIGTERM. Reports are written, marked
       incomplete, with the case in flight `interrupted` and the rest `not-run`""",
    ),
    "bless": (
        "write or refresh the expectations of corpus cases",
        "Run cases and write each one's expectation file (NAME.expect.toml) from what the "
        "members\nagree on. A case whose members disagree is never blessed.",
        """examples:
  court bless corpus/new-feature
  court bless corpus -k quotient

exit codes:
  0  every case blessed or unchanged
  1  some cases were refused (their members disagree or failed)
  2  usage error
  3  the court cannot run here
  130  interrupted""",
    ),
    "merge": (
        "merge shard reports into one report",
        "Merge the reports of the shards of one run (court run --shard K/N) into one report, "
        "as if\none run had made it.",
        """examples:
  court merge rep1 rep2 rep3 rep4 --report-dir reports

exit codes:
  0  merged; no case failed
  1  merged; some cases failed
  2  the reports cannot be read or do not belong to one run""",
    ),
    "replay": (
        "re-run a corpus and list every case whose result moved",
        "Run a corpus again and compare each member's result with an earlier report: every "
        "case\nwhose normative result moved is listed, axis by axis.",
        """examples:
  court replay corpus --against reports/court-report.json

exit codes:
  0  nothing moved
  1  some results moved
  2  usage error, or the old report cannot be read
  3  the court cannot run here
  130  interrupted""",
    ),
    "fuzz": (
        "look for disagreements in generated programs",
        "Generate random Lispex programs, run each on the court and look for disagreements. "
        "Each\nfinding is confirmed, minimised and saved as a corpus case. The seed is "
        "printed at the\nstart: the same seed and budget generate the same programs.",
        """examples:
  court fuzz --seconds 120
  court fuzz --court all-four --examples 500 --seed 1234
  court fuzz --no-save --max-findings 1

exit codes:
  0  every program judged, no finding
  1  at least one finding
  2  usage error
  3  the court cannot run here, or a program could not be judged""",
    ),
    "reduce": (
        "shrink a case while its divergence still holds",
        "Shrink a program while the court still disagrees on it the same way (same axis, "
        "same\nstatuses and codes) and print the smallest program found.",
        """examples:
  court reduce corpus/regressions/fuzz-1a2b3c4d5e6f.lspx --court tree-rust
  court reduce prog.lspx --input '(1 2)' --out small.lspx

exit codes:
  0  reduced (the smallest program is on stdout)
  2  the case shows no disagreement, or a usage error
  3  the court cannot run here""",
    ),
    "products": (
        "list products and courts, and whether each can run",
        "List every product (built in or declared in court.toml) with its title, family, "
        "version,\nwhether it can run here and why not, and the courts.",
        """examples:
  court products
  court products --json

exit codes:
  0  listed
  2  usage error (a malformed court.toml)""",
    ),
    "mcp": (
        "the MCP server (Lispex tools over stdio)",
        "Serve the Lispex tools (evaluate, compare, ...) to an MCP client over stdin/stdout.",
        """examples:
  court mcp serve

exit codes:
  0  the client closed the connection
  2  usage error""",
    ),
}
