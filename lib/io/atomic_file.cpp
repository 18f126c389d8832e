#include "io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/error.hpp"

namespace simrun {

std::filesystem::path temporary_path_for(const std::filesystem::path& path) {
  // The host name and process id keep processes that write the same file at once (a sweep
  // filling a shared cache, on one machine or on a cluster's shared file system) out of each
  // other's temporary file; the last rename wins, whole. (A stream, as string concatenation
  // here trips GCC 12's -Wrestrict false positive in basic_string.)
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::ostringstream name;
  name << '.' << path.filename().string() << '.' << host << '.' << ::getpid() << ".tmp";
  return path.parent_path() / name.str();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  const std::filesystem::path tmp = temporary_path_for(path);
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  if (file == nullptr) {
    throw InputError("cannot write '" + path.string() + "': " + std::strerror(errno));
  }
  const std::size_t written = std::fwrite(contents.data(), 1, contents.size(), file);
  const int write_errno = errno;
  const bool ok = written == contents.size() && std::fflush(file) == 0;
  const int close_result = std::fclose(file);
  if (!ok || close_result != 0) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("failed writing '" + path.string() +
                             "': " + std::strerror(ok ? errno : write_errno));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("failed replacing '" + path.string() + "': " + ec.message());
  }
}

}  // namespace simrun
