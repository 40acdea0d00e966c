from airflow._stub import task, task_group  # noqa: F401
