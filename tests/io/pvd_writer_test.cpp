#include "io/pvd_writer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "temp_folder.hpp"

namespace simrun {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

/// The file on disk is a complete collection: header, open/close tags once each, in order.
void expect_complete(const std::string& xml) {
  EXPECT_EQ(xml.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(xml, "<VTKFile type=\"Collection\""), 1);
  EXPECT_EQ(count(xml, "<Collection>"), 1);
  EXPECT_EQ(count(xml, "</Collection>"), 1);
  EXPECT_EQ(count(xml, "</VTKFile>"), 1);
  EXPECT_LT(xml.find("<Collection>"), xml.find("</Collection>"));
  EXPECT_EQ(count(xml, "<DataSet"), count(xml, "/>"));  // every DataSet closes itself
}

TEST(PvdCollection, StartsAsAValidEmptyCollection) {
  test::TempFolder folder;
  const PvdCollection pvd(folder / "frames.pvd");
  const std::string xml = test::read_text(folder / "frames.pvd");
  expect_complete(xml);
  EXPECT_EQ(count(xml, "<DataSet"), 0);
}

TEST(PvdCollection, HasOneDataSetPerFrameAfterEachAdd) {
  test::TempFolder folder;
  PvdCollection pvd(folder / "frames.pvd");
  const double times[] = {0.0, 0.01, 0.1 + 0.2};
  for (int i = 0; i < 3; ++i) {
    pvd.add(times[i], "frames/frame_" + std::to_string(i) + ".vtu");
    const std::string xml = test::read_text(folder / "frames.pvd");
    expect_complete(xml);
    EXPECT_EQ(count(xml, "<DataSet"), i + 1);
    EXPECT_NE(xml.find("file=\"frames/frame_" + std::to_string(i) + ".vtu\""), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(temporary_path_for(folder / "frames.pvd")));
  }
  const std::string xml = test::read_text(folder / "frames.pvd");
  EXPECT_NE(xml.find("timestep=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("timestep=\"0.01\""), std::string::npos);
  // Times are labels with 15 significant digits: t = n dt reads as the decimal written
  // (0.1 + 0.2 as 0.3, not 0.30000000000000004).
  EXPECT_NE(xml.find("timestep=\"0.3\""), std::string::npos);
  EXPECT_EQ(pvd.entries().size(), 3u);
}

TEST(PvdCollection, AddingAFrameKeepsTheFileEqualToTheWholeDocument) {
  // Each add writes only its entry and the closing tags over the old closing tags: the file must
  // equal the complete document after every add.
  test::TempFolder folder;
  PvdCollection pvd(folder / "frames.pvd");
  for (int i = 0; i < 120; ++i) {
    pvd.add(0.01 * i, "frames/" + std::to_string(100000 + i) + ".vtu");
    ASSERT_EQ(test::read_text(folder / "frames.pvd"), pvd.document()) << "frame " << i;
  }
  expect_complete(pvd.document());
}

TEST(PvdCollection, MissingFolderThrowsInputErrorNamingThePath) {
  test::TempFolder folder;
  const auto path = folder / "out" / "frames.pvd";  // folder "out" does not exist
  try {
    PvdCollection pvd(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(PvdCollection, FramePathsGivenFromTheWorkingFolderBecomeRelativeToTheCollection) {
  test::TempFolder folder;
  std::filesystem::create_directories(folder / "out");
  // Restores the working folder even when an assertion returns early.
  struct WorkingFolder {
    std::filesystem::path saved = std::filesystem::current_path();
    explicit WorkingFolder(const std::filesystem::path& to) { std::filesystem::current_path(to); }
    ~WorkingFolder() { std::filesystem::current_path(saved); }
  } working_folder(folder.path());
  PvdCollection pvd("out/frames.pvd");
  pvd.add(0.5, "out/frames/f.vtu");
  pvd.add(1.5, "frames/g.vtu");  // already relative to the collection
  ASSERT_EQ(pvd.entries().size(), 2u);
  EXPECT_EQ(pvd.entries()[0].file, "frames/f.vtu");
  EXPECT_EQ(pvd.entries()[1].file, "frames/g.vtu");
  EXPECT_TRUE(std::filesystem::exists(folder / "out" / "frames.pvd"));
}

TEST(PvdCollection, MakesAbsoluteAndPrefixedPathsRelative) {
  test::TempFolder folder;
  PvdCollection pvd(folder / "frames.pvd");
  pvd.add(1.0, folder / "frames" / "a.vtu");  // absolute
  pvd.add(2.0, "frames/./b.vtu");
  ASSERT_EQ(pvd.entries().size(), 2u);
  EXPECT_EQ(pvd.entries()[0].file, "frames/a.vtu");
  EXPECT_EQ(pvd.entries()[1].file, "frames/b.vtu");
}

TEST(PvdCollection, EscapesFileNames) {
  test::TempFolder folder;
  PvdCollection pvd(folder / "frames.pvd");
  pvd.add(0.0, "a&b\"c.vtu");
  EXPECT_NE(pvd.document().find("file=\"a&amp;b&quot;c.vtu\""), std::string::npos);
}

}  // namespace
}  // namespace simrun
