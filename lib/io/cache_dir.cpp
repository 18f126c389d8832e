#include "io/cache_dir.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <new>

#include "core/fnv1a.hpp"
#include "io/atomic_file.hpp"
#include "simrun/version.hpp"

namespace simrun {

namespace {

bool clean_build() {
  const std::string_view hash(kGitHash);
  return !hash.empty() && hash != "unknown" && hash.find("dirty") == std::string_view::npos;
}

std::uint64_t checksum(std::string_view payload) {
  Fnv1a h;
  h.bytes(payload.data(), payload.size());
  return h.value();
}

}  // namespace

std::filesystem::path user_cache_dir() {
  if (const char* dir = std::getenv("SIMRUN_CACHE_DIR"); dir && *dir) {
    const std::string_view value(dir);
    if (value == "off" || value == "none") return {};
    return dir;
  }
  if (!clean_build()) return {};
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "simrun";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "simrun";
  return {};
}

std::string cache_build_id() {
  std::string id = kGitHash;
  id += " ";
  id += __VERSION__;  // the compiler
#ifdef NDEBUG
  id += " NDEBUG";
#endif
#ifdef __OPTIMIZE__
  id += " optimized";
#endif
  return id;
}

std::filesystem::path cache_file(const std::filesystem::path& dir, const char* prefix,
                                 std::uint64_t key) {
  char name[32];
  std::snprintf(name, sizeof name, "-%016llx.bin", static_cast<unsigned long long>(key));
  return dir / (std::string(prefix) + name);
}

bool store_cache_file(const std::filesystem::path& file, std::string_view magic, std::uint64_t key,
                      std::string_view body) {
  try {
    std::string contents(magic);
    contents.append(reinterpret_cast<const char*>(&key), sizeof key);
    contents.append(body);
    const std::uint64_t sum = checksum(contents);
    contents.append(reinterpret_cast<const char*>(&sum), sizeof sum);
    std::filesystem::create_directories(file.parent_path());
    write_file_atomically(file, contents);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

std::optional<std::string> load_cache_file(const std::filesystem::path& file,
                                           std::string_view magic, std::uint64_t key,
                                           std::uintmax_t max_bytes) {
  const std::size_t header = magic.size() + sizeof key, trailer = sizeof(std::uint64_t);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size < header + trailer || size > max_bytes) return std::nullopt;
  try {
    std::ifstream in(file, std::ios::binary);
    std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (contents.size() != size) return std::nullopt;  // changed while reading
    std::uint64_t stored_sum = 0, stored_key = 0;
    std::memcpy(&stored_sum, contents.data() + size - trailer, trailer);
    contents.resize(size - trailer);
    if (checksum(contents) != stored_sum) return std::nullopt;
    std::memcpy(&stored_key, contents.data() + magic.size(), sizeof stored_key);
    if (std::string_view(contents).substr(0, magic.size()) != magic || stored_key != key)
      return std::nullopt;
    return contents.substr(header);
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

}  // namespace simrun
