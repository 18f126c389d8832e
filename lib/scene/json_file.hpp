#pragma once
/// Reading JSON files with messages a user can act on.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace simrun {

/// 1-based line and column of byte `offset` in `text` (columns count bytes).
struct TextPosition {
  int line = 1;
  int column = 1;
};
TextPosition text_position(const std::string& text, std::size_t offset);

/// Size cap of a scene file and of each file it extends: real scenes are a few kB.
constexpr std::uintmax_t kMaxSceneFileBytes = std::uintmax_t{16} << 20;
/// Deepest nesting of arrays and objects in scene JSON: real scenes nest about 6 levels. Copying,
/// comparing, merging and printing a parsed value recurse, so deeper text is refused unparsed.
constexpr int kMaxJsonDepth = 64;

/// A problem found in JSON text before parsing it: where (byte offset) and what.
struct JsonTextProblem {
  std::size_t offset = 0;
  std::string message;
};

/// The first NUL byte (nlohmann's parser takes one for the end of the input and would ignore
/// what follows) or the first bracket that opens a level deeper than kMaxJsonDepth (counted
/// outside strings) in `text`; nothing when there is neither.
std::optional<JsonTextProblem> find_json_text_problem(const std::string& text);

/// Parses JSON `text` read from `source` (a path, for messages), rejecting duplicate keys and
/// what find_json_text_problem() finds. Throws InputError "SOURCE:LINE:COLUMN: ..." (with the
/// offending line and a caret for a syntax error), and "SOURCE:LINE:COLUMN: /json/pointer:
/// number out of the range of a double: TOKEN" for a number such as 1e400.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

/// Reads and parses `file` (parse_json_text). Throws InputError naming the path when it is
/// missing, a folder or not a regular file (a device such as /dev/zero), larger than
/// kMaxSceneFileBytes, or unreadable.
nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace simrun
