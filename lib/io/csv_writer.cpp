#include "io/csv_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/number_format.hpp"

namespace simrun {

namespace {

std::string quoted_if_needed(const std::string& name) {
  if (name.find_first_of(",\"\r\n") == std::string::npos) return name;
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"') out += '"';  // RFC 4180: a quote inside a quoted field is doubled
    out += c;
  }
  return out + "\"";
}

}  // namespace

CsvWriter::CsvWriter(std::filesystem::path path, std::vector<std::string> columns)
    : m_path(std::move(path)), m_columns(std::move(columns)) {
  if (m_columns.empty()) throw std::logic_error("CsvWriter: no columns for " + m_path.string());
  m_file = std::fopen(m_path.c_str(), "wb");
  if (m_file == nullptr) {
    throw InputError("cannot write '" + m_path.string() + "': " + std::strerror(errno));
  }
  std::string header;
  for (std::size_t i = 0; i < m_columns.size(); ++i) {
    if (i > 0) header += ',';
    header += quoted_if_needed(m_columns[i]);
  }
  write_line(header);
}

CsvWriter CsvWriter::resumed(std::filesystem::path path, std::vector<std::string> columns,
                             double last) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return CsvWriter(std::move(path), std::move(columns));
  std::string header;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) header += ',';
    header += quoted_if_needed(columns[i]);
  }
  std::string line, kept, last_kept;
  std::getline(in, line);
  if (line != header)
    throw InputError("cannot resume '" + path.string() + "': its columns (" + line +
                     ") are not this run's (" + header + ")");
  kept = line + "\n";
  long rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || std::strtod(line.c_str(), nullptr) > last) break;  // the first field
    kept += line + "\n";
    ++rows;
    last_kept = line;
  }
  in.close();
  write_file_atomically(path, kept);
  CsvWriter writer;
  writer.m_path = std::move(path);
  writer.m_columns = std::move(columns);
  writer.m_rows = rows;
  writer.m_last_kept = std::move(last_kept);
  writer.m_file = std::fopen(writer.m_path.c_str(), "ab");
  if (writer.m_file == nullptr)
    throw InputError("cannot write '" + writer.m_path.string() + "': " + std::strerror(errno));
  return writer;
}

CsvWriter::~CsvWriter() {
  if (m_file != nullptr) std::fclose(m_file);
}

CsvWriter::CsvWriter(CsvWriter&& other) noexcept
    : m_path(std::move(other.m_path)),
      m_columns(std::move(other.m_columns)),
      m_file(std::exchange(other.m_file, nullptr)),
      m_rows(other.m_rows),
      m_last_kept(std::move(other.m_last_kept)) {}

CsvWriter& CsvWriter::operator=(CsvWriter&& other) noexcept {
  if (this != &other) {
    if (m_file != nullptr) std::fclose(m_file);
    m_path = std::move(other.m_path);
    m_columns = std::move(other.m_columns);
    m_file = std::exchange(other.m_file, nullptr);
    m_rows = other.m_rows;
    m_last_kept = std::move(other.m_last_kept);
  }
  return *this;
}

double CsvWriter::resumed_value(const std::string& column) const {
  const auto it = std::find(m_columns.begin(), m_columns.end(), column);
  if (m_last_kept.empty() || it == m_columns.end()) return std::nan("");
  std::size_t begin = 0;
  for (auto i = m_columns.begin(); i != it; ++i) {
    begin = m_last_kept.find(',', begin);
    if (begin == std::string::npos) return std::nan("");
    ++begin;
  }
  return std::strtod(m_last_kept.c_str() + begin, nullptr);
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != m_columns.size()) {
    throw std::logic_error("CsvWriter: row of " + std::to_string(values.size()) + " values for " +
                           std::to_string(m_columns.size()) + " columns in " + m_path.string());
  }
  std::string line;
  line.reserve(24 * values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) line += ',';
    if (m_columns[i] == "t" && std::isfinite(values[i]))
      line += format_time(values[i]);  // a time label: "0.35", not "0.35000000000000003"
    else
      append_double(line, values[i]);
  }
  write_line(line);
  ++m_rows;
}

void CsvWriter::write_line(const std::string& line) {
  if (m_file == nullptr) throw std::logic_error("CsvWriter: used after move");
  // One fwrite per line, then flush to the OS: a run killed between rows leaves only whole rows.
  const std::string text = line + '\n';
  if (std::fwrite(text.data(), 1, text.size(), m_file) != text.size() || std::fflush(m_file) != 0) {
    throw std::runtime_error("failed writing '" + m_path.string() + "': " + std::strerror(errno));
  }
}

}  // namespace simrun
