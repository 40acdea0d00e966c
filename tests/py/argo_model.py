"""A model of how Argo Workflows turns a WorkflowTemplate into pods and the objects its resource
templates create, written from Argo's source (v3.7 and v4.1; paths in argoproj/argo-workflows),
and of kubelet's `$(VAR)` expansion. The flowc tests run flowc's output through it.

What Argo does to text, in order, as modelled here:
  - Every substitution is util/template Replace: the object is serialised with Go's
    encoding/json (struct fields in Go's order, HTML characters escaped, map keys sorted), the
    JSON text must be valid, valyala/fasttemplate pairs each `{{` with the next `}}` anywhere in
    that text (a `{{` without one is an error), and each tag is resolved
    (util/template/template.go): `{{=expr}}` by expressionReplace (expression_template.go: the
    expression is JSON-unquoted, compiled by expr-lang in the environment of
    util/expr/env/env.go GetFuncMap, its result JSON-escaped into the text; unresolved it is
    written back when allowed), any other tag by simpleReplace (simple_template.go: looked up
    trimmed, then the nested tag after the last `{{`; the value written with strconv.Quote;
    unresolved written back when allowed, else "failed to resolve"). The result must be valid
    JSON again.
  - A DAG task (workflow/controller/dag.go executeDAGTask): resolveDependencyReferences replaces
    over the task's JSON with the globals and the DAG's scope, unresolved allowed; expandTask
    then marshals the task, withItems and withParam still in it, and for each item
    operator.go processItem replaces over that text with the item added, strictly.
  - A template (operator.go executeTemplate; workflow/common/util.go ProcessArgs and
    SubstituteParams): inputs from the task's arguments, then two passes, the globals and
    locals (pod.name, unless the template retries), then the inputs (v3: the inputs alone;
    v4: with the first pass's map). A template with a retryStrategy is substituted again with
    the retry's locals (pod.name, retries, lastRetry.*).
  - A container template's pod (workflowpod.go createWorkflowPod, substitutePodParams): the
    template, as JSON, in the ARGO_TEMPLATE env of the init and wait containers, the main
    container from the template; the pod's JSON replaced once more with the globals, the
    inputs and pod.name.
  - A resource template (operator.go executeResource): the manifest parsed (sigs.k8s.io/yaml),
    given the workflow as owner and written back as YAML; the pod that creates it carries the
    template in ARGO_TEMPLATE, and its JSON is replaced like any pod's; argoexec creates the
    manifest as it finds it there.
Not modelled: the one-time substitution of the globals into the workflow's spec (operator.go
substituteGlobalVariables; flowc rejects defaults Argo would read there), steps templates,
artifacts, outputs, `when`, and the workflow's own parameters beyond values.

Run as a script (`argo_model.py selftest`) it checks itself against facts from Argo's tests.
"""
import copy
import json
import re
import sys
import unicodedata
import zlib
from decimal import Decimal

import yaml


class ArgoError(Exception):
    """Argo would fail the node (or the workflow) here; the message says why."""


# --- Go's encodings ---------------------------------------------------------------------------

# Struct fields in Go's order (pkg/apis/workflow/v1alpha1/workflow_types.go; k8s.io/api/core/v1).
# A field is (json name, type): a type name below, [type] for a list, "map" for a
# map[string]..., None for a scalar.
STRUCTS = {
    "Template": [("name", None), ("inputs", "Inputs"), ("outputs", None), ("nodeSelector", "map"),
                 ("affinity", None), ("metadata", "Metadata"), ("daemon", None), ("steps", None),
                 ("dag", "DAGTemplate"), ("container", "Container"), ("containerSet", None),
                 ("script", None), ("resource", "ResourceTemplate"), ("suspend", None),
                 ("http", None), ("plugin", None), ("data", None), ("volumes", None),
                 ("initContainers", None), ("sidecars", None), ("archiveLocation", None),
                 ("activeDeadlineSeconds", None), ("retryStrategy", "RetryStrategy"),
                 ("parallelism", None), ("failFast", None), ("tolerations", None),
                 ("schedulerName", None), ("priorityClassName", None),
                 ("serviceAccountName", None), ("automountServiceAccountToken", None),
                 ("executor", None), ("hostAliases", None), ("securityContext", None),
                 ("podSpecPatch", None), ("metrics", None), ("synchronization", None),
                 ("memoize", None), ("timeout", None), ("resourceClaims", None)],
    "Inputs": [("parameters", ["Parameter"]), ("artifacts", None)],
    "Parameter": [("name", None), ("default", None), ("value", None), ("valueFrom", None),
                  ("globalName", None), ("enum", None), ("description", None)],
    "Metadata": [("annotations", "map"), ("labels", "map")],
    "DAGTemplate": [("target", None), ("tasks", ["DAGTask"]), ("failFast", None)],
    "DAGTask": [("name", None), ("template", None), ("inline", None), ("arguments", "Arguments"),
                ("templateRef", None), ("dependencies", None), ("withItems", None),
                ("withParam", None), ("withSequence", None), ("when", None),
                ("continueOn", None), ("onExit", None), ("depends", None), ("hooks", None)],
    "Arguments": [("parameters", ["Parameter"]), ("artifacts", None)],
    "ResourceTemplate": [("action", None), ("mergeStrategy", None), ("manifest", None),
                         ("manifestFrom", None), ("setOwnerReference", None),
                         ("successCondition", None), ("failureCondition", None),
                         ("flags", None)],
    "RetryStrategy": [("limit", None), ("retryPolicy", None), ("backoff", None),
                      ("affinity", None), ("expression", None)],
    "Pod": [("kind", None), ("apiVersion", None), ("metadata", "ObjectMeta"),
            ("spec", "PodSpec"), ("status", None)],
    "ObjectMeta": [("name", None), ("generateName", None), ("namespace", None),
                   ("uid", None), ("labels", "map"), ("annotations", "map"),
                   ("ownerReferences", None)],
    "PodSpec": [("volumes", None), ("initContainers", ["Container"]),
                ("containers", ["Container"]), ("restartPolicy", None),
                ("activeDeadlineSeconds", None), ("nodeSelector", "map"),
                ("serviceAccountName", None), ("securityContext", None),
                ("imagePullSecrets", None), ("tolerations", None), ("resourceClaims", None)],
    "Container": [("name", None), ("image", None), ("command", None), ("args", None),
                  ("workingDir", None), ("ports", None), ("envFrom", None),
                  ("env", ["EnvVar"]), ("resources", "Resources"), ("volumeMounts", None),
                  ("imagePullPolicy", None), ("securityContext", None)],
    "EnvVar": [("name", None), ("value", None), ("valueFrom", None)],
    "Resources": [("limits", "map"), ("requests", "map"), ("claims", None)],
}


def go_json_string(s):
    """encoding/json's string: `"`, `\\`, control characters, <, >, & and U+2028/9 escaped."""
    out = ['"']
    for c in s:
        o = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif c in "\n\r\t\b\f":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}[c])
        elif o < 0x20 or c in "<>&" or o in (0x2028, 0x2029):
            out.append("\\u%04x" % o)
        elif 0xD800 <= o <= 0xDFFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append("\\ufffd")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def go_float(f):
    """encoding/json's float64 (encode.go floatEncoder): the shortest digits (Python's repr
    has the same), in 'f' format unless below 1e-6 or from 1e21 on, where 'e' format has its
    e-0X cleaned to e-X."""
    if f != f or f in (float("inf"), float("-inf")):
        raise ArgoError("json: unsupported value: %r" % f)
    d = Decimal(repr(f)).normalize()
    if f != 0 and (abs(f) < 1e-6 or abs(f) >= 1e21):
        sign, digits, exponent = d.as_tuple()
        digits = "".join(map(str, digits))
        e = len(digits) - 1 + exponent
        text = "%s%s%se%s%02d" % ("-" if sign else "", digits[0],
                                 "." + digits[1:] if len(digits) > 1 else "",
                                 "-" if e < 0 else "+", abs(e))
        return text.replace("e-0", "e-") if -10 < e < 0 else text
    return format(d, "f")


def go_json(value, kind=None):
    """json.Marshal of `value` held in Go type `kind` (see STRUCTS)."""
    if isinstance(kind, list):
        return "[" + ",".join(go_json(v, kind[0]) for v in value) + "]"
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_json_string(value)
    if isinstance(value, list):
        return "[" + ",".join(go_json(v) for v in value) + "]"
    if isinstance(value, dict):
        if kind in STRUCTS:
            fields = STRUCTS[kind]
            names = [n for n, _ in fields]
            unknown = [k for k in value if k not in names]
            if unknown:
                raise ArgoError("the model does not know %s.%s" % (kind, unknown))
            return "{" + ",".join(go_json_string(n) + ":" + go_json(value[n], t)
                                  for n, t in fields if n in value) + "}"
        keys = sorted(value) if kind == "map" or kind is None else list(value)
        return "{" + ",".join(go_json_string(k) + ":" + go_json(value[k]) for k in keys) + "}"
    raise ArgoError("cannot marshal %r" % (value,))


def go_is_print(c):
    """unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space."""
    return c == " " or unicodedata.category(c)[0] in "LMNPS"


def go_quote(s):
    """strconv.Quote."""
    out = ['"']
    for c in s:
        o = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0xD800 <= o <= 0xDFFF:
            out.append("\\x%02x" % (o - 0xDC00))
        elif go_is_print(c):
            out.append(c)
        elif c in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                        "\t": "\\t", "\v": "\\v"}[c])
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif o < 0x10000:
            out.append("\\u%04x" % o)
        else:
            out.append("\\U%08x" % o)
    out.append('"')
    return "".join(out)


def json_valid(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def go_unmarshal(text):
    """json.Unmarshal into Go values: numbers become float64."""
    return json.loads(text, parse_int=float)


# --- expr-lang, with Argo's environment --------------------------------------------------------

class ExprCompileError(Exception):
    pass


class ExprRunError(Exception):
    pass


TOKEN = re.compile(r"""\s*(?:
    (?P<number>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*|\#)
  | (?P<op>==|!=|<=|>=|&&|\|\||\?\?|[-+*/%<>!?:.,()\[\]{}])
)""", re.X)

ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
           "\\": "\\", "'": "'", '"': '"'}


def expr_unescape(body):
    """expr-lang's string literal escapes (parser/lexer utils.go unescape)."""
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in ESCAPES:
            out.append(ESCAPES[e])
            i += 2
        elif e == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif e == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif e == "U":
            out.append(chr(int(body[i + 2:i + 10], 16)))
            i += 10
        elif e in "01234567":
            out.append(chr(int(body[i + 1:i + 4], 8)))
            i += 4
        else:
            raise ExprCompileError("invalid escape \\%s" % e)
    return "".join(out)


def tokenize(text):
    tokens = []
    at = 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        m = TOKEN.match(text, at)
        if not m or m.end() == at:
            raise ExprCompileError("unexpected %r" % text[at:at + 10])
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "string":
            value = expr_unescape(value[1:-1])
        elif kind == "number":
            value = float(value) if any(c in value for c in ".eE") else int(value)
        tokens.append((kind, value))
        at = m.end()
    tokens.append(("end", None))
    return tokens


KEYWORDS = {"true": True, "false": False, "nil": None}
BINARY = {"||": 1, "or": 1, "&&": 2, "and": 2, "==": 3, "!=": 3, "<": 3, ">": 3, "<=": 3,
          ">=": 3, "in": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5, "??": 0}
BUILTINS = {"map", "filter", "len", "all", "any", "none", "one", "count", "upper", "lower",
            "trim", "string", "int", "float", "toJSON", "fromJSON", "type"}


class Parser:
    """expr-lang's grammar, as far as expressions in the flowc tests go (parser/parser.go)."""

    def __init__(self, text, env):
        self.tokens = tokenize(text)
        self.at = 0
        self.env = env

    def peek(self):
        return self.tokens[self.at]

    def take(self, value=None):
        token = self.tokens[self.at]
        if value is not None and token[1] != value:
            raise ExprCompileError("expected %r, got %r" % (value, token[1]))
        self.at += 1
        return token

    def parse(self):
        node = self.expression(0)
        if self.peek()[0] != "end":
            raise ExprCompileError("unexpected %r" % (self.peek()[1],))
        return node

    def expression(self, precedence):
        node = self.unary()
        while True:
            kind, value = self.peek()
            if kind == "op" and value == "?" and precedence == 0:
                self.take()
                then = self.expression(0)
                self.take(":")
                other = self.expression(0)
                node = ("?", node, then, other)
                continue
            op = value if kind == "op" or (kind == "name" and value in BINARY) else None
            if op not in BINARY or BINARY[op] < precedence:
                return node
            self.take()
            node = ("binary", op, node, self.expression(BINARY[op] + 1))

    def unary(self):
        kind, value = self.peek()
        if kind == "op" and value in ("!", "-"):
            self.take()
            return ("unary", value, self.unary())
        if kind == "name" and value == "not":
            self.take()
            return ("unary", "!", self.unary())
        return self.postfix(self.primary())

    def primary(self):
        kind, value = self.take()
        if kind in ("number", "string"):
            return ("const", value)
        if kind == "op" and value == "(":
            node = self.expression(0)
            self.take(")")
            return node
        if kind == "op" and value == "[":
            items = []
            while self.peek()[1] != "]":
                if items:
                    self.take(",")
                items.append(self.expression(0))
            self.take("]")
            return ("array", items)
        if kind == "name":
            if value in KEYWORDS:
                return ("const", KEYWORDS[value])
            if value == "#":
                return ("pointer",)
            if value in BUILTINS and self.peek()[1] == "(" and value not in self.env:
                return self.builtin(value)
            if value not in self.env:
                raise ExprCompileError("unknown name %s" % value)
            return ("name", value)
        raise ExprCompileError("unexpected %r" % (value,))

    def builtin(self, name):
        self.take("(")
        args = [self.expression(0)]
        if name in ("map", "filter", "all", "any", "none", "one", "count"):
            self.take(",")
            braces = self.peek()[1] == "{"
            if braces:
                self.take("{")
            args.append(("closure", self.expression(0)))
            if braces:
                self.take("}")
        self.take(")")
        return ("builtin", name, args)

    def postfix(self, node):
        while True:
            kind, value = self.peek()
            if kind == "op" and value == ".":
                self.take()
                node = ("member", node, ("const", self.take()[1]))
            elif kind == "op" and value == "[":
                self.take()
                node = ("member", node, self.expression(0))
                self.take("]")
            elif kind == "op" and value == "(":
                self.take()
                args = []
                while self.peek()[1] != ")":
                    if args:
                        self.take(",")
                    args.append(self.expression(0))
                self.take(")")
                node = ("call", node, args)
            else:
                return node


def expr_string(value):
    """expr-lang's string(): fmt %v."""
    if value is None:
        return "<nil>"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if value != int(value) else str(int(value))
    return str(value)


def evaluate(node, env, pointer=None):
    tag = node[0]
    if tag == "const":
        return node[1]
    if tag == "pointer":
        return pointer
    if tag == "name":
        return env[node[1]]
    if tag == "array":
        return [evaluate(n, env, pointer) for n in node[1]]
    if tag == "member":
        base = evaluate(node[1], env, pointer)
        key = evaluate(node[2], env, pointer)
        if isinstance(base, dict):
            return base.get(key)
        if isinstance(base, (list, str)) and isinstance(key, (int, float)):
            return base[int(key)]
        raise ExprRunError("cannot fetch %r from %r" % (key, type(base).__name__))
    if tag == "call":
        fn = evaluate(node[1], env, pointer)
        if not callable(fn):
            raise ExprRunError("%r is not a function" % (fn,))
        try:
            return fn(*[evaluate(a, env, pointer) for a in node[2]])
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise ExprRunError(str(e))
    if tag == "unary":
        value = evaluate(node[2], env, pointer)
        return (not value) if node[1] == "!" else -value
    if tag == "?":
        return evaluate(node[2] if evaluate(node[1], env, pointer) else node[3], env, pointer)
    if tag == "binary":
        op = node[1]
        left = evaluate(node[2], env, pointer)
        if op in ("||", "or"):
            return left or evaluate(node[3], env, pointer)
        if op in ("&&", "and"):
            return left and evaluate(node[3], env, pointer)
        right = evaluate(node[3], env, pointer)
        try:
            if op == "+":
                if isinstance(left, str) != isinstance(right, str):
                    raise ExprRunError("invalid operation: %r + %r" % (left, right))
                return left + right
            return {"-": lambda: left - right, "*": lambda: left * right,
                    "/": lambda: left / right, "%": lambda: left % right,
                    "==": lambda: left == right, "!=": lambda: left != right,
                    "<": lambda: left < right, ">": lambda: left > right,
                    "<=": lambda: left <= right, ">=": lambda: left >= right,
                    "in": lambda: left in right,
                    "??": lambda: left if left is not None else right}[op]()
        except TypeError as e:
            raise ExprRunError(str(e))
    if tag == "builtin":
        name, args = node[1], node[2]
        if name in ("map", "filter", "all", "any", "none", "one", "count"):
            items = evaluate(args[0], env, pointer)
            if not isinstance(items, list):
                raise ExprRunError("%s of %r" % (name, type(items).__name__))
            results = [evaluate(args[1][1], env, item) for item in items]
            if name == "map":
                return results
            if name == "filter":
                return [i for i, keep in zip(items, results) if keep]
            return {"all": all, "any": any, "none": lambda r: not any(r),
                    "one": lambda r: sum(map(bool, r)) == 1,
                    "count": lambda r: sum(map(bool, r))}[name](results)
        value = evaluate(args[0], env, pointer)
        if name == "len":
            # expr-lang's len counts the characters of a string in the versions Argo 3.7 and
            # 4.1 ship (builtin.go: utf8.RuneCountInString), not its bytes.
            if not isinstance(value, (str, list, dict)):
                raise ExprRunError("invalid argument for len")
            return len(value)
        return {"upper": str.upper, "lower": str.lower, "trim": str.strip,
                "string": expr_string, "int": lambda v: int(float(v)), "float": float,
                "toJSON": lambda v: json.dumps(v, indent=2), "fromJSON": json.loads,
                "type": lambda v: type(v).__name__}[name](value)
    raise ExprCompileError("cannot evaluate %r" % (tag,))


# --- the sprig functions Argo exposes (Masterminds/sprig v3: functions.go, strings.go, ...)
# Go strings are byte strings: the functions that count or cut do it in bytes.

def to_bytes(s):
    return s.encode("utf-8", "surrogateescape")


def from_bytes(b):
    return b.decode("utf-8", "surrogateescape")


def sprig_substr(start, end, s):
    """strings.go substring: bytes, s[start:end] with out-of-range ends clamped as sprig does."""
    b = to_bytes(s)
    start, end = int(start), int(end)
    if start < 0:
        return from_bytes(b[:end])
    if end < 0 or end > len(b):
        return from_bytes(b[start:])
    return from_bytes(b[start:end])


def sprig_trunc(c, s):
    b = to_bytes(s)
    c = int(c)
    if c < 0 and len(b) + c > 0:
        return from_bytes(b[len(b) + c:])
    if c >= 0 and len(b) > c:
        return from_bytes(b[:c])
    return s


def go_regexp(pattern):
    """A Go RE2 pattern as Python's re: `$` without (?m) matches at the end of the text only."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        out.append(r"\Z" if c == "$" else c)
        i += 1
    return re.compile("".join(out))


def go_regex_replace(pattern, s, repl):
    """regexp.ReplaceAllString: `$1`, `${1}`, `$$` in the replacement."""
    def expand(m):
        return re.sub(r"\$(\$|\{?(\d+)\}?)",
                      lambda e: "$" if e.group(1) == "$" else (m.group(int(e.group(2))) or ""),
                      repl)
    return go_regexp(pattern).sub(expand, s)


def go_kind(v):
    if isinstance(v, str):
        return "string"
    if v is True or v is False:
        return "bool"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, int):
        return "int"
    if isinstance(v, list):
        return "slice"
    if isinstance(v, dict):
        return "map"
    return "invalid"


def sprig_from_json(s):
    try:
        return go_unmarshal(s)
    except ValueError:
        return None


def sprig_sha1(s):
    import hashlib
    return hashlib.sha1(to_bytes(s)).hexdigest()


SPRIG = {
    "replace": lambda old, new, src: src.replace(old, new) if old else src,
    "regexReplaceAll": go_regex_replace,
    "squote": lambda *args: " ".join("'%s'" % expr_string(a) for a in args if a is not None),
    "quote": lambda *args: " ".join(go_quote(expr_string(a)) for a in args if a is not None),
    "substr": sprig_substr,
    "trunc": sprig_trunc,
    "repeat": lambda count, s: s * int(count),
    "trimPrefix": lambda prefix, s: s[len(prefix):] if s.startswith(prefix) else s,
    "trimSuffix": lambda suffix, s: s[:-len(suffix)] if suffix and s.endswith(suffix) else s,
    "fromJson": sprig_from_json,
    "toJson": lambda v: go_json(v),
    "kindIs": lambda kind, v: go_kind(v) == kind,
    "ternary": lambda vt, vf, v: vt if v else vf,
    "sha1sum": sprig_sha1,
    "toString": expr_string,
    "trim": str.strip,
    "upper": str.upper,
    "lower": str.lower,
}


def expand_map(values):
    """util/expand Expand: dotted keys as nested maps, a key with children dropped."""
    keys = sorted(values)
    kept = {k: values[k] for i, k in enumerate(keys)
            if not (i + 1 < len(keys) and keys[i + 1].startswith(k + "."))}
    out = {}
    for key, value in kept.items():
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = value
    return out


def argo_env(values):
    """util/expr/env/env.go GetFuncMap."""
    env = expand_map(values)
    env["asInt"] = lambda v: int(float(v))
    env["asFloat"] = float
    env["toJson"] = lambda v: go_json(v)
    env["jsonpath"] = lambda s, path: go_unmarshal(s) if path == "$" else None
    env["sprig"] = dict(SPRIG)
    return env


def mentions(expression, variable):
    """expression_template.go hasVariableInExpression (by the lexer's tokens)."""
    if variable not in expression:
        return False
    try:
        tokens = [v for _, v in tokenize(expression)]
    except ExprCompileError:
        return False
    want = [v for _, v in tokenize(variable)][:-1]
    return any(tokens[i:i + len(want)] == want for i in range(len(tokens)))


def has_var(values, variable):
    return variable in values


def expression_replace(expression, values, allow_unresolved):
    """expression_template.go expressionReplace: the text written for `{{=expression}}`."""
    written_back = "{{=" + expression + "}}"
    try:
        source = json.loads('"%s"' % expression)
    except ValueError:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to unmarshall JSON expression: %s" % expression)
    late = ["retries", "lastRetry.exitCode", "lastRetry.status", "lastRetry.duration",
            "lastRetry.message", "workflow.status", "workflow.failures"]
    if allow_unresolved and any(mentions(source, v) and not has_var(values, v) for v in late):
        return written_back
    env = argo_env(values)
    try:
        program = Parser(source, env).parse()
    except ExprCompileError as e:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression: %s: %s" % (source, e))
    try:
        result = evaluate(program, env)
    except (ExprRunError, RecursionError) as e:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression: %s: %s" % (source, e))
    if result is None:
        if allow_unresolved:
            return written_back
        raise ArgoError("failed to evaluate expression %r" % source)
    marshaled = go_json(result)
    if len(marshaled) > 1 and marshaled[0] == '"' and marshaled[-1] == '"':
        return marshaled[1:-1]
    return go_quote(marshaled)[1:-1]


def simple_replace(tag, values, allow_unresolved):
    """simple_template.go simpleReplace."""
    value = values.get(tag.strip())
    if value is None:
        index = tag.rfind("{{")
        if index > 0 and tag[index + 2:] in values:
            return "{{" + tag[:index] + go_quote(values[tag[index + 2:]])[1:-1]
        if allow_unresolved:
            return "{{" + tag + "}}"
        raise ArgoError("failed to resolve {{%s}}" % tag)
    return go_quote(value)[1:-1]


def fasttemplate(text):
    """valyala/fasttemplate: the texts and the tags between `{{` and the next `}}`."""
    texts, tags = [], []
    while True:
        start = text.find("{{")
        if start < 0:
            texts.append(text)
            return texts, tags
        texts.append(text[:start])
        text = text[start + 2:]
        end = text.find("}}")
        if end < 0:
            raise ArgoError("unable to parse argo variable: Cannot find end tag=\"}}\"")
        tags.append(text[:end])
        text = text[end + 2:]


def replace(text, values, allow_unresolved):
    """util/template Replace over a JSON text."""
    if not json_valid(text):
        raise ArgoError("cannot do template replacements with invalid JSON")
    texts, tags = fasttemplate(text)
    out = [texts[0]]
    for tag, after in zip(tags, texts[1:]):
        if tag.startswith("="):
            out.append(expression_replace(tag[1:], values, allow_unresolved))
        else:
            out.append(simple_replace(tag, values, allow_unresolved))
        out.append(after)
    result = "".join(out)
    if not json_valid(result):
        raise ArgoError("cannot finish template replacement because the result was invalid "
                        "JSON")
    return result


# --- kubelet ---------------------------------------------------------------------------------

def kubelet_expand(text, env):
    """k8s.io/kubernetes third_party/forked/golang/expansion/expand.go Expand, with the
    mapping of MappingFuncFor: a defined variable's value, else the reference as written.
    Byte by byte, as Go indexes strings: a `$` before a byte that is not `$` or `(` gives
    `string(operator) + string(input[0])`, which converts that byte as a code point, so a `$`
    right before a non-ASCII character corrupts it."""
    data = to_bytes(text)
    out = []
    checkpoint = 0
    cursor = 0
    while cursor < len(data):
        if data[cursor:cursor + 1] == b"$" and cursor + 1 < len(data):
            out.append(data[checkpoint:cursor])
            rest = data[cursor + 1:]
            if rest[:1] == b"$":
                out.append(b"$")
                advance = 1
            elif rest[:1] == b"(":
                close = rest.find(b")", 1)
                if close >= 0:
                    name = from_bytes(rest[1:close])
                    out.append(to_bytes(env[name]) if name in env else b"$(" + rest[1:close] +
                               b")")
                    advance = close + 1
                else:
                    out.append(b"$(")
                    advance = 1
            else:
                out.append(b"$" + chr(rest[0]).encode("utf-8"))
                advance = 1
            cursor += advance
            checkpoint = cursor + 1
        cursor += 1
    return from_bytes(b"".join(out) + data[checkpoint:])


def container_argv(container, extra_env=None):
    """What the container's process receives: command and args, each expanded by kubelet with
    the container's env (values expanded in order, each with the ones before it)."""
    env = dict(extra_env or {})
    for var in container.get("env") or []:
        if "value" in var:
            env[var["name"]] = kubelet_expand(var["value"], env)
    return [kubelet_expand(a, env) for a in (container.get("command") or []) +
            (container.get("args") or [])]


# --- the workflow ----------------------------------------------------------------------------

def item_value(item):
    """processItem: a string as it is, a number or bool as fmt prints it, else JSON."""
    if isinstance(item, str):
        return item
    if item is True or item is False:
        return "true" if item else "false"
    if isinstance(item, float):
        return go_float(item)
    return go_json(item)


class Workflow:
    """One run of a WorkflowTemplate (`argo submit --from workflowtemplate/...`).

    `created` lists what the run creates: {"template", "kind": "Pod" or the resource's kind,
    "object", "inputs"} for each pod of a container template and each object a resource
    template creates, in the order Argo reaches them."""

    def __init__(self, docs, version, params=None, name="flow-x7k2p"):
        if version not in (3, 4):
            raise ValueError(version)
        self.version = version
        workflows = [d for d in docs if d and d.get("kind") == "WorkflowTemplate"]
        if len(workflows) != 1:
            raise ArgoError("expected one WorkflowTemplate")
        self.spec = workflows[0]["spec"]
        self.namespace = workflows[0]["metadata"].get("namespace")
        self.name = name
        self.templates = {t["name"]: t for t in self.spec["templates"]}
        self.globals = {"workflow.name": name, "workflow.namespace": self.namespace or "argo",
                        "workflow.uid": "6a0f6c1e-0000-4000-8000-000000000001"}
        given = dict(params or {})
        for p in self.spec.get("arguments", {}).get("parameters", []):
            value = given.pop(p["name"], p.get("value"))
            if value is None:
                raise ArgoError("spec.arguments.%s.value is required" % p["name"])
            self.globals["workflow.parameters." + p["name"]] = value
        if given:
            raise ArgoError("unknown parameters %s" % sorted(given))
        self.created = []

    def run(self):
        self.execute(self.spec["entrypoint"], {}, self.name)
        return self.created

    def pod_name(self, node_name, template):
        return "%s-%s-%d" % (self.name, template, zlib.crc32(node_name.encode()))

    def substitute(self, tmpl, locals_):
        """common.SubstituteParams: globals and locals, then the inputs."""
        first = dict(self.globals, **locals_)
        text = replace(go_json(tmpl, "Template"), first, True)
        inputs = {}
        params = json.loads(text).get("inputs", {}).get("parameters", [])
        for p in params:
            if p.get("value") is None:
                raise ArgoError("inputs.parameters.%s had no value" % p["name"])
            inputs["inputs.parameters." + p["name"]] = p["value"]
        inputs["inputs.parameters"] = go_json(params, ["Parameter"])
        second = inputs if self.version == 3 else dict(first, **inputs)
        return json.loads(replace(text, second, True))

    def execute(self, name, arguments, node_name):
        """operator.go executeTemplate."""
        if name not in self.templates:
            raise ArgoError("template %s not found" % name)
        tmpl = copy.deepcopy(self.templates[name])
        for p in tmpl.get("inputs", {}).get("parameters", []):
            value = arguments.get(p["name"], p.get("default"))
            if value is None:
                raise ArgoError("inputs.parameters.%s was not supplied" % p["name"])
            p["value"] = value
        pod_type = "container" in tmpl or "resource" in tmpl
        pod_name = self.pod_name(node_name, name)
        retried = "retryStrategy" in tmpl
        tmpl = self.substitute(tmpl, {"pod.name": pod_name} if pod_type and not retried else {})
        if retried:
            tmpl = self.substitute(tmpl, {"pod.name": pod_name, "retries": "0",
                                          "lastRetry.exitCode": "0", "lastRetry.status": "",
                                          "lastRetry.duration": "0", "lastRetry.message": ""})
        if "dag" in tmpl:
            self.execute_dag(tmpl, node_name)
        elif "container" in tmpl:
            self.create_pod(tmpl, pod_name)
        elif "resource" in tmpl:
            self.create_resource(tmpl, pod_name)
        else:
            raise ArgoError("template %s has no type the model knows" % name)

    def execute_dag(self, tmpl, node_name):
        """dag.go executeDAGTask for every task (the order of `depends` does not matter here)."""
        scope = {"inputs.parameters." + p["name"]: p["value"]
                 for p in tmpl.get("inputs", {}).get("parameters", [])}
        values = dict(self.globals, **scope)
        for task in tmpl["dag"]["tasks"]:
            task = json.loads(replace(go_json(task, "DAGTask"), values, True))
            if "withItems" in task:
                items = task["withItems"]
            elif "withParam" in task:
                try:
                    items = json.loads(task["withParam"])
                    if not isinstance(items, list):
                        raise ValueError
                except ValueError:
                    raise ArgoError("withParam value could not be parsed as a JSON list: %s"
                                    % task["withParam"].strip())
            else:
                self.execute(task["template"], self.arguments(task),
                             "%s.%s" % (node_name, task["name"]))
                continue
            text = go_json(task, "DAGTask")  # withItems and withParam still in it
            for i, item in enumerate(items):
                expanded = json.loads(replace(text, dict(values, item=item_value(item)), False))
                self.execute(expanded["template"], self.arguments(expanded),
                             "%s.%s(%d)" % (node_name, task["name"], i))

    @staticmethod
    def arguments(task):
        return {p["name"]: p.get("value")
                for p in task.get("arguments", {}).get("parameters", [])}

    def pod(self, tmpl, pod_name, main):
        """createWorkflowPod: the pod, the template in the executor's ARGO_TEMPLATE env."""
        template_env = {"name": "ARGO_TEMPLATE", "value": go_json(tmpl, "Template")}
        spec = {"initContainers": [{"name": "init", "image": "quay.io/argoproj/argoexec",
                                    "env": [template_env]}],
                "containers": [{"name": "wait", "image": "quay.io/argoproj/argoexec",
                                "env": [template_env]}, main],
                "restartPolicy": "Never"}
        for key in ("volumes", "nodeSelector", "serviceAccountName", "tolerations",
                    "resourceClaims"):
            if key in tmpl:
                spec[key] = tmpl[key]
        if "imagePullSecrets" in self.spec:
            spec["imagePullSecrets"] = self.spec["imagePullSecrets"]
        if "podSpecPatch" in tmpl:
            # A strategic merge patch onto a pod that has none of these lists yet.
            patch = yaml.safe_load(tmpl["podSpecPatch"])
            for key in ("imagePullSecrets", "resourceClaims"):
                if key in patch:
                    spec[key] = patch[key]
        metadata = {"name": pod_name}
        if self.namespace:
            metadata["namespace"] = self.namespace
        for key in ("labels", "annotations"):
            if key in tmpl.get("metadata", {}):
                metadata[key] = tmpl["metadata"][key]
        return {"metadata": metadata, "spec": spec}

    def substitute_pod(self, pod, tmpl):
        """workflowpod.go substitutePodParams."""
        values = dict(self.globals)
        for p in tmpl.get("inputs", {}).get("parameters", []):
            values["inputs.parameters." + p["name"]] = p["value"]
        values["pod.name"] = pod["metadata"]["name"]
        return json.loads(replace(go_json(pod, "Pod"), values, True))

    def inputs_of(self, tmpl):
        return {p["name"]: p["value"] for p in tmpl.get("inputs", {}).get("parameters", [])}

    def create_pod(self, tmpl, pod_name):
        main = dict(tmpl["container"], name="main")
        pod = self.substitute_pod(self.pod(tmpl, pod_name, main), tmpl)
        self.created.append({"template": tmpl["name"], "kind": "Pod", "object": pod,
                             "inputs": self.inputs_of(tmpl)})

    def create_resource(self, tmpl, pod_name):
        """executeResource, then the pod whose argoexec creates the manifest."""
        resource = tmpl["resource"]
        try:
            obj = yaml.safe_load(resource["manifest"])
        except yaml.YAMLError as e:
            raise ArgoError("the manifest is not YAML: %s" % e)
        if resource.get("setOwnerReference"):
            obj.setdefault("metadata", {}).setdefault("ownerReferences", []).append(
                {"apiVersion": "argoproj.io/v1alpha1", "kind": "Workflow", "name": self.name,
                 "uid": self.globals["workflow.uid"], "controller": True,
                 "blockOwnerDeletion": True})
            # sigs.k8s.io/yaml Marshal (go-yaml: lines folded at 80 columns).
            resource["manifest"] = yaml.safe_dump(obj, allow_unicode=True, width=80,
                                                  sort_keys=True)
        main = {"name": "main", "image": "quay.io/argoproj/argoexec",
                "command": ["argoexec", "resource", resource["action"]],
                "env": [{"name": "ARGO_TEMPLATE", "value": go_json(tmpl, "Template")}]}
        pod = self.substitute_pod(self.pod(tmpl, pod_name, main), tmpl)
        executed = json.loads(next(e["value"] for e in pod["spec"]["containers"][1]["env"]
                                   if e["name"] == "ARGO_TEMPLATE"))
        try:
            created = yaml.safe_load(executed["resource"]["manifest"])
        except yaml.YAMLError as e:
            raise ArgoError("argoexec cannot read the manifest: %s" % e)
        self.created.append({"template": tmpl["name"], "kind": created.get("kind"),
                             "object": created, "inputs": self.inputs_of(tmpl)})


def run(docs, version, params=None, name="flow-x7k2p"):
    """What one run of the WorkflowTemplate in `docs` creates (see Workflow)."""
    return Workflow(docs, version, params, name).run()


# --- self-test: facts from Argo's own tests and docs ----------------------------------------

def selftest():
    failures = []

    def check(what, actual, expected):
        if actual != expected:
            failures.append("%s: expected %r, got %r" % (what, expected, actual))

    # util/template/template_test.go and replace_test.go.
    check("simple", replace('{"x":"{{foo}}"}', {"foo": "bar"}, False), '{"x":"bar"}')
    check("unresolved allowed", replace('{"x":"{{foo}}"}', {}, True), '{"x":"{{foo}}"}')
    try:
        replace('{"x":"{{foo}}"}', {}, False)
        failures.append("strict: no error")
    except ArgoError as e:
        check("strict", str(e), "failed to resolve {{foo}}")
    check("quoted", replace('{"x":"{{foo}}"}', {"foo": 'a"b\n'}, False), '{"x":"a\\"b\\n"}')
    check("expression", replace('{"x":"{{=1 + 1}}"}', {}, False), '{"x":"2"}')
    check("expression string", replace('{"x":"{{=sprig.trim(\' a \')}}"}', {}, False),
          '{"x":"a"}')
    check("expression unresolved",
          replace('{"x":"{{=inputs.parameters.y}}"}', {}, True),
          '{"x":"{{=inputs.parameters.y}}"}')
    check("nested", replace('{"x":"{{ a {{inputs.parameters.y}}"}', {"inputs.parameters.y": "v"},
                            True), '{"x":"{{ a v"}')
    # sprig and expr-lang.
    env = argo_env({})
    check("substr bytes", evaluate(Parser("sprig.substr(1, 3, 'über')", env).parse(), env),
          from_bytes(to_bytes("über")[1:3]))
    check("len chars", evaluate(Parser("len('über')", env).parse(), env), 4)
    check("toJson html", evaluate(Parser("toJson('<a>')", env).parse(), env),
          '"\\u003ca\\u003e"')
    check("map", evaluate(Parser("map(['a', 'b'], # + 'x')", env).parse(), env), ["ax", "bx"])
    check("regex", evaluate(Parser("sprig.regexReplaceAll('^.|.$', '\"a\\n\"', '')",
                                   env).parse(), env), "a\n")
    # kubelet: expand_test.go.
    check("kubelet", kubelet_expand("$(A) $$(A) $$ $(B) $( $x", {"A": "a"}),
          "a $(A) $ $(B) $( $x")
    check("kubelet end", kubelet_expand("x$", {}), "x$")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("argo_model: self-test passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["selftest"]:
        selftest()
    else:
        sys.exit("usage: argo_model.py selftest")
