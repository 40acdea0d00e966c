def flowc_model(*names):
    """The first of `names` that the installed kubernetes client's models have.

    For a model the client renamed: the file imports with every client the cncf.kubernetes
    provider allows (29 to 35) and builds the same object, where naming one spelling would fail
    the whole import on the others.
    """
    for name in names:
        model = getattr(k8s, name, None)
        if model is not None:
            return model
    raise ImportError("kubernetes.client.models has none of " + ", ".join(names))


# A container's `resources.claims` entry: {name} (clients 29-31), {name, request} (32 on).
# Client 34 renamed it CoreV1ResourceClaim, when resource.k8s.io/v1 went GA and took the name
# ResourceV1ResourceClaim for its ResourceClaim object; clients up to 33 call it V1ResourceClaim.
FLOWC_RESOURCE_CLAIM = flowc_model("CoreV1ResourceClaim", "V1ResourceClaim")
