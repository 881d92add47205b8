"""archbench's tools as one package: result files, tables, statistics and compare, nightly, plots,
report and dashboard, fleet (docs/house.md, "The tools"). `pip install .` installs it with a
command per tool (`archbench-compare`, ...); `python3 scripts/<tool>.py` runs the same code from a
checkout. The tools read the checkout's catalogues and results (paths.root())."""

import os as _os
import signal as _signal
import sys as _sys


def _run_as_a_command():
    """True in a process started as one of the tools: an installed `archbench-*` command, a
    checkout's scripts/<tool>.py or `python -m archbench_tools....` (not a test importing the package)."""
    argv0 = _sys.argv[0] if _sys.argv and _sys.argv[0] else ""
    package_parent = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    return _os.path.basename(argv0).startswith("archbench-") or \
        _os.path.realpath(argv0).startswith(_os.path.realpath(package_parent) + _os.sep)


# A tool piped into `head` (or any reader that stops early) ends quietly when the pipe closes, as
# Unix tools do, instead of a BrokenPipeError traceback: the one rule for every command.
if hasattr(_signal, "SIGPIPE") and _run_as_a_command():
    try:
        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
    except ValueError:  # not the main thread: Python's default stays
        pass


def _os_error_in_one_line(kind, value, tb):
    """An output that cannot be written (a full disk, a closed file) or a file the OS refuses ends a
    command with one line and exit 2, as bad input does, not a traceback; other errors keep theirs."""
    if not issubclass(kind, OSError):
        return _sys.__excepthook__(kind, value, tb)
    import errno
    if value.filename:
        what = f"{value.filename}: {value.strerror or value}"
    elif value.errno in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT, errno.EFBIG):
        what = f"cannot write the output: {value.strerror or value}"
    else:
        what = str(value.strerror or value)
    try:
        _sys.stderr.write(f"{_os.path.basename(_sys.argv[0])}: error: {what}\n")
        _sys.stderr.flush()
    finally:
        _os._exit(2)  # stdout is not flushed again at exit: it is what failed


def _flush_at_exit():
    """The last write: an output kept in its buffer until exit (Python 3.13 buffers more) fails
    here, not in a print; the same one line and exit 2 instead of 'Exception ignored on flushing'."""
    try:
        _sys.stdout.flush()
    except OSError as e:
        _os_error_in_one_line(type(e), e, None)


if _run_as_a_command():
    import atexit as _atexit
    _sys.excepthook = _os_error_in_one_line
    _atexit.register(_flush_at_exit)
    # Each line written as it is printed, so that a write that fails raises in the print, where the
    # rule above catches it: Debian 12's Python 3.11.2 flushed a 4.5 KB output held in its buffer
    # while handling sys.exit(0), dropped the error (no space left on /dev/full) and exited 0.
    if hasattr(_sys.stdout, "reconfigure"):
        _sys.stdout.reconfigure(line_buffering=True)
