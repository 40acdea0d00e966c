"""Argo Workflows' expression environment, for tests/py/argo_model.py: Go's encodings as Argo
uses them (encoding/json with its struct order and HTML escaping, strconv.Quote), the part of
expr-lang the tests meet (parser, built-ins map/filter/len/...), the sprig v3 functions Argo puts
under `sprig` (Masterminds/sprig functions.go; Go strings are bytes, so substr and trunc cut
bytes), and the environment util/expr/env/env.go GetFuncMap builds (util/expand: dotted names
as nested maps; toJson, jsonpath, asInt, asFloat).
"""
import hashlib
import json
import re
import unicodedata
from decimal import Decimal


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


_GO_ESCAPES = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
               "\f": "\\f"}
_GO_SPECIAL = re.compile("[\x00-\x1f\"\\\\\u2028\u2029\ud800-\udfff]")
_GO_SPECIAL_HTML = re.compile("[\x00-\x1f\"\\\\<>&\u2028\u2029\ud800-\udfff]")


def _go_escape(match):
    c = match.group()
    if c in _GO_ESCAPES:
        return _GO_ESCAPES[c]
    if "\ud800" <= c <= "\udfff":  # a byte that was not UTF-8 (surrogateescape)
        return "\\ufffd"
    return "\\u%04x" % ord(c)


def go_json_string(s, html=True):
    """encoding/json's string: `"`, `\\`, control characters, U+2028/9 and (unless an Encoder's
    SetEscapeHTML(false)) <, >, & escaped (encode.go appendString)."""
    return '"' + (_GO_SPECIAL_HTML if html else _GO_SPECIAL).sub(_go_escape, s) + '"'


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


def go_json(value, kind=None, html=True):
    """json.Marshal of `value` held in Go type `kind` (see STRUCTS); `html=False`: an Encoder
    with SetEscapeHTML(false). A RawNumber is a json.RawMessage or json.Number: its text."""
    if isinstance(kind, list):
        return "[" + ",".join(go_json(v, kind[0], html) for v in value) + "]"
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, RawNumber):
        return str.__str__(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_json_string(value, html)
    if isinstance(value, list):
        return "[" + ",".join(go_json(v, None, html) for v in value) + "]"
    if isinstance(value, dict):
        if kind in STRUCTS:
            fields = STRUCTS[kind]
            names = [n for n, _ in fields]
            unknown = [k for k in value if k not in names]
            if unknown:
                raise ArgoError("the model does not know %s.%s" % (kind, unknown))
            return "{" + ",".join(go_json_string(n) + ":" + go_json(value[n], t, html)
                                  for n, t in fields if n in value) + "}"
        keys = sorted(value) if kind == "map" or kind is None else list(value)
        return "{" + ",".join(go_json_string(k, html) + ":" + go_json(value[k], None, html)
                              for k in keys) + "}"
    raise ArgoError("cannot marshal %r" % (value,))


class RawNumber(str):
    """A JSON number kept as its text, as a json.RawMessage holds it (wfv1.Item)."""


def go_raw_items(text):
    """json.Unmarshal into []wfv1.Item: each element's JSON text kept (item.go: Item holds
    json.RawMessage). Strings, lists and maps are decoded here, numbers stay RawNumber."""
    return json.loads(text, parse_float=RawNumber, parse_int=RawNumber)


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
    if isinstance(v, RawNumber):
        return "invalid"  # never an expression's value: fromJson decodes numbers as float64
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
    "hasSuffix": lambda suffix, s: s.endswith(suffix),
    "fromJson": sprig_from_json,
    "toJson": lambda v: go_json(v),
    # defaults.go mustToRawJson: an Encoder with SetEscapeHTML(false), its newline trimmed.
    "toRawJson": lambda v: go_json(v, html=False),
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
