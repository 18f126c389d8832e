/// Multilevel precomputation cache (see precompute_cache.hpp).
#include "multilevel/precompute_cache.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/fnv1a.hpp"
#include "io/atomic_file.hpp"
#include "io/binary_stream.hpp"

namespace simrun {

namespace {

constexpr char kMagic[8] = {'S', 'R', 'M', 'L', 'C', 'A', 'C', '1'};
constexpr char kCubatureMagic[8] = {'S', 'R', 'M', 'L', 'C', 'U', 'B', '1'};

template <class T>
void write_pod(std::ostream& out, const T& x) {
  out.write(reinterpret_cast<const char*>(&x), sizeof x);
}
template <class T>
void write_array(std::ostream& out, const T* data, std::int64_t count) {
  write_pod(out, count);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(sizeof(T) * count));
}

/// Writes `file` (creating its folder) atomically (io/atomic_file.hpp) with the bytes that
/// write_body puts into a stream. Throws std::runtime_error (InputError for a folder that cannot
/// be written) naming the file.
template <class WriteBody>
void write_cache_file(const std::filesystem::path& file, const WriteBody& write_body) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::ostringstream out(std::ios::binary);
  write_body(out);
  write_file_atomically(file, out.view());
}

/// DIR/multilevel_<16 hex digits of hash><suffix>.
std::filesystem::path cache_file_name(const std::filesystem::path& dir, std::uint64_t hash,
                                      const char* suffix) {
  char name[64];
  std::snprintf(name, sizeof name, "multilevel_%016llx%s", static_cast<unsigned long long>(hash),
                suffix);
  return dir / name;
}

}  // namespace

std::uint64_t multilevel_input_hash(const MultilevelInput& in,
                                    const MultilevelSetupSettings& settings) {
  Fnv1a h;
  h.bytes(kMagic, sizeof kMagic);
  h.pod(std::int64_t(in.rest.rows()));
  h.bytes(in.rest.data(), sizeof(double) * in.rest.size());
  h.pod(std::int64_t(in.tets.rows()));
  h.bytes(in.tets.data(), sizeof(int) * in.tets.size());
  h.bytes(in.youngs.data(), sizeof(double) * in.youngs.size());
  h.bytes(in.material.data(), sizeof(int) * in.material.size());
  h.bytes(in.tet_offset.data(), sizeof(int) * in.tet_offset.size());
  for (bool fixed : in.fixed) h.pod(static_cast<unsigned char>(fixed));
  h.pod(settings.partitions);
  h.pod(settings.jump_penalty);
  h.pod(settings.contrast_cap);
  h.pod(settings.seed);
  h.pod(static_cast<unsigned char>(settings.dirichlet_aware));
  // SMS adds nothing, so caches written before the setting existed stay valid.
  if (settings.basis != HandleBasis::kSms) h.pod(static_cast<unsigned char>(settings.basis));
  return h.value();
}

std::filesystem::path multilevel_cache_file(const std::filesystem::path& dir, std::uint64_t hash) {
  return cache_file_name(dir, hash, ".bin");
}

void save_multilevel_cache(const std::filesystem::path& file, std::uint64_t hash,
                           const MultilevelPrecompute& p) {
  write_cache_file(file, [&](std::ostream& out) {
    out.write(kMagic, sizeof kMagic);
    write_pod(out, hash);
    write_pod(out, std::int64_t(p.phi.rows()));
    write_pod(out, std::int64_t(p.handles));
    write_pod(out, std::int64_t(p.objects));
    write_pod(out, std::int64_t(p.zero_sum_vertices));
    write_pod(out, std::int64_t(p.repaired_components));
    write_pod(out, std::int64_t(p.clamped_partitions));
    write_array(out, p.element_label.data(), std::int64_t(p.element_label.size()));
    write_array(out, p.origin_vertex.data(), std::int64_t(p.origin_vertex.size()));
    write_array(out, p.object_of_vertex.data(), std::int64_t(p.object_of_vertex.size()));
    write_array(out, p.dirichlet_weight.data(), std::int64_t(p.dirichlet_weight.size()));
    std::vector<int> rows, columns;
    std::vector<double> values;
    for (int h = 0; h < p.phi.outerSize(); ++h)
      for (SpMat::InnerIterator it(p.phi, h); it; ++it) {
        rows.push_back(it.row());
        columns.push_back(h);
        values.push_back(it.value());
      }
    write_array(out, rows.data(), std::int64_t(rows.size()));
    write_array(out, columns.data(), std::int64_t(columns.size()));
    write_array(out, values.data(), std::int64_t(values.size()));
  });
}

std::optional<MultilevelPrecompute> load_multilevel_cache(const std::filesystem::path& file,
                                                          std::uint64_t hash,
                                                          const MultilevelInput& in,
                                                          std::string* problem) {
  if (!std::filesystem::exists(file)) return std::nullopt;
  auto miss = [&](const std::string& why) -> std::optional<MultilevelPrecompute> {
    if (problem) *problem = file.string() + ": " + why + " (recomputing)";
    return std::nullopt;
  };
  std::ifstream stream(file, std::ios::binary);
  BinaryReader r(stream);
  char magic[sizeof kMagic];
  if (!stream.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    return miss("not a simrun multilevel cache of this version");
  if (r.pod<std::uint64_t>() != hash) return miss("made for another input");
  const std::int64_t n = in.rest.rows(), tets = in.tets.rows();
  MultilevelPrecompute p;
  const auto vertices = r.pod<std::int64_t>();
  p.handles = static_cast<int>(r.pod<std::int64_t>());
  p.objects = static_cast<int>(r.pod<std::int64_t>());
  p.zero_sum_vertices = static_cast<int>(r.pod<std::int64_t>());
  p.repaired_components = static_cast<int>(r.pod<std::int64_t>());
  p.clamped_partitions = static_cast<int>(r.pod<std::int64_t>());
  if (!r.ok() || vertices != n || p.handles < 0 || p.handles > tets || p.objects < 0)
    return miss("sizes do not match the scene");
  p.element_label = r.array<int>(tets);
  p.origin_vertex = r.array<int>(p.handles);
  p.object_of_vertex = r.array<int>(n);
  const std::vector<double> dirichlet = r.array<double>(n);
  const auto max_entries = n * std::int64_t(std::max(p.handles, 1));
  const std::vector<int> rows = r.array<int>(max_entries), columns = r.array<int>(max_entries);
  const std::vector<double> values = r.array<double>(max_entries);
  if (!r.ok() || std::int64_t(p.element_label.size()) != tets ||
      std::int64_t(p.origin_vertex.size()) != p.handles ||
      std::int64_t(p.object_of_vertex.size()) != n || std::int64_t(dirichlet.size()) != n ||
      rows.size() != columns.size() || rows.size() != values.size())
    return miss("truncated or inconsistent");
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    if (rows[k] < 0 || rows[k] >= n || columns[k] < 0 || columns[k] >= p.handles)
      return miss("an entry out of range");
    entries.emplace_back(rows[k], columns[k], values[k]);
  }
  for (int label : p.element_label)
    if (label < -1 || label >= p.handles) return miss("a partition label out of range");
  for (int v : p.origin_vertex)
    if (v < -1 || v >= n) return miss("a handle origin out of range");
  for (int o : p.object_of_vertex)
    if (o < -1 || o >= p.objects) return miss("an object index out of range");
  p.phi.resize(n, p.handles);
  p.phi.setFromTriplets(entries.begin(), entries.end());
  p.dirichlet_weight = Eigen::Map<const VecX>(dirichlet.data(), n);
  return p;
}

std::filesystem::path multilevel_cubature_file(const std::filesystem::path& dir,
                                               std::uint64_t hash) {
  return cache_file_name(dir, hash, "_cubature.bin");
}

void save_multilevel_cubature(const std::filesystem::path& file, std::uint64_t hash,
                              const CachedCubature& c) {
  write_cache_file(file, [&](std::ostream& out) {
    out.write(kCubatureMagic, sizeof kCubatureMagic);
    write_pod(out, hash);
    write_pod(out, c.worst_residual);
    write_pod(out, std::int64_t(c.weights_only_partitions));
    write_array(out, c.weight.data(), std::int64_t(c.weight.size()));
  });
}

std::optional<CachedCubature> load_multilevel_cubature(const std::filesystem::path& file,
                                                       std::uint64_t hash, int num_tets,
                                                       std::string* problem) {
  if (!std::filesystem::exists(file)) return std::nullopt;
  auto miss = [&](const std::string& why) -> std::optional<CachedCubature> {
    if (problem) *problem = file.string() + ": " + why + " (fitting again)";
    return std::nullopt;
  };
  std::ifstream stream(file, std::ios::binary);
  BinaryReader r(stream);
  char magic[sizeof kCubatureMagic];
  if (!stream.read(magic, sizeof magic) ||
      std::memcmp(magic, kCubatureMagic, sizeof kCubatureMagic) != 0)
    return miss("not a simrun cubature cache of this version");
  if (r.pod<std::uint64_t>() != hash) return miss("made for another input");
  CachedCubature c;
  c.worst_residual = r.pod<double>();
  c.weights_only_partitions = static_cast<int>(r.pod<std::int64_t>());
  const std::vector<double> weight = r.array<double>(num_tets);
  if (!r.ok() || std::int64_t(weight.size()) != num_tets) return miss("truncated or inconsistent");
  for (double w : weight)
    if (!std::isfinite(w) || w < 0.0) return miss("a negative or non-finite weight");
  c.weight = Eigen::Map<const VecX>(weight.data(), num_tets);
  return c;
}

}  // namespace simrun
