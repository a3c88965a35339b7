#!/usr/bin/env bash
# Every module a target imports is one it declares in Package.swift: a target of this package
# (`dependencies: ["HealthJSON"]`) or a product of another (`.product(name: "Logging", …)`),
# directly, never through another target's dependencies. SwiftPM's own check
# (`swift build --explicit-target-dependency-import-check error`, which the fast lane's build
# uses) catches a target of this package that is not a dependency at all; this one also catches
# the transitive case (HealthReport importing HealthJSON because HealthOutput depends on it) and
# other packages' modules (an `import Logging` that only the MCP SDK declared), which it does not
# look at. So a layer cannot lean on a module it never asked for, and `docs/ARCHITECTURE.md`'s
# dependency lines are the manifest's.
#
#   Scripts/check-imports.sh            # after a build (.build/debug/Modules lists the modules)
#   Scripts/check-imports.sh release    # after a release build (CI's: .build/release/Modules)
#
# Exit status 1 names each file, line and module; 0 when every import is declared.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=".build/${1:-debug}/Modules"
[ -d "$modules" ] || { echo "check-imports.sh: no $modules: build first (swift build --build-tests, -c ${1:-debug})" >&2; exit 66; }
swift package describe --type json 2>/dev/null | python3 -c '
import json, os, re, sys
package = json.load(sys.stdin)
modules_dir = sys.argv[1]
# The modules the build made: this package'"'"'s targets and every dependency'"'"'s Swift modules.
built = {name.rsplit(".", 1)[0] for name in os.listdir(modules_dir) if name.endswith(".swiftmodule")}
targets = {t["name"]: t for t in package["targets"]}
ours = {t["c99name"] for t in package["targets"]}
known = built | ours | {"GRDBSQLite"}
pattern = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)")
problems = []
for target in package["targets"]:
    declared = {targets[d]["c99name"] for d in target.get("target_dependencies", [])}
    declared |= set(target.get("product_dependencies", []))
    declared.add(target["c99name"])
    imported = set()
    for source in target.get("sources", []):
        path = os.path.join(target["path"], source)
        if not path.endswith(".swift"):
            continue
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                match = pattern.match(line)
                if match:
                    imported.add(match.group(1))
                if match and match.group(1) in known and match.group(1) not in declared:
                    name = target["name"]
                    problems.append(f"{path}:{number}: {name} imports {match.group(1)}, which Package.swift does not declare as its dependency")
    # A library or face that declares a target of this package it never imports links it (and
    # everything it links) for nothing. Executables a test target declares are built for it to
    # run, not imported.
    for dependency in target.get("target_dependencies", []):
        module = targets[dependency]["c99name"]
        if targets[dependency]["type"] != "executable" and module not in imported:
            name = target["name"]
            problems.append(f"Package.swift: {name} declares {dependency}, which none of its files imports")
for problem in problems:
    print(problem)
if problems:
    print(f"check-imports.sh: {len(problems)} undeclared import(s): declare each in the target'"'"'s dependencies, or remove it", file=sys.stderr)
    sys.exit(1)
print("check-imports.sh: every import is declared by its target", file=sys.stderr)
' "$modules"
