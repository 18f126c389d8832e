#include "scene/json_file.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.hpp"

namespace simrun {

TextPosition text_position(const std::string& text, std::size_t offset) {
  TextPosition p;
  const std::size_t end = std::min(offset, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

namespace {

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 3,
/// column 5: " prefix, which we replace by our own FILE:LINE:COLUMN.
std::string parse_error_detail(const std::string& what) {
  const std::size_t column = what.find("column ");
  const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

std::string line_with_caret(const std::string& text, const TextPosition& p) {
  std::size_t begin = 0;
  for (int line = 1; line < p.line && begin != std::string::npos; ++line) {
    begin = text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos || begin >= text.size()) return "";
  std::string line = text.substr(begin, text.find('\n', begin) - begin);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > 200) return "";
  std::string caret(static_cast<std::size_t>(std::max(0, p.column - 1)), ' ');
  for (std::size_t i = 0; i < caret.size() && i < line.size(); ++i)
    if (line[i] == '\t') caret[i] = '\t';
  return "\n  " + line + "\n  " + caret + "^";
}

}  // namespace

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw InputError(file.string() + ": file not found");
  if (std::filesystem::is_directory(file, ec))
    throw InputError(file.string() + ": is a folder, expected a JSON file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(file.string() + ": read error");
  const std::string text = buffer.str();

  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the 1-based index of the last character read, i.e. the offending one.
    const std::size_t offending = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition p = text_position(text, offending);
    throw InputError(file.string() + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                     ": JSON syntax error: " + parse_error_detail(e.what()) +
                     line_with_caret(text, p));
  }
}

}  // namespace simrun
