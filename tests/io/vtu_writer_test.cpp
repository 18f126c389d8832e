#include "io/vtu_writer.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/base64.hpp"
#include "temp_folder.hpp"

namespace simrun {
namespace {

/// Two tets sharing the face (1, 2, 3).
struct TwoTets {
  MatX3 positions{
      {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}, {1.0, 1.0, 1.0 / 3.0}};
  MatX4i tets{{0, 1, 2, 3}, {1, 2, 3, 4}};
  MatX3 displacement = MatX3::Constant(5, 3, 0.1);
  MatX3 velocity = MatX3::Zero(5, 3);
  VecX pressure = VecX::LinSpaced(5, -1.0, 1.0);
  VecX youngs{{1e5, 1e7}};
  std::vector<int> region{0, 7};

  TwoTets() { velocity(4, 1) = -9.81; }

  VtuFields fields() const {
    VtuFields f;
    f.point_vectors = {{"displacement", &displacement}, {"velocity", &velocity}};
    f.point_scalars = {{"pressure", &pressure}};
    f.cell_scalars = {{"E", &youngs}};
    f.cell_ints = {{"region", &region}};
    f.time = 0.25;
    return f;
  }
};

/// The value of attribute `name` in the first element starting at or after `from`.
std::string attribute(const std::string& xml, std::size_t from, const std::string& name) {
  const std::size_t end = xml.find('>', from);
  const std::size_t at = xml.find(" " + name + "=\"", from);
  if (at == std::string::npos || at > end) return "<missing>";
  const std::size_t begin = at + name.size() + 3;
  return xml.substr(begin, xml.find('"', begin) - begin);
}

/// Decoded payload of the DataArray called `name`, after checking its UInt64 byte-count header.
std::vector<std::uint8_t> array_bytes(const std::string& xml, const std::string& name) {
  const std::size_t at = xml.find("Name=\"" + name + "\"");
  EXPECT_NE(at, std::string::npos) << name;
  if (at == std::string::npos) return {};
  EXPECT_EQ(attribute(xml, xml.rfind('<', at), "format"), "binary");
  const std::size_t begin = xml.find('>', at) + 1;
  const std::size_t end = xml.find("</DataArray>", begin);
  const std::vector<std::uint8_t> decoded = base64_decode(xml.substr(begin, end - begin));
  std::uint64_t header = 0;
  EXPECT_GE(decoded.size(), sizeof(header));
  std::memcpy(&header, decoded.data(), sizeof(header));
  EXPECT_EQ(header, decoded.size() - sizeof(header)) << name;
  return {decoded.begin() + sizeof(header), decoded.end()};
}

template <typename T>
std::vector<T> array_values(const std::string& xml, const std::string& name) {
  const std::vector<std::uint8_t> bytes = array_bytes(xml, name);
  EXPECT_EQ(bytes.size() % sizeof(T), 0u);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TEST(VtuWriter, WritesHeaderPiecesAndNamedArrays) {
  test::TempFolder folder;
  const TwoTets mesh;
  const auto path = folder / "frame_000001.vtu";
  write_vtu(path, mesh.positions, mesh.tets, mesh.fields());
  const std::string xml = test::read_text(path);

  const std::size_t vtkfile = xml.find("<VTKFile");
  ASSERT_NE(vtkfile, std::string::npos);
  EXPECT_EQ(attribute(xml, vtkfile, "type"), "UnstructuredGrid");
  EXPECT_EQ(attribute(xml, vtkfile, "header_type"), "UInt64");
  const std::size_t piece = xml.find("<Piece");
  ASSERT_NE(piece, std::string::npos);
  EXPECT_EQ(attribute(xml, piece, "NumberOfPoints"), "5");
  EXPECT_EQ(attribute(xml, piece, "NumberOfCells"), "2");
  for (const char* name : {"Points", "connectivity", "offsets", "types", "displacement", "velocity",
                           "pressure", "E", "region", "TimeValue"}) {
    EXPECT_NE(xml.find("Name=\"" + std::string(name) + "\""), std::string::npos) << name;
  }
  // Each section opens and closes once, in VTK's order.
  std::size_t last = 0;
  for (const char* tag : {"<UnstructuredGrid>", "<Piece", "<Points>", "</Points>", "<Cells>",
                          "</Cells>", "<PointData", "</PointData>", "<CellData", "</CellData>",
                          "</Piece>", "</UnstructuredGrid>", "</VTKFile>"}) {
    const std::size_t at = xml.find(tag);
    ASSERT_NE(at, std::string::npos) << tag;
    EXPECT_GT(at, last) << tag;
    EXPECT_EQ(xml.find(tag, at + 1), std::string::npos) << tag << " appears twice";
    last = at;
  }
  // The point data arrays sit inside <PointData>, the cell data inside <CellData>.
  EXPECT_GT(xml.find("Name=\"velocity\""), xml.find("<PointData"));
  EXPECT_LT(xml.find("Name=\"velocity\""), xml.find("</PointData>"));
  EXPECT_GT(xml.find("Name=\"region\""), xml.find("<CellData"));
  EXPECT_LT(xml.find("Name=\"region\""), xml.find("</CellData>"));
  EXPECT_FALSE(std::filesystem::exists(temporary_path_for(path)));
}

TEST(VtuWriter, BinaryArraysDecodeToTheSameNumbers) {
  test::TempFolder folder;
  const TwoTets mesh;
  const auto path = folder / "frame.vtu";
  write_vtu(path, mesh.positions, mesh.tets, mesh.fields());
  const std::string xml = test::read_text(path);

  // Bit-exact: binary output must not round.
  const std::vector<double> points = array_values<double>(xml, "Points");
  ASSERT_EQ(points.size(), 15u);
  for (int i = 0; i < 5; ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(points[3 * i + k], mesh.positions(i, k));
  }
  EXPECT_EQ(array_values<std::int64_t>(xml, "connectivity"),
            (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4}));
  EXPECT_EQ(array_values<std::int64_t>(xml, "offsets"), (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(array_values<std::uint8_t>(xml, "types"), (std::vector<std::uint8_t>{10, 10}));
  const std::vector<double> velocity = array_values<double>(xml, "velocity");
  ASSERT_EQ(velocity.size(), 15u);
  EXPECT_EQ(velocity[13], -9.81);
  EXPECT_EQ(array_values<double>(xml, "pressure"),
            (std::vector<double>(mesh.pressure.begin(), mesh.pressure.end())));
  EXPECT_EQ(array_values<double>(xml, "E"), (std::vector<double>{1e5, 1e7}));
  EXPECT_EQ(array_values<std::int32_t>(xml, "region"), (std::vector<std::int32_t>{0, 7}));
}

TEST(VtuWriter, LineCellsFollowTheTets) {
  const TwoTets mesh;
  const std::vector<std::array<int, 2>> lines = {{0, 4}, {3, 4}};
  VtuFields f;
  f.lines = &lines;
  const VecX per_cell{{1.0, 2.0, 0.0, 0.0}};
  f.cell_scalars = {{"E", &per_cell}};
  const std::string xml = vtu_document(mesh.positions, mesh.tets, f);
  EXPECT_NE(xml.find("NumberOfCells=\"4\""), std::string::npos);
  EXPECT_EQ(array_values<std::int64_t>(xml, "connectivity"),
            (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4, 0, 4, 3, 4}));
  EXPECT_EQ(array_values<std::int64_t>(xml, "offsets"), (std::vector<std::int64_t>{4, 8, 10, 12}));
  EXPECT_EQ(array_values<std::uint8_t>(xml, "types"), (std::vector<std::uint8_t>{10, 10, 3, 3}));
  // Springs only (no tets), and a line outside the points is rejected.
  VtuFields springs_only;
  springs_only.lines = &lines;
  const std::string only = vtu_document(mesh.positions, MatX4i(0, 4), springs_only);
  EXPECT_EQ(array_values<std::uint8_t>(only, "types"), (std::vector<std::uint8_t>{3, 3}));
  const std::vector<std::array<int, 2>> bad = {{0, 5}};
  VtuFields bad_springs;
  bad_springs.lines = &bad;
  EXPECT_THROW(vtu_document(mesh.positions, mesh.tets, bad_springs), std::invalid_argument);
}

TEST(VtuWriter, TriangleCellsFollowTheTetsAndLines) {
  const TwoTets mesh;
  const std::vector<std::array<int, 2>> lines = {{0, 4}};
  const MatX3i triangles{{0, 1, 2}, {1, 2, 4}};
  VtuFields f;
  f.lines = &lines;
  f.triangles = &triangles;
  const std::vector<int> per_cell{0, 0, 0, 3, 3};
  f.cell_ints = {{"obstacle", &per_cell}};
  const std::string xml = vtu_document(mesh.positions, mesh.tets, f);
  EXPECT_NE(xml.find("NumberOfCells=\"5\""), std::string::npos);
  EXPECT_EQ(array_values<std::int64_t>(xml, "connectivity"),
            (std::vector<std::int64_t>{0, 1, 2, 3, 1, 2, 3, 4, 0, 4, 0, 1, 2, 1, 2, 4}));
  EXPECT_EQ(array_values<std::int64_t>(xml, "offsets"),
            (std::vector<std::int64_t>{4, 8, 10, 13, 16}));
  EXPECT_EQ(array_values<std::uint8_t>(xml, "types"), (std::vector<std::uint8_t>{10, 10, 3, 5, 5}));
  // Triangles only (an obstacle surface), and a triangle outside the points is rejected.
  VtuFields surface_only;
  surface_only.triangles = &triangles;
  const std::string only = vtu_document(mesh.positions, MatX4i(0, 4), surface_only);
  EXPECT_EQ(array_values<std::uint8_t>(only, "types"), (std::vector<std::uint8_t>{5, 5}));
  const MatX3i bad{{0, 1, 5}};
  VtuFields bad_surface;
  bad_surface.triangles = &bad;
  EXPECT_THROW(vtu_document(mesh.positions, mesh.tets, bad_surface), std::invalid_argument);
  // The cell arrays count the triangles too.
  const std::vector<int> too_short{0, 0, 0};
  f.cell_ints = {{"obstacle", &too_short}};
  EXPECT_THROW(vtu_document(mesh.positions, mesh.tets, f), std::invalid_argument);
}

TEST(VtuWriter, OverwritesAnExistingFrameWhole) {
  test::TempFolder folder;
  const TwoTets mesh;
  const auto path = folder / "frame.vtu";
  std::ofstream(path) << "stale content that is longer than nothing";
  write_vtu(path, mesh.positions, mesh.tets);
  const std::string xml = test::read_text(path);
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u);
  EXPECT_EQ(xml.find("stale"), std::string::npos);
}

TEST(VtuWriter, MismatchedArrayLengthThrowsAndWritesNothing) {
  test::TempFolder folder;
  const TwoTets mesh;
  const VecX wrong = VecX::Zero(4);
  VtuFields fields;
  fields.point_scalars = {{"wrong", &wrong}};
  const auto path = folder / "frame.vtu";
  EXPECT_THROW(write_vtu(path, mesh.positions, mesh.tets, fields), std::invalid_argument);
  fields = {};
  fields.cell_scalars = {{"wrong", &wrong}};
  EXPECT_THROW(write_vtu(path, mesh.positions, mesh.tets, fields), std::invalid_argument);
  MatX4i bad_tets = mesh.tets;
  bad_tets(1, 3) = 5;
  EXPECT_THROW(write_vtu(path, mesh.positions, bad_tets), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(VtuWriter, MissingFolderThrowsInputErrorNamingThePath) {
  test::TempFolder folder;
  const TwoTets mesh;
  const auto path = folder / "no_such_folder" / "frame.vtu";
  try {
    write_vtu(path, mesh.positions, mesh.tets);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

// An independent reader: Python's xml.etree parses the file (well-formed XML) and the Points
// array is decoded with base64 + struct. Skipped when python3 is not installed.
TEST(VtuWriter, PythonXmlParserReadsTheFile) {
  if (std::system("python3 -c pass >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  test::TempFolder folder;
  const TwoTets mesh;
  const auto path = folder / "frame.vtu";
  write_vtu(path, mesh.positions, mesh.tets, mesh.fields());
  const auto script = folder / "check.py";
  std::ofstream(script) << R"(import base64, struct, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'VTKFile' and root.get('type') == 'UnstructuredGrid', root.tag
piece = root.find('UnstructuredGrid/Piece')
n = int(piece.get('NumberOfPoints'))
assert n == 5 and piece.get('NumberOfCells') == '2'
raw = base64.b64decode(piece.find('Points/DataArray').text.strip())
order = '<' if root.get('byte_order') == 'LittleEndian' else '>'
(size,) = struct.unpack(order + 'Q', raw[:8])
values = struct.unpack(order + '%dd' % (3 * n), raw[8:])
assert size == 24 * n and len(raw) == 8 + size
assert values[12:15] == (1.0, 1.0, 1.0 / 3.0), values
names = [a.get('Name') for a in piece.iter('DataArray')]
for name in ['displacement', 'velocity', 'pressure', 'E', 'region']:
    assert name in names, names
)";
  const std::string command = "python3 " + script.string() + " " + path.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
}  // namespace simrun
