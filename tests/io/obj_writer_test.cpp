#include "io/obj_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "temp_folder.hpp"

namespace simrun {
namespace {

TEST(ObjWriter, WritesVerticesAndOneBasedFaces) {
  test::TempFolder folder;
  SurfaceMesh surface;
  surface.vertices = MatX3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0.1}};
  surface.faces = MatX3i{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  const auto path = folder / "surface.obj";
  write_obj(path, surface);

  std::istringstream in(test::read_text(path));
  std::vector<std::vector<double>> vertices;
  std::vector<std::vector<int>> faces;
  for (std::string kind; in >> kind;) {
    if (kind == "v") {
      std::vector<double> v(3);
      in >> v[0] >> v[1] >> v[2];
      vertices.push_back(v);
    } else if (kind == "f") {
      std::vector<int> f(3);
      in >> f[0] >> f[1] >> f[2];
      faces.push_back(f);
    } else {
      FAIL() << "unexpected line kind " << kind;
    }
  }
  ASSERT_EQ(vertices.size(), 4u);
  ASSERT_EQ(faces.size(), 4u);
  EXPECT_EQ(vertices[3][2], 0.1);  // round-trip text, exact
  for (int f = 0; f < 4; ++f) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(faces[f][k], surface.faces(f, k) + 1);
  }
  EXPECT_EQ(test::read_text(path).find("f 1 3 2\n"), test::read_text(path).find("f "));
  EXPECT_FALSE(std::filesystem::exists(temporary_path_for(path)));
}

TEST(ObjWriter, FaceOutsideTheVerticesThrows) {
  const MatX3 positions = MatX3::Zero(3, 3);
  const MatX3i faces{{0, 1, 3}};
  EXPECT_THROW(obj_document(positions, faces), std::invalid_argument);
}

}  // namespace
}  // namespace simrun
