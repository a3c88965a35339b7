"""Validates healthport's FHIR output with a reader no one here wrote: fhir.resources' R4B models.

Usage: validate_bulk.py PATH...   (a Bulk Data folder, or an NDJSON file of resources)

Every line of every NDJSON file is parsed as JSON and validated as the resource its
`resourceType` names (pydantic: required elements, types, value patterns, no unknown
elements). In a folder, each file holds only the type it is named after (`deleted.ndjson`:
transaction Bundles of DELETE requests), every reference healthport writes to a Device or the
Patient resolves to a resource in the folder (clinical records keep the provider's), ids are unique per type, and `manifest.json` counts each file's lines.
Every Observation and DocumentReference healthport writes, in a folder or on standard output,
has a `subject` that is a Patient (issue 53: every resource says whose data it is); in a
folder they all refer to one Patient, which is in it.
Prints one line per path and every error; exits 1 if there is any.
"""
import json
import os
import sys

from fhir.resources.R4B import get_fhir_model_class


def validate_lines(path, expected_type, errors, seen, references):
    count = 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            where = f"{path}:{number}"
            if not line.endswith("\n"):
                errors.append(f"{where}: the last line has no line break")
            try:
                data = json.loads(line)
            except ValueError as error:
                errors.append(f"{where}: not JSON: {error}")
                continue
            count += 1
            kind = data.get("resourceType")
            if expected_type and kind != expected_type:
                errors.append(f"{where}: a {kind} in the file of {expected_type}")
            try:
                get_fhir_model_class(kind).model_validate(data)
            except Exception as error:  # pydantic's ValidationError, or an unknown type
                errors.append(f"{where}: {kind} does not validate: {str(error)[:2000]}")
                continue
            key = (kind, data.get("id"))
            if data.get("id") is not None:
                if key in seen:
                    errors.append(f"{where}: {kind}/{data['id']} is written twice")
                seen.add(key)
            # Clinical records are passed through as the provider wrote them (their `meta.source`
            # names it), references included; the references healthport writes must resolve.
            passed_through = isinstance(data.get("meta"), dict) and "source" in data["meta"]
            for reference in () if passed_through else ("device", "subject", "parent"):
                target = data.get(reference, {}).get("reference") if isinstance(data.get(reference), dict) else None
                if target:
                    references.append((where, target))
            if not passed_through and kind in ("Observation", "DocumentReference"):
                subject = data.get("subject", {}).get("reference", "") if isinstance(data.get("subject"), dict) else ""
                if not subject.startswith("Patient/"):
                    errors.append(f"{where}: a {kind} without a Patient as its subject")
            if kind == "Bundle":
                entries = data.get("entry", [])
                if data.get("type") != "transaction" or not entries or any(
                    e.get("request", {}).get("method") != "DELETE" for e in entries
                ):
                    errors.append(f"{where}: a deletion is a transaction of DELETE requests")
    return count


def validate(path):
    errors, seen, references = [], set(), []
    lines = 0
    if os.path.isdir(path):
        counts = {}
        for name in sorted(os.listdir(path)):
            if not name.endswith(".ndjson"):
                continue
            expected = "Bundle" if name == "deleted.ndjson" else name[: -len(".ndjson")]
            counts[name] = validate_lines(os.path.join(path, name), expected, errors, seen, references)
            lines += counts[name]
        manifest_path = os.path.join(path, "manifest.json")
        if os.path.exists(manifest_path):
            with open(manifest_path, encoding="utf-8") as f:
                manifest = json.load(f)
            listed = {entry["url"]: entry.get("count") for entry in manifest.get("output", []) + manifest.get("deleted", [])}
            if listed != counts:
                errors.append(f"{manifest_path}: lists {listed}, the folder holds {counts}")
        subjects = {target for _, target in references if target.startswith("Patient/")}
        if len(subjects) > 1:
            errors.append(f"{path}: the resources refer to {len(subjects)} Patients, where a folder is one person's")
        for where, target in references:
            kind, _, ident = target.partition("/")
            if kind in ("Device", "Patient") and (kind, ident) not in seen:
                errors.append(f"{where}: {target} is not in the folder")
    else:
        lines = validate_lines(path, None, errors, seen, references)
    for error in errors:
        print(f"  {error}")
    print(f"{'FAIL' if errors else 'ok'} {path}: {lines} resources, {len(errors)} errors")
    return not errors


if __name__ == "__main__":
    results = [validate(p) for p in sys.argv[1:]]
    sys.exit(0 if all(results) else 1)
