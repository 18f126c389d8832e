#include "mesh/read_gmsh.hpp"

#include <array>
#include <climits>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "mesh/orient.hpp"
#include "mesh/text_reader.hpp"

namespace simrun {
namespace {

constexpr int kTet4 = 4;  // Gmsh element type of the 4-node tetrahedron

struct RawMesh {
  std::vector<long> node_tags;
  std::vector<Vec3> node_x;
  std::vector<std::array<long, 4>> tets;  // node tags
  std::vector<int> regions;
};

std::string str(long v) { return std::to_string(v); }

void skip_section(TextReader& in, const std::string& name) {
  const std::string end = "$End" + name.substr(1);
  std::string t;
  while (in.next_token(t)) {
    if (t == end) return;
  }
  in.fail("expected '" + end + "', found end of file");
}

void expect_end(TextReader& in, const std::string& name) {
  const std::string end = "$End" + name.substr(1);
  const std::string t = in.token("'" + end + "'");
  if (t != end) in.fail("expected '" + end + "', found '" + t + "'");
}

void read_nodes_v2(TextReader& in, RawMesh& raw) {
  const long n = in.read_long("the number of nodes");
  raw.node_tags.reserve(in.entries_that_fit(n, 4));  // tag x y z; not the declared count
  raw.node_x.reserve(in.entries_that_fit(n, 4));
  for (long i = 0; i < n; ++i) {
    raw.node_tags.push_back(in.read_long("a node tag"));
    Vec3 x;
    for (int c = 0; c < 3; ++c) x(c) = in.read_double("a node coordinate");
    raw.node_x.push_back(x);
  }
  expect_end(in, "$Nodes");
}

void read_elements_v2(TextReader& in, RawMesh& raw) {
  const long n = in.read_long("the number of elements");
  for (long i = 0; i < n; ++i) {
    const auto t = in.line("element " + str(i + 1) + " of " + str(n));
    if (t.size() < 3) in.fail("expected 'tag type #tags ...', found " + str(t.size()) + " fields");
    const long type = in.to_long(t[1], "the element type");
    if (type != kTet4) continue;
    // The line's own length bounds #tags, so the sum below cannot overflow.
    const long n_tags = in.to_long(t[2], "the number of element tags");
    const long fields = static_cast<long>(t.size());
    if (n_tags < 0 || n_tags > fields || fields != 3 + n_tags + 4) {
      const std::string expected =
          fields < 7 ? "at least 7 fields" : "#tags = fields - 7 = " + str(fields - 7);
      in.fail("expected a 4-node tetrahedron line 'tag 4 #tags tags... n1 n2 n3 n4' (" + expected +
              "), found " + str(n_tags) + " tags on a line of " + str(fields) + " fields");
    }
    std::array<long, 4> nodes{};
    for (int c = 0; c < 4; ++c) nodes[c] = in.to_long(t[3 + n_tags + c], "a node tag");
    raw.tets.push_back(nodes);
    raw.regions.push_back(n_tags > 0 ? in.to_int(t[3], "the physical tag") : 0);
  }
  expect_end(in, "$Elements");
}

// Returns volume entity tag -> first physical tag (for volumes that have one).
std::unordered_map<long, int> read_entities_v41(TextReader& in) {
  long count[4];
  for (long& c : count) c = in.read_long("the number of entities");
  std::unordered_map<long, int> physical;
  for (int dim = 0; dim < 4; ++dim) {
    for (long e = 0; e < count[dim]; ++e) {
      const long tag = in.read_long("an entity tag");
      for (int k = 0; k < (dim == 0 ? 3 : 6); ++k) in.read_double("an entity bounding box");
      const long n_phys = in.read_long("the number of physical tags");
      for (long p = 0; p < n_phys; ++p) {
        const long ph = in.read_long("a physical tag");
        if (dim == 3 && p == 0) {
          if (ph < INT_MIN || ph > INT_MAX)
            in.fail("expected a physical tag that fits an int, found " + str(ph));
          physical[tag] = static_cast<int>(ph);
        }
      }
      if (dim > 0) {
        const long n_bound = in.read_long("the number of bounding entities");
        for (long b = 0; b < n_bound; ++b) in.read_long("a bounding entity tag");
      }
    }
  }
  expect_end(in, "$Entities");
  return physical;
}

void read_nodes_v41(TextReader& in, RawMesh& raw) {
  const long n_blocks = in.read_long("the number of node blocks");
  in.read_long("the number of nodes");
  in.read_long("the minimum node tag");
  in.read_long("the maximum node tag");
  for (long b = 0; b < n_blocks; ++b) {
    const long dim = in.read_long("the entity dimension");
    in.read_long("the entity tag");
    const long parametric = in.read_long("the parametric flag");
    const long n = in.read_long("the number of nodes in the block");
    for (long i = 0; i < n; ++i) raw.node_tags.push_back(in.read_long("a node tag"));
    for (long i = 0; i < n; ++i) {
      Vec3 x;
      for (int c = 0; c < 3; ++c) x(c) = in.read_double("a node coordinate");
      for (long p = 0; parametric && p < dim; ++p) in.read_double("a parametric coordinate");
      raw.node_x.push_back(x);
    }
  }
  expect_end(in, "$Nodes");
}

void read_elements_v41(TextReader& in, const std::unordered_map<long, int>& physical,
                       RawMesh& raw) {
  const long n_blocks = in.read_long("the number of element blocks");
  in.read_long("the number of elements");
  in.read_long("the minimum element tag");
  in.read_long("the maximum element tag");
  for (long b = 0; b < n_blocks; ++b) {
    in.read_long("the entity dimension");
    const long entity = in.read_long("the entity tag");
    const long type = in.read_long("the element type");
    const long n = in.read_long("the number of elements in the block");
    if (type != kTet4) {
      in.skip_lines(n, "an element of type " + str(type));
      continue;
    }
    const auto ph = physical.find(entity);
    if (ph == physical.end() && (entity < INT_MIN || entity > INT_MAX))
      in.fail("expected an entity tag that fits an int (it becomes the region), found " +
              str(entity));
    const int region = ph != physical.end() ? ph->second : static_cast<int>(entity);
    for (long i = 0; i < n; ++i) {
      const auto t = in.line("a tetrahedron of block " + str(b + 1));
      if (t.size() != 5) {
        in.fail("expected 'tag n1 n2 n3 n4' for a 4-node tetrahedron, found " + str(t.size()) +
                " fields");
      }
      std::array<long, 4> nodes{};
      for (int c = 0; c < 4; ++c) nodes[c] = in.to_long(t[1 + c], "a node tag");
      raw.tets.push_back(nodes);
      raw.regions.push_back(region);
    }
  }
  expect_end(in, "$Elements");
}

// Keeps the nodes used by tets, in $Nodes order.
TetMesh compact(const RawMesh& raw, const std::filesystem::path& path) {
  std::unordered_map<long, int> slot;  // node tag -> position in raw
  for (std::size_t i = 0; i < raw.node_tags.size(); ++i) {
    if (!slot.emplace(raw.node_tags[i], static_cast<int>(i)).second)
      throw InputError(path.string() + ": node tag " + str(raw.node_tags[i]) + " appears twice");
  }
  std::vector<int> new_index(raw.node_tags.size(), -1);
  TetMesh mesh;
  mesh.tets.resize(static_cast<long>(raw.tets.size()), 4);
  for (std::size_t t = 0; t < raw.tets.size(); ++t) {
    for (int c = 0; c < 4; ++c) {
      const auto it = slot.find(raw.tets[t][c]);
      if (it == slot.end()) {
        throw InputError(path.string() + ": tetrahedron " + str(static_cast<long>(t)) +
                         " (0-based) uses node tag " + str(raw.tets[t][c]) +
                         ", expected a tag defined in $Nodes");
      }
      new_index[it->second] = 0;  // mark used
    }
  }
  int n = 0;
  for (int& v : new_index) {
    if (v == 0) v = n++;
  }
  mesh.vertices.resize(n, 3);
  for (std::size_t i = 0; i < raw.node_x.size(); ++i) {
    if (new_index[i] >= 0) mesh.vertices.row(new_index[i]) = raw.node_x[i].transpose();
  }
  for (std::size_t t = 0; t < raw.tets.size(); ++t) {
    for (int c = 0; c < 4; ++c)
      mesh.tets(static_cast<long>(t), c) = new_index[slot.at(raw.tets[t][c])];
  }
  mesh.regions = raw.regions;
  return mesh;
}

}  // namespace

TetMesh read_gmsh(const std::filesystem::path& path, int* num_flipped) {
  TextReader in(path, '\0');
  std::string word = in.token("'$MeshFormat'");
  if (word != "$MeshFormat") in.fail("expected '$MeshFormat' (a Gmsh .msh), found '" + word + "'");
  const std::string version = in.token("the format version");
  const long file_type = in.read_long("the file type (0 = ASCII)");
  in.read_long("the data size");
  if (file_type != 0) {
    in.fail("binary .msh (file-type " + str(file_type) +
            ") is not supported, only ASCII; re-export from Gmsh with Mesh.Binary = 0");
  }
  const bool v2 = version.rfind("2.", 0) == 0;
  if (!v2 && version != "4.1") in.fail("expected .msh format version 2.2 or 4.1, found " + version);
  expect_end(in, "$MeshFormat");

  RawMesh raw;
  std::unordered_map<long, int> physical;
  bool have_nodes = false, have_elements = false;
  while (in.next_token(word)) {
    if (word.empty() || word[0] != '$')
      in.fail("expected a section such as '$Nodes', found '" + word + "'");
    if (word == "$Nodes") {
      v2 ? read_nodes_v2(in, raw) : read_nodes_v41(in, raw);
      have_nodes = true;
    } else if (word == "$Elements") {
      v2 ? read_elements_v2(in, raw) : read_elements_v41(in, physical, raw);
      have_elements = true;
    } else if (word == "$Entities" && !v2) {
      physical = read_entities_v41(in);
    } else {
      skip_section(in, word);
    }
  }
  if (!have_nodes || !have_elements) {
    throw InputError(path.string() + ": expected $Nodes and $Elements sections, found " +
                     (have_nodes ? "no $Elements" : "no $Nodes"));
  }
  if (raw.tets.empty()) {
    throw InputError(path.string() + ": expected 4-node tetrahedra (element type 4), found none");
  }
  TetMesh mesh = compact(raw, path);
  const int flipped = orient_tets(mesh, path.string());
  if (num_flipped) *num_flipped = flipped;
  return mesh;
}

}  // namespace simrun
