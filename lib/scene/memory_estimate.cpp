#include "scene/memory_estimate.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace simrun {

MemoryEstimate estimate_run_memory(double vertices, bool factorizes) {
  MemoryEstimate e;
  // Tets and vertices come in a fixed ratio (~5-6 tets per vertex) for volume meshes; the
  // per-vertex constant covers both. Spring graphs (no tets) are far lighter: counted alike.
  e.model_bytes = 30e6 + 2e3 * vertices;
  if (factorizes) {
    const double dofs = 3.0 * vertices;
    e.factor_bytes = 9.6 * 15.0 * std::pow(dofs, 4.0 / 3.0);
  }
  return e;
}

namespace {

/// The first number after `key` in a "key value" file such as /proc/meminfo (NaN when absent).
double field(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    double value = 0.0;
    if (fields >> name >> value && name == key) return value;
  }
  return std::nan("");
}

/// What the cgroups (v2) of this process still allow: the least over its cgroup and their
/// ancestors (a batch system puts the limit on the job's or the slice's cgroup, not the leaf)
/// of memory.max - memory.current + the file cache the kernel can reclaim (memory.stat
/// active_file + inactive_file). NaN when no cgroup sets a limit or there is no cgroup v2.
double cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, relative;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) relative = line.substr(3);
  if (relative.empty()) return std::nan("");
  double room = std::nan("");
  for (std::filesystem::path dir = "/sys/fs/cgroup" + relative;; dir = dir.parent_path()) {
    std::ifstream max_file(dir / "memory.max"), current_file(dir / "memory.current");
    double max = 0.0, current = 0.0;
    if (max_file >> max && current_file >> current) {  // "max" (no limit) does not read
      const std::string stat = (dir / "memory.stat").string();
      double cache = 0.0;
      for (const char* key : {"active_file", "inactive_file"}) {
        const double bytes = field(stat.c_str(), key);
        if (!std::isnan(bytes)) cache += bytes;
      }
      const double here = max - current + cache;
      if (std::isnan(room) || here < room) room = here;
    }
    if (dir == "/sys/fs/cgroup" || dir == dir.parent_path()) break;
  }
  return room;
}

/// What the address-space limit (ulimit -v) still allows: RLIMIT_AS less the current size.
double address_space_room() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nan("");
  const double size_kb = field("/proc/self/status", "VmSize:");
  return static_cast<double>(limit.rlim_cur) - (std::isnan(size_kb) ? 0.0 : 1024.0 * size_kb);
}

}  // namespace

double available_memory_bytes() {
  if (const char* limit = std::getenv("SIMRUN_MEMORY_LIMIT")) {
    char* end = nullptr;
    const double bytes = std::strtod(limit, &end);
    if (end == limit || *end != '\0' || !(bytes > 0.0) || !std::isfinite(bytes))
      throw InputError(std::string("SIMRUN_MEMORY_LIMIT='") + limit +
                       "': expected a positive number of bytes (e.g. 8e9)");
    return bytes;
  }
  // The least of what the machine has free, the cgroup allows and ulimit -v allows.
  double available = 1024.0 * field("/proc/meminfo", "MemAvailable:");
  for (const double room : {cgroup_room(), address_space_room()})
    if (!std::isnan(room) && (std::isnan(available) || room < available))
      available = std::max(room, 1.0);
  return std::isnan(available) ? 0.0 : available;
}

std::string format_bytes(double bytes) {
  return bytes >= 1e9 ? short_number(bytes / 1e9, 3) + " GB" : short_number(bytes / 1e6, 3) + " MB";
}

void require_memory(const std::string& where, double vertices, double tets, bool factorizes) {
  const double available = available_memory_bytes();
  if (available <= 0.0) return;
  const MemoryEstimate e = estimate_run_memory(vertices, factorizes);
  if (e.total() <= available) return;
  throw InputError(
      where + ": the run needs about " + format_bytes(e.total()) + " (" +
      short_number(vertices, 3) + " vertices, " + short_number(tets, 3) + " tets: model " +
      format_bytes(e.model_bytes) +
      (factorizes ? ", Cholesky factor ~" + format_bytes(e.factor_bytes) : std::string()) +
      "), but " + format_bytes(available) + " are available; use fewer cells or tets" +
      (factorizes ? ", or an explicit integrator or the pcg solver (no factorization)"
                  : std::string()));
}

}  // namespace simrun
