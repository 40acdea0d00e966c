"""YAML as the tests read it: PyYAML's safe loading (its SafeConstructor and YAML 1.1 resolver),
with libyaml's parser where PyYAML was built with it, as Debian's python3-yaml is. The
pure-Python parser took about a third of the Argo split test's time on its 10,000-step
outputs; the C one reads the same documents to the same values roughly ten times faster."""
import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text):
    """yaml.safe_load."""
    return yaml.load(text, Loader=_LOADER)


def load_all(text):
    """yaml.safe_load_all: a generator of the stream's documents."""
    return yaml.load_all(text, Loader=_LOADER)
