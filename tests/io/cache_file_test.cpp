// The envelope of simrun's cache files (io/cache_dir.hpp, io/binary_stream.hpp): a checksum that
// rejects any changed or missing byte, and a reader whose counts are bounded by the bytes left, so
// a damaged or hostile entry is a miss, never a huge allocation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/atomic_file.hpp"
#include "io/binary_stream.hpp"
#include "io/cache_dir.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;

TEST(CacheFile, ChecksumRejectsEveryChangedOrMissingByte) {
  const fs::path dir =
      fs::temp_directory_path() / ("simrun_cache_file_" + std::to_string(getpid()));
  fs::remove_all(dir);
  const fs::path file = cache_file(dir, "test", 0x1234);
  EXPECT_EQ(file.filename(), "test-0000000000001234.bin");
  const std::string payload("payload\0with a zero", 19);  // a zero byte inside
  ASSERT_TRUE(store_cache_file(file, "magic-v1", 0x1234, payload));
  ASSERT_EQ(load_cache_file(file, "magic-v1", 0x1234), payload);
  EXPECT_FALSE(load_cache_file(file, "magic-v2", 0x1234).has_value());  // another format
  EXPECT_FALSE(load_cache_file(file, "magic-v1", 0x1235).has_value());  // another key
  EXPECT_FALSE(fs::exists(temporary_path_for(file)));                   // renamed, not left behind
  const std::uintmax_t size = fs::file_size(file);
  for (std::uintmax_t at = 0; at < size; ++at) {
    std::string bytes;
    {
      std::ifstream in(file, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
    const fs::path flipped = dir / "flipped.bin";
    std::ofstream(flipped, std::ios::binary) << bytes;
    EXPECT_FALSE(load_cache_file(flipped, "magic-v1", 0x1234).has_value()) << "byte " << at;
  }
  fs::resize_file(file, size - 1);
  EXPECT_FALSE(load_cache_file(file, "magic-v1", 0x1234).has_value());
  EXPECT_FALSE(load_cache_file(dir / "missing.bin", "magic-v1", 0x1234).has_value());
  EXPECT_FALSE(load_cache_file(file, "magic-v1", 0x1234, 4).has_value());  // over the size cap
  fs::remove_all(dir);
}

TEST(CacheFile, ReaderCountsAreBoundedByTheBytesLeft) {
  BinaryWriter out;
  out.pod(std::int64_t{1} << 40);  // rows of a matrix "with" 2^40 x 3 doubles, and 8 bytes left
  out.pod(std::int64_t{3});
  out.pod(1.0);
  std::istringstream in(out.str(), std::ios::binary);
  BinaryReader reader(in);
  const MatX3 m = reader.matrix<MatX3>(-1, 3, std::int64_t{1} << 62);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(m.size(), 0);

  BinaryWriter array;
  array.pod(std::int64_t{1} << 40);
  std::istringstream in2(array.str(), std::ios::binary);
  BinaryReader reader2(in2);
  EXPECT_TRUE(reader2.array<int>(std::int64_t{1} << 50).empty());
  EXPECT_FALSE(reader2.ok());

  // What fits is read back.
  BinaryWriter good;
  MatX3 x(2, 3);
  x << 1, 2, 3, 4, 5, 6;
  good.matrix(x);
  good.array(std::vector<int>{7, 8});
  std::istringstream in3(good.str(), std::ios::binary);
  BinaryReader reader3(in3);
  EXPECT_EQ(reader3.matrix<MatX3>(2, 3, 6), x);
  EXPECT_EQ(reader3.array<int>(2), (std::vector<int>{7, 8}));
  EXPECT_TRUE(reader3.ok());
  // A size other than the expected one is a miss.
  std::istringstream in4(good.str(), std::ios::binary);
  BinaryReader reader4(in4);
  reader4.matrix<MatX3>(3, 3, 9);
  EXPECT_FALSE(reader4.ok());
}

TEST(CacheFile, DirtyBuildsCacheOnlyWhereTheUserSaysAndOffTurnsItOff) {
  const char* previous = std::getenv("SIMRUN_CACHE_DIR");
  const std::string restore = previous ? previous : "";
  ::setenv("SIMRUN_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(user_cache_dir(), fs::path("/some/where"));
  ::setenv("SIMRUN_CACHE_DIR", "off", 1);
  EXPECT_TRUE(user_cache_dir().empty());
  if (previous)
    ::setenv("SIMRUN_CACHE_DIR", restore.c_str(), 1);
  else
    ::unsetenv("SIMRUN_CACHE_DIR");
  EXPECT_NE(cache_build_id().find(' '), std::string::npos);  // commit and compiler
}

}  // namespace
}  // namespace simrun
