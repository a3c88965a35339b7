"""The examples in the docstrings and in python/README.md run, and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import healthport
from conftest import REPOSITORY

MODULES = ["healthport", *sorted(f"healthport.{m.name}" for m in pkgutil.iter_modules(healthport.__path__))]
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def examples():
    """Every docstring example of the installed package, with its module's names and
    `healthport` in scope (the docstrings' examples assume `import healthport`)."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for test in finder.find(module, name, extraglobs={"healthport": healthport}):
            if test.examples:
                found.append(pytest.param(test, id=test.name))
    return found


@pytest.mark.parametrize("test", examples())
def test_docstring_examples(test, in_repository):
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {test.name}"


def test_every_public_function_has_an_example():
    for name in ("daily_summary", "sleep_nights", "days", "workouts", "read", "statistics", "info", "changes", "version", "binary"):
        assert ">>>" in (getattr(healthport, name).__doc__ or ""), name


def test_readme_examples(in_repository):
    readme = REPOSITORY / "python" / "README.md"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(readme.read_text(encoding="utf-8"), {}, "python/README.md", str(readme), 0)
    assert len(test.examples) >= 5
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
