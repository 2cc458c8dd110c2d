"""A pytest plugin for bench/mutation.py: which test executes which line of the mutated packages.

Loaded with ``-p mutation_plugin`` (bench/ on PYTHONPATH) when ``MUTATION_COVER_OUT`` names a data file;
``MUTATION_COVER_SOURCE`` is the comma-separated list of directories measured.  Coverage starts when this
module is imported (before the conftest imports anything), and each test's lines are recorded under the
test's node id as coverage's context; what runs outside a test (imports, collection) has the empty context.
"""

from __future__ import annotations

import json
import os

import pytest

_cov = None
_durations: dict[str, float] = {}
if os.environ.get("MUTATION_COVER_OUT"):
    import coverage

    _cov = coverage.Coverage(data_file=os.environ["MUTATION_COVER_OUT"],
                             source=os.environ["MUTATION_COVER_SOURCE"].split(","), config_file=False)
    _cov.start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _cov is not None:
        _cov.switch_context(item.nodeid)
    yield
    if _cov is not None:
        _cov.switch_context("")


def pytest_runtest_logreport(report):
    if _cov is not None:
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_unconfigure(config):
    if _cov is not None:
        _cov.stop()
        _cov.save()
        with open(os.environ["MUTATION_COVER_OUT"] + ".durations.json", "w", encoding="utf-8") as out:
            json.dump(_durations, out)
