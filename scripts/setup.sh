#!/usr/bin/env bash
# scripts/setup.sh [build|all]
# Installs simrun's dependencies from Debian 12 packages (see docs/conventions): `build` the ones
# the simrun executable needs (scripts/run.sh: a first result sooner on a fresh machine), `all`
# (the default) those of the tests, benchmarks, fuzzers and Python checks too.
# libopenblas0-pthread becomes the system BLAS that CHOLMOD's supernodal factorization calls;
# the reference BLAS it replaces is many times slower on large 3D problems.
# clang, libclang-rt-14-dev and libomp-dev (clang's OpenMP, only a recommendation of clang) build
# the fuzz targets and the sanitized tests (scripts/fuzz.sh, scripts/sanitize.sh --quick); ccache
# makes rebuilds, and CI's build of a fresh clone, reuse what was compiled before. pyflakes3 lints
# the Python scripts and package (scripts/check_python.sh, ctest python_lint).
# Idempotent: does nothing when everything is present. Needs root (or sudo) to install.
set -euo pipefail

profile=${1:-all}
packages=(
  build-essential cmake pkg-config git ccache
  libeigen3-dev libsuitesparse-dev libspectra-dev nlohmann-json3-dev libtet1.5-dev
  libopenblas0-pthread zlib1g-dev libcli11-dev
)
case "$profile" in
  build) ;;
  all)
    packages+=(
      clang-format clang-tidy clang libclang-rt-14-dev libomp-dev
      libgtest-dev libgmock-dev libbenchmark-dev
      python3 python3-meshio python3-jsonschema python3-numpy python3-matplotlib pyflakes3
    ) ;;
  *) echo "setup: unknown profile '$profile' (build or all)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
