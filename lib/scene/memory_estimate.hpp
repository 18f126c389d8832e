#pragma once
/// How much memory a run will need, estimated from its vertex and tet counts before anything
/// large is allocated, so a scene too big for the machine is refused with the estimate (bad
/// input, exit 1) instead of dying in std::bad_alloc halfway through.
///
/// The model, fitted to peak resident memory of backward-Euler runs of box bars (3.3k, 23k and
/// 76k vertices; benchmarks/memory_estimate.sh prints measured and estimated MB side by side):
///   base 30 MB + 2 kB per vertex (elements, state, sparse stiffness with its pattern, frames)
///   + 9.6 bytes per Cholesky factor nonzero, nnz(L) ~ 15 n^(4/3) for n = 3 x vertices DOFs
/// (nested dissection's fill on 3D meshes grows as n^(4/3)). Runs without a factorization
/// (explicit integrators, the pcg solver) skip the factor term.
#include <cstdint>
#include <filesystem>
#include <string>

namespace simrun {

struct MemoryEstimate {
  double model_bytes = 0.0;   ///< base + per-vertex part
  double factor_bytes = 0.0;  ///< Cholesky factor (0 without a factorization)
  double total() const { return model_bytes + factor_bytes; }
};

MemoryEstimate estimate_run_memory(double vertices, bool factorizes);

/// Bytes the run may use: SIMRUN_MEMORY_LIMIT (bytes; for tests and shared machines) when set
/// (InputError when it is not a positive number), else the least of MemAvailable from
/// /proc/meminfo, the room left in the process's cgroups (v2: memory.max - memory.current over
/// the cgroup and its ancestors; v1: memory.limit_in_bytes - memory.usage_in_bytes, likewise;
/// both plus the reclaimable file cache) and under its address-space limit (ulimit -v: RLIMIT_AS -
/// VmSize); 0 when unknown (then nothing is refused).
double available_memory_bytes();

namespace detail {
/// The room the cgroups listed in `self_cgroup` (a /proc/PID/cgroup file) leave, with the v2
/// hierarchy mounted at `v2_root` and v1's memory controller at `v1_memory_root`; NaN when no
/// cgroup sets a limit. Paths are parameters so tests can use a fake tree.
double cgroup_room(const std::filesystem::path& self_cgroup, const std::filesystem::path& v2_root,
                   const std::filesystem::path& v1_memory_root);
}  // namespace detail

/// Throws InputError "WHERE: the run needs about X GB (...), but Y GB are available; ..." when
/// the estimate exceeds what is available.
void require_memory(const std::string& where, double vertices, double tets, bool factorizes);

/// "1.2 GB", "340 MB".
std::string format_bytes(double bytes);

}  // namespace simrun
