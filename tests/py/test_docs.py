"""The docs cannot lie: docs/*.md and README.md checked against the real binary.

- Every ```flow block is a complete flow, checked with `flowc check`. A block whose lines
  carry `# error: CODE` or `# warning: CODE` comments must report exactly those codes at those
  lines and nothing else; any other block must pass with no diagnostic at all. A flow that is
  not in a ```flow block (a fence with another tag, or none) is a failure, so no example
  escapes the check. As in docs/diagnostics.md (compiler/explain/example_run.h): a first line
  `# target: NAME` compiles the block for that target instead (a target's own checks), and
  `# beside the flow: NAME, N bytes` makes a file of N bytes beside it. `<!-- flow-dir: PATH
  -->` on the line before a block checks it from a copy of that folder of the repository (for
  `@code`, whose files must exist).
- Every ```dot or ```mermaid block is what `flowc graph --format dot|mermaid` prints for the
  ```flow block before it on its page, byte for byte.
- Every ```yaml block whose first line is `# flowc validate` (docs/diagnostics.md's examples of
  E070 to E077) is checked with `flowc validate` the same way: exactly its marked codes at its
  marked lines. A ```yaml block with such a marker but not that first line is a failure.
- The README's Argo excerpt is a piece of what its flow compiles to, line for line.
- docs/cli.md names every command `flowc --help` lists and, in each command's options table,
  every option its `--help` lists, and nothing else.
- The grammar in docs/language.md is grammar/FlowParser.g4, rule for rule, and its keywords
  and punctuation are grammar/FlowLexer.g4's.
- Every relative link resolves to a file, and every `#anchor` to a heading of its page.
- Nothing points at ../shared, which a clone of flowc does not have.
"""
import json
import os
import re
import shutil
import tempfile

import flowc_testlib as lib

expect = lib.Expectations()
failures = expect.failures

# Commands docs/cli.md documents that are built on other branches: `--help` does not list them
# here yet, so their sections are not compared with it. The lead empties this at merge.
NOT_YET_ON_THIS_BRANCH = set()
# Pages other branches write: a link to one of them is checked only once the page exists. The
# lead empties this at merge.
PAGES_FROM_OTHER_BRANCHES = set()

FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")
EXPECTED = re.compile(r"#\s*(error|warning):\s*([EW]\d{3})\b")
FLOW_HEADER = re.compile(r"^\s*(flow|step) [A-Za-z_]\w* \{")
FLOW_DIR = re.compile(r"^<!-- flow-dir: (\S+) -->$")
TARGET = re.compile(r"^# target: (\S+)$")
BESIDE = re.compile(r"^# beside the flow: ([^/,]+), (\d+) bytes$", re.M)
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def pages():
    """docs/*.md and README.md, relative to the source dir, sorted."""
    docs = os.path.join(lib.SOURCE_DIR, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return ["README.md"] + [f"docs/{n}" for n in names]


def read(path):
    with open(os.path.join(lib.SOURCE_DIR, path), encoding="utf-8") as f:
        return f.read()


def blocks(text):
    """Every fenced block: (tag, first line of its body (1-based), body, the line before it)."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, tag = m.group(2), m.group(3).strip()
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*" + fence + r"\s*$", lines[j]):
            j += 1
        before = lines[i - 1] if i > 0 else ""
        found.append((tag, i + 2, "\n".join(lines[i + 1:j]) + "\n", before))
        i = j + 1
    return found


def outside_blocks(text):
    """The text with every fenced block and inline code span blanked out."""
    out, inside = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if inside is None and m:
            inside = m.group(2)
            out.append("")
        elif inside is not None:
            if re.match(r"^\s*" + inside + r"\s*$", line):
                inside = None
            out.append("")
        else:
            out.append(re.sub(r"`[^`]*`", "``", line))
    return "\n".join(out)


def check_flow_block(page, line, body, before):
    where = f"{page}:{line}"
    want = set()
    for n, text in enumerate(body.split("\n"), 1):
        for kind, code in EXPECTED.findall(text):
            want.add((n, code, kind))
    tmp = tempfile.mkdtemp(prefix="flowc-docs-")
    try:
        folder = tmp
        m = FLOW_DIR.match(before.strip())
        if m:
            folder = os.path.join(tmp, "project")
            shutil.copytree(os.path.join(lib.SOURCE_DIR, m.group(1)), folder)
        for name, size in BESIDE.findall(body):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(bytes(int(size)))
        path = os.path.join(folder, "example.flow")
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        target = TARGET.match(body.split("\n")[0])
        command = ["compile", "--target", target.group(1)] if target else ["check"]
        r = lib.run_flowc(*command, path, "--diagnostics-format", "json")
    finally:
        shutil.rmtree(tmp)
    try:
        got = {(d["line"], d["code"], d["severity"]) for d in json.loads(r.stderr or "[]")}
    except json.JSONDecodeError:
        expect(f"{where}: flowc check prints JSON", False, r.stderr)
        return
    status = 1 if any(kind == "error" for _, _, kind in want) else 0
    expect(f"{where}: the flow example reports exactly its marked codes",
           got == want and r.returncode == status,
           f"status {r.returncode}, marked {sorted(want)}, reported {sorted(got)}:\n{r.stderr}")


def check_yaml_block(page, line, body):
    where = f"{page}:{line}"
    want = set()
    for n, text in enumerate(body.split("\n"), 1):
        for kind, code in EXPECTED.findall(text):
            want.add((n, code, kind))
    tmp = tempfile.mkdtemp(prefix="flowc-docs-")
    try:
        path = os.path.join(tmp, "example.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
        r = lib.run_flowc("validate", path, "--format", "sarif")
    finally:
        shutil.rmtree(tmp)
    try:
        results = json.loads(r.stderr or "{}")["runs"][0]["results"]
        got = {(res["locations"][0]["physicalLocation"]["region"]["startLine"], res["ruleId"],
                res["level"]) for res in results}
    except (json.JSONDecodeError, KeyError, IndexError) as e:
        expect(f"{where}: flowc validate prints SARIF", False, f"{e}: {r.stderr}")
        return
    status = 1 if any(kind == "error" for _, _, kind in want) else 0
    expect(f"{where}: the YAML example reports exactly its marked codes",
           got == want and r.returncode == status,
           f"status {r.returncode}, marked {sorted(want)}, reported {sorted(got)}:\n{r.stderr}")


def check_graph_block(page, line, body, tag, flow):
    where = f"{page}:{line}"
    if flow is None:
        expect(f"{where}: a ```{tag} graph follows the flow it shows", False, body[:200])
        return
    tmp = tempfile.mkdtemp(prefix="flowc-docs-")
    try:
        path = os.path.join(tmp, "example.flow")
        with open(path, "w", encoding="utf-8") as f:
            f.write(flow)
        r = lib.run_flowc("graph", path, "--format", tag)
    finally:
        shutil.rmtree(tmp)
    expect(f"{where}: the ```{tag} block is `flowc graph` of the flow before it",
           r.returncode == 0 and r.stdout == body,
           f"status {r.returncode}:\n{r.stderr}" if r.returncode else
           "flowc graph prints:\n" + r.stdout)


def check_examples():
    flows = 0
    yamls = 0
    for page in pages():
        flow = None
        for tag, line, body, before in blocks(read(page)):
            if tag == "flow":
                flows += 1
                flow = body
                check_flow_block(page, line, body, before)
            elif tag in ("dot", "mermaid"):
                check_graph_block(page, line, body, tag, flow)
            elif tag == "yaml" and body.split("\n")[0] == "# flowc validate":
                yamls += 1
                check_yaml_block(page, line, body)
            elif tag != "text":
                # A flow written in another block would escape the check above.
                header = next((l for l in body.split("\n") if FLOW_HEADER.match(l)), None)
                expect(f"{page}:{line}: a flow example is a ```flow block", header is None,
                       f"a ```{tag} block holds {header!r}")
                # A YAML example without its first line would escape check_yaml_block.
                expect(f"{page}:{line}: a marked YAML example starts with `# flowc validate`",
                       tag != "yaml" or not EXPECTED.search(body), body[:200])
    expect("the docs hold flow examples", flows >= 20, f"only {flows}")
    expect("the docs hold validate's YAML examples", yamls >= 6, f"only {yamls}")


def check_readme_excerpt():
    found = blocks(read("README.md"))
    flow = next((body for tag, _, body, _ in found if tag == "flow"), None)
    yaml = next((body for tag, _, body, _ in found if tag == "yaml"), None)
    if flow is None or yaml is None:
        expect("README.md shows a flow and its Argo output", False, "no ```flow or ```yaml block")
        return
    r = lib.run_flowc("compile", "-", "--target", "argo", input=flow)
    expect("README.md's Argo excerpt is what its flow compiles to",
           r.returncode == 0 and "\n" + yaml in "\n" + r.stdout,
           f"status {r.returncode}:\n{r.stderr}" if r.returncode else
           "the excerpt is not a run of whole lines of:\n" + r.stdout)


def help_of(*command):
    """(the commands, the options) that `flowc [command] --help` lists; -h,--help left out."""
    r = lib.run_flowc(*command, "--help")
    expect(f"flowc {' '.join(command)} --help exits 0", r.returncode == 0, r.stderr)
    section, commands, options = None, set(), set()
    for line in r.stdout.split("\n"):
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Subcommands":
            m = re.match(r"^  (\w+)\s", line)
            if m:
                commands.add(m.group(1))
        elif section == "Options":
            m = re.match(r"^  (-\S+)", line)
            if m:
                names = set(m.group(1).split(","))
                if names != {"-h", "--help"}:
                    options |= names
    return commands, options


def cli_sections(text):
    """{command ('' for flowc itself): set of options named in the first column of its
    options table}, from the `## flowc ...` headings of docs/cli.md; -h,--help left out, as
    help_of leaves them out."""
    sections, current = {}, None
    for line in text.split("\n"):
        m = re.match(r"^## `flowc( \w+)?`", line)
        if m:
            current = (m.group(1) or "").strip()
            sections[current] = set()
            continue
        if line.startswith("## "):
            current = None
        elif current is not None and line.startswith("| `-"):
            first = line.split("|")[1]
            sections[current] |= set(re.findall(r"`(-[-\w]*)", first)) - {"-h", "--help"}
    return sections


def check_cli():
    text = read("docs/cli.md")
    sections = cli_sections(text)
    commands, options = help_of()
    documented = set(sections) - {""}
    expect("docs/cli.md documents every command --help lists", commands <= documented,
           f"missing: {sorted(commands - documented)}")
    expect("docs/cli.md documents no command that does not exist",
           documented - commands <= NOT_YET_ON_THIS_BRANCH,
           f"not in --help: {sorted(documented - commands - NOT_YET_ON_THIS_BRANCH)}")
    for name in sorted(NOT_YET_ON_THIS_BRANCH & commands):
        print(f"note: '{name}' is on this branch now: remove it from NOT_YET_ON_THIS_BRANCH")
    expect("docs/cli.md: flowc's own options", sections.get("") == options,
           f"documented {sorted(sections.get('', set()))}, --help {sorted(options)}")
    for command in sorted(commands):
        _, listed = help_of(command)
        written = sections.get(command, set())
        expect(f"docs/cli.md: the options of flowc {command}", written == listed,
               f"only in docs: {sorted(written - listed)}, only in --help: {sorted(listed - written)}")


def snake(name):
    return re.sub(r"(?<=[a-z])([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def grammar_rules():
    """FlowParser.g4's rules as token lists in the docs' notation: rule names in snake_case,
    token names as their literal text (keywords, punctuation) or as they are (IDENT, ...)."""
    literals = {}
    lexer = open(os.path.join(lib.SOURCE_DIR, "grammar/FlowLexer.g4"), encoding="utf-8").read()
    for name, literal in re.findall(r"^([A-Z_]+)\s*:\s*'([^']+)'\s*;", lexer, re.M):
        literals[name] = f'"{literal}"'
    parser = open(os.path.join(lib.SOURCE_DIR, "grammar/FlowParser.g4"), encoding="utf-8").read()
    parser = re.sub(r"//[^\n]*", "", parser)
    parser = parser[parser.index(";", parser.index("options")) + 1:]
    rules = {}
    for name, body in re.findall(r"(\w+)\s*:(.*?);", parser, re.S):
        if name in ("flowHead", "flowEnd"):  # `file` a piece at a time: parse.cc's, not the language's
            continue
        body = re.sub(r"#\s*\w+", "", body)  # alternative labels
        tokens = re.findall(r"\w+|[()|*?]", body)
        rules[snake(name)] = [literals.get(t, t if t.isupper() else snake(t)) for t in tokens]
    return rules


def docs_rules(text):
    """The ```ebnf block of docs/language.md that holds `file ::=`, as {rule: token list}."""
    for tag, _, body, _ in blocks(text):
        if tag == "ebnf" and re.search(r"^file\s*::=", body, re.M):
            body = re.sub(r"\(\*.*?\*\)", "", body, flags=re.S)  # comments
            rules = {}
            for name, rhs in re.findall(r"^(\w+)\s*::=(.*?)(?=^\w+\s*::=|\Z)", body, re.M | re.S):
                rules[name] = re.findall(r'"[^"]*"|\w+|[()|*?]', rhs)
            return rules
    return {}


def check_tokens():
    """The keywords and punctuation language.md lists are the lexer's literal tokens."""
    lexer = read("grammar/FlowLexer.g4")
    keywords_at = lexer.index("mode KEYWORDS")
    literal = re.compile(r"^[A-Z_]+\s*:\s*'([^']+)'\s*;", re.M)
    keywords = set(literal.findall(lexer[keywords_at:]))
    punctuation = set(literal.findall(lexer[:keywords_at]))
    text = read("docs/language.md")
    listed = {}
    for name in ("Keywords", "Punctuation"):
        m = re.search(r"^- \*\*" + name + r"\*\* (?:are|is) `([^`]*)`", text, re.M)
        listed[name] = set(m.group(1).split()) if m else set()
    expect("docs/language.md lists the lexer's keywords", listed["Keywords"] == keywords,
           f"docs {sorted(listed['Keywords'])}, FlowLexer.g4 {sorted(keywords)}")
    expect("docs/language.md lists the lexer's punctuation", listed["Punctuation"] == punctuation,
           f"docs {sorted(listed['Punctuation'])}, FlowLexer.g4 {sorted(punctuation)}")


def check_grammar():
    theirs, ours = grammar_rules(), docs_rules(read("docs/language.md"))
    expect("grammar/FlowParser.g4 has rules", len(theirs) >= 10, str(theirs))
    for name in sorted(set(theirs) | set(ours)):
        expect(f"docs/language.md's grammar: rule {name} is FlowParser.g4's",
               theirs.get(name) == ours.get(name),
               f"\n  g4:   {' '.join(theirs.get(name, ['(none)']))}"
               f"\n  docs: {' '.join(ours.get(name, ['(none)']))}")


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[`*]", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for line in outside_headings(read(path)):
        base = slug(line)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def outside_headings(text):
    in_block = False
    for line in text.split("\n"):
        if FENCE.match(line):
            in_block = not in_block
        elif not in_block:
            m = re.match(r"^#{1,6} (.*)$", line)
            if m:
                yield m.group(1)


def check_links():
    checked = 0
    for page in pages():
        text = outside_blocks(read(page))
        expect(f"{page} never points at ../shared", "../shared" not in read(page) and
               "/work/shared" not in read(page), "it does")
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            checked += 1
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            full = os.path.join(lib.SOURCE_DIR, resolved)
            if not os.path.exists(full):
                expect(f"{page}: link {target} resolves",
                       resolved in PAGES_FROM_OTHER_BRANCHES, f"no file {resolved}")
                continue
            if anchor:
                expect(f"{page}: link {target} names a heading",
                       resolved.endswith(".md") and anchor in anchors(resolved),
                       f"no heading #{anchor} in {resolved}")
    expect("the docs hold relative links", checked >= 30, f"only {checked}")


def main():
    check_examples()
    check_readme_excerpt()
    check_cli()
    check_grammar()
    check_tokens()
    check_links()
    lib.finish("test_docs", failures, expect.checked)


if __name__ == "__main__":
    main()
