#pragma once
/// Reading JSON files with messages a user can act on.
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace simrun {

/// 1-based line and column of byte `offset` in `text` (columns count bytes).
struct TextPosition {
  int line = 1;
  int column = 1;
};
TextPosition text_position(const std::string& text, std::size_t offset);

/// Parses `file`. Throws InputError naming the path when it is missing or unreadable, and
/// "FILE:LINE:COLUMN: JSON syntax error: ..." with the offending line and a caret on bad syntax.
nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace simrun
