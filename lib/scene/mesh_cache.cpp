#include "scene/mesh_cache.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include "core/fnv1a.hpp"
#include "io/binary_stream.hpp"
#include "io/cache_dir.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {

namespace {

constexpr char kMagic[] = "simrun-tetgen-mesh-v2";
constexpr std::int64_t kMaxEntries = std::int64_t{1} << 31;

bool is_surface_file(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".off" || ext == ".obj" || ext == ".stl";
}

struct Settings {
  double quality_ratio, max_volume;
  int target_tets, surface_faces;
};

std::uint64_t key_of(const std::filesystem::path& path, const Settings& s) {
  checked_file_size(path, "mesh file", kMaxMeshFileBytes);  // the reader's own checks and errors
  std::ifstream in(path, std::ios::binary);
  const std::string contents((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  Fnv1a h;
  h.bytes(kMagic, sizeof kMagic);
  h.text(cache_build_id());  // another build may mesh differently
  h.text(path.extension().string());
  h.text(contents);
  h.pod(s.quality_ratio);
  h.pod(s.max_volume);
  h.pod(s.target_tets);
  h.pod(s.surface_faces);
  return h.value();
}

bool read(const std::filesystem::path& file, std::uint64_t key, TetMesh& mesh, int& flipped,
          DecimationResult& decimation) {
  const std::optional<std::string> body = load_cache_file(file, kMagic, key);
  if (!body) return false;
  std::istringstream in(*body, std::ios::binary);
  BinaryReader reader(in);
  mesh.vertices = reader.matrix<MatX3>(-1, 3, kMaxEntries);
  mesh.tets = reader.matrix<MatX4i>(-1, 4, kMaxEntries);
  mesh.regions = reader.array<int>(mesh.tets.rows());
  flipped = reader.pod<int>();
  decimation.collapses = reader.pod<int>();
  decimation.max_error = reader.pod<double>();
  decimation.surface.vertices = reader.matrix<MatX3>(-1, 3, kMaxEntries);
  decimation.surface.faces = reader.matrix<MatX3i>(-1, 3, kMaxEntries);
  if (!reader.ok() || mesh.num_tets() == 0) return false;
  // A damaged entry must not index out of range.
  const int n = mesh.num_vertices();
  return mesh.tets.minCoeff() >= 0 && mesh.tets.maxCoeff() < n &&
         (mesh.regions.empty() || static_cast<int>(mesh.regions.size()) == mesh.num_tets());
}

void write(const std::filesystem::path& file, std::uint64_t key, const TetMesh& mesh, int flipped,
           const DecimationResult& decimation) {
  BinaryWriter out;
  out.matrix(mesh.vertices);
  out.matrix(mesh.tets);
  out.array(mesh.regions);
  out.pod(flipped);
  out.pod(decimation.collapses);
  out.pod(decimation.max_error);
  out.matrix(decimation.surface.vertices);
  out.matrix(decimation.surface.faces);
  store_cache_file(file, kMagic, key,
                   out.str());  // an unwritable cache folder only costs the reuse
}

}  // namespace

TetMesh load_mesh_file_cached(const std::filesystem::path& cache_dir,
                              const std::filesystem::path& path, double quality_ratio,
                              double max_volume, int target_tets, int* num_flipped,
                              int surface_faces, DecimationResult* decimation, std::string* note) {
  if (note) note->clear();
  if (cache_dir.empty() || !is_surface_file(path))
    return load_mesh_file(path, quality_ratio, max_volume, target_tets, num_flipped, surface_faces,
                          decimation);
  const std::uint64_t key =
      key_of(path, Settings{quality_ratio, max_volume, target_tets, surface_faces});
  const std::filesystem::path file = cache_file(cache_dir, "tetgen-mesh", key);
  TetMesh mesh;
  int flipped = 0;
  DecimationResult simplified;
  if (read(file, key, mesh, flipped, simplified)) {
    if (note) *note = "reused the TetGen mesh of " + path.string() + " from " + file.string();
  } else {
    mesh = load_mesh_file(path, quality_ratio, max_volume, target_tets, &flipped, surface_faces,
                          &simplified);
    // Stored only if the file still holds the contents the key was made from (not rewritten
    // while TetGen ran).
    if (key_of(path, Settings{quality_ratio, max_volume, target_tets, surface_faces}) == key)
      write(file, key, mesh, flipped, simplified);
  }
  if (num_flipped) *num_flipped = flipped;
  if (decimation) *decimation = simplified;
  return mesh;
}

}  // namespace simrun
