"""Airflow 3's `airflow.sdk`. FLOWC_STUB_AIRFLOW=2 hides it, as on Airflow 2."""
import os

if os.environ.get("FLOWC_STUB_AIRFLOW") == "2":
    raise ImportError("airflow.sdk is Airflow 3 only")

from airflow._stub import DAG, Param, task, task_group  # noqa: E402,F401
