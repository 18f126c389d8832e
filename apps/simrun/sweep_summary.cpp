#include "sweep_summary.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/base64.hpp"
#include "io/number_format.hpp"

namespace simrun::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::string> read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

/// A numeric CSV table as simrun writes them (header row, unquoted numbers).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  /// Column `name` of `row` as a number, or empty when the column or the number is missing.
  std::optional<double> value(const std::vector<std::string>& row, const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    const std::size_t c = static_cast<std::size_t>(it - header.begin());
    if (it == header.end() || c >= row.size()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(row[c].c_str(), &end);
    if (end == row[c].c_str()) return std::nullopt;
    return v;
  }
};

std::optional<Table> read_table(const fs::path& file) {
  const auto text = read_text(file);
  if (!text) return std::nullopt;
  Table table;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (table.header.empty())
      table.header = split(line);
    else
      table.rows.push_back(split(line));
  }
  if (table.header.empty()) return std::nullopt;
  return table;
}

/// The bytes of an inline binary VTK data array with a UInt64 header (VTK file formats,
/// "binary" data): base64 over [byte count][data], or with vtkZLibDataCompressor base64 over
/// [blocks, block size, last block size, compressed sizes...] followed by base64 over the
/// zlib-compressed blocks. Empty when the text is not such an array.
std::optional<std::vector<std::uint8_t>> decode_binary_array(std::string_view text, bool zlib) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return std::nullopt;
  text = text.substr(begin, end - begin + 1);
  try {
    if (!zlib) {
      std::vector<std::uint8_t> bytes = base64_decode(text);
      std::uint64_t count = 0;
      if (bytes.size() < sizeof count) return std::nullopt;
      std::memcpy(&count, bytes.data(), sizeof count);
      if (count > bytes.size() - sizeof count) return std::nullopt;
      return std::vector<std::uint8_t>(bytes.begin() + sizeof count,
                                       bytes.begin() + sizeof count + count);
    }
    // The first three UInt64 are 24 bytes, exactly 32 base64 characters.
    if (text.size() < 32) return std::nullopt;
    std::vector<std::uint8_t> start = base64_decode(text.substr(0, 32));
    std::uint64_t blocks = 0, block_size = 0, last_size = 0;
    std::memcpy(&blocks, start.data(), 8);
    std::memcpy(&block_size, start.data() + 8, 8);
    std::memcpy(&last_size, start.data() + 16, 8);
    const std::size_t header_chars = 4 * (((3 + blocks) * 8 + 2) / 3);
    if (blocks > (1u << 24) || header_chars > text.size()) return std::nullopt;
    const std::vector<std::uint8_t> header = base64_decode(text.substr(0, header_chars));
    const std::vector<std::uint8_t> compressed = base64_decode(text.substr(header_chars));
    std::vector<std::uint8_t> bytes;
    std::size_t at = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      std::uint64_t size = 0;
      std::memcpy(&size, header.data() + 8 * (3 + b), 8);
      const std::uint64_t full = b + 1 == blocks && last_size > 0 ? last_size : block_size;
      if (at + size > compressed.size()) return std::nullopt;
      const std::size_t offset = bytes.size();
      bytes.resize(offset + full);
      uLongf out_size = static_cast<uLongf>(full);
      if (uncompress(bytes.data() + offset, &out_size, compressed.data() + at,
                     static_cast<uLong>(size)) != Z_OK ||
          out_size != full)
        return std::nullopt;
      at += size;
    }
    return bytes;
  } catch (const std::exception&) {
    return std::nullopt;  // not base64
  }
}

/// Largest |u| of the "displacement" array of one simrun .vtu document (empty if not found).
std::optional<double> vtu_peak_displacement(const std::string& xml) {
  const std::size_t root = xml.find("<VTKFile");
  const std::string head = xml.substr(root == std::string::npos ? 0 : root, 300);
  const bool little = head.find("byte_order=\"LittleEndian\"") != std::string::npos;
  if (little != (std::endian::native == std::endian::little)) return std::nullopt;
  if (head.find("header_type=\"UInt64\"") == std::string::npos) return std::nullopt;
  const bool zlib = head.find("compressor=\"vtkZLibDataCompressor\"") != std::string::npos;
  const std::size_t name = xml.find("Name=\"displacement\"");
  if (name == std::string::npos) return std::nullopt;
  const std::size_t open = xml.find('>', name);
  const std::size_t close = xml.find("</DataArray>", name);
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  const std::size_t tag = xml.rfind("<DataArray", name);
  if (tag == std::string::npos) return std::nullopt;
  const std::string attributes = xml.substr(tag, open - tag);
  if (attributes.find("type=\"Float64\"") == std::string::npos ||
      attributes.find("format=\"binary\"") == std::string::npos ||
      attributes.find("NumberOfComponents=\"3\"") == std::string::npos)
    return std::nullopt;
  const auto bytes =
      decode_binary_array(std::string_view(xml).substr(open + 1, close - open - 1), zlib);
  if (!bytes || bytes->size() % (3 * sizeof(double)) != 0) return std::nullopt;
  double peak = 0.0;
  for (std::size_t offset = 0; offset < bytes->size(); offset += 3 * sizeof(double)) {
    double u[3];
    std::memcpy(u, bytes->data() + offset, sizeof u);
    peak = std::max(peak, std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
  }
  return peak;
}

std::string number_field(const std::optional<double>& value) {
  return value ? format_double(*value) : std::string();
}

/// A parameter value in summary.csv: numbers in round-trip form, strings bare, others as JSON.
std::string value_field(const json& value) {
  if (value.is_number_float()) return format_double(value.get<double>());
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::optional<double> peak_displacement(const fs::path& frames_dir) {
  std::error_code ec;
  if (!fs::is_directory(frames_dir, ec)) return std::nullopt;
  std::optional<double> peak;
  for (const auto& entry : fs::directory_iterator(frames_dir, ec)) {
    if (entry.path().extension() != ".vtu") continue;
    const auto xml = read_text(entry.path());
    if (!xml) continue;
    if (const auto p = vtu_peak_displacement(*xml)) peak = std::max(peak.value_or(0.0), *p);
  }
  return peak;
}

PointResult read_point_result(const fs::path& run_dir) {
  PointResult result;
  const auto record_text = read_text(run_dir / "run.json");
  if (!record_text) return result;
  const json record = json::parse(*record_text, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) {
    result.status = "unreadable";
    result.message = "run.json is not a JSON object";
    return result;
  }
  result.status = record.value("status", "unknown");
  if (record.contains("message") && record["message"].is_string())
    result.message = record["message"].get<std::string>();
  const auto number = [&](const char* pointer) -> std::optional<double> {
    const json::json_pointer p(pointer);
    if (record.contains(p) && record.at(p).is_number()) return record.at(p).get<double>();
    return std::nullopt;
  };
  result.wall_s = number("/wall_seconds/total");
  result.steps = number("/counts/steps_done");

  if (const auto energy = read_table(run_dir / "energy.csv"); energy && !energy->rows.empty()) {
    const auto& last = energy->rows.back();
    result.kinetic = energy->value(last, "kinetic");
    result.elastic = energy->value(last, "elastic");
    result.gravity = energy->value(last, "gravity");
    result.total = energy->value(last, "total");
  }
  result.peak_displacement = peak_displacement(run_dir / "frames");
  if (const auto error = read_table(run_dir / "error.csv"); error && !error->rows.empty()) {
    double sum = 0.0;
    int count = 0;
    for (const auto& row : error->rows) {
      if (const auto v = error->value(row, "max_pos_err"))
        result.max_pos_err = std::max(result.max_pos_err.value_or(*v), *v);
      if (const auto v = error->value(row, "mean_pos_err")) {
        sum += *v;
        ++count;
      }
    }
    if (count > 0) result.mean_pos_err = sum / count;
  }
  return result;
}

std::vector<std::string> summary_columns(const Sweep& sweep) {
  std::vector<std::string> columns = {"name"};
  for (const auto& p : sweep.parameters) columns.push_back(p.pointer);
  for (const char* c : {"status", "wall_s", "steps", "kinetic", "elastic", "gravity", "total",
                        "peak_displacement", "max_pos_err", "mean_pos_err", "message"})
    columns.push_back(c);
  return columns;
}

void write_summary(const fs::path& file, const Sweep& sweep,
                   const std::vector<PointResult>& results) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) text += ',';
      text += csv_field(fields[i]);
    }
    text += "\n";
  };
  line(summary_columns(sweep));
  for (std::size_t k = 0; k < sweep.points.size(); ++k) {
    const SweepPoint& point = sweep.points[k];
    const PointResult& r = results.at(k);
    std::vector<std::string> fields = {point.name};
    for (const auto& v : point.values) fields.push_back(value_field(v));
    fields.push_back(r.status);
    for (const auto& v : {r.wall_s, r.steps, r.kinetic, r.elastic, r.gravity, r.total,
                          r.peak_displacement, r.max_pos_err, r.mean_pos_err})
      fields.push_back(number_field(v));
    fields.push_back(r.status == "finished" ? std::string() : r.message);  // why it did not
    line(fields);
  }
  write_file_atomically(file, text);
}

}  // namespace simrun::app
