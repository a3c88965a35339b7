"""`healthport.info` is `healthport info --format json`."""

from __future__ import annotations

import json

import healthport
from conftest import SAMPLE, real_exports, run_cli


def test_info_is_the_clis_json():
    for export in [SAMPLE, *real_exports()]:
        expected = json.loads(run_cli("info", export, "--format", "json", "-q").stdout)
        assert healthport.info(export, quiet=True) == expected, export


def test_info_of_some_types():
    about = healthport.info(SAMPLE, types="StepCount")
    assert [(source["name"], source["count"]) for source in about["sources"]] == [
        ("Apple Watch de Nicolás", 168),
        ("Simon’s iPhone", 168),
    ]


def test_info_names_the_parser():
    assert healthport.info(SAMPLE, parser="libxml2", quiet=True)["parser"] == {"name": "libxml2"}
