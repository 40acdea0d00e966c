def flowc_api(obj):
    """Where the Kubernetes API keeps objects of this kind: group, version, plural.

    The plural is the kind in lower case plus "s" ("es" after an s, "ies" for a final y), the
    rule of k8s.io/apimachinery/pkg/api/meta/restmapper.go (UnsafeGuessKindToResource), which
    holds for every kind flowc writes: configmaps, resourceclaimtemplates, jobsets, trainjobs,
    trainingruntimes. The core group is "".
    """
    group, _, version = obj["apiVersion"].rpartition("/")
    kind = obj["kind"].lower()
    if kind.endswith("s"):
        plural = kind + "es"
    elif kind.endswith("y"):
        plural = kind[:-1] + "ies"
    else:
        plural = kind + "s"
    return {"group": group, "version": version, "plural": plural}
