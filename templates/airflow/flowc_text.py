def flowc_text(value):
    """A value as a command sees it: a string as it is, anything else as compact JSON.

    For foreach elements, and the Jinja filter for bool and list params.
    """
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
