"""The helper functions of templates/airflow, loaded as a DAG file has them, for unit tests.

A DAG file holds these functions as top-level code next to its imports and its FLOWC_*
tables; `load()` executes the template files in one namespace with the same imports, a
stand-in KubernetesHook talking to a fake API (fake_kube.py), and the tables a test gives.
"""
import base64
import datetime
import hashlib
import json
import os
import sys

import yaml
from kubernetes.client.exceptions import ApiException

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fake_kube  # noqa: E402
import k8s_models  # noqa: E402


def template_dir(source_dir=None):
    return os.path.join(source_dir or os.environ.get("FLOWC_SOURCE_DIR", "."), "templates",
                        "airflow")


def load(kube, tables, source_dir=None, clock=None, client=None):
    """A namespace with every template function, its hook bound to `kube`, the FLOWC_* tables
    of `tables`, `datetime.datetime.now` reading `clock()` when one is given, and `k8s` the
    models of kubernetes client `client` (k8s_models.py; its default when None)."""
    k8s_models.install(client or k8s_models.DEFAULT_VERSION)
    from kubernetes.client import models as k8s
    ns = {"base64": base64, "hashlib": hashlib, "json": json, "yaml": yaml, "k8s": k8s,
          "ApiException": ApiException, "datetime": _datetime_module(clock),
          "KubernetesHook": fake_kube.make_hook_class(lambda: kube)}
    ns.update(tables)
    folder = template_dir(source_dir)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                exec(compile(f.read(), os.path.join(folder, name), "exec"), ns)
    return ns


def _datetime_module(clock):
    if clock is None:
        return datetime

    class FakeDatetime(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return clock()

    class Module:
        pass

    module = Module()
    module.datetime = FakeDatetime
    module.timezone = datetime.timezone
    module.timedelta = datetime.timedelta
    return module
