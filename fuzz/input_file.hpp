#pragma once
/// The fuzzed bytes as a file: simrun's readers take paths, as `simrun run` gives them. One
/// private folder per process (removed at exit), rewritten for every input.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace simrun::fuzz {

class InputFolder {
 public:
  InputFolder()
      : m_root(std::filesystem::temp_directory_path() /
               ("simrun_fuzz_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(m_root);
  }
  ~InputFolder() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  InputFolder(const InputFolder&) = delete;
  InputFolder& operator=(const InputFolder&) = delete;

  /// Writes `size` bytes to root/name and returns the path.
  std::filesystem::path write(const std::string& name, const std::uint8_t* data,
                              std::size_t size) const {
    const std::filesystem::path path = m_root / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
  }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    return write(name, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  }

 private:
  std::filesystem::path m_root;
};

/// The one folder of this process.
inline const InputFolder& input_folder() {
  static const InputFolder folder;
  return folder;
}

}  // namespace simrun::fuzz
