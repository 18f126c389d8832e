#pragma once
/// Token reader for the ASCII mesh formats: tracks file:line so every error names where it was.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace simrun {

class TextReader {
 public:
  /// Opens `path`; throws InputError naming the path if it is missing or unreadable.
  /// `comment` starts a comment running to the end of the line ('\0' for none).
  explicit TextReader(const std::filesystem::path& path, char comment = '#');

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

  /// Token parsed as an integer / a finite number, else InputError naming file:line.
  long to_long(const std::string& token, const std::string& what) const;
  double to_double(const std::string& token, const std::string& what) const;
  long read_long(const std::string& what) { return to_long(token(what), what); }
  double read_double(const std::string& what) { return to_double(token(what), what); }

  /// "path:line" of the last line read.
  std::string where() const;
  const std::filesystem::path& path() const { return m_path; }
  /// Throws InputError("path:line: message").
  [[noreturn]] void fail(const std::string& message) const;

 private:
  bool read_line();  ///< loads the next non-empty line into m_tokens; false at end of file

  std::filesystem::path m_path;
  std::ifstream m_in;
  char m_comment;
  long m_line = 0;
  std::vector<std::string> m_tokens;
  std::size_t m_next = 0;
};

}  // namespace simrun
