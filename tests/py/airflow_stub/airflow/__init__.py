"""A minimal stand-in for the `airflow` package, for flowc's tests (tests/py/test_airflow.py).

It implements only what flowc's DAG files use, records what they build, and is as strict as
Airflow where flowc could go wrong: KubernetesPodOperator rejects every keyword argument the
real one (apache-airflow-providers-cncf-kubernetes 10) does not accept, expand() is refused
inside a mapped task group, and a scheduled DAG refuses a required param.
"""
from airflow._stub import DAG  # noqa: F401  (Airflow 2 spelling: `from airflow import DAG`)
