#include "mesh/text_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace simrun {

std::uintmax_t checked_file_size(const std::filesystem::path& path, const std::string& kind,
                                 std::uintmax_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(kind + " '" + path.string() + "' does not exist or is not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError("cannot read the size of " + kind + " '" + path.string() + "'");
  if (size > max_bytes) {
    throw InputError(kind + " '" + path.string() + "': " + std::to_string(size) +
                     " bytes, more than the limit of " + std::to_string(max_bytes) +
                     " bytes for a " + kind);
  }
  return size;
}

TextReader::TextReader(const std::filesystem::path& path, char comment, const std::string& kind,
                       std::uintmax_t max_bytes)
    : m_path(path), m_comment(comment) {
  m_size = checked_file_size(path, kind, max_bytes);
  m_in.open(path, std::ios::binary);
  if (!m_in) throw InputError("cannot open " + kind + " '" + path.string() + "' for reading");
}

bool TextReader::read_physical_line(std::string& text) {
  text.clear();
  std::streambuf* buffer = m_in.rdbuf();
  ++m_line;
  for (bool any = false;; any = true) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      if (!any) --m_line;  // no line at all
      return any;
    }
    // A file that grows while it is read (or a /proc file reporting size 0) is cut at the size
    // it had when opened, which the counts were checked against.
    if (++m_consumed > m_size)
      fail("the file is longer than the " + std::to_string(m_size) + " bytes it had when opened");
    if (c == '\n') return true;
    if (c == '\0') fail("unexpected NUL byte (expected text; is this a binary file?)");
    if (text.size() >= kMaxLineBytes)
      fail("line longer than " + std::to_string(kMaxLineBytes) + " bytes (expected text lines)");
    text.push_back(static_cast<char>(c));
  }
}

bool TextReader::read_line() {
  std::string text;
  while (read_physical_line(text)) {
    if (m_comment != '\0') {
      auto pos = text.find(m_comment);
      if (pos != std::string::npos) text.resize(pos);
    }
    m_tokens.clear();
    m_next = 0;
    const char* space = " \t\r\v\f";
    for (std::size_t begin = text.find_first_not_of(space); begin != std::string::npos;) {
      const std::size_t end = text.find_first_of(space, begin);
      m_tokens.push_back(text.substr(begin, end - begin));
      begin = end == std::string::npos ? end : text.find_first_not_of(space, end);
    }
    if (!m_tokens.empty()) return true;
  }
  m_tokens.clear();
  m_next = 0;
  return false;
}

bool TextReader::next_token(std::string& token) {
  while (m_next >= m_tokens.size()) {
    if (!read_line()) return false;
  }
  token = m_tokens[m_next++];
  return true;
}

std::string TextReader::token(const std::string& what) {
  std::string t;
  if (!next_token(t)) fail("expected " + what + ", found end of file");
  return t;
}

std::vector<std::string> TextReader::next_line() {
  if (!read_line()) return {};
  m_next = m_tokens.size();  // the caller consumes the whole line
  return m_tokens;
}

std::vector<std::string> TextReader::line(const std::string& what) {
  auto tokens = next_line();
  if (tokens.empty()) fail("expected " + what + ", found end of file");
  return tokens;
}

void TextReader::skip_lines(long count, const std::string& what) {
  m_next = m_tokens.size();
  for (long i = 0; i < count; ++i) line(what);
}

long TextReader::to_long(const std::string& token, const std::string& what) const {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(token.c_str(), &end, 10);
  if (token.empty() || end != token.c_str() + token.size() || errno == ERANGE)
    fail("expected " + what + " (an integer), found '" + token + "'");
  return value;
}

int TextReader::to_int(const std::string& token, const std::string& what) const {
  const long value = to_long(token, what);
  if (value < INT_MIN || value > INT_MAX) {
    fail("expected " + what + " (an integer from " + std::to_string(INT_MIN) + " to " +
         std::to_string(INT_MAX) + "), found '" + token + "'");
  }
  return static_cast<int>(value);
}

double TextReader::to_double(const std::string& token, const std::string& what) const {
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size() || !std::isfinite(value))
    fail("expected " + what + " (a finite number), found '" + token + "'");
  return value;
}

std::uintmax_t TextReader::max_tokens_left() const {
  const std::uintmax_t unread = m_size > m_consumed ? m_size - m_consumed : 0;
  return (m_tokens.size() - m_next) + unread / 2 + 1;
}

long TextReader::entries_that_fit(long count, long tokens_per_entry) const {
  const std::uintmax_t fit =
      max_tokens_left() / static_cast<std::uintmax_t>(std::max(1L, tokens_per_entry));
  return count <= 0 ? 0 : static_cast<long>(std::min(static_cast<std::uintmax_t>(count), fit));
}

void TextReader::require_fits(long count, const std::string& noun) const {
  if (count >= 0 && static_cast<std::uintmax_t>(count) > max_tokens_left()) {
    fail(std::to_string(count) + " " + noun + " are more than the rest of the file can hold (" +
         std::to_string(m_size - std::min(m_size, m_consumed)) + " bytes)");
  }
}

std::string TextReader::where() const {
  // An empty file ends on its first line.
  return m_path.string() + ":" + std::to_string(std::max(m_line, 1L));
}

void TextReader::fail(const std::string& message) const {
  throw InputError(where() + ": " + message);
}

}  // namespace simrun
