#!/usr/bin/env bash
# scripts/fuzz.sh [TARGET|all] [SECONDS]
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan + coverage) in build-fuzz/ and
# runs TARGET (default: all, one after another) for SECONDS each (default 60), then prints per
# target: executions, wall time, corpus size and findings (crash-, leak-, oom-, timeout- files).
# SECONDS=0 only replays the seeds (tests/data, scenes/, tests/data/fuzz/) once: a quick check.
# Targets: tetgen medit gmsh off obj stl efield scene set. Exit 1 when anything was found.
# Environment: SIMRUN_FUZZ_BUILD_DIR (default build-fuzz), SIMRUN_FUZZ_JOBS (make -j, default 2),
# SIMRUN_FUZZ_FLAGS (extra libFuzzer flags). docs/fuzzing.md explains the setup and the results.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SIMRUN_FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${SIMRUN_FUZZ_JOBS:-2}
all_targets=(tetgen medit gmsh off obj stl efield scene set)
target=${1:-all}
seconds=${2:-60}
if [ "$target" = all ]; then
  targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $target "* ]]; then
  targets=("$target")
else
  echo "fuzz.sh: unknown target '$target' (expected all or one of: ${all_targets[*]})" >&2
  exit 2
fi
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, found '$seconds'" >&2
  exit 2
fi

# Debian's clang with its libFuzzer runtime (libclang-rt-14-dev), which scripts/setup.sh installs;
# scripts/test.sh (and so CI) ends with `fuzz.sh all 5`.
cxx=$(command -v clang++ || command -v clang++-14 || true)
probe='extern "C" int LLVMFuzzerTestOneInput(const char*, long) { return 0; }'
if [ -z "$cxx" ] ||
  ! echo "$probe" | "$cxx" -x c++ -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
  echo "fuzz.sh: needs clang++ with libFuzzer: sudo apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi

# Configure once; the flags for coverage and sanitizers come from SIMRUN_FUZZ (CMakeLists.txt).
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_CXX_FLAGS_FUZZ="-O2 -g" -DSIMRUN_FUZZ=ON -DSIMRUN_BUILD_TESTS=ON \
    -DSIMRUN_BUILD_BENCHMARKS=OFF >/dev/null
fi
nice -n 10 cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

# Seeds, rebuilt every run from the repository's own inputs and the regression files.
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$build/corpus" "$build/findings" "$build/logs"
/usr/bin/env python3 - "$root" "$seeds" <<'EOF'
"""Seed corpora and dictionaries for the fuzz targets, from tests/data, scenes/ and the schema."""
import json
import pathlib
import sys

root, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
data = [root / "tests" / "data", root / "scenes"]


def files(pattern):
    return sorted(p for d in data for p in d.rglob(pattern) if p.is_file())


def seed(target, name, content):
    folder = seeds / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())


for target, pattern in [("medit", "*.mesh"), ("gmsh", "*.msh"), ("off", "*.off"),
                        ("obj", "*.obj"), ("stl", "*.stl"), ("scene", "*.json"), ("set", "*.set")]:
    for i, p in enumerate(files(pattern)):
        seed(target, f"{i:03d}_{p.name}", p.read_bytes())
for i, node in enumerate(files("*.node")):
    ele = node.with_suffix(".ele")
    tail = ele.read_bytes() if ele.exists() else b""
    seed("tetgen", f"{i:03d}_{node.stem}", node.read_bytes() + b"\n--- ele ---\n" + tail)
for i, text in enumerate(["1e5\n2e5\n3e5\n4e5\n", "# E per tet\n3e5\n4e5 # second\n5e5 6e5\n",
                          "1e5 2e5 3e5 4e5", "1e5\n2e5\n"]):
    seed("efield", f"{i:03d}_E.txt", text)
for i, p in enumerate(files("*.txt")):
    seed("efield", f"1{i:02d}_{p.name}", p.read_bytes())


def leaves(value, pointer=""):
    """(pointer, value) of every leaf and of every object or array as a whole."""
    yield pointer, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, pointer + "/" + k.replace("~", "~0").replace("/", "~1"))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{pointer}/{i}")


# --set: each scene's values as "/pointer=VALUE" lines, 8 to a seed (the JSON text, or the bare
# word for a string as users write it).
lines = []
for p in sorted((root / "scenes").glob("*.json")):
    try:
        scene = json.loads(p.read_text())
    except ValueError:
        continue
    for pointer, value in leaves(scene):
        if pointer and pointer != "/extends":
            text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
            lines.append(f"{pointer}={text}")
for i in range(0, len(lines), 8):
    seed("set", f"{i // 8:03d}", "\n".join(lines[i:i + 8]))

# Dictionaries: the schema's keys and enum strings for the JSON targets, keywords for the others.
schema = json.loads((root / "schemas" / "scene.schema.json").read_text())
words = set()


def collect(node):
    if isinstance(node, dict):
        for key, sub in node.items():
            if key == "properties" and isinstance(sub, dict):
                words.update(sub.keys())
            if key == "enum" and isinstance(sub, list):
                words.update(v for v in sub if isinstance(v, str))
            collect(sub)
    elif isinstance(node, list):
        for sub in node:
            collect(sub)


def entry(word):
    """A libFuzzer dictionary line: the word quoted, escaping with \\, \" and \xAB only."""
    out = ""
    for byte in word.encode():
        c = chr(byte)
        out += "\\" + c if c in '\\"' else c if 32 <= byte < 127 else f"\\x{byte:02X}"
    return f'"{out}"'


collect(schema)
quoted = sorted(entry(json.dumps(w)) for w in words)
(seeds / "scene.dict").write_text("\n".join(quoted) + "\n")
(seeds / "set.dict").write_text("\n".join(quoted + sorted(entry("/" + w) for w in words)) + "\n")
keywords = {
    "medit": ["MeshVersionFormatted", "Dimension", "Vertices", "Tetrahedra", "Triangles",
              "Edges", "Corners", "End"],
    "gmsh": ["$MeshFormat", "$EndMeshFormat", "$Nodes", "$EndNodes", "$Elements",
             "$EndElements", "$Entities", "$EndEntities", "$PhysicalNames",
             "$EndPhysicalNames", "2.2", "4.1"],
    "off": ["OFF"], "obj": ["v ", "f ", "vt ", "vn ", "/"],
    "stl": ["solid", "facet normal", "outer loop", "vertex", "endloop", "endfacet", "endsolid"],
    "tetgen": ["\n--- ele ---\n", "#"], "efield": ["#", "e+", "e-", "inf", "nan"],
}
for target, ws in keywords.items():
    (seeds / f"{target}.dict").write_text("\n".join(entry(w) for w in ws) + "\n")
EOF

# The targets write each input to a file (the readers take paths): in memory where possible.
if [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
status=0
summary=()
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  findings=$build/findings/$t
  log=$build/logs/$t.log
  mkdir -p "$corpus" "$findings"
  before=$(find "$findings" -type f | wc -l)
  touch "$log.start"
  # Limits: one input may take 10 s, 2 GB of memory, and no single allocation over 1 GB (the
  # mesh size cap); anything beyond is a finding (timeout-, oom-).
  flags=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1
    -dict="$seeds/$t.dict" -artifact_prefix="$findings/")
  if [ "$seconds" -eq 0 ]; then
    flags+=(-runs=0)
  else
    flags+=(-max_total_time="$seconds")
  fi
  start=$SECONDS
  # shellcheck disable=SC2086
  if nice -n 10 "$build/fuzz/fuzz_$t" "${flags[@]}" ${SIMRUN_FUZZ_FLAGS:-} "$corpus" "$seeds/$t" \
    >"$log" 2>&1; then
    ok=1
  else
    ok=0
  fi
  wall=$((SECONDS - start))
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
  if [ -z "$execs" ]; then  # a crash ends the run before the final stats
    execs=$(grep -oE '^#[0-9]+' "$log" | tr -d '#' | tail -1)
  fi
  after=$(find "$findings" -type f | wc -l)
  new=$((after - before))
  if [ "$ok" -eq 0 ] && [ "$new" -eq 0 ]; then new=1; fi  # failed without an artifact
  [ "$new" -gt 0 ] && status=1
  line=$(printf '%-7s executions %10s  wall %6d s  corpus %5s  findings %s' "$t" "${execs:-?}" \
    "$wall" "$(find "$corpus" -type f | wc -l)" "$new")
  echo "$line"
  summary+=("$line")
  if [ "$new" -gt 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error|uncaught|terminate' "$log" | head -5 | sed 's/^/    /'
    find "$findings" -type f -newer "$log.start" | sed 's/^/    /'
    echo "    log: $log; findings: $findings"
  fi
done

echo
echo "fuzz summary (${seconds} s per target; logs in $build/logs):"
printf '  %s\n' "${summary[@]}"
exit $status
