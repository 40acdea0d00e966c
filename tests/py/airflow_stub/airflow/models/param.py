from airflow._stub import Param  # noqa: F401
