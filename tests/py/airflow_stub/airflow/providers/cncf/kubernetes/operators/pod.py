from airflow._stub import KubernetesPodOperator  # noqa: F401
