#!/usr/bin/env bash
# Prints the measures of the architecture issue's evidence table for the tree at ROOT (default:
# this checkout): lines per lib/ module and apps/, functions over 80 lines, Model's public member
# functions, files of lib/ and apps/ naming rho_inf and sms_ritz_vectors, the Newton and PCG loops,
# README lines and comments citing a digest.
#   scripts/architecture_metrics.sh [ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
echo "lines per module (.cpp + .hpp):"
for d in lib/*/ apps/simrun/; do
  printf '  %-16s %6d\n' "$d" "$(cat "$d"*.cpp "$d"*.hpp 2>/dev/null | wc -l)"
done
printf '  %-16s %6d\n' "lib total" "$(cat lib/*/*.cpp lib/*/*.hpp | wc -l)"
long=$(ctags --languages=C++ --kinds-C++=f --fields=+ne -x --_xformat='%{end} %{line} %F %N' \
  $(git ls-files 'lib/*.cpp' 'apps/*.cpp' 'lib/*.hpp' 'apps/*.hpp') |
  awk '$1!="-" && $1-$2+1 > 80' | wc -l)
echo "functions over 80 lines in lib/ and apps/: $long"
# Member functions declared in Model's public section (one declaration may span lines: count the
# lines that open a declaration: a name followed by '(' at the start of a statement).
model_public=$(awk '/^class Model /{c=1} c&&/^ public:/{p=1;next} c&&/^ (private|protected):/{p=0} c&&/^};/{c=0}
  p && /^  [A-Za-z].*[A-Za-z_0-9]+\(/ && !/^  \/\// {n++} END{print n+0}' lib/model/model.hpp)
echo "Model public member functions (declarations in model.hpp): $model_public"
echo "files of lib/ and apps/ naming rho_inf: $(grep -rl rho_inf lib apps | wc -l)"
echo "files of lib/ and apps/ naming sms_ritz_vectors: $(grep -rl sms_ritz_vectors lib apps | wc -l)"
echo "README lines: $(wc -l < README.md)"
echo "comments citing a digest in lib/ and apps/: $(grep -rli digest lib apps | wc -l) files"
echo "files with a conjugate-gradient loop (lib/): $(grep -rlE 'r\.dot\(z\)|rz_new|rz_old|rz =' lib | tr '\n' ' ')"
