"""Converts many Apple Health exports into one partitioned lake, as an Apache Spark job.

    spark-submit --files /usr/bin/healthport Scripts/spark/convert_exports.py \\
        --inputs 's3a://study/exports/*.zip' --output s3a://study/lake \\
        --format parquet --partition person,type [--policy study.json] [--person-id persons.csv] \\
        [--deidentify study.key] [--resume]

Each export is one Spark task: the executor copies it to local disk, runs the healthport binary
on it (shipped with --files, else found on the PATH) exactly as `healthport convert --partition`
does for one input, and uploads that person's files into a staging folder of its own task
attempt (`_staging/attempt-<stage>-<partition>-<attempt>/`). The driver commits the attempts
Spark reports as successful, one per export, by renaming their files into the partitions, and
writes `_manifest.json`: a retried or speculative attempt never adds rows (Spark's own output
committers work the same way). So the lake is, file for file, what `healthport convert
--partition` writes on one machine. An export that fails is recorded in the manifest with its
error and does not fail the job; `--resume` skips persons whose files are complete and whose
input is unchanged.

Files are read and written through pyarrow's file systems (local, HDFS, S3, GCS: whatever the
URI names). Logs hold one line per export and never any health data: healthport's diagnostics
name files and positions, not values.

With --deidentify, every executor de-identifies with the same key file (shipped with --files, or
on a shared path), which must exist before the job: a key made by one executor would differ from
another's. The driver writes the lake's _deidentification.json, which each conversion writes the
same (it holds no time and no person).
"""
import argparse
import datetime
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

from pyarrow import fs as pafs
from pyspark import SparkFiles, TaskContext
from pyspark.sql import SparkSession

MANIFEST = "_manifest.json"
DEIDENTIFICATION = "_deidentification.json"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Convert Apple Health exports into a partitioned lake with healthport, on Spark.")
    parser.add_argument("--inputs", nargs="+", required=True, help="exports: paths, URIs or globs (any file system pyarrow knows)")
    parser.add_argument("--output", required=True, help="the lake's root (a path or URI)")
    parser.add_argument("--format", default="parquet", choices=["parquet", "csv", "ndjson"])
    parser.add_argument("--partition", default="person,type")
    parser.add_argument("--policy", help="a healthport policy file (shipped to the executors with --files, or on a shared path)")
    parser.add_argument("--person-id", help="a CSV of 'input,person' lines, as for healthport convert --person-id")
    parser.add_argument("--deidentify", help="a healthport key file, as for healthport convert --deidentify (must exist; shipped with --files or on a shared path)")
    parser.add_argument("--resume", action="store_true", help="skip persons already complete for an unchanged input")
    parser.add_argument("--healthport", default="healthport", help="the binary's name or path on the executors (default: shipped with --files, else PATH)")
    return parser.parse_args(argv)


def filesystem(uri):
    """The pyarrow file system of a path or URI, and the path within it."""
    if "://" not in uri:
        return pafs.LocalFileSystem(), os.path.abspath(uri)
    return pafs.FileSystem.from_uri(uri)


def list_inputs(patterns):
    """Every export the patterns name, with its size and modification time, sorted."""
    found = {}
    for pattern in patterns:
        system, path = filesystem(pattern)
        prefix = pattern[: len(pattern) - len(path)] if "://" in pattern else ""
        if any(c in path for c in "*?["):
            import fnmatch
            base = path
            while any(c in base for c in "*?["):
                base = os.path.dirname(base)
            for info in system.get_file_info(pafs.FileSelector(base, recursive=True)):
                if info.type == pafs.FileType.File and fnmatch.fnmatch(info.path, path):
                    found[prefix + info.path] = (info.size, info.mtime.timestamp() if info.mtime else 0.0)
        else:
            info = system.get_file_info(path)
            if info.type != pafs.FileType.NotFound:
                found[prefix + info.path] = (info.size, info.mtime.timestamp() if info.mtime else 0.0)
    return sorted((uri, size, modified) for uri, (size, modified) in found.items())


def last_error(stderr, status):
    """The failure healthport reported (`--diagnostics json`: one JSON object per line,
    healthport(1) DIAGNOSTICS), read by its fields: the last error record's message with its
    location, its category and exit status. Never the wording of a line."""
    failure = None
    for line in stderr.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") == "error":
            failure = record
    if failure is None:
        return {"message": "healthport exited with %d and reported no error" % status, "category": "unknown", "status": status}
    message = failure.get("message", "")
    place = failure.get("location")
    if isinstance(place, dict) and place.get("file"):
        where = place["file"] + "".join(":%d" % place[key] for key in ("line", "column") if isinstance(place.get(key), int))
        message = "%s: %s" % (where, message)
    return {"message": message, "category": failure.get("category", "unknown"), "status": failure.get("status", status)}


def binary(name):
    """The healthport binary on this executor: shipped with --files, else `name` on the PATH."""
    try:
        shipped = SparkFiles.get(os.path.basename(name))
        if os.path.isfile(shipped):
            os.chmod(shipped, 0o755)
            return shipped
    except Exception:
        pass
    found = shutil.which(name)
    if not found:
        raise RuntimeError("healthport is neither shipped with --files nor on the PATH")
    return found


def shipped(path):
    """A file given to the job: shipped with --files if it was, else the path as given."""
    if path is None:
        return None
    try:
        candidate = SparkFiles.get(os.path.basename(path))
        if os.path.isfile(candidate):
            return candidate
    except Exception:
        pass
    return path


def recorded_input(uri, size, modified, key_path):
    """What the manifest records of an input, to know it again on --resume: its address, size and
    modification time; de-identified, one keyed pseudonym of the three (size and time zero), as
    healthport's own lake manifest does: the manifest is shared with the lake, a file's name is
    often the person's, and its real time beside the shifted dates would give the shift away."""
    if not key_path:
        return uri, size, modified
    with open(key_path, "rb") as handle:
        key = handle.read()
    text = "%s\0%s\0%s" % (uri, size, modified)
    return "file-" + hmac.new(key, b"healthport-spark-input\0" + text.encode("utf-8"), hashlib.sha256).hexdigest()[:12], 0, 0


def convert_one(item, settings, output_root):
    """One task: one export into its attempt's staging folder. Returns the manifest entry."""
    uri, size, modified = item
    shown, shown_size, shown_modified = recorded_input(uri, size, modified, settings["deidentify"] and shipped(settings["deidentify"]))
    context = TaskContext.get()
    attempt = "attempt-%d-%d-%d" % (context.stageId(), context.partitionId(), context.attemptNumber())
    name = os.path.basename(uri.rstrip("/"))
    work = tempfile.mkdtemp(prefix="healthport-spark-")
    try:
        system, path = filesystem(uri)
        local_input = os.path.join(work, name)
        with system.open_input_stream(path) as source, open(local_input, "wb") as target:
            shutil.copyfileobj(source, target, 1 << 22)
        local_output = os.path.join(work, "lake")
        command = [binary(settings["healthport"]), "convert", local_input, "--format", settings["format"],
                   "--partition", settings["partition"], "--output", local_output, "--jobs", "1", "--quiet",
                   "--diagnostics", "json"]
        if settings["policy"]:
            command += ["--policy", shipped(settings["policy"])]
        if settings["person_id"]:
            command += ["--person-id", shipped(settings["person_id"])]
        if settings["deidentify"]:
            command += ["--deidentify", shipped(settings["deidentify"])]
        result = subprocess.run(command, capture_output=True, text=True)
        # Messages name the export as the job knows it, not the executor's local copy.
        result.stderr = result.stderr.replace(local_input, uri)
        manifest_path = os.path.join(local_output, MANIFEST)
        if not os.path.exists(manifest_path):
            failure = last_error(result.stderr, result.returncode)
            message = failure["message"].replace(uri, shown)
            print("healthport-spark: %s: failed (%s, status %d): %s" % (name, failure["category"], failure["status"], message), file=sys.stderr)
            return {"input": shown, "person": None, "size": shown_size, "modified": shown_modified, "status": "failed",
                    "error": message, "category": failure["category"], "objects": 0, "outputs": [], "staging": None}
        with open(manifest_path) as handle:
            entry = json.load(handle)["inputs"][0]
        entry.update({"input": shown, "size": shown_size, "modified": shown_modified, "staging": None})
        deidentification_path = os.path.join(local_output, DEIDENTIFICATION)
        if os.path.exists(deidentification_path):
            with open(deidentification_path) as handle:
                entry["deidentification"] = handle.read()
        if entry.get("error"):
            entry["error"] = entry["error"].replace(local_input, shown)
        if entry["status"] == "complete":
            # Injected failure for tests: the first attempt dies after staging part of its files.
            inject = os.environ.get("HEALTHPORT_SPARK_FAIL_FIRST_ATTEMPT") == "1" and context.attemptNumber() == 0
            staging = "%s/_staging/%s" % (output_root.rstrip("/"), attempt)
            out_system, out_path = filesystem(staging)
            for index, output in enumerate(entry["outputs"]):
                target = out_path + "/" + output["path"]
                out_system.create_dir(os.path.dirname(target), recursive=True)
                with open(os.path.join(local_output, output["path"]), "rb") as source, out_system.open_output_stream(target) as sink:
                    shutil.copyfileobj(source, sink, 1 << 22)
                if inject and index == 0:
                    raise RuntimeError("injected failure of a first attempt (HEALTHPORT_SPARK_FAIL_FIRST_ATTEMPT)")
            entry["staging"] = staging
            print("healthport-spark: %s: %d objects into person=%s (%d files)" % (name, entry["objects"], entry["person"], len(entry["outputs"])), file=sys.stderr)
        else:
            print("healthport-spark: %s: failed: %s" % (name, entry.get("error")), file=sys.stderr)
        return entry
    finally:
        shutil.rmtree(work, ignore_errors=True)


def read_manifest(root):
    system, path = filesystem(root)
    target = path + "/" + MANIFEST
    if system.get_file_info(target).type == pafs.FileType.NotFound:
        return None
    with system.open_input_stream(target) as handle:
        return json.loads(handle.read().decode("utf-8"))


def write_manifest(root, manifest):
    """`_manifest.json`, replaced whole (written beside it, then renamed over it)."""
    system, path = filesystem(root)
    temporary = "%s/.%s.%s" % (path, MANIFEST, uuid.uuid4().hex)
    with system.open_output_stream(temporary) as handle:
        handle.write(json.dumps(manifest, indent=2, sort_keys=True).encode("utf-8"))
    system.move(temporary, path + "/" + MANIFEST)


def commit(root, entry, previous_outputs):
    """Moves one successful attempt's files into the partitions, and removes the files an earlier
    run wrote for this person that this one did not."""
    system, path = filesystem(root)
    _, staging = filesystem(entry["staging"])
    written = set()
    for output in entry["outputs"]:
        target = path + "/" + output["path"]
        system.create_dir(os.path.dirname(target), recursive=True)
        system.move(staging + "/" + output["path"], target)
        written.add(output["path"])
    for old in previous_outputs:
        if old["path"] not in written:
            try:
                system.delete_file(path + "/" + old["path"])
            except OSError:
                pass


def main(argv):
    arguments = parse_arguments(argv)
    spark = SparkSession.builder.appName("healthport convert").getOrCreate()
    context = spark.sparkContext
    inputs = list_inputs(arguments.inputs)
    if not inputs:
        print("healthport-spark: no exports match %s" % " ".join(arguments.inputs), file=sys.stderr)
        return 66
    if arguments.deidentify and not os.path.exists(arguments.deidentify):
        print("healthport-spark: %s: no such key file; make it first (healthport convert --deidentify makes it)" % arguments.deidentify, file=sys.stderr)
        return 66
    root_system, root_path = filesystem(arguments.output)
    root_system.create_dir(root_path, recursive=True)
    previous = read_manifest(arguments.output) or {}
    previous_by_input = {entry["input"]: entry for entry in previous.get("inputs", [])}
    todo = []
    kept = []
    for uri, size, modified in inputs:
        shown, shown_size, shown_modified = recorded_input(uri, size, modified, arguments.deidentify)
        old = previous_by_input.get(shown)
        if arguments.resume and old and old.get("status") == "complete" and old.get("size") == shown_size and old.get("modified") == shown_modified:
            kept.append(old)
            print("healthport-spark: %s: skipped, already complete" % os.path.basename(uri), file=sys.stderr)
        else:
            todo.append((uri, size, modified))

    settings = {"healthport": arguments.healthport, "format": arguments.format, "partition": arguments.partition,
                "policy": arguments.policy, "person_id": arguments.person_id, "deidentify": arguments.deidentify}
    output_root = arguments.output
    context.setJobDescription("healthport: %d exports into %s" % (len(todo), arguments.output))
    results = context.parallelize(todo, max(1, len(todo))).map(lambda item: convert_one(item, settings, output_root)).collect() if todo else []

    # One person per export, as on one machine: a second export giving the same person fails.
    by_person = {entry["person"]: entry for entry in kept}
    for entry in sorted(results, key=lambda e: e["input"]):
        if entry["status"] == "complete":
            if entry["person"] in by_person and by_person[entry["person"]]["input"] != entry["input"]:
                entry.update({"status": "failed", "error": "%s also gives person '%s'; name persons with --person-id" % (by_person[entry["person"]]["input"], entry["person"]), "outputs": []})
                continue
            old = previous_by_input.get(entry["input"]) or {}
            commit(arguments.output, entry, old.get("outputs", []))
            by_person[entry["person"]] = entry
    # Every conversion writes the same de-identification manifest: the driver puts one in the lake.
    for entry in results:
        text = entry.pop("deidentification", None)
        if text is not None and entry["status"] == "complete":
            temporary = "%s/.%s.%s" % (root_path, DEIDENTIFICATION, uuid.uuid4().hex)
            with root_system.open_output_stream(temporary) as handle:
                handle.write(text.encode("utf-8"))
            root_system.move(temporary, root_path + "/" + DEIDENTIFICATION)
    try:
        root_system.delete_dir(root_path + "/_staging")
    except (OSError, FileNotFoundError):
        pass

    manifest = {
        "manifestVersion": 1,
        "healthportVersion": previous.get("healthportVersion") or subprocess.run([binary(arguments.healthport), "--version"], capture_output=True, text=True).stdout.strip(),
        "format": arguments.format,
        "partition": [key.strip() for key in arguments.partition.split(",")],
        "query": previous.get("query", ""),
        # A de-identified lake's manifest holds no real time (beside the shifted dates, the shift).
        "updated": "not recorded (de-identified)" if arguments.deidentify else
                   datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "inputs": sorted([{k: v for k, v in e.items() if k != "staging"} for e in kept + results], key=lambda e: (e.get("person") or "", e["input"])),
        "engine": "spark",
    }
    write_manifest(arguments.output, manifest)
    failed = sum(1 for e in results if e["status"] != "complete")
    print("healthport-spark: %d converted, %d failed, %d skipped" % (len(results) - failed, failed, len(kept)), file=sys.stderr)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
