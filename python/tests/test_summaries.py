"""The daily summary and the sleep nights (issue 38) have their place, and say plainly that
the binary cannot write them yet: no guessed command is run, nothing is made up.

When `healthport summary` and `healthport sleep` land, these tests are replaced by ones that
compare the tables with the commands' CSV, as test_statistics.py does for `stats`."""

from __future__ import annotations

import inspect

import pytest

import healthport
from healthport import _summaries
from conftest import SAMPLE


@pytest.mark.parametrize("name", ["daily_summary", "sleep_nights"])
def test_waits_for_the_command_without_running_anything(name, monkeypatch):
    def no_run(*arguments, **options):
        raise AssertionError("the binary was run")

    monkeypatch.setattr("healthport._process.run", no_run)
    function = getattr(_summaries, name)
    with pytest.raises(NotImplementedError, match="issue 38"):
        function(SAMPLE)
    assert "policy" in inspect.signature(function).parameters


@pytest.mark.parametrize("name", ["daily_summary", "sleep_nights"])
def test_not_public_until_it_answers(name):
    assert name not in healthport.__all__
    assert not hasattr(healthport, name)
