#include "mesh/load_mesh.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "mesh/read_gmsh.hpp"
#include "mesh/read_medit.hpp"
#include "mesh/read_surface.hpp"
#include "mesh/read_tetgen.hpp"
#include "mesh/tetrahedralize.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {

TetMesh load_mesh_file(const std::filesystem::path& path, double quality_ratio, double max_volume,
                       int target_tets, int* num_flipped, int surface_faces,
                       DecimationResult* decimation) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // Not a regular file (/dev/zero, a folder) or over the size cap: rejected before reading.
  checked_file_size(path, "mesh file", kMaxMeshFileBytes);
  if (num_flipped) *num_flipped = 0;
  if (ext == ".node" || ext == ".ele") return read_tetgen(path, num_flipped);
  if (ext == ".mesh") return read_medit(path, num_flipped);
  if (ext == ".msh") return read_gmsh(path, num_flipped);
  if (ext == ".off" || ext == ".obj" || ext == ".stl") {
    SurfaceMesh surface = read_surface(path);
    if (surface_faces <= 0 || surface_faces >= surface.num_faces())
      return tetrahedralize(surface, quality_ratio, max_volume, target_tets, path.string());
    DecimationResult d = decimate_surface(surface, surface_faces);
    if (decimation) *decimation = d;
    try {
      return tetrahedralize(d.surface, quality_ratio, max_volume, target_tets, path.string());
    } catch (const InputError& e) {
      // The edge collapses keep a closed manifold but do not test for self-intersection.
      if (std::string(e.what()).find("intersects itself") == std::string::npos) throw;
      throw InputError(std::string(e.what()) + " (after simplifying it to " +
                       std::to_string(d.surface.num_faces()) +
                       " triangles, which can make a surface intersect itself: try another "
                       "tetgen.surface_faces)");
    }
  }
  throw InputError("mesh file '" + path.string() + "': unknown extension '" + ext +
                   "', expected .node, .ele, .mesh, .msh, .off, .obj or .stl");
}

}  // namespace simrun
