#include "mesh/text_reader.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace simrun {

TextReader::TextReader(const std::filesystem::path& path, char comment)
    : m_path(path), m_comment(comment) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError("mesh file '" + path.string() + "' does not exist or is not a regular file");
  m_in.open(path, std::ios::binary);
  if (!m_in) throw InputError("cannot open mesh file '" + path.string() + "' for reading");
}

bool TextReader::read_line() {
  std::string text;
  while (std::getline(m_in, text)) {
    ++m_line;
    if (m_comment != '\0') {
      auto pos = text.find(m_comment);
      if (pos != std::string::npos) text.resize(pos);
    }
    std::istringstream words(text);
    m_tokens.clear();
    m_next = 0;
    for (std::string w; words >> w;) m_tokens.push_back(w);
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
  long value = std::strtol(token.c_str(), &end, 10);
  if (token.empty() || *end != '\0' || errno == ERANGE)
    fail("expected " + what + " (an integer), found '" + token + "'");
  return value;
}

double TextReader::to_double(const std::string& token, const std::string& what) const {
  char* end = nullptr;
  double value = std::strtod(token.c_str(), &end);
  if (token.empty() || *end != '\0' || !std::isfinite(value))
    fail("expected " + what + " (a finite number), found '" + token + "'");
  return value;
}

std::string TextReader::where() const { return m_path.string() + ":" + std::to_string(m_line); }

void TextReader::fail(const std::string& message) const {
  throw InputError(where() + ": " + message);
}

}  // namespace simrun
