def flowc_text(value):
    """A param's or foreach element's value as a command receives it.

    The Jinja filter of every param reference, and applied to every element. A string is
    itself, anything else the JSON the IR writes for it (flowc_json); then each `$` is doubled,
    because kubelet reads `$$` as `$` and expands `$(NAME)` in a container's command.
    """
    text = value if isinstance(value, str) else flowc_json(value)
    return text.replace("$", "$$")


def flowc_json(value):
    """`value` as compact JSON, as nlohmann::json writes the flow's own values."""
    if value is True or value is False or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        return flowc_float(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(flowc_json(v) for v in value) + "]"
    if isinstance(value, dict):  # keys sorted, as in nlohmann's std::map
        return "{" + ",".join(
            json.dumps(str(k), ensure_ascii=False) + ":" + flowc_json(v)
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) + "}"
    return json.dumps(value, ensure_ascii=False)


def flowc_float(x):
    """nlohmann::json's to_chars: the shortest digits that read back as `x`, fixed while the
    decimal point falls within 15 digits of them (0.0001, 1.5, 100000000000000.0), else
    d.ddde+XX (1e+15, 1e-05). Python's repr gives the shortest digits, which are those of
    nlohmann's Grisu2 but for rare values where Grisu2 writes one digit more."""
    if x != x or x in (float("inf"), float("-inf")):
        return "null"
    sign = "-" if repr(x).startswith("-") else ""
    mantissa, _, exponent = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    written = whole + fraction
    point = len(whole) + int(exponent or "0")
    digits = written.lstrip("0")
    point -= len(written) - len(digits)
    digits = digits.rstrip("0")
    if not digits:
        return sign + "0.0"
    k, n = len(digits), point
    if k <= n <= 15:
        return sign + digits + "0" * (n - k) + ".0"
    if 0 < n <= 15:
        return sign + digits[:n] + "." + digits[n:]
    if -4 < n <= 0:
        return sign + "0." + "0" * -n + digits
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return "{}{}e{}{:02d}".format(sign, head, "-" if n - 1 < 0 else "+", abs(n - 1))
