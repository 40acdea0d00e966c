def flowc_argvs(argv, items=None, param=None, **context):
    """The commands of a mapped foreach step, one per element (see flowc_argv)."""
    return [flowc_argv(argv, item) for item in flowc_items(items, param, **context)]
