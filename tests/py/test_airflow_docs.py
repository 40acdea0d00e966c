"""docs/airflow.md says what flowc does: its examples are checked against the compiler.

  1. every ```flow block is a complete flow that `flowc check` accepts and that compiles with
     `--target airflow`;
  2. every line of a ```python block after it (but `...`) is a line of that flow's DAG, in order;
  3. the kubernetes client versions the page names (29 to 35) are those
     tests/data/kubernetes_client_models.json records, and the ones the stand-in models mimic.
"""
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "airflow_stub"))
import flowc_testlib as lib  # noqa: E402
import k8s_models  # noqa: E402

PAGE = os.path.join("docs", "airflow.md")
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)


def main():
    failures = []
    checked = 0
    with open(os.path.join(lib.SOURCE_DIR, PAGE), encoding="utf-8") as f:
        page = f.read()
    dag = None
    with tempfile.TemporaryDirectory() as tmp:
        for index, (lang, body) in enumerate(BLOCK.findall(page)):
            if lang == "flow":
                checked += 1
                path = os.path.join(tmp, f"example{index}.flow")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(body)
                result = lib.run_flowc("check", path)
                if result.returncode != 0:
                    failures.append(f"{PAGE}: flow block {index}: {result.stderr}")
                    dag = None
                    continue
                dag = lib.compile_flow(path, "airflow").splitlines()
            elif lang == "python":
                checked += 1
                if dag is None:
                    failures.append(f"{PAGE}: python block {index} follows no flow")
                    continue
                at = 0
                for line in body.splitlines():
                    if line.strip() == "...":
                        continue
                    try:
                        at = dag.index(line, at) + 1
                    except ValueError:
                        failures.append(f"{PAGE}: python block {index}: {line!r} is not in the "
                                        "DAG (in this order)")
                        break
    with open(os.path.join(lib.SOURCE_DIR, "tests", "data", "kubernetes_client_models.json"),
              encoding="utf-8") as f:
        recorded = sorted(json.load(f)["versions"], key=int)
    checked += 1
    named = re.search(r"`kubernetes` \(the Python client\) \| (\d+) to (\d+)", page)
    if not named or [named.group(1), named.group(2)] != [recorded[0], recorded[-1]]:
        failures.append(f"{PAGE} does not name clients {recorded[0]} to {recorded[-1]}")
    if list(k8s_models.VERSIONS) != recorded:
        failures.append(f"the stand-in mimics {k8s_models.VERSIONS}, the record has {recorded}")
    lib.finish("test_airflow_docs", failures, checked)


if __name__ == "__main__":
    main()
