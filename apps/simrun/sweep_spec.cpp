#include "sweep_spec.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "io/number_format.hpp"
#include "scene/json_file.hpp"
#include "scene/parse_scene.hpp"

namespace simrun::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::vector<std::string> kKeys = {"scene", "mode", "set", "parameters"};

/// One line of a sweep-file error: "FILE: /pointer: what".
[[noreturn]] void fail(const fs::path& file, const std::string& pointer, const std::string& what) {
  throw InputError(file.string() + ": " + pointer + ": " + what);
}

std::string found(const nlohmann::ordered_json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string(value.type_name()) + " " + text;
}

/// "/a~1b/c" -> {"a/b", "c"} (RFC 6901 unescaping). Throws json::exception on a malformed
/// pointer (no leading '/', '~' not followed by 0 or 1).
std::vector<std::string> reference_tokens(const std::string& pointer) {
  json::json_pointer checked(pointer);  // validates the syntax
  std::vector<std::string> tokens;
  while (!checked.empty()) {
    tokens.insert(tokens.begin(), checked.back());
    checked.pop_back();
  }
  return tokens;
}

/// A parameter's place in a message: its pointer as written, a key of "parameters".
std::string parameter_path(const std::string& pointer) { return "parameters \"" + pointer + "\""; }

/// A key of "set" or "parameters" must be a JSON pointer below the root, without '='.
void check_pointer(const fs::path& file, const std::string& where, const std::string& pointer) {
  try {
    if (pointer.empty() || reference_tokens(pointer).empty())
      throw std::invalid_argument("the whole scene");
  } catch (const std::exception&) {
    fail(file, where,
         "expected a JSON pointer into the scene such as \"/objects/0/material/E\", found \"" +
             pointer + "\"");
  }
  if (pointer.find('=') != std::string::npos)
    fail(file, where,
         "a pointer may not contain '=' (--set splits POINTER=VALUE at the first '=')");
}

/// Folder names must be unique: a second point whose values give the same text (values that
/// differ only in characters replaced by '-', or beyond the length limit) gets "~2", "~3", ...
void make_unique(std::vector<SweepPoint>& points) {
  std::set<std::string> taken;
  for (auto& point : points) {
    std::string name = point.name;
    for (int k = 2; !taken.insert(name).second; ++k) name = point.name + "~" + std::to_string(k);
    point.name = name;
  }
}

}  // namespace

std::vector<std::string> Sweep::overrides(const SweepPoint& point) const {
  std::vector<std::string> texts;
  for (const auto& setting : fixed) texts.push_back(setting.pointer + "=" + setting.value.dump());
  for (std::size_t i = 0; i < parameters.size(); ++i)
    texts.push_back(parameters[i].pointer + "=" + point.values.at(i).dump());
  return texts;
}

std::string value_name(const json& value) {
  std::string text;
  if (value.is_number_float()) {
    text = format_double(value.get<double>());
    // to_chars writes 1e+05 and 2.5e-07: drop the '+' and leading exponent zeros.
    const std::size_t e = text.find('e');
    if (e != std::string::npos) {
      std::string exponent = text.substr(e + 1);
      const bool negative = !exponent.empty() && exponent[0] == '-';
      if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
      exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
      text = text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
    }
  } else if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) text += '_';
      text += value_name(value[i]);
    }
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {  // {"box": {"cells": [4, 1, 1]}}
      if (!text.empty()) text += '_';                // -> "box-cells-4_1_1"
      text += key;
      text += '-';
      text += value_name(item);
    }
  } else {
    text = value.dump();  // integers, booleans, null
  }
  for (char& c : text) {
    const bool safe =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' || c == '_';
    if (!safe) c = '-';
  }
  if (text.empty()) text = "empty";         // "" and []
  if (text[0] == '.') text.insert(0, "v");  // no hidden folders
  // Long values (objects, long arrays) are cut; make_unique resolves collisions.
  if (text.size() > 40) text.resize(40);
  return text;
}

std::vector<std::string> short_names(const std::vector<std::string>& pointers) {
  std::vector<std::vector<std::string>> tokens;
  for (const auto& p : pointers) tokens.push_back(reference_tokens(p));
  std::vector<std::string> names(pointers.size());
  for (std::size_t depth = 1;; ++depth) {
    bool longest = true;
    for (std::size_t i = 0; i < pointers.size(); ++i) {
      const auto& t = tokens[i];
      const std::size_t n = std::min(depth, t.size());
      std::string name;
      for (std::size_t k = t.size() - n; k < t.size(); ++k) {
        if (!name.empty()) name += '.';
        name += t[k];
      }
      names[i] = value_name(json(name.empty() ? "root" : name));
      if (depth < t.size()) longest = false;
    }
    const std::set<std::string> distinct(names.begin(), names.end());
    if (distinct.size() == names.size() || longest) return names;
  }
}

namespace {

using ordered_json = nlohmann::ordered_json;

/// The sweep file parsed keeping the order of its keys, after read_json_file's checks.
ordered_json read_ordered(const fs::path& file) {
  read_json_file(file);  // syntax errors with line, column and caret; duplicate keys
  // Parsed again keeping the order of the keys: it orders the parameters (names, grid loops).
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return ordered_json::parse(text.str());
}

/// The root's keys, "scene" (an existing file) and "mode".
void read_scene_and_mode(const ordered_json& root, const fs::path& file, Sweep& sweep) {
  if (!root.is_object()) fail(file, "(root)", "expected an object, found " + found(root));
  for (const auto& [key, value] : root.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) continue;
    std::string hint = nearest_name(key, kKeys);
    fail(file, "/" + key,
         "unknown key (expected scene, mode, set, parameters)" +
             (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
  }
  if (!root.contains("scene")) fail(file, "/scene", "missing: the base scene file");
  if (!root["scene"].is_string() || root["scene"].get<std::string>().empty())
    fail(file, "/scene", "expected a scene file name, found " + found(root["scene"]));
  sweep.base_scene = (file.parent_path() / root["scene"].get<std::string>()).lexically_normal();
  if (!fs::is_regular_file(sweep.base_scene))
    fail(file, "/scene", "scene file " + sweep.base_scene.string() + " does not exist");

  sweep.mode = "grid";
  if (root.contains("mode")) {
    if (!root["mode"].is_string() || (root["mode"] != "grid" && root["mode"] != "zip"))
      fail(file, "/mode", "expected \"grid\" or \"zip\", found " + found(root["mode"]));
    sweep.mode = root["mode"].get<std::string>();
  }
}

/// "set": the settings every point shares.
void read_fixed(const ordered_json& root, const fs::path& file, Sweep& sweep) {
  if (!root.contains("set")) return;
  const auto& fixed = root["set"];
  if (!fixed.is_object())
    fail(file, "/set", "expected an object {\"/json/pointer\": value, ...}, found " + found(fixed));
  for (const auto& [pointer, value] : fixed.items()) {
    check_pointer(file, "set \"" + pointer + "\"", pointer);
    sweep.fixed.push_back({pointer, json::parse(value.dump())});
  }
}

/// "parameters": each pointer's values, and the parameters' short names.
void read_parameters(const ordered_json& root, const fs::path& file, Sweep& sweep) {
  if (!root.contains("parameters"))
    fail(file, "/parameters", "missing: an object {\"/json/pointer\": [values...], ...}");
  const auto& parameters = root["parameters"];
  if (!parameters.is_object() || parameters.empty())
    fail(file, "/parameters",
         "expected an object {\"/json/pointer\": [values...], ...} with at least one pointer, "
         "found " +
             found(parameters));
  std::vector<std::string> pointers;
  for (const auto& [pointer, values] : parameters.items()) {
    // The key itself is the parameter's pointer; in a message it is quoted as a key.
    const std::string where = parameter_path(pointer);
    check_pointer(file, where, pointer);
    if (std::any_of(sweep.fixed.begin(), sweep.fixed.end(),
                    [&](const SweepSetting& f) { return f.pointer == pointer; }))
      fail(file, where, "also in \"set\": a pointer is either fixed or a parameter");
    if (!values.is_array() || values.empty())
      fail(file, where, "expected a non-empty list of values, found " + found(values));
    SweepParameter parameter;
    parameter.pointer = pointer;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const json value = json::parse(values[i].dump());
      // A grid would run the same point twice (zip lists may repeat: see below).
      for (std::size_t j = 0; j < parameter.values.size() && sweep.mode == "grid"; ++j)
        if (parameter.values[j] == value)
          fail(file, where,
               "value " + value.dump() + " is listed twice (items " + std::to_string(j) + " and " +
                   std::to_string(i) + ")");
      parameter.values.push_back(value);
    }
    pointers.push_back(pointer);
    sweep.parameters.push_back(std::move(parameter));
  }
  const std::vector<std::string> names = short_names(pointers);
  for (std::size_t i = 0; i < names.size(); ++i) sweep.parameters[i].short_name = names[i];
}

/// Expansion: one list of value indices per point.
std::vector<std::vector<std::size_t>> value_combinations(const Sweep& sweep, const fs::path& file) {
  std::vector<std::vector<std::size_t>> combinations;
  const auto& first = sweep.parameters.front();
  if (sweep.mode == "zip") {
    for (const auto& p : sweep.parameters)
      if (p.values.size() != first.values.size())
        fail(file, parameter_path(p.pointer),
             "zip mode needs lists of equal length: " + std::to_string(p.values.size()) +
                 " value(s) here, " + std::to_string(first.values.size()) + " for " +
                 first.pointer);
    for (std::size_t i = 0; i < first.values.size(); ++i)
      combinations.push_back(std::vector<std::size_t>(sweep.parameters.size(), i));
  } else {
    combinations.push_back({});
    for (const auto& p : sweep.parameters) {
      std::vector<std::vector<std::size_t>> next;
      for (const auto& c : combinations)
        for (std::size_t i = 0; i < p.values.size(); ++i) {
          next.push_back(c);
          next.back().push_back(i);
        }
      combinations = std::move(next);
    }
  }
  return combinations;
}

/// The named points of the combinations; a point given twice is an error.
void add_points(const std::vector<std::vector<std::size_t>>& combinations, const fs::path& file,
                Sweep& sweep) {
  for (std::size_t k = 0; k < combinations.size(); ++k) {
    SweepPoint point;
    point.index = static_cast<int>(k);
    for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
      const json& value = sweep.parameters[i].values[combinations[k][i]];
      point.values.push_back(value);
      if (i > 0) point.name += '_';
      point.name += sweep.parameters[i].short_name;
      point.name += '=';
      point.name += value_name(value);
    }
    sweep.points.push_back(std::move(point));
  }
  for (std::size_t k = 0; k < sweep.points.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (sweep.points[j].values == sweep.points[k].values)
        fail(file, "/parameters",
             "zip items " + std::to_string(j) + " and " + std::to_string(k) +
                 " give the same point (" + sweep.points[k].name + ") twice");
}

}  // namespace

Sweep read_sweep(const fs::path& path) {
  Sweep sweep;
  sweep.file = fs::absolute(path).lexically_normal();
  const fs::path& file = sweep.file;
  const auto root = read_ordered(file);
  read_scene_and_mode(root, file, sweep);
  read_fixed(root, file, sweep);
  read_parameters(root, file, sweep);
  add_points(value_combinations(sweep, file), file, sweep);
  make_unique(sweep.points);
  return sweep;
}

std::vector<json> validate_sweep_points(const Sweep& sweep, const fs::path& out_dir) {
  std::vector<json> scenes;
  for (const auto& point : sweep.points) {
    const std::vector<std::string> overrides = sweep.overrides(point);
    try {
      json scene = load_normalized_scene(sweep.base_scene, overrides);
      scene["output"]["dir"] = (out_dir / point.name).string();
      scenes.push_back(std::move(scene));
    } catch (const InputError& e) {
      std::string sets;
      for (const auto& o : overrides) sets += " --set " + o;
      throw InputError(sweep.file.string() + ": point " + std::to_string(point.index) + " (" +
                       point.name + ") is rejected by the scene" + sets + ":\n" + e.what());
    }
  }
  return scenes;
}

}  // namespace simrun::app
