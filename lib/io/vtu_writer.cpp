#include "io/vtu_writer.hpp"

#include <zlib.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/base64.hpp"
#include "io/number_format.hpp"
#include "io/xml_escape.hpp"

namespace simrun {

namespace {

constexpr std::uint8_t k_vtk_tetra = 10;
constexpr std::uint8_t k_vtk_line = 3;
constexpr std::uint8_t k_vtk_triangle = 5;

/// The raw-data part of an inline binary array. Uncompressed: base64 over [UInt64 byte count]
/// [data]. zlib: base64 over the header [UInt64 blocks, block size, last block size, compressed
/// size of each block], then base64 over the compressed blocks (VTK file formats, "binary" data
/// with vtkZLibDataCompressor; the two parts are encoded separately, as VTK and meshio read them).
std::string encoded_array(const void* data, std::size_t bytes, bool zlib) {
  if (!zlib) {
    std::vector<std::uint8_t> buffer(sizeof(std::uint64_t) + bytes);
    const std::uint64_t header = bytes;
    std::memcpy(buffer.data(), &header, sizeof(header));
    if (bytes > 0) std::memcpy(buffer.data() + sizeof(header), data, bytes);
    return base64_encode(buffer.data(), buffer.size());
  }
  constexpr std::size_t k_block = 32768;  // VTK's default block size
  const std::size_t blocks = (bytes + k_block - 1) / k_block;
  std::vector<std::uint64_t> header = {blocks, k_block,
                                       blocks == 0 ? 0 : bytes - (blocks - 1) * k_block};
  std::vector<std::uint8_t> compressed;
  const auto* in = static_cast<const std::uint8_t*>(data);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t size = std::min(k_block, bytes - b * k_block);
    uLongf out_size = compressBound(static_cast<uLong>(size));
    const std::size_t at = compressed.size();
    compressed.resize(at + out_size);
    // Level 1: frames are written every few steps; it keeps most of the gain at a third of the
    // default level's time.
    if (compress2(compressed.data() + at, &out_size, in + b * k_block, static_cast<uLong>(size),
                  1) != Z_OK)
      throw std::runtime_error("vtu: zlib compression failed");
    compressed.resize(at + out_size);
    header.push_back(out_size);
  }
  return base64_encode(header.data(), header.size() * sizeof(std::uint64_t)) +
         base64_encode(compressed.data(), compressed.size());
}

/// Appends one inline binary <DataArray> (see encoded_array).
void append_data_array(std::string& xml, bool zlib, std::string_view type, std::string_view name,
                       int components, const void* data, std::size_t bytes) {
  xml += "        <DataArray type=\"";
  xml += type;
  xml += "\" Name=\"";
  xml += xml_escape(name);
  xml += "\"";
  if (components != 1) xml += " NumberOfComponents=\"" + std::to_string(components) + "\"";
  xml += " format=\"binary\">\n          ";
  xml += encoded_array(data, bytes, zlib);
  xml += "\n        </DataArray>\n";
}

void require_length(std::string_view what, std::string_view name, Eigen::Index found,
                    Eigen::Index expected) {
  if (found != expected) {
    throw std::invalid_argument("vtu: " + std::string(what) + " '" + std::string(name) + "' has " +
                                std::to_string(found) + " entries, expected " +
                                std::to_string(expected));
  }
}

template <typename Pair>
void require_not_null(const Pair& field) {
  if (field.second == nullptr) {
    throw std::invalid_argument("vtu: array '" + field.first + "' is a null pointer");
  }
}

/// Checks every array length and index before formatting, so a bad call never produces a file.
void check_fields(Eigen::Index n_points, const MatX4i& tets, const VtuFields& fields,
                  Eigen::Index n_cells) {
  for (const auto& field : fields.point_vectors) {
    require_not_null(field);
    require_length("point vector", field.first, field.second->rows(), n_points);
  }
  for (const auto& field : fields.point_scalars) {
    require_not_null(field);
    require_length("point scalar", field.first, field.second->size(), n_points);
  }
  for (const auto& field : fields.cell_scalars) {
    require_not_null(field);
    require_length("cell scalar", field.first, field.second->size(), n_cells);
  }
  for (const auto& field : fields.cell_ints) {
    require_not_null(field);
    require_length("cell integer", field.first, static_cast<Eigen::Index>(field.second->size()),
                   n_cells);
  }
  if (fields.lines) {
    for (const auto& line : *fields.lines) {
      for (int v : line) {
        if (v < 0 || v >= n_points)
          throw std::invalid_argument("vtu: a line refers to a vertex outside 0.." +
                                      std::to_string(n_points - 1));
      }
    }
  }
  if (fields.triangles && fields.triangles->rows() > 0 &&
      (fields.triangles->minCoeff() < 0 || fields.triangles->maxCoeff() >= n_points)) {
    throw std::invalid_argument("vtu: a triangle refers to a vertex outside 0.." +
                                std::to_string(n_points - 1));
  }
  if (tets.rows() > 0 && (tets.minCoeff() < 0 || tets.maxCoeff() >= n_points)) {
    throw std::invalid_argument("vtu: a tet refers to a vertex outside 0.." +
                                std::to_string(n_points - 1));
  }
}

void append_header(std::string& xml, const VtuFields& fields, Eigen::Index n_points,
                   Eigen::Index n_cells) {
  xml += "<?xml version=\"1.0\"?>\n";
  xml += "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"";
  xml += std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
  xml += "\" header_type=\"UInt64\"";
  if (fields.zlib) xml += " compressor=\"vtkZLibDataCompressor\"";
  xml += ">\n";
  xml += "  <UnstructuredGrid>\n";
  if (fields.time) {
    xml += "    <FieldData>\n";
    xml +=
        "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
        "format=\"ascii\">";
    xml += format_time(*fields.time);
    xml += "</DataArray>\n";
    xml += "    </FieldData>\n";
  }
  xml += "    <Piece NumberOfPoints=\"" + std::to_string(n_points) + "\" NumberOfCells=\"" +
         std::to_string(n_cells) + "\">\n";
}

void append_points(std::string& xml, bool zlib, const MatX3& positions) {
  xml += "      <Points>\n";
  // MatX3 is row-major: data() is x0 y0 z0 x1 ..., VTK's interleaved layout.
  append_data_array(xml, zlib, "Float64", "Points", 3, positions.data(),
                    sizeof(double) * static_cast<std::size_t>(positions.size()));
  xml += "      </Points>\n";
}

/// Tets (VTK_TETRA) first, then the optional line cells (VTK_LINE), then the optional
/// triangles (VTK_TRIANGLE).
void append_cells(std::string& xml, bool zlib, const MatX4i& tets,
                  const std::vector<std::array<int, 2>>* lines, const MatX3i* triangles) {
  const Eigen::Index n_tets = tets.rows();
  const Eigen::Index n_lines = lines ? static_cast<Eigen::Index>(lines->size()) : Eigen::Index(0);
  const Eigen::Index n_triangles = triangles ? triangles->rows() : Eigen::Index(0);
  const Eigen::Index n_cells = n_tets + n_lines + n_triangles;
  xml += "      <Cells>\n";
  std::vector<std::int64_t> connectivity(
      static_cast<std::size_t>(4 * n_tets + 2 * n_lines + 3 * n_triangles));
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(n_cells));
  for (Eigen::Index e = 0; e < n_tets; ++e) {
    for (int k = 0; k < 4; ++k) connectivity[4 * e + k] = tets(e, k);
    offsets[e] = 4 * (e + 1);
  }
  for (Eigen::Index e = 0; e < n_lines; ++e) {
    for (int k = 0; k < 2; ++k) connectivity[4 * n_tets + 2 * e + k] = (*lines)[e][k];
    offsets[n_tets + e] = 4 * n_tets + 2 * (e + 1);
  }
  const Eigen::Index triangles_start = 4 * n_tets + 2 * n_lines;
  for (Eigen::Index e = 0; e < n_triangles; ++e) {
    for (int k = 0; k < 3; ++k) connectivity[triangles_start + 3 * e + k] = (*triangles)(e, k);
    offsets[n_tets + n_lines + e] = triangles_start + 3 * (e + 1);
  }
  std::vector<std::uint8_t> types(static_cast<std::size_t>(n_cells), k_vtk_tetra);
  std::fill(types.begin() + n_tets, types.begin() + n_tets + n_lines, k_vtk_line);
  std::fill(types.begin() + n_tets + n_lines, types.end(), k_vtk_triangle);
  append_data_array(xml, zlib, "Int64", "connectivity", 1, connectivity.data(),
                    sizeof(std::int64_t) * connectivity.size());
  append_data_array(xml, zlib, "Int64", "offsets", 1, offsets.data(),
                    sizeof(std::int64_t) * offsets.size());
  append_data_array(xml, zlib, "UInt8", "types", 1, types.data(), types.size());
  xml += "      </Cells>\n";
}

void append_point_data(std::string& xml, const VtuFields& fields) {
  const bool zlib = fields.zlib;
  xml += "      <PointData";
  if (!fields.point_vectors.empty() && fields.active_vectors) {
    xml += " Vectors=\"" + xml_escape(fields.point_vectors.front().first) + "\"";
  }
  if (!fields.point_scalars.empty()) {
    xml += " Scalars=\"" + xml_escape(fields.point_scalars.front().first) + "\"";
  }
  xml += ">\n";
  for (const auto& [name, values] : fields.point_vectors) {
    append_data_array(xml, zlib, "Float64", name, 3, values->data(),
                      sizeof(double) * static_cast<std::size_t>(values->size()));
  }
  for (const auto& [name, values] : fields.point_scalars) {
    append_data_array(xml, zlib, "Float64", name, 1, values->data(),
                      sizeof(double) * static_cast<std::size_t>(values->size()));
  }
  xml += "      </PointData>\n";
}

void append_cell_data(std::string& xml, const VtuFields& fields) {
  const bool zlib = fields.zlib;
  xml += "      <CellData";
  if (!fields.cell_scalars.empty()) {
    xml += " Scalars=\"" + xml_escape(fields.cell_scalars.front().first) + "\"";
  }
  xml += ">\n";
  for (const auto& [name, values] : fields.cell_scalars) {
    append_data_array(xml, zlib, "Float64", name, 1, values->data(),
                      sizeof(double) * static_cast<std::size_t>(values->size()));
  }
  for (const auto& [name, values] : fields.cell_ints) {
    static_assert(sizeof(int) == 4, "Int32 arrays are written from int");
    append_data_array(xml, zlib, "Int32", name, 1, values->data(), sizeof(int) * values->size());
  }
  xml += "      </CellData>\n";
}

}  // namespace

std::string vtu_document(const MatX3& positions, const MatX4i& tets, const VtuFields& fields) {
  const Eigen::Index n_points = positions.rows();
  const Eigen::Index n_lines =
      fields.lines ? static_cast<Eigen::Index>(fields.lines->size()) : Eigen::Index(0);
  const Eigen::Index n_triangles = fields.triangles ? fields.triangles->rows() : Eigen::Index(0);
  const Eigen::Index n_cells = tets.rows() + n_lines + n_triangles;
  check_fields(n_points, tets, fields, n_cells);

  std::string xml;
  xml.reserve(static_cast<std::size_t>(200 + 48 * n_points + 60 * n_cells));
  append_header(xml, fields, n_points, n_cells);
  append_points(xml, fields.zlib, positions);
  append_cells(xml, fields.zlib, tets, fields.lines, fields.triangles);
  append_point_data(xml, fields);
  append_cell_data(xml, fields);
  xml += "    </Piece>\n";
  xml += "  </UnstructuredGrid>\n";
  xml += "</VTKFile>\n";
  return xml;
}

void write_vtu(const std::filesystem::path& path, const MatX3& positions, const MatX4i& tets,
               const VtuFields& fields) {
  write_file_atomically(path, vtu_document(positions, tets, fields));
}

}  // namespace simrun
