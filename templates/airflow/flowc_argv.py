def flowc_argv(argv, item):
    """The command of one foreach task: `argv` with the element in place of each None part.

    Airflow does not render mapped arguments, so the parts (already rendered, as arguments
    of this task) are joined around the element here.
    """
    item = flowc_text(item)
    return [
        arg if isinstance(arg, str) else "".join(item if part is None else part for part in arg)
        for arg in argv
    ]
