"""Faithful stand-ins for the `kubernetes` client models that DRA claims touch, per client version.

Debian's python3-kubernetes is 22.6, older than any client that apache-airflow-providers-cncf-
kubernetes 10 allows (29 and up), and its models have no claims at all. `install(version)`
adds to its `kubernetes.client.models` the classes below, shaped as kubernetes-client/python
generates them for that version (openapi-generator's python-legacy models, up to v35): a class
with `openapi_types` and `attribute_map`, an `__init__` that takes exactly those attributes as
keywords (any other keyword is a TypeError), a required attribute that may not be None, and
`to_dict()`. ApiClient.sanitize_for_serialization (kubernetes/client/api_client.py) reads only
`openapi_types` and `attribute_map`, and passes a dict through with its keys as they are.

The facts, from the models' sources and docs (kubernetes/client/models/*.py, kubernetes/docs/
*.md), which follow the Kubernetes API of the same minor version:
  - V1PodSpec.resource_claims (`resourceClaims`, list[V1PodResourceClaim]) and
    V1ResourceRequirements.claims (`claims`, list[V1ResourceClaim]): clients 26 and up.
  - V1PodResourceClaim: clients 26-30 {name, source: V1ClaimSource}, V1ClaimSource
    {resource_claim_name, resource_claim_template_name} (Kubernetes 1.26-1.30); clients 31 and
    up {name, resource_claim_name, resource_claim_template_name}, no V1ClaimSource (1.31
    flattened it).
  - V1ResourceClaim: {name} up to client 31, {name, request} from 32 (Kubernetes 1.32).
  - From client 34 (Kubernetes 1.34, resource.k8s.io/v1 GA) the container's claim is
    CoreV1ResourceClaim {name, request} (kubernetes/client/models/core_v1_resource_claim.py,
    "release-1.35"), the API object resource.k8s.io/v1 ResourceClaim is
    ResourceV1ResourceClaim {api_version, kind, metadata, spec, status}, and there is no
    V1ResourceClaim: `k8s.V1ResourceClaim` raises AttributeError, as issue 31 saw with 35.0.0.
  tests/data/kubernetes_client_models.json records these names and fields per version.
"""
import kubernetes.client
from kubernetes.client import models

VERSIONS = ("29", "30", "31", "32", "33", "34", "35")
# The client the current provider requires (cncf.kubernetes 10.15.0: kubernetes>=35,<36).
DEFAULT_VERSION = "35"


def _model(name, fields, required=()):
    """A python-legacy model class: fields is [(attribute, json key, openapi type)]."""
    openapi_types = {attr: kind for attr, _, kind in fields}
    attribute_map = {attr: key for attr, key, _ in fields}

    def __init__(self, **kwargs):
        for key in kwargs:
            if key not in openapi_types and key != "local_vars_configuration":
                raise TypeError("__init__() got an unexpected keyword argument '{}'".format(key))
        for attr in openapi_types:
            value = kwargs.get(attr)
            if attr in required and value is None:
                raise ValueError("Invalid value for `{}`, must not be `None`".format(attr))
            setattr(self, attr, value)
        self.discriminator = None

    def to_dict(self):
        result = {}
        for attr in openapi_types:
            value = getattr(self, attr)
            if isinstance(value, list):
                value = [x.to_dict() if hasattr(x, "to_dict") else x for x in value]
            elif hasattr(value, "to_dict"):
                value = value.to_dict()
            result[attr] = value
        return result

    def __eq__(self, other):
        return isinstance(other, type(self)) and self.to_dict() == other.to_dict()

    return type(name, (object,), {"openapi_types": openapi_types, "attribute_map": attribute_map,
                                  "__init__": __init__, "to_dict": to_dict, "__eq__": __eq__,
                                  "__repr__": lambda self: "{}({})".format(name, self.to_dict())})


def _extend(base, name, fields):
    """The installed model `base` with more attributes (for V1PodSpec, V1ResourceRequirements)."""
    openapi_types = dict(base.openapi_types, **{attr: kind for attr, _, kind in fields})
    attribute_map = dict(base.attribute_map, **{attr: key for attr, key, _ in fields})
    extra = [attr for attr, _, _ in fields]

    def __init__(self, **kwargs):
        own = {k: kwargs.pop(k) for k in extra if k in kwargs}
        base.__init__(self, **kwargs)
        for attr in extra:
            setattr(self, attr, own.get(attr))

    return type(name, (base,), {"openapi_types": openapi_types, "attribute_map": attribute_map,
                                "__init__": __init__})


_ORIGINAL = {}


def install(version=DEFAULT_VERSION):
    """Makes kubernetes.client.models look like client `version`'s for the claim models."""
    if version not in VERSIONS:
        raise ValueError("unknown client version {}".format(version))
    for name in ("V1PodSpec", "V1ResourceRequirements"):
        _ORIGINAL.setdefault(name, getattr(models, name))
    major = int(version)
    classes = {}
    if major <= 30:
        classes["V1ClaimSource"] = _model("V1ClaimSource", [
            ("resource_claim_name", "resourceClaimName", "str"),
            ("resource_claim_template_name", "resourceClaimTemplateName", "str")])
        classes["V1PodResourceClaim"] = _model("V1PodResourceClaim", [
            ("name", "name", "str"), ("source", "source", "V1ClaimSource")], required=("name",))
    else:
        classes["V1PodResourceClaim"] = _model("V1PodResourceClaim", [
            ("name", "name", "str"),
            ("resource_claim_name", "resourceClaimName", "str"),
            ("resource_claim_template_name", "resourceClaimTemplateName", "str")],
            required=("name",))
    claim_fields = [("name", "name", "str")]
    if major >= 32:
        claim_fields.append(("request", "request", "str"))
    claim = "CoreV1ResourceClaim" if major >= 34 else "V1ResourceClaim"
    classes[claim] = _model(claim, claim_fields, required=("name",))
    if major >= 34:
        classes["ResourceV1ResourceClaim"] = _model("ResourceV1ResourceClaim", [
            ("api_version", "apiVersion", "str"), ("kind", "kind", "str"),
            ("metadata", "metadata", "V1ObjectMeta"), ("spec", "spec", "V1ResourceClaimSpec"),
            ("status", "status", "V1ResourceClaimStatus")], required=("spec",))
    classes["V1PodSpec"] = _extend(_ORIGINAL["V1PodSpec"], "V1PodSpec", [
        ("resource_claims", "resourceClaims", "list[V1PodResourceClaim]")])
    classes["V1ResourceRequirements"] = _extend(
        _ORIGINAL["V1ResourceRequirements"], "V1ResourceRequirements",
        [("claims", "claims", "list[{}]".format(claim))])
    for name in ("V1ClaimSource", "V1PodResourceClaim", "V1ResourceClaim", "CoreV1ResourceClaim",
                 "ResourceV1ResourceClaim"):
        for module in (models, kubernetes.client):
            if hasattr(module, name):
                delattr(module, name)
    for name, cls in classes.items():
        setattr(models, name, cls)
        setattr(kubernetes.client, name, cls)
    return classes
