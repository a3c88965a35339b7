#!/usr/bin/env python3
"""Validates Open mHealth / IEEE 1752.1 data points (healthport --format omh) with jsonschema.

    validate_points.py SCHEMAS FILE...

SCHEMAS is a copy of openmhealth/schemas laid out as ../shared/schemas/openmhealth (its omh/
and ieee/ folders); FILE is NDJSON, one data point per line. Every line must be an object of
exactly a header and a body; the body must validate against the schema its header names
(omh/NAME-VERSION.json), every reference resolved offline; the header must have the IEEE 1752.1
members healthport writes (a uuid, the user_id, a schema_id valid against omh's schema-id
schema, the source's creation time, the modality from its enum, the datasheets), with no other
member; the user_id, whose data point it is, is the member Open mHealth's header-1.1 and
header-1.2 define (a string, checked against header-1.2's definition), the same on every line
of a file;
every date-time must be RFC 3339 with an offset; uuids must not repeat within a file.
healthport's own body member (healthport_sleep_stages) must hold duration values.
Prints the data points per schema; exits 1 at the first file with an invalid line.
"""
import functools
import json
import pathlib
import re
import sys
from collections import Counter

from jsonschema import validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT7

OMH = "https://w3id.org/openmhealth/schemas/omh/"
IEEE = "https://w3id.org/ieee/ieee-1752-schema/"
# A version, or a major version's latest (`-1.x.json`, which omh's files name in their references).
VERSIONED = re.compile(r"-\d+\.(\d+|x)\.json$")
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
UUID = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")

root = pathlib.Path(sys.argv[1])
omh, ieee = root / "omh", root / "ieee"


def load(folder, name):
    """A schema file; a `NAME-1.x.json` file that holds only another file's name (a symlink as
    Git checks it out where links are not made) is followed to that file."""
    text = (folder / name).read_text()
    if not text.lstrip().startswith("{"):
        text = (folder / text.strip()).read_text()
    return json.loads(text)


# Cached: a registry made with `retrieve` keeps nothing it retrieves, and every validation would
# read and parse the files again.
@functools.lru_cache(maxsize=None)
def retrieve(uri):
    """The two prefixes map to the two folders (the README's rule). An IEEE id without a
    version is its 1.0; one the ieee folder lacks (temperature-unit-value, body-posture) is the
    omh folder's file of the same name, which the omh schemas otherwise use, and so are the
    files such a file names relatively (`unit-value-1.x.json`), which resolve under the IEEE
    prefix it was asked for by."""
    if uri.startswith(OMH):
        doc = load(omh, uri[len(OMH):])
    elif uri.startswith(IEEE):
        name = uri[len(IEEE):]
        if not VERSIONED.search(name):
            name = name[: -len(".json")] + "-1.0.json"
        doc = load(ieee, name) if (ieee / name).exists() else load(omh, name)
    else:
        raise LookupError(f"not resolved offline: {uri}")
    draft4 = "draft-04" in doc.get("$schema", "")
    # Most files name no id: their relative references resolve against where they were found.
    doc.setdefault("id" if draft4 else "$id", uri)
    return Resource(contents=doc, specification=DRAFT4 if draft4 else DRAFT7)


# Every file under both prefixes, up front, so a reference is a lookup (the retrieval above is
# for the names only a reference makes: an IEEE id the ieee folder lacks).
resources = [(OMH + f.name, retrieve(OMH + f.name)) for f in sorted(omh.glob("*.json"))]
resources += [(IEEE + f.name, retrieve(IEEE + f.name)) for f in sorted(ieee.glob("*.json"))]
registry = Registry(retrieve=retrieve).with_resources(resources).crawl()

# The header healthport writes (IEEE 1752.1's members; the schema is not among the files).
HEADER = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["uuid", "user_id", "schema_id", "source_creation_date_time"],
    "additionalProperties": False,
    "properties": {
        "uuid": {"type": "string", "pattern": UUID.pattern},
        # Open mHealth's own member for it (omh/header-1.2.json: "The user this data point
        # belongs to"), checked against that schema's definition below as well.
        "user_id": {"type": "string", "minLength": 1},
        "schema_id": {"$ref": OMH + "schema-id-1.x.json"},
        "source_creation_date_time": {"$ref": IEEE + "date-time-1.0.json"},
        "modality": {"enum": ["sensed", "self-reported"]},
        "external_datasheets": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["datasheet_type", "datasheet_reference"],
                "additionalProperties": False,
                "properties": {"datasheet_type": {"type": "string"}, "datasheet_reference": {"type": "string", "minLength": 1}},
            },
        },
    },
}
STAGES = {
    "type": "object",
    "additionalProperties": {"$ref": OMH + "duration-unit-value-1.x.json"},
}

validators_by_schema = {}


def validator(schema):
    cls = validators.validator_for(schema)
    return cls(schema, registry=registry)


header_validator = validator(HEADER)
# The user_id as Open mHealth's newest header defines it, read from the schema itself.
user_id_validator = validator(load(omh, "header-1.2.json")["properties"]["user_id"])
stages_validator = validator(STAGES)


def body_validator(schema_id):
    key = (schema_id["namespace"], schema_id["name"], schema_id["version"])
    if key not in validators_by_schema:
        if key[0] != "omh":
            raise ValueError(f"namespace {key[0]} is not omh")
        uri = f"{OMH}{key[1]}-{key[2]}.json"
        validators_by_schema[key] = validator({"$schema": "http://json-schema.org/draft-07/schema#", "$ref": uri})
    return validators_by_schema[key]


def dates(value, path=""):
    """Every member whose name ends in date_time, with its path."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith("date_time"):
                yield f"{path}/{k}", v
            else:
                yield from dates(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from dates(v, f"{path}/{i}")


def check(path):
    counts = Counter()
    seen = set()
    users = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            where = f"{path}:{number}"
            point = json.loads(line)
            errors = []
            if not isinstance(point, dict) or set(point) != {"header", "body"}:
                errors.append("a data point is an object of a header and a body")
            else:
                if not header_validator.is_valid(point["header"]):
                    errors += [f"header{list(e.absolute_path)}: {e.message}" for e in header_validator.iter_errors(point["header"])]
                if not errors:
                    schema_id = point["header"]["schema_id"]
                    try:
                        body = body_validator(schema_id)
                        # The errors are listed only for a body that is not valid (listing costs more).
                        if not body.is_valid(point["body"]):
                            errors += [f"body{list(e.absolute_path)}: {e.message}" for e in body.iter_errors(point["body"])]
                    except Exception as error:  # no such schema, or a reference not resolved offline
                        errors.append(f"schema {schema_id}: {type(error).__name__}: {error}")
                    stages = point["body"].get("healthport_sleep_stages")
                    if stages is not None:
                        errors += [f"healthport_sleep_stages: {e.message}" for e in stages_validator.iter_errors(stages)]
                    counts[f"{schema_id['name']} {schema_id['version']}"] += 1
                    uuid = point["header"]["uuid"]
                    if uuid in seen:
                        errors.append(f"uuid {uuid} repeats")
                    seen.add(uuid)
                    user = point["header"]["user_id"]
                    errors += [f"user_id: {e.message}" for e in user_id_validator.iter_errors(user)]
                    users.add(user)
                    if len(users) > 1:
                        errors.append(f"user_id {user} after {sorted(users - {user})[0]}: a file is one person's")
                for at, value in dates(point):
                    if not isinstance(value, str) or not DATE_TIME.match(value):
                        errors.append(f"{at}: {value!r} is not an RFC 3339 date-time with an offset")
            if errors:
                print(f"FAIL {where}: " + "; ".join(errors[:5]))
                print(f"  {line.strip()[:400]}")
                return False
    total = sum(counts.values())
    print(f"ok {path}: {total} data points ({', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))})")
    return True


ok = all([check(p) for p in sys.argv[2:]])
sys.exit(0 if ok else 1)
