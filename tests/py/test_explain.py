"""End-to-end test of `flowc explain` and of the generated reference pages.

docs/decorators.md and docs/diagnostics.md are written by `flowc docs -o docs` from the
decorator table and codes.def (with examples.def); the committed pages must be exactly what
the generator writes (with FLOWC_UPDATE_GOLDENS=1, as tests/update_goldens.sh runs it, they
are rewritten instead). Then, against the committed page:
  - `flowc explain CODE` prints exactly the code's section of docs/diagnostics.md and exits 0,
    for every code, written in upper or lower case;
  - an unknown code is a usage error: exit 2, nothing on stdout, a did-you-mean on stderr;
  - `flowc docs --check` exits 0 on the committed pages and 1, with a diff, on a changed one;
  - each result of `flowc check --diagnostics-format sarif` has a rule whose helpUri is the
    anchor of a section of the page.

Run with /usr/bin/python3; FLOWC and FLOWC_SOURCE_DIR as for the other tests.
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flowc_testlib as lib  # noqa: E402

PAGES = ["decorators.md", "diagnostics.md"]
DOCS = os.path.join(lib.SOURCE_DIR, "docs")


def sections(page):
    """{code: section text} of diagnostics.md: from '## CODE' to just before the next '## '."""
    parts = re.split(r"\n(?=## )", page)
    out = {}
    for part in parts[1:]:
        code = part.split("\n", 1)[0][3:]
        out[code] = part if part.endswith("\n") else part + "\n"
    return out


def main():
    expect = lib.Expectations()
    with tempfile.TemporaryDirectory() as scratch:
        written = lib.run_flowc("docs", "-o", scratch)
        expect("flowc docs writes the pages", written.returncode == 0 and written.stdout == ""
               and written.stderr == "", written.stderr)
        for name in PAGES:
            generated = os.path.join(scratch, name)
            if not os.path.exists(generated):
                expect(f"{name} is written", False, "missing")
                continue
            with open(generated, encoding="utf-8") as f:
                lib.check_golden(os.path.join("docs", name), f.read(), expect.failures)
            expect.checked += 1

        # --check: clean on the committed pages, a diff and 1 on a changed one.
        clean = lib.run_flowc("docs", "--check", "-o", DOCS)
        expect("docs --check on the committed pages", clean.returncode == 0 and clean.stdout == "",
               clean.stdout[:2000])
        with open(os.path.join(scratch, "diagnostics.md"), "a", encoding="utf-8") as f:
            f.write("a line the generator does not write\n")
        drift = lib.run_flowc("docs", "--check", "-o", scratch)
        expect("docs --check on a changed page", drift.returncode == 1 and
               "-a line the generator does not write\n" in drift.stdout, drift.stdout[-500:])

    page = open(os.path.join(DOCS, "diagnostics.md"), encoding="utf-8").read()
    by_code = sections(page)
    expect("every code has a section", len(by_code) >= 58, sorted(by_code))
    for code, section in by_code.items():
        for written in (code, code.lower()):
            r = lib.run_flowc("explain", written)
            expect(f"explain {written}", r.returncode == 0 and r.stderr == "" and
                   r.stdout == section, f"{r.returncode} {r.stderr}\n{r.stdout[:300]}")

    for args, stderr in [
        (["E0144"], "flowc: error: no diagnostic has the code 'E0144'\n"
                    "help: did you mean 'E014'?\n"
                    "help: the codes are E001 to E077 and W001 to W071; docs/diagnostics.md "
                    "lists them\n"),
        (["w03"], "flowc: error: no diagnostic has the code 'w03'\n"
                  "help: did you mean 'W003'?\n"
                  "help: the codes are E001 to E077 and W001 to W071; docs/diagnostics.md "
                  "lists them\n"),
    ]:
        r = lib.run_flowc("explain", *args)
        expect(f"explain {args[0]}: usage error", r.returncode == 2 and r.stdout == "" and
               r.stderr == stderr, f"{r.returncode}\n{r.stderr}")
    r = lib.run_flowc("explain")
    expect("explain without a code: usage error", r.returncode == 2, r.stderr)

    # SARIF: every rule of a run links to a section of the page.
    r = lib.run_flowc("check", "--diagnostics-format", "sarif", "tests/errors/many_errors.flow")
    rules = json.loads(r.stderr)["runs"][0]["tool"]["driver"]["rules"]
    results = json.loads(r.stderr)["runs"][0]["results"]
    expect("sarif has rules", len(rules) > 1 and len(results) >= len(rules), r.stderr[:500])
    for rule in rules:
        anchor = rule["helpUri"].rsplit("#", 1)[1]
        expect(f"sarif {rule['id']} helpUri", rule["helpUri"].endswith(
            f"/docs/diagnostics.md#{rule['id'].lower()}") and
            f"\n## {anchor.upper()}\n" in page and rule["shortDescription"]["text"], rule)
    lib.finish("test_explain", expect.failures, expect.checked)


if __name__ == "__main__":
    main()
