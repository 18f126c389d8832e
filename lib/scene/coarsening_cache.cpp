#include "scene/coarsening_cache.hpp"

#include <optional>
#include <sstream>
#include <string>

#include "core/fnv1a.hpp"
#include "io/cache_dir.hpp"

namespace simrun {

namespace {
// v2: the warnings of the computation follow the fields (v1 files are misses). v3: a checksum
// follows the payload (io/cache_dir.hpp).
constexpr char kMagic[] = "simrun-coarsening-v3";
constexpr char kWarning[] = "warning: ";
constexpr std::int64_t kMaxWarnings = 1000, kMaxWarningLength = 1 << 20;

template <class Matrix>
void put(std::ostringstream& out, const Matrix& m) {
  const std::int64_t rows = m.rows(), cols = m.cols();
  out.write(reinterpret_cast<const char*>(&rows), sizeof rows);
  out.write(reinterpret_cast<const char*>(&cols), sizeof cols);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      const double v = m(i, j);
      out.write(reinterpret_cast<const char*>(&v), sizeof v);
    }
}

/// Reads a rows x cols matrix; with allow_empty a stored 0 x 0 (a method without fields) too.
bool get(std::istream& in, Eigen::Index rows, Eigen::Index cols, MatX& m,
         bool allow_empty = false) {
  std::int64_t r = 0, c = 0;
  in.read(reinterpret_cast<char*>(&r), sizeof r);
  in.read(reinterpret_cast<char*>(&c), sizeof c);
  if (allow_empty && in && r == 0 && c == 0) {
    m.resize(0, 0);
    return true;
  }
  if (!in || r != rows || c != cols) return false;
  m.resize(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i)
      in.read(reinterpret_cast<char*>(&m(i, j)), sizeof(double));
  return static_cast<bool>(in);
}
}  // namespace

std::uint64_t coarsening_key(const CoarseningConfig& config, const ObjectPieces& fine,
                             const TetMesh& coarse, const std::vector<int>& fixed_vertices) {
  Fnv1a h;
  h.bytes(kMagic, sizeof kMagic);
  h.text(cache_build_id());  // another build may compute differently
  const int options[3] = {static_cast<int>(config.method), config.coarse_normals ? 1 : 0,
                          static_cast<int>(config.boundary)};
  h.bytes(options, sizeof options);
  h.matrix(fine.mesh.vertices);
  h.matrix(fine.mesh.tets);
  h.matrix(fine.youngs);
  h.matrix(fine.poisson);
  h.matrix(fine.density);
  h.matrix(coarse.vertices);
  h.matrix(coarse.tets);
  h.values(fixed_vertices);
  return h.value();
}

std::filesystem::path coarsening_cache_file(const std::filesystem::path& dir, std::uint64_t key) {
  return cache_file(dir, "coarsening", key);
}

bool write_coarsening_cache(const std::filesystem::path& file, std::uint64_t key,
                            const ObjectCoarsening& c) {
  std::ostringstream out;
  MatX tensors(36, static_cast<Eigen::Index>(c.tensors.size()));
  for (size_t q = 0; q < c.tensors.size(); ++q)
    tensors.col(static_cast<Eigen::Index>(q)) = Eigen::Map<const VecX>(c.tensors[q].data(), 36);
  put(out, tensors);
  put(out, c.density);
  put(out, c.youngs);
  put(out, c.poisson);
  put(out, c.homogenized.coarse_fields);
  put(out, c.harmonic.fields);
  std::vector<std::string> warnings;
  for (const std::string& note : c.notes)
    if (note.rfind(kWarning, 0) == 0) warnings.push_back(note);
  const std::int64_t count = static_cast<std::int64_t>(warnings.size());
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  for (const std::string& w : warnings) {
    const std::int64_t length = static_cast<std::int64_t>(w.size());
    out.write(reinterpret_cast<const char*>(&length), sizeof length);
    out.write(w.data(), length);
  }
  return store_cache_file(file, kMagic, key, out.str());
}

bool read_coarsening_cache(const std::filesystem::path& file, std::uint64_t key,
                           int num_coarse_tets, int num_coarse_vertices, int num_fine_vertices,
                           ObjectCoarsening& c) {
  const std::optional<std::string> body = load_cache_file(file, kMagic, key);
  if (!body) return false;
  std::istringstream in(*body, std::ios::binary);
  MatX tensors, density, youngs, poisson, coarse_fields, fine_fields;
  const bool ok = get(in, 36, num_coarse_tets, tensors) && get(in, num_coarse_tets, 1, density) &&
                  get(in, num_coarse_tets, 1, youngs) && get(in, num_coarse_tets, 1, poisson) &&
                  get(in, 3 * num_coarse_vertices, 6, coarse_fields, true) &&
                  get(in, 3 * num_fine_vertices, 6, fine_fields, true);
  if (!ok) return false;
  std::int64_t count = 0;
  in.read(reinterpret_cast<char*>(&count), sizeof count);
  if (!in || count < 0 || count > kMaxWarnings) return false;
  std::vector<std::string> warnings(static_cast<size_t>(count));
  for (std::string& w : warnings) {
    std::int64_t length = 0;
    in.read(reinterpret_cast<char*>(&length), sizeof length);
    if (!in || length < 0 || length > kMaxWarningLength) return false;
    w.resize(static_cast<size_t>(length));
    in.read(w.data(), length);
    if (!in) return false;
  }
  for (std::string& w : warnings) c.notes.push_back(w + " (from the cache)");
  c.tensors.resize(num_coarse_tets);
  for (int q = 0; q < num_coarse_tets; ++q)
    c.tensors[q] = Eigen::Map<const VoigtTensor>(tensors.col(q).data());
  c.density = density.col(0);
  c.youngs = youngs.col(0);
  c.poisson = poisson.col(0);
  c.homogenized.coarse_fields = coarse_fields;
  c.harmonic.fields = fine_fields;
  return true;
}

}  // namespace simrun
