#include "mesh/read_medit.hpp"

#include "core/error.hpp"
#include "mesh/orient.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {

TetMesh read_medit(const std::filesystem::path& path, int* num_flipped) {
  TextReader in(path);
  std::string word;
  if (!in.next_token(word) || word != "MeshVersionFormatted") {
    in.fail("expected 'MeshVersionFormatted' (an ASCII Medit .mesh), found '" + word + "'");
  }
  in.read_long("the format version");
  TetMesh mesh;
  bool have_vertices = false, have_tets = false;
  while (in.next_token(word)) {
    if (word == "End") break;
    if (word == "Dimension") {
      const long dim = in.read_long("the dimension");
      if (dim != 3) in.fail("expected Dimension 3, found " + std::to_string(dim));
      continue;
    }
    const long n = in.read_long("the number of entries of section '" + word + "'");
    if (n < 0)
      in.fail("expected a non-negative count for '" + word + "', found " + std::to_string(n));
    if (word == "Vertices") {
      mesh.vertices.resize(n, 3);
      for (long i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = in.read_double("a vertex coordinate");
        in.read_long("the vertex reference");
      }
      have_vertices = true;
    } else if (word == "Tetrahedra") {
      if (!have_vertices) in.fail("expected the Vertices section before Tetrahedra");
      mesh.tets.resize(n, 4);
      mesh.regions.resize(n);
      const long nv = mesh.vertices.rows();
      for (long i = 0; i < n; ++i) {
        for (int c = 0; c < 4; ++c) {
          const long v = in.read_long("a vertex index of tetrahedron " + std::to_string(i + 1));
          if (v < 1 || v > nv) {
            in.fail("tetrahedron " + std::to_string(i + 1) + ": vertex index " + std::to_string(v) +
                    " out of range, expected 1.." + std::to_string(nv));
          }
          mesh.tets(i, c) = static_cast<int>(v - 1);
        }
        mesh.regions[i] = static_cast<int>(in.read_long("the tetrahedron reference"));
      }
      have_tets = true;
    } else {
      in.skip_lines(n, "an entry of section '" + word + "'");
    }
  }
  if (!have_tets || mesh.tets.rows() == 0) {
    throw InputError(path.string() + ": expected a non-empty Tetrahedra section, found none");
  }
  const int flipped = orient_tets(mesh, path.string());
  if (num_flipped) *num_flipped = flipped;
  return mesh;
}

}  // namespace simrun
