#include "scene/json_file.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

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

/// Finds keys written twice in one object, which nlohmann::json (like most parsers) would
/// silently resolve to the last value. Fed by the parser callback; tracks the JSON pointer.
class DuplicateKeyFinder {
 public:
  bool on_event(nlohmann::json::parse_event_t event, const nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start:
        m_frames.push_back({false, 0, {}, {}});
        break;
      case Event::array_start:
        m_frames.push_back({true, 0, {}, {}});
        break;
      case Event::key: {
        Frame& f = m_frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) m_duplicates.push_back({pointer_to_parent(), f.key});
        break;
      }
      case Event::object_end:
      case Event::array_end:
        m_frames.pop_back();
        [[fallthrough]];
      case Event::value:
        if (!m_frames.empty() && m_frames.back().array) ++m_frames.back().count;
        break;
    }
    return true;
  }
  /// (pointer of the object, key) pairs.
  const std::vector<std::pair<std::string, std::string>>& duplicates() const {
    return m_duplicates;
  }

 private:
  struct Frame {
    bool array;
    std::size_t count;  ///< arrays: elements completed so far = index of the current one
    std::set<std::string> keys;
    std::string key;  ///< objects: the current key
  };
  std::string pointer_to_parent() const {
    nlohmann::json::json_pointer p;
    for (std::size_t i = 0; i + 1 < m_frames.size(); ++i) {
      const Frame& f = m_frames[i];
      if (f.array)
        p /= f.count;
      else
        p /= f.key;
    }
    return p.to_string();
  }
  std::vector<Frame> m_frames;
  std::vector<std::pair<std::string, std::string>> m_duplicates;
};

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

  DuplicateKeyFinder finder;
  nlohmann::json result;
  try {
    result = nlohmann::json::parse(
        text, [&finder](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          return finder.on_event(event, parsed);
        });
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is the 1-based index of the last character read, i.e. the offending one.
    const std::size_t offending = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition p = text_position(text, offending);
    throw InputError(file.string() + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                     ": JSON syntax error: " + parse_error_detail(e.what()) +
                     line_with_caret(text, p));
  }
  if (!finder.duplicates().empty()) {
    std::string message;
    for (const auto& [object, key] : finder.duplicates())
      message.append(message.empty() ? "" : "\n")
          .append(file.string())
          .append(": ")
          .append(object.empty() ? std::string("(root)") : object)
          .append(": duplicate key '")
          .append(key)
          .append("' (only the last value would count)");
    throw InputError(message);
  }
  return result;
}

}  // namespace simrun
