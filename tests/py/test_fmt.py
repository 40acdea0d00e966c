"""End-to-end tests of `flowc fmt`: in place, untouched when formatted, --check, --diff, stdin,
several files and shell globs, syntax errors, unwritable files, exit statuses.

Runs the real binary (env FLOWC) and asserts exact outputs.
"""
import glob
import json
import os
import shutil
import stat
import subprocess
import tempfile

import flowc_testlib as lib

expect = lib.Expectations()
failures = expect.failures


MESSY = ("# a flow\n@retry( times=1 )  flow f{\n"
         "  step start{run \"a\"   next end}\n\n\n"
         "  step end { run [\"x\",\"y\",] # done\n}}")
FORMATTED = ("# a flow\n@retry(times=1)\nflow f {\n"
             "  step start {\n    run \"a\"\n    next end\n  }\n\n"
             "  step end {\n    run [\"x\", \"y\"]  # done\n  }\n}\n")
DIFF = """--- PATH
+++ PATH
@@ -1,7 +1,12 @@
 # a flow
-@retry( times=1 )  flow f{
-  step start{run "a"   next end}
-
+@retry(times=1)
+flow f {
+  step start {
+    run "a"
+    next end
+  }
 
-  step end { run ["x","y",] # done
-}}
\\ No newline at end of file
+  step end {
+    run ["x", "y"]  # done
+  }
+}
"""
SYNTAX_ERROR = "flow f {\n  step start {\n    run 'a'\n  }\n}\n"
SEMANTIC_ERROR = "flow f {step start{run \"{{nope}}\" next missing}}"


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def writable(directory):
    """Whether a file can be made in `directory` (root ignores permission bits)."""
    probe = os.path.join(directory, "probe")
    try:
        with open(probe, "w"):
            pass
    except OSError:
        return False
    os.remove(probe)
    return True


def test_in_place(tmp):
    path = os.path.join(tmp, "messy.flow")
    write(path, MESSY)
    os.chmod(path, 0o640)
    r = lib.run_flowc("fmt", path)
    expect("fmt rewrites in place", r.returncode == 0 and read(path) == FORMATTED,
           f"{r.returncode} {r.stderr}\n{read(path)}")
    expect("fmt prints nothing", r.stdout == "" and r.stderr == "", r.stdout + r.stderr)
    expect("fmt keeps the file's mode", stat.S_IMODE(os.stat(path).st_mode) == 0o640,
           oct(os.stat(path).st_mode))
    expect("fmt leaves no temporary file", os.listdir(tmp) == ["messy.flow"], str(os.listdir(tmp)))

    # A formatted file is not rewritten: same inode, same modification time.
    os.utime(path, (1_000_000_000, 1_000_000_000))
    before = os.stat(path)
    r = lib.run_flowc("fmt", path)
    after = os.stat(path)
    expect("a formatted file is untouched",
           r.returncode == 0
           and (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns),
           f"{r.returncode} {before} {after}")

    # A link stays a link: its target is rewritten.
    target = os.path.join(tmp, "target.flow")
    link = os.path.join(tmp, "link.flow")
    write(target, MESSY)
    os.symlink("target.flow", link)
    r = lib.run_flowc("fmt", link)
    expect("fmt through a link rewrites its target",
           r.returncode == 0 and os.path.islink(link) and read(target) == FORMATTED,
           f"{r.returncode} {r.stderr}")


def test_check_and_diff(tmp):
    messy = os.path.join(tmp, "messy.flow")
    formatted = os.path.join(tmp, "formatted.flow")
    write(messy, MESSY)
    write(formatted, FORMATTED)
    r = lib.run_flowc("fmt", "--check", formatted)
    expect("--check on a formatted file", r.returncode == 0 and r.stdout == "" and r.stderr == "",
           f"{r.returncode} {r.stdout} {r.stderr}")
    r = lib.run_flowc("fmt", "--check", messy, formatted)
    expect("--check names each file that would change, on stdout",
           r.returncode == 1 and r.stdout == f"{messy}\n" and r.stderr == "",
           f"{r.returncode} {r.stdout!r} {r.stderr}")
    expect("--check writes nothing", read(messy) == MESSY, read(messy))
    r = lib.run_flowc("fmt", "--diff", messy, formatted)
    expect("--diff prints a unified diff",
           r.returncode == 1 and r.stdout == DIFF.replace("PATH", messy),
           f"{r.returncode}\n{r.stdout}")
    expect("--diff writes nothing", read(messy) == MESSY, read(messy))
    # The diff applies: `patch -p0` in the folder of the paths turns each file into its
    # formatted self.
    if shutil.which("patch"):
        r = subprocess.run([lib.FLOWC, "fmt", "--diff", "messy.flow", "formatted.flow"], cwd=tmp,
                           capture_output=True, text=True)
        subprocess.run(["patch", "-p0", "-s"], input=r.stdout, cwd=tmp, text=True, check=True)
        expect("the diff applies with patch -p0", read(messy) == FORMATTED, read(messy))


def test_stdin():
    r = lib.run_flowc("fmt", "-", input=MESSY)
    expect("fmt - formats stdin to stdout", r.returncode == 0 and r.stdout == FORMATTED,
           f"{r.returncode} {r.stdout} {r.stderr}")
    r = lib.run_flowc("fmt", "--check", "-", input=MESSY)
    expect("fmt --check - names <stdin>", r.returncode == 1 and r.stdout == "<stdin>\n",
           f"{r.returncode} {r.stdout}")
    r = lib.run_flowc("fmt", "--check", "-", input=FORMATTED)
    expect("fmt --check - on formatted text", r.returncode == 0 and r.stdout == "", r.stdout)


def test_several_files_and_globs(tmp):
    for name in ("a", "b", "c"):
        write(os.path.join(tmp, f"{name}.flow"), FORMATTED if name == "b" else MESSY)
    # As the shell gives them: the glob expanded by sh, sorted.
    r = subprocess.run(f"'{lib.FLOWC}' fmt '{tmp}'/*.flow", shell=True, capture_output=True,
                       text=True)
    texts = [read(p) for p in sorted(glob.glob(os.path.join(tmp, "*.flow")))]
    expect("fmt takes several files from a glob",
           r.returncode == 0 and texts == [FORMATTED] * 3, f"{r.returncode} {r.stderr}")


def test_errors(tmp):
    bad = os.path.join(tmp, "bad.flow")
    good = os.path.join(tmp, "good.flow")
    semantic = os.path.join(tmp, "semantic.flow")
    write(bad, SYNTAX_ERROR)
    write(good, MESSY)
    write(semantic, SEMANTIC_ERROR)
    check = lib.run_flowc("check", bad)
    r = lib.run_flowc("fmt", bad, good)
    expect("a syntax error exits 1", r.returncode == 1, str(r.returncode))
    expect("a syntax error prints check's diagnostics",
           r.stderr == check.stderr and "error:" in r.stderr, f"{r.stderr}\n---\n{check.stderr}")
    expect("a file with a syntax error is byte-identical", read(bad) == SYNTAX_ERROR, read(bad))
    expect("the other files are formatted", read(good) == FORMATTED, read(good))
    check = lib.run_flowc("check", "--diagnostics-format", "json", bad)
    r = lib.run_flowc("fmt", "--diagnostics-format", "json", bad)
    expect("--diagnostics-format json as check",
           r.returncode == 1 and json.loads(r.stderr) == json.loads(check.stderr), r.stderr)

    r = lib.run_flowc("fmt", semantic)
    expect("semantic errors do not stop formatting",
           r.returncode == 0 and read(semantic) ==
           "flow f {\n  step start {\n    run \"{{nope}}\"\n    next missing\n  }\n}\n",
           f"{r.returncode} {r.stderr} {read(semantic)}")

    r = lib.run_flowc("fmt", os.path.join(tmp, "missing.flow"), good)
    expect("a missing file exits 3",
           r.returncode == 3 and
           r.stderr ==
           f"flowc: error: cannot read '{tmp}/missing.flow': No such file or directory\n",
           f"{r.returncode} {r.stderr}")
    r = lib.run_flowc("fmt", "--line-width", "80", good)
    expect("an unknown option is a usage error", r.returncode == 2, str(r.returncode))


def test_unwritable(tmp):
    # A folder where no file can be made, even by root: read-only, and immutable where the file
    # system and the privileges allow (chattr +i), which binds root too.
    folder = os.path.join(tmp, "locked")
    os.mkdir(folder)
    path = os.path.join(folder, "messy.flow")
    write(path, MESSY)
    os.chmod(folder, 0o555)
    immutable = False
    if writable(folder) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", folder], capture_output=True).returncode == 0
    try:
        if writable(folder):
            failures.append("unwritable: found no folder this user cannot write to")
            return
        r = lib.run_flowc("fmt", path)
        expect("an unwritable file exits 3", r.returncode == 3, f"{r.returncode} {r.stderr}")
        expect("an unwritable file is named",
               r.stderr.startswith(f"flowc: error: cannot write '{path}': "), r.stderr)
        expect("an unwritable file is intact", read(path) == MESSY, read(path))
        expect("nothing else is left", os.listdir(folder) == ["messy.flow"],
               str(os.listdir(folder)))
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", folder], check=True)
        os.chmod(folder, 0o755)


def test_repository_is_formatted():
    flows = lib.samples() + lib.test_flows() + sorted(
        os.path.relpath(p, lib.SOURCE_DIR)
        for p in glob.glob(os.path.join(lib.SOURCE_DIR, "samples", "*", "*.flow")))
    r = lib.run_flowc("fmt", "--check", *flows)
    expect("samples and tests/flows are formatted", r.returncode == 0 and r.stdout == "",
           f"{r.returncode} {r.stdout} {r.stderr}")


def main():
    for test in (test_in_place, test_check_and_diff, test_several_files_and_globs, test_errors,
                 test_unwritable):
        tmp = tempfile.mkdtemp(prefix="flowc-fmt-")
        try:
            test(tmp)
        finally:
            shutil.rmtree(tmp)
    test_stdin()
    test_repository_is_formatted()
    lib.finish("test_fmt", failures, expect.checked)


if __name__ == "__main__":
    main()
