#include "scene/scene_overrides.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "core/error.hpp"
#include "scene/json_file.hpp"

namespace simrun {

using nlohmann::json;

namespace {

/// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points
/// above U+10FFFF). JSON strings must be; nlohmann::json refuses to print any other.
bool is_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + n >= text.size()) return false;  // truncated sequence
    for (std::size_t k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return false;
    }
    i += n + 1;
  }
  return true;
}

/// `text` for a message: at most 60 characters, a NUL byte shown as \0.
std::string shown(const std::string& text) {
  std::string s;
  for (std::size_t i = 0; i < text.size() && i < 60; ++i)
    s += text[i] == '\0' ? "\\0" : std::string(1, text[i]);
  return text.size() > 60 ? s + "..." : s;
}

/// An array index as RFC 6901 writes it: digits, no leading zero, and small enough for stoul.
bool is_index(const std::string& token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), ::isdigit) &&
         (token == "0" || token[0] != '0') && token.size() < 10;
}

/// Follows the first `count` tokens from `root`: the value reached, or nullptr at the first step
/// that does not exist (an absent key; in an array, a token that is not an index in range; a
/// scalar in the way), with `reached` = the steps that exist. Unlike json::contains it never
/// throws: nlohmann 3.11 throws out_of_range for a token such as "" in an array.
json* walk(json& root, const std::vector<std::string>& tokens, std::size_t count,
           std::size_t& reached) {
  json* at = &root;
  for (reached = 0; reached < count; ++reached) {
    const std::string& token = tokens[reached];
    if (at->is_object()) {
      const auto it = at->find(token);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array() && is_index(token) && std::stoul(token) < at->size()) {
      at = &(*at)[std::stoul(token)];
    } else {
      return nullptr;
    }
  }
  return at;
}

}  // namespace

SceneOverride parse_override(const std::string& text) {
  // Checked before parsing: nlohmann would end the value at a NUL byte, refuses to print what is
  // not UTF-8, and deep nesting would overflow the stack of code that copies or prints the value.
  if (text.find('\0') != std::string::npos)
    throw InputError("--set " + shown(text) + ": unexpected NUL byte");
  if (!is_utf8(text)) throw InputError("--set " + shown(text) + ": expected UTF-8 text");
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) throw InputError("--set " + text + ": expected /json/pointer=VALUE");
  SceneOverride o;
  o.pointer = text.substr(0, eq);
  if (o.pointer.empty() || o.pointer[0] != '/')
    throw InputError("--set " + text + ": expected a JSON pointer starting with '/' before '='");
  const std::string value = text.substr(eq + 1);
  if (const auto problem = find_json_text_problem(value)) {
    throw InputError("--set " + shown(text) + ": " + problem->message + " (at character " +
                     std::to_string(problem->offset + 1) + " of VALUE)");
  }
  o.value = json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (o.value.is_discarded()) {
    // A bare word is a string (`/integrator/type=siere`); what was meant as JSON (an object, an
    // array, a quoted string, a number) and does not parse is an error, not a string.
    // JSON's number grammar (no leading zeros: "007" stays a string).
    static const std::regex number(R"(\s*-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\s*)");
    const std::size_t first = value.find_first_not_of(" \t");
    const bool meant_as_json = (first != std::string::npos &&
                                std::string("{[\"").find(value[first]) != std::string::npos) ||
                               std::regex_match(value, number);
    if (meant_as_json) {
      std::string why = "not valid JSON";
      try {
        const json parsed = json::parse(value);  // throws: the message says why
      } catch (const json::exception& e) {
        why = e.what();
        if (const std::size_t close = why.find("] "); close != std::string::npos)
          why = why.substr(close + 2);  // drop "[json.exception.parse_error.101] "
      }
      throw InputError(
          "--set " + shown(text) + ": VALUE is not valid JSON (" + why +
          "); a string without quotes is taken as it is only when it is not JSON-like");
    }
    o.value = value;
  }
  return o;
}

void apply_override(json& scene, const SceneOverride& o) {
  const std::string where = "--set " + o.pointer;
  json::json_pointer pointer;
  try {
    pointer = json::json_pointer(o.pointer);
  } catch (const json::exception& e) {
    throw InputError(where + ": malformed JSON pointer (use ~0 for '~' and ~1 for '/')");
  }
  if (pointer.empty()) throw InputError(where + ": cannot replace the whole scene");
  const json::json_pointer parent = pointer.parent_pointer();
  const std::string key = pointer.back();
  const std::string parent_text = parent.empty() ? "(root)" : parent.to_string();
  std::vector<std::string> tokens;
  for (json::json_pointer p = pointer; !p.empty(); p.pop_back()) tokens.push_back(p.back());
  std::reverse(tokens.begin(), tokens.end());
  std::size_t reached = 0;
  json* found = walk(scene, tokens, tokens.size() - 1, reached);
  if (found == nullptr) {
    // Name the first missing step, e.g. /objects/3 of /objects/3/material.
    json::json_pointer missing;
    for (std::size_t i = 0; i <= reached; ++i) missing /= tokens[i];
    std::size_t steps = 0;
    const json& holder = *walk(scene, tokens, reached, steps);
    std::string detail;
    if (holder.is_array()) detail = " is an array of " + std::to_string(holder.size()) + " item(s)";
    throw InputError(where + ": " + missing.to_string() + " does not exist in the scene" +
                     (detail.empty() ? ""
                                     : "; " +
                                           (missing.parent_pointer().empty()
                                                ? std::string("(root)")
                                                : missing.parent_pointer().to_string()) +
                                           detail));
  }

  json& target = *found;
  if (target.is_object()) {
    target[key] = o.value;
  } else if (target.is_array()) {
    if (key == "-") {
      target.push_back(o.value);
      return;
    }
    if (!is_index(key) || std::stoul(key) >= target.size())
      throw InputError(where + ": " + parent_text + " is an array of " +
                       std::to_string(target.size()) + " item(s); expected an index 0.." +
                       std::to_string(static_cast<long>(target.size()) - 1) +
                       " or '-' to append, found '" + key + "'");
    target[std::stoul(key)] = o.value;
  } else {
    throw InputError(where + ": " + parent_text + " is a " + target.type_name() +
                     ", not an object or array");
  }
}

void apply_overrides(json& scene, const std::vector<std::string>& overrides) {
  for (const auto& text : overrides) apply_override(scene, parse_override(text));
}

}  // namespace simrun
