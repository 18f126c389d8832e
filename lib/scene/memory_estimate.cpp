#include "scene/memory_estimate.hpp"

#include <cmath>
#include <cstdlib>
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

double available_memory_bytes() {
  if (const char* limit = std::getenv("SIMRUN_MEMORY_LIMIT")) {
    const double bytes = std::atof(limit);
    if (bytes > 0) return bytes;
  }
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream in(line);
    std::string key;
    double kb = 0.0;
    if (in >> key >> kb && key == "MemAvailable:") return kb * 1024.0;
  }
  return 0.0;
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
