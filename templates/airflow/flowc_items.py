def flowc_items(items=None, param=None, **context):
    """A foreach's elements: the literal `items`, or this run's value of the list param `param`."""
    if param is not None:
        items = context["params"][param]
    if not isinstance(items, list):
        raise TypeError("foreach over {}: expected a list, got {!r}".format(param, items))
    return items
