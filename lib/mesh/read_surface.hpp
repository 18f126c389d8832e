#pragma once
/// Readers for closed triangle surfaces (input to tetrahedralize()).
#include <filesystem>

#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Reads a surface by extension: .off, .obj (v and f lines; polygons fan-triangulated; texture
/// and normal indices after '/' ignored; negative indices relative), .stl (ASCII or binary;
/// exactly equal vertices merged). Throws InputError naming the file and the line (or, for
/// binary STL, the triangle) for malformed input, and for an unknown extension.
SurfaceMesh read_surface(const std::filesystem::path& path);

SurfaceMesh read_off(const std::filesystem::path& path);  ///< Object File Format
SurfaceMesh read_obj(const std::filesystem::path& path);  ///< Wavefront OBJ
SurfaceMesh read_stl(const std::filesystem::path& path);  ///< STL, ASCII or binary

}  // namespace simrun
