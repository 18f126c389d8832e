#pragma once
/// Append-only CSV tables (energy.csv, stats.csv, error.csv, modes.csv). Each row is flushed as
/// it is written, so the file is a valid table (header + complete rows) at any moment, even if
/// the run is killed.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace simrun {

class CsvWriter {
 public:
  /// Creates (truncates) `path` and writes the header row. Throws InputError naming the path
  /// when it cannot be created, std::logic_error on an empty column list. Column names
  /// containing ',' '"' or a line break are quoted (RFC 4180).
  CsvWriter(std::filesystem::path path, std::vector<std::string> columns);
  /// Continues the table at `path` after a restart: keeps its header (which must be the one
  /// `columns` make: InputError otherwise) and the rows whose first column (the step, or the
  /// time) is at most `last`, drops later ones (written after the checkpoint), and appends
  /// from there. A missing file is started afresh.
  static CsvWriter resumed(std::filesystem::path path, std::vector<std::string> columns,
                           double last);
  ~CsvWriter();

  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  CsvWriter(CsvWriter&& other) noexcept;
  CsvWriter& operator=(CsvWriter&& other) noexcept;

  /// Writes one row in shortest round-trip form (a column named "t" in format_time's 15
  /// significant digits) (std::stod gives back the same doubles; integers
  /// such as the step number print without a decimal point) and flushes it.
  /// Throws std::logic_error when values.size() != number of columns (nothing is written), and
  /// std::runtime_error naming the path when the write fails (disk full, ...).
  void row(const std::vector<double>& values);

  const std::vector<std::string>& columns() const { return m_columns; }
  const std::filesystem::path& path() const { return m_path; }
  /// Data rows written so far (the header not counted).
  long rows_written() const { return m_rows; }
  /// The value in `column` of the last row kept by resumed() (NaN when none was kept, or the
  /// table has no such column), as written: shortest round-trip form reads back exactly.
  double resumed_value(const std::string& column) const;

 private:
  CsvWriter() = default;  ///< for resumed()
  void write_line(const std::string& line);

  std::filesystem::path m_path;
  std::vector<std::string> m_columns;
  std::FILE* m_file = nullptr;
  long m_rows = 0;
  std::string m_last_kept;  ///< resumed(): the last data row kept
};

}  // namespace simrun
