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
    const std::string of_n = " of " + std::to_string(n);
    // Sections are sized to what the rest of the file can hold, not to their declared count: a
    // count beyond it fails where the file ends. Entry i is stored only once all its numbers
    // were read, which needs a file holding i + 1 entries, so i stays within the rows.
    if (word == "Vertices") {
      mesh.vertices.resize(in.entries_that_fit(n, 4), 3);  // x y z ref
      for (long i = 0; i < n; ++i) {
        const std::string vertex = " of vertex " + std::to_string(i + 1) + of_n;
        Vec3 x;
        for (int c = 0; c < 3; ++c) x(c) = in.read_double("a coordinate" + vertex);
        in.read_long("the reference" + vertex);
        mesh.vertices.row(i) = x.transpose();
      }
      have_vertices = true;
    } else if (word == "Tetrahedra") {
      if (!have_vertices) in.fail("expected the Vertices section before Tetrahedra");
      const long rows = in.entries_that_fit(n, 5);  // 4 vertices and a reference
      mesh.tets.resize(rows, 4);
      mesh.regions.resize(rows);
      const long nv = mesh.vertices.rows();
      for (long i = 0; i < n; ++i) {
        const std::string tet = " of tetrahedron " + std::to_string(i + 1) + of_n;
        Eigen::RowVector4i corners;
        for (int c = 0; c < 4; ++c) {
          const long v = in.read_long("a vertex index" + tet);
          if (v < 1 || v > nv) {
            in.fail("tetrahedron " + std::to_string(i + 1) + ": vertex index " + std::to_string(v) +
                    " out of range, expected 1.." + std::to_string(nv));
          }
          corners(c) = static_cast<int>(v - 1);
        }
        const int region = in.to_int(in.token("the reference" + tet), "the reference" + tet);
        mesh.tets.row(i) = corners;
        mesh.regions[i] = region;
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
