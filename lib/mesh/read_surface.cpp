#include "mesh/read_surface.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <vector>

#include "core/error.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {
namespace {

std::string str(long v) { return std::to_string(v); }

SurfaceMesh assemble(const std::vector<Vec3>& x, const std::vector<std::array<int, 3>>& f) {
  SurfaceMesh s;
  s.vertices.resize(static_cast<long>(x.size()), 3);
  for (std::size_t i = 0; i < x.size(); ++i)
    s.vertices.row(static_cast<long>(i)) = x[i].transpose();
  s.faces.resize(static_cast<long>(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i)
    for (int c = 0; c < 3; ++c) s.faces(static_cast<long>(i), c) = f[i][c];
  return s;
}

// Fan triangulation of polygon `p` (0-based, validated indices).
void add_polygon(const std::vector<int>& p, std::vector<std::array<int, 3>>& faces) {
  for (std::size_t k = 1; k + 1 < p.size(); ++k) faces.push_back({p[0], p[k], p[k + 1]});
}

// Exact-duplicate merging for STL, whose triangles each repeat their corners.
class VertexMerger {
 public:
  int add(const Vec3& x) {
    const auto [it, inserted] =
        m_index.emplace(std::array<double, 3>{x(0), x(1), x(2)}, static_cast<int>(m_x.size()));
    if (inserted) m_x.push_back(x);
    return it->second;
  }
  const std::vector<Vec3>& vertices() const { return m_x; }

 private:
  std::map<std::array<double, 3>, int> m_index;
  std::vector<Vec3> m_x;
};

// Reads the n 50-byte triangle records that follow the 84-byte header, one at a time.
SurfaceMesh read_stl_binary(const std::filesystem::path& path, std::istream& in, std::uint32_t n) {
  VertexMerger merger;
  std::vector<std::array<int, 3>> faces;
  faces.reserve(n);  // the file size was checked to be 84 + 50 n
  for (std::uint32_t t = 0; t < n; ++t) {
    char rec[50];
    if (!in.read(rec, sizeof rec))
      throw InputError(path.string() + ": binary STL triangle " + str(t) + " could not be read");
    std::array<int, 3> f{};
    for (int c = 0; c < 3; ++c) {
      float v[3];
      std::memcpy(v, rec + 12 + 12 * c, 12);  // skip the 12-byte normal
      const Vec3 x(v[0], v[1], v[2]);
      if (!x.allFinite())
        throw InputError(path.string() + ": binary STL triangle " + str(t) +
                         " has a non-finite coordinate");
      f[c] = merger.add(x);
    }
    faces.push_back(f);
  }
  return assemble(merger.vertices(), faces);
}

SurfaceMesh read_stl_ascii(const std::filesystem::path& path) {
  TextReader in(path, '\0');
  VertexMerger merger;
  std::vector<std::array<int, 3>> faces;
  std::vector<int> loop;
  for (auto t = in.next_line(); !t.empty(); t = in.next_line()) {
    if (t[0] == "vertex") {
      if (t.size() != 4) in.fail("expected 'vertex x y z', found " + str(t.size()) + " fields");
      Vec3 x;
      for (int c = 0; c < 3; ++c) x(c) = in.to_double(t[1 + c], "a vertex coordinate");
      loop.push_back(merger.add(x));
    } else if (t[0] == "outer") {
      loop.clear();
    } else if (t[0] == "endloop") {
      if (loop.size() != 3) in.fail("expected 3 vertices per facet, found " + str(loop.size()));
      faces.push_back({loop[0], loop[1], loop[2]});
    }
  }
  if (faces.empty()) throw InputError(path.string() + ": expected STL facets, found none");
  return assemble(merger.vertices(), faces);
}

}  // namespace

SurfaceMesh read_off(const std::filesystem::path& path) {
  TextReader in(path);
  std::string head = in.token("'OFF'");
  if (head != "OFF") in.fail("expected 'OFF' header, found '" + head + "'");
  const long nv = in.read_long("the number of vertices");
  const long nf = in.read_long("the number of faces");
  in.read_long("the number of edges");
  if (nv <= 0 || nf <= 0) in.fail("expected positive vertex and face counts");
  // Reserved: what the rest of the file can hold, not the declared count, which fails where the
  // file ends when it is larger.
  std::vector<Vec3> x;
  x.reserve(in.entries_that_fit(nv, 3));
  for (long i = 0; i < nv; ++i) {
    // Ordinals count from 1 (as the other readers' messages do); face indices from 0.
    const auto t = in.line("vertex " + str(i + 1) + " of " + str(nv));
    if (t.size() < 3)
      in.fail("expected 'x y z' for vertex " + str(i + 1) + ", found " + str(t.size()) + " fields");
    Vec3 p;
    for (int c = 0; c < 3; ++c) p(c) = in.to_double(t[c], "a vertex coordinate");
    x.push_back(p);
  }
  std::vector<std::array<int, 3>> faces;
  faces.reserve(in.entries_that_fit(nf, 4));  // "3 i j k" at least
  for (long i = 0; i < nf; ++i) {
    const auto t = in.line("face " + str(i + 1) + " of " + str(nf));
    const long k = in.to_long(t[0], "the number of face vertices");
    if (k < 3 || k > static_cast<long>(t.size()) - 1)
      in.fail("expected a face with at least 3 vertex indices, found " + t[0] + " of " +
              str(t.size() - 1));
    std::vector<int> p(k);
    for (long c = 0; c < k; ++c) {
      const long v = in.to_long(t[1 + c], "a vertex index");
      if (v < 0 || v >= nv)
        in.fail("vertex index " + str(v) + " out of range, expected 0.." + str(nv - 1));
      p[c] = static_cast<int>(v);
    }
    add_polygon(p, faces);  // any trailing color values are ignored
  }
  return assemble(x, faces);
}

namespace {

/// Whether an OBJ face corner "v", "v/vt", "v//vn" or "v/vt/vn" has integer texture and normal
/// references after its vertex (the vertex index itself is checked where it is read).
bool obj_corner_references_are_integers(const std::string& corner) {
  std::size_t parts = 1;
  for (std::size_t start = corner.find('/'); start != std::string::npos;) {
    if (++parts > 3) return false;
    const std::size_t end = corner.find('/', start + 1);
    const std::string part =
        corner.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    const std::size_t digits = part.empty() ? 0 : (part[0] == '-' ? 1 : 0);
    if (!part.empty() && (part.size() == digits ||
                          part.find_first_not_of("0123456789", digits) != std::string::npos))
      return false;
    start = end;
  }
  return true;
}

}  // namespace

SurfaceMesh read_obj(const std::filesystem::path& path) {
  TextReader in(path);
  std::vector<Vec3> x;
  std::vector<std::array<int, 3>> faces;
  for (auto t = in.next_line(); !t.empty(); t = in.next_line()) {
    if (t[0] == "v") {
      if (t.size() < 4) in.fail("expected 'v x y z', found " + str(t.size()) + " fields");
      Vec3 p;
      for (int c = 0; c < 3; ++c) p(c) = in.to_double(t[1 + c], "a vertex coordinate");
      x.push_back(p);
    } else if (t[0] == "f") {
      if (t.size() < 4)
        in.fail("expected a face with at least 3 vertices, found " + str(t.size() - 1));
      std::vector<int> p;
      for (std::size_t c = 1; c < t.size(); ++c) {
        if (!obj_corner_references_are_integers(t[c]))
          in.fail("expected a face corner 'v', 'v/vt', 'v//vn' or 'v/vt/vn', found '" + t[c] + "'");
        long v = in.to_long(t[c].substr(0, t[c].find('/')), "a vertex index");
        const long n = static_cast<long>(x.size());
        if (v < 0) v += n + 1;  // relative: -1 is the last vertex so far
        if (v < 1 || v > n)
          in.fail("vertex index " + t[c] + " out of range, expected 1.." + str(n));
        p.push_back(static_cast<int>(v - 1));
      }
      add_polygon(p, faces);
    }  // vt, vn, g, o, s, usemtl, mtllib: not geometry we need
  }
  if (faces.empty()) throw InputError(path.string() + ": expected 'f' lines, found none");
  return assemble(x, faces);
}

SurfaceMesh read_stl(const std::filesystem::path& path) {
  // Only the 84-byte header is read to tell the two kinds apart, never the whole file.
  const std::uintmax_t size = checked_file_size(path, "surface file", kMaxMeshFileBytes);
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError("cannot open surface file '" + path.string() + "' for reading");
  char header[84] = {};
  file.read(header, sizeof header);
  const auto got = static_cast<std::size_t>(file.gcount());
  // Binary STL has exactly 84 + 50 n bytes; some binary headers also begin with "solid".
  if (got == sizeof header) {
    std::uint32_t n = 0;
    std::memcpy(&n, header + 80, 4);
    if (size == 84 + 50 * static_cast<std::uintmax_t>(n)) {
      if (n == 0) throw InputError(path.string() + ": binary STL with 0 triangles");
      return read_stl_binary(path, file, n);
    }
  }
  if (got >= 5 && std::string(header, 5) == "solid") return read_stl_ascii(path);
  throw InputError(path.string() +
                   ": expected an ASCII STL starting with 'solid' or a binary STL of " +
                   "84 + 50 n bytes, found " + std::to_string(size) + " bytes");
}

SurfaceMesh read_surface(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError("surface file '" + path.string() +
                     "' does not exist or is not a regular file");
  if (ext == ".off") return read_off(path);
  if (ext == ".obj") return read_obj(path);
  if (ext == ".stl") return read_stl(path);
  throw InputError("surface file '" + path.string() +
                   "': expected extension .off, .obj or .stl, found '" + ext + "'");
}

}  // namespace simrun
