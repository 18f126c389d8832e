#include "scene/json_file.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
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
  /// JSON pointer of the value being parsed (the last key or array index seen at each level).
  std::string current_pointer() const {
    nlohmann::json::json_pointer p;
    for (const Frame& f : m_frames) {
      if (f.array)
        p /= f.count;
      else
        p /= f.key;
    }
    return p.to_string();
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

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/// Follows a JSON text character by character to tell string contents from structure.
class JsonStringTracker {
 public:
  /// Consumes `c`; true when it lies outside every string (and is not a string's quote).
  bool outside(char c) {
    if (m_in_string) {
      if (m_escaped)
        m_escaped = false;
      else if (c == '\\')
        m_escaped = true;
      else if (c == '"')
        m_in_string = false;
      return false;
    }
    if (c == '"') m_in_string = true;
    return !m_in_string;
  }

 private:
  bool m_in_string = false, m_escaped = false;
};

/// Offset of the first number token (outside strings) that is not finite as a double.
std::optional<std::size_t> find_overflowing_number(const std::string& text) {
  JsonStringTracker strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!strings.outside(c)) continue;
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i;
      while (end < text.size() && is_number_char(text[end])) ++end;
      if (!std::isfinite(std::strtod(text.substr(i, end - i).c_str(), nullptr))) return i;
      i = end - 1;
    }
  }
  return std::nullopt;
}

std::string at(const std::string& source, const std::string& text, std::size_t offset) {
  const TextPosition p = text_position(text, offset);
  return source + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

}  // namespace

std::optional<JsonTextProblem> find_json_text_problem(const std::string& text) {
  int depth = 0;
  JsonStringTracker strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0')
      return JsonTextProblem{i, "unexpected NUL byte (JSON text has none; is this a binary file?)"};
    if (!strings.outside(c)) continue;
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        return JsonTextProblem{i, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                      " levels (arrays and objects inside each other); a scene "
                                      "needs about 6"};
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  if (const auto problem = find_json_text_problem(text))
    throw InputError(at(source, text, problem->offset) + ": " + problem->message);

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
    throw InputError(at(source, text, offending) + ": JSON syntax error: " +
                     parse_error_detail(e.what()) + line_with_caret(text, p));
  } catch (const nlohmann::json::out_of_range& e) {
    // 406, a number beyond a double (1e400). The exception has no position; the parser callback
    // has seen the key or index of the value, and the first such number in the text is the one.
    const std::string what = e.what();
    const std::size_t quote = what.find('\'');
    const std::string token =
        quote == std::string::npos ? what : what.substr(quote + 1, what.rfind('\'') - quote - 1);
    const auto offset = find_overflowing_number(text);
    const std::string pointer = finder.current_pointer();
    throw InputError((offset ? at(source, text, *offset) : source) + ": " +
                     (pointer.empty() ? std::string("(root)") : pointer) +
                     ": number out of the range of a double: " + token);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": JSON error: " + e.what());
  }
  if (!finder.duplicates().empty()) {
    std::string message;
    for (const auto& [object, key] : finder.duplicates())
      message.append(message.empty() ? "" : "\n")
          .append(source)
          .append(": ")
          .append(object.empty() ? std::string("(root)") : object)
          .append(": duplicate key '")
          .append(key)
          .append("' (only the last value would count)");
    throw InputError(message);
  }
  return result;
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) throw InputError(file.string() + ": file not found");
  if (std::filesystem::is_directory(file, ec))
    throw InputError(file.string() + ": is a folder, expected a JSON file");
  // A pipe is welcome (`simrun run <(generate_scene)`): its read is bounded below like a file's.
  // Devices (/dev/zero) and sockets are not scene files.
  const bool pipe = std::filesystem::is_fifo(file, ec);
  if (!pipe && !std::filesystem::is_regular_file(file, ec))
    throw InputError(file.string() + ": not a regular file or pipe (a device or socket?), " +
                     "expected a JSON file");
  const std::uintmax_t size = pipe ? 0 : std::filesystem::file_size(file, ec);
  const auto too_big = [&](std::uintmax_t bytes) {
    return InputError(file.string() + ": " + std::to_string(bytes) +
                      " bytes, more than the limit of " + std::to_string(kMaxSceneFileBytes) +
                      " bytes for a JSON scene file");
  };
  if (ec) throw InputError(file.string() + ": cannot read the file size");
  if (size > kMaxSceneFileBytes) throw too_big(size);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot open for reading");
  // Bounded even if the file grows after its size was taken (or reports none, as /proc does).
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxSceneFileBytes) throw too_big(text.size());
  }
  if (in.bad()) throw InputError(file.string() + ": read error");
  return parse_json_text(text, file.string());
}

}  // namespace simrun
