from airflow._stub import KubernetesHook  # noqa: F401
