#include "io/cache_dir.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "io/atomic_file.hpp"

namespace simrun {

std::filesystem::path user_cache_dir() {
  if (const char* dir = std::getenv("SIMRUN_CACHE_DIR"); dir && *dir) {
    const std::string_view value(dir);
    if (value == "off" || value == "none") return {};
    return dir;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "simrun";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "simrun";
  return {};
}

std::filesystem::path cache_file(const std::filesystem::path& dir, const char* prefix,
                                 std::uint64_t key) {
  char name[32];
  std::snprintf(name, sizeof name, "-%016llx.bin", static_cast<unsigned long long>(key));
  return dir / (std::string(prefix) + name);
}

bool store_cache_file(const std::filesystem::path& file, std::string_view contents) {
  try {
    std::filesystem::create_directories(file.parent_path());
    write_file_atomically(file, contents);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace simrun
