"""The scripts that run archbench (nightly, guard, planted_regressions) pass on everything after
`--` to it unread: the one place that splits a command line there."""


def split(argv):
    """(the script's own arguments, archbench's): argv before and after the first `--`."""
    if "--" not in argv:
        return list(argv), []
    at = argv.index("--")
    return argv[:at], argv[at + 1:]
