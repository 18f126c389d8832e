#pragma once
/// Token reader for the ASCII mesh formats: tracks file:line so every error names where it was.
/// Reads are bounded (docs/fuzzing.md): the file must be a regular file under a size cap, a line
/// is at most kMaxLineBytes, a NUL byte is an error, and what is reserved for a declared count
/// is capped at what the rest of the file can hold.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace simrun {

/// Size cap of a mesh file. The largest meshes simrun can solve on a workstation (~10^7 tets)
/// take ~500 MB as ASCII; 1 GiB leaves room and keeps a wrong file from exhausting memory.
constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t{1} << 30;
/// Longest line of a text input: a polygon of 10^4 vertices takes ~100 kB.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

/// Size of `path` in bytes, after checking that it is a regular file (not a folder, device or
/// pipe such as /dev/zero) of at most `max_bytes`. Throws InputError naming `kind` and the path.
std::uintmax_t checked_file_size(const std::filesystem::path& path, const std::string& kind,
                                 std::uintmax_t max_bytes);

class TextReader {
 public:
  /// Opens `path`; throws InputError naming `kind` and the path if it is missing, unreadable,
  /// not a regular file, or larger than `max_bytes`. `comment` starts a comment running to the
  /// end of the line ('\0' for none).
  explicit TextReader(const std::filesystem::path& path, char comment = '#',
                      const std::string& kind = "mesh file",
                      std::uintmax_t max_bytes = kMaxMeshFileBytes);

  /// Next token, reading further lines as needed; false at end of file.
  bool next_token(std::string& token);
  /// Next token; throws "expected <what>, found end of file" at the end.
  std::string token(const std::string& what);
  /// Drops the rest of the current line, then returns the tokens of the next non-empty line;
  /// empty at end of file.
  std::vector<std::string> next_line();
  /// Like next_line() but throws "expected <what>, found end of file" at the end.
  std::vector<std::string> line(const std::string& what);
  /// Drops the rest of the current line and `count` further non-empty lines.
  void skip_lines(long count, const std::string& what);

  /// Token parsed as an integer / an int / a finite number, else InputError naming file:line.
  long to_long(const std::string& token, const std::string& what) const;
  int to_int(const std::string& token, const std::string& what) const;
  double to_double(const std::string& token, const std::string& what) const;
  long read_long(const std::string& what) { return to_long(token(what), what); }
  double read_double(const std::string& what) { return to_double(token(what), what); }

  /// An upper bound on the tokens left: those of the current line not yet taken, plus one per
  /// two unread bytes (a token and its separator), plus one.
  std::uintmax_t max_tokens_left() const;
  /// `count` (>= 0) capped at the entries of `tokens_per_entry` tokens that the rest of the file
  /// can hold: what to reserve before reading `count` declared entries. A file that declares
  /// more than it holds then fails where it ends, as a truncated file does ("expected point 4 of
  /// 5, found end of file"), without allocating for the declared count.
  long entries_that_fit(long count, long tokens_per_entry) const;
  /// Throws "path:line: <count> <noun> are more than the rest of the file can hold (<n> bytes)"
  /// when `count` tokens cannot fit: for counts that are added or multiplied before use.
  void require_fits(long count, const std::string& noun) const;

  /// "path:line" of the last line read.
  std::string where() const;
  const std::filesystem::path& path() const { return m_path; }
  /// Throws InputError("path:line: message").
  [[noreturn]] void fail(const std::string& message) const;

 private:
  bool read_line();  ///< loads the next non-empty line into m_tokens; false at end of file
  bool read_physical_line(std::string& text);  ///< one line, bounded; false at end of file

  std::filesystem::path m_path;
  std::ifstream m_in;
  char m_comment;
  std::uintmax_t m_size = 0;      ///< file size when opened
  std::uintmax_t m_consumed = 0;  ///< bytes read so far
  long m_line = 0;
  std::vector<std::string> m_tokens;
  std::size_t m_next = 0;
};

}  // namespace simrun
