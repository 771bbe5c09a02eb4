"""Loaded at start-up by every Python process that has this folder on PYTHONPATH:
`bench/load.py --loopwatch` puts it there for the server processes it starts, with
BENCH_LOOPWATCH naming the folder for the results (bench/loopwatch.py)."""

import os
import sys

if os.environ.get("BENCH_LOOPWATCH"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import loopwatch

    loopwatch.install(os.environ["BENCH_LOOPWATCH"])
    del sys.path[0]

if os.environ.get("BENCH_SWITCH_INTERVAL"):  # an experiment: the GIL's switch interval
    sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))
