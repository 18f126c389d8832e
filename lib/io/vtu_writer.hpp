#pragma once
/// VTK XML UnstructuredGrid (.vtu) frames of a tetrahedral mesh, readable by ParaView/VTK and
/// meshio. Arrays are inline binary: each DataArray holds base64(UInt64 byte count + raw
/// little/big-endian data as the machine stores it), the layout VTK reads with
/// header_type="UInt64" and no compressor (VTK file format docs, "XML File Formats", binary data).
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace simrun {

/// Named per-vertex and per-element arrays to attach to a frame. The pointers are borrowed and
/// must stay valid for the duration of the write call.
struct VtuFields {
  /// Per-vertex 3-vectors, e.g. {"displacement", &u}, {"velocity", &v}; rows = number of points.
  std::vector<std::pair<std::string, const MatX3*>> point_vectors;
  /// Per-vertex scalars; size = number of points.
  std::vector<std::pair<std::string, const VecX*>> point_scalars;
  /// Per-tet scalars (Float64), e.g. {"E", &youngs}; size = number of tets.
  std::vector<std::pair<std::string, const VecX*>> cell_scalars;
  /// Per-tet integers (Int32), e.g. {"region", &mesh.regions}; size = number of tets.
  std::vector<std::pair<std::string, const std::vector<int>*>> cell_ints;
  /// Optional line cells (type 3, VTK_LINE: springs of mass-spring objects), written after the
  /// tets; cell arrays then have one entry per tet followed by one per line.
  const std::vector<std::array<int, 2>>* lines = nullptr;
  /// Optional triangle cells (type 5, VTK_TRIANGLE: obstacle surfaces), written after the tets
  /// and lines; cell arrays then have one entry per tet, per line, then per triangle.
  const MatX3i* triangles = nullptr;
  /// Simulation time, written as FieldData "TimeValue" so a lone .vtu still shows its time.
  std::optional<double> time;
  /// Compress every array with zlib (vtkZLibDataCompressor, 32 KiB blocks): frames shrink by
  /// about half (the connectivity and cell arrays by far more).
  bool zlib = false;
  /// Mark the first point vector as the active "Vectors" attribute (what ParaView's Warp By
  /// Vector takes by default).
  bool active_vectors = true;
};

/// The complete .vtu document for tets (type 10, VTK_TETRA), fields.lines (type 3) and
/// fields.triangles (type 5) over
/// `positions` (usually the deformed positions x). Throws std::invalid_argument when an array's
/// length does not match the number of points or cells, or when a tet refers to a vertex outside
/// `positions`.
std::string vtu_document(const MatX3& positions, const MatX4i& tets, const VtuFields& fields = {});

/// Writes vtu_document(...) to `path` atomically (see write_file_atomically): InputError naming
/// the path when it cannot be created, std::runtime_error when writing fails midway.
void write_vtu(const std::filesystem::path& path, const MatX3& positions, const MatX4i& tets,
               const VtuFields& fields = {});

}  // namespace simrun
