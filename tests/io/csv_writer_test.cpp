#include "io/csv_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "temp_folder.hpp"

namespace simrun {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  return cells;
}

TEST(CsvWriter, HeaderAndRowsRoundTripExactly) {
  test::TempFolder folder;
  const auto path = folder / "energy.csv";
  const std::vector<std::vector<double>> rows = {
      {0, 0.0, 0.0, 1.0 / 3.0, -9.81, 0.1 + 0.2},
      {1, 0.01, 1e-300, 6.02214076e23, -std::numeric_limits<double>::min(), std::numbers::pi},
      {2, 0.02, std::numeric_limits<double>::max(), -0.0, 123456789.0, std::exp(1.0)},
  };
  {
    CsvWriter csv(path, {"step", "t", "kinetic", "elastic", "gravity", "total"});
    for (const auto& row : rows) csv.row(row);
    EXPECT_EQ(csv.rows_written(), 3);
  }
  const std::vector<std::string> lines = lines_of(test::read_text(path));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "step,t,kinetic,elastic,gravity,total");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::vector<std::string> cells = split(lines[r + 1]);
    ASSERT_EQ(cells.size(), rows[r].size()) << lines[r + 1];
    for (std::size_t c = 0; c < cells.size(); ++c) {
      // Exact equality on purpose: the writer promises round-trip text.
      EXPECT_EQ(std::stod(cells[c]), rows[r][c]) << "row " << r << " column " << c;
    }
  }
  EXPECT_EQ(split(lines[2])[0], "1");  // integers print as integers
}

TEST(CsvWriter, EachRowIsOnDiskBeforeTheWriterCloses) {
  test::TempFolder folder;
  const auto path = folder / "stats.csv";
  CsvWriter csv(path, {"step", "wall_s"});
  EXPECT_EQ(test::read_text(path), "step,wall_s\n");
  csv.row({1, 0.5});
  EXPECT_EQ(test::read_text(path), "step,wall_s\n1,0.5\n");
}

TEST(CsvWriter, WrongColumnCountThrowsAndWritesNothing) {
  test::TempFolder folder;
  const auto path = folder / "stats.csv";
  CsvWriter csv(path, {"step", "t", "wall_s"});
  EXPECT_THROW(csv.row({1.0, 2.0}), std::logic_error);
  EXPECT_THROW(csv.row({1.0, 2.0, 3.0, 4.0}), std::logic_error);
  EXPECT_EQ(test::read_text(path), "step,t,wall_s\n");
  EXPECT_THROW(CsvWriter(folder / "empty.csv", {}), std::logic_error);
}

TEST(CsvWriter, NonFiniteValuesParseBack) {
  test::TempFolder folder;
  const auto path = folder / "e.csv";
  {
    CsvWriter csv(path, {"a", "b", "c"});
    csv.row({std::nan(""), std::numeric_limits<double>::infinity(),
             -std::numeric_limits<double>::infinity()});
  }
  const std::vector<std::string> cells = split(lines_of(test::read_text(path))[1]);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_TRUE(std::isnan(std::stod(cells[0])));
  EXPECT_EQ(std::stod(cells[1]), std::numeric_limits<double>::infinity());
  EXPECT_EQ(std::stod(cells[2]), -std::numeric_limits<double>::infinity());
}

TEST(CsvWriter, QuotesAwkwardColumnNames) {
  test::TempFolder folder;
  const auto path = folder / "q.csv";
  { CsvWriter csv(path, {"plain", "a,b", "say \"hi\""}); }
  EXPECT_EQ(test::read_text(path), "plain,\"a,b\",\"say \"\"hi\"\"\"\n");
}

TEST(CsvWriter, MissingFolderThrowsInputErrorNamingThePath) {
  test::TempFolder folder;
  const auto path = folder / "missing" / "energy.csv";
  try {
    CsvWriter csv(path, {"step"});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(CsvWriter, MovedWriterKeepsWriting) {
  test::TempFolder folder;
  const auto path = folder / "m.csv";
  {
    CsvWriter first(path, {"x"});
    CsvWriter second = std::move(first);
    second.row({2.5});
  }
  EXPECT_EQ(test::read_text(path), "x\n2.5\n");
}

}  // namespace
}  // namespace simrun
