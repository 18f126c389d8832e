#include "mesh/read_tetgen.hpp"

#include <climits>
#include <cmath>

#include "core/error.hpp"
#include "mesh/orient.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {
namespace {

std::string str(long v) { return std::to_string(v); }

void expect_count(const TextReader& in, const std::vector<std::string>& tokens, std::size_t n,
                  const std::string& what) {
  if (tokens.size() < n) {
    in.fail("expected " + std::to_string(n) + " fields (" + what + "), found " +
            std::to_string(tokens.size()));
  }
}

// Reads the .node file; returns the index of the first point (0 or 1).
long read_nodes(const std::filesystem::path& path, TetMesh& mesh) {
  TextReader in(path);
  auto head = in.line("the .node header '<#points> <dimension> <#attributes> <#markers>'");
  const long n = in.to_long(head[0], "number of points");
  const long dim = head.size() > 1 ? in.to_long(head[1], "dimension") : 3;
  const long n_attr = head.size() > 2 ? in.to_long(head[2], "number of point attributes") : 0;
  const long n_marker = head.size() > 3 ? in.to_long(head[3], "boundary marker flag") : 0;
  if (n <= 0) in.fail("expected a positive number of points, found " + str(n));
  if (dim != 3) in.fail("expected dimension 3, found " + str(dim));
  if (n_attr < 0 || n_marker < 0 || n_marker > 1)
    in.fail("expected attribute count >= 0 and boundary marker flag 0 or 1");
  // A point line holds index, x, y, z, the attributes and the marker; the attribute count is
  // checked against the file before it is added to, and the rows are what the file can hold
  // (a larger count fails where the file ends; point i is read only if the file held i + 1).
  in.require_fits(n_attr, "attributes per point");
  const long per_point = 4 + n_attr + n_marker;
  mesh.vertices.resize(in.entries_that_fit(n, per_point), 3);
  long first = 0;
  for (long i = 0; i < n; ++i) {
    auto t = in.line("point " + str(i + 1) + " of " + str(n));
    expect_count(in, t, static_cast<std::size_t>(per_point),
                 "index, x, y, z" + std::string(n_attr ? ", attributes" : "") +
                     (n_marker ? ", boundary marker" : ""));
    const long id = in.to_long(t[0], "point index");
    if (i == 0) {
      if (id != 0 && id != 1) in.fail("expected first point index 0 or 1, found " + str(id));
      first = id;
    } else if (id != first + i) {
      in.fail("expected point index " + str(first + i) + ", found " + str(id));
    }
    for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = in.to_double(t[1 + c], "coordinate");
  }
  return first;
}

void read_elements(const std::filesystem::path& path, long first, TetMesh& mesh) {
  TextReader in(path);
  auto head = in.line("the .ele header '<#tetrahedra> <nodes per tet> <#attributes>'");
  const long n = in.to_long(head[0], "number of tetrahedra");
  const long corners = head.size() > 1 ? in.to_long(head[1], "nodes per tetrahedron") : 4;
  const long n_attr = head.size() > 2 ? in.to_long(head[2], "number of attributes") : 0;
  if (n <= 0) in.fail("expected a positive number of tetrahedra, found " + str(n));
  if (corners != 4)
    in.fail("expected 4 nodes per tetrahedron (linear tets), found " + str(corners));
  if (n_attr < 0) in.fail("expected a non-negative attribute count, found " + str(n_attr));
  in.require_fits(n_attr, "attributes per tetrahedron");
  const long per_tet = 5 + n_attr;                    // index, 4 vertices, attributes
  const long rows = in.entries_that_fit(n, per_tet);  // as for the points
  mesh.tets.resize(rows, 4);
  if (n_attr > 0) mesh.regions.resize(rows);
  const long nv = mesh.vertices.rows();
  for (long i = 0; i < n; ++i) {
    auto t = in.line("tetrahedron " + str(i + first) + " of " + str(n));
    expect_count(in, t, static_cast<std::size_t>(per_tet),
                 n_attr ? "index, 4 vertices, attributes" : "index and 4 vertices");
    const long id = in.to_long(t[0], "tetrahedron index");
    if (id != first + i)
      in.fail("expected tetrahedron index " + str(first + i) + ", found " + str(id));
    for (int c = 0; c < 4; ++c) {
      const long v = in.to_long(t[1 + c], "vertex index");
      if (v < first || v >= first + nv) {
        in.fail("vertex index " + str(v) + " out of range, expected " + str(first) + ".." +
                str(first + nv - 1));
      }
      mesh.tets(i, c) = static_cast<int>(v - first);
    }
    if (n_attr > 0) {
      // Range first: converting a double outside int's range is undefined behaviour.
      const double a = in.to_double(t[5], "region attribute");
      if (!(a >= INT_MIN && a <= INT_MAX) || a != std::floor(a)) {
        in.fail("expected an integer region attribute from " + str(INT_MIN) + " to " +
                str(INT_MAX) + ", found " + t[5]);
      }
      mesh.regions[i] = static_cast<int>(a);
    }
  }
}

}  // namespace

TetMesh read_tetgen(const std::filesystem::path& path, int* num_flipped) {
  const auto ext = path.extension();
  if (ext != ".node" && ext != ".ele") {
    throw InputError("TetGen mesh '" + path.string() +
                     "': expected a .node or .ele path, found extension '" + ext.string() + "'");
  }
  auto node = path, ele = path;
  node.replace_extension(".node");
  ele.replace_extension(".ele");
  TetMesh mesh;
  const long first = read_nodes(node, mesh);
  read_elements(ele, first, mesh);
  const int flipped = orient_tets(mesh, ele.string());
  if (num_flipped) *num_flipped = flipped;
  return mesh;
}

}  // namespace simrun
