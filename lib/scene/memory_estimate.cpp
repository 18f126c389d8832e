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

/// The file cache the kernel can reclaim in a cgroup: memory.stat's active_file + inactive_file
/// (cgroup v2), or total_active_file + total_inactive_file (v1, the whole subtree).
double reclaimable_cache(const std::filesystem::path& stat, bool v1) {
  double cache = 0.0;
  for (const char* key : {"active_file", "inactive_file"}) {
    const double bytes = field(stat.string().c_str(), v1 ? std::string("total_") + key : key);
    if (!std::isnan(bytes)) cache += bytes;
  }
  return cache;
}

/// The files one cgroup version keeps its limit, usage and statistics in.
struct CgroupFiles {
  const char* limit;  ///< v2 memory.max ("max": none), v1 memory.limit_in_bytes (~2^63: none)
  const char* usage;  ///< v2 memory.current, v1 memory.usage_in_bytes
  bool v1;            ///< v1 names the subtree's cache total_active_file, total_inactive_file
};
constexpr CgroupFiles kCgroupV2{"memory.max", "memory.current", false};
constexpr CgroupFiles kCgroupV1{"memory.limit_in_bytes", "memory.usage_in_bytes", true};

/// The least, over the process's cgroup and its ancestors up to `root` (a batch system puts the
/// limit on the job's or the slice's cgroup, not the leaf), of limit - usage + reclaimable
/// cache; NaN when none sets a limit. A container may see its own cgroup as the hierarchy's
/// root: when the path from /proc/self/cgroup is not there, the root alone is read.
double cgroup_room_below(const std::string& relative, const std::filesystem::path& root,
                         const CgroupFiles& files) {
  std::filesystem::path dir = root.string() + relative;
  if (!std::filesystem::exists(dir / files.usage)) dir = root;
  double room = std::nan("");
  for (;; dir = dir.parent_path()) {
    std::ifstream limit_file(dir / files.limit), usage_file(dir / files.usage);
    double limit = 0.0, usage = 0.0;
    // "max" does not read as a number; v1's "no limit" is PAGE_COUNTER_MAX pages, ~2^63 bytes.
    if (limit_file >> limit && usage_file >> usage && limit < 0x1p62) {
      const double here = limit - usage + reclaimable_cache(dir / "memory.stat", files.v1);
      if (std::isnan(room) || here < room) room = here;
    }
    if (dir == root || dir == dir.parent_path()) break;
  }
  return room;
}

}  // namespace

namespace detail {

double cgroup_room(const std::filesystem::path& self_cgroup, const std::filesystem::path& v2_root,
                   const std::filesystem::path& v1_memory_root) {
  // /proc/self/cgroup lines are "ID:CONTROLLERS:PATH": "0::PATH" for v2, and the v1 memory
  // controller's line lists "memory" among its comma-separated controllers.
  std::ifstream self(self_cgroup);
  std::string line;
  double room = std::nan("");
  auto least = [&room](double here) {
    if (!std::isnan(here) && (std::isnan(room) || here < room)) room = here;
  };
  while (std::getline(self, line)) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::string controllers = ",";  // piece by piece: GCC 12's -Wrestrict false positive
    controllers += line.substr(first + 1, second - first - 1);
    controllers += ',';
    const std::string relative = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers == ",,")
      least(cgroup_room_below(relative, v2_root, kCgroupV2));
    else if (controllers.find(",memory,") != std::string::npos)
      least(cgroup_room_below(relative, v1_memory_root, kCgroupV1));
  }
  return room;
}

}  // namespace detail

namespace {

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
  const double cgroup =
      detail::cgroup_room("/proc/self/cgroup", "/sys/fs/cgroup", "/sys/fs/cgroup/memory");
  for (const double room : {cgroup, address_space_room()})
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
