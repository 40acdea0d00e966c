#!/usr/bin/env python3
"""Generates a project folder for benchmarking `@code` (bench/code.sh).

    gen_code.py DIR [--files 200] [--bytes 1048576] [--steps 10]

writes into DIR (created) a project of exactly --files files holding exactly --bytes bytes
(Python modules in two levels of packages, YAML configs, and one binary file in twenty, which
goes in binaryData), and two flows of --steps steps in a line, alike but for `@code`:
with_code.flow ships the whole project (flow-level `@code` with globs), without_code.flow
ships nothing. The difference of their compile times is what `@code` costs. The content is
deterministic (a fixed seed), so runs compare.
"""
import argparse
import os
import random

WORDS = ("model data batch loss step epoch config tensor shard node rank optimizer learning "
         "rate gradient checkpoint metric evaluate train score token vocab layer hidden").split()


def python_text(rng, size):
    lines = ['"""A generated module of the benchmark project."""', "import os", ""]
    n = 0
    while sum(len(line) + 1 for line in lines) < size:
        name = "_".join(rng.choice(WORDS) for _ in range(2))
        lines += [f"def {name}_{n}(x, y=0):",
                  f"    # {' '.join(rng.choice(WORDS) for _ in range(8))}",
                  f"    return x * {rng.randint(1, 99)} + y  # {rng.choice(WORDS)}", ""]
        n += 1
    return "\n".join(lines).encode()[:size]


def yaml_text(rng, size):
    lines = ["# a generated config"]
    while sum(len(line) + 1 for line in lines) < size:
        lines.append(f"{rng.choice(WORDS)}_{len(lines)}: {rng.randint(0, 10**6)}")
    return "\n".join(lines).encode()[:size]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--bytes", type=int, default=1024 * 1024)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(12)

    # Sizes: equal shares, the remainder spread one byte at a time.
    sizes = [args.bytes // args.files] * args.files
    for i in range(args.bytes - sum(sizes)):
        sizes[i] += 1
    for i, size in enumerate(sizes):
        if i % 20 == 19:
            path, content = f"data/blob_{i:03d}.bin", rng.randbytes(size)
        elif i % 10 == 9:
            path, content = f"conf/config_{i:03d}.yaml", yaml_text(rng, size)
        elif i % 2:
            path, content = f"src/pkg_{i % 5}/module_{i:03d}.py", python_text(rng, size)
        else:
            path, content = f"src/module_{i:03d}.py", python_text(rng, size)
        content = content.ljust(size, b"\n")
        full = os.path.join(args.dir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content)

    def flow(code):
        out = [code, '@kubernetes(namespace="bench", image="python:3.12-slim")',
               "flow code_bench {"]
        names = ["start"] + [f"step_{i}" for i in range(1, args.steps - 1)] + ["end"]
        for name, after in zip(names, names[1:] + [None]):
            out.append(f"  step {name} {{")
            out.append(f'    run "python src/module_000.py --step {name}"')
            if after:
                out.append(f"    next {after}")
            out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"

    globs = '["src/*.py", "src/*/*.py", "conf/*.yaml", "data/*.bin"]'
    with open(os.path.join(args.dir, "with_code.flow"), "w") as f:
        f.write(flow(f"@code(files={globs})"))
    with open(os.path.join(args.dir, "without_code.flow"), "w") as f:
        f.write(flow("# no @code"))


if __name__ == "__main__":
    main()
