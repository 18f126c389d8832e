#include "scene/scene_extends.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "scene/json_file.hpp"

namespace simrun {

namespace fs = std::filesystem;
using nlohmann::json;

json merge_json(json base, const json& child) {
  if (!base.is_object() || !child.is_object()) return child;
  for (const auto& [key, value] : child.items()) {
    auto it = base.find(key);
    if (it != base.end() && it->is_object() && value.is_object())
      *it = merge_json(std::move(*it), value);
    else
      base[key] = value;
  }
  return base;
}

namespace {

void make_absolute(json& node, const char* key, const fs::path& folder) {
  if (!node.is_object()) return;
  auto it = node.find(key);
  if (it == node.end() || !it->is_string()) return;
  const fs::path p = it->get<std::string>();
  if (p.empty() || p.is_absolute()) return;
  *it = (folder / p).lexically_normal().string();
}

json read_chain(const fs::path& file, std::vector<fs::path>& chain) {
  const fs::path absolute = fs::absolute(file).lexically_normal();
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  const fs::path identity = ec ? absolute : canonical;
  if (std::find(chain.begin(), chain.end(), identity) != chain.end()) {
    std::string cycle;
    for (const auto& p : chain) cycle += p.string() + " -> ";
    throw InputError(chain.back().string() + ": /extends: cycle of extended scenes: " + cycle +
                     identity.string());
  }
  chain.push_back(identity);

  json scene = read_json_file(absolute);
  if (!scene.is_object())
    throw InputError(absolute.string() + ": expected a JSON object at the top level, found " +
                     std::string(scene.type_name()));
  const fs::path folder = absolute.parent_path();
  resolve_scene_paths(scene, folder);

  if (auto it = scene.find("extends"); it != scene.end()) {
    if (!it->is_string() || it->get<std::string>().empty())
      throw InputError(absolute.string() + ": /extends: expected the path of a scene file, found " +
                       it->dump());
    const fs::path base_file = (folder / it->get<std::string>()).lexically_normal();
    if (!fs::exists(base_file, ec))
      throw InputError(absolute.string() + ": /extends: file not found: " + base_file.string());
    if (!fs::is_regular_file(base_file, ec) && !fs::is_fifo(base_file, ec))
      throw InputError(absolute.string() + ": /extends: " + base_file.string() +
                       " is not a regular file or pipe (a folder or device?), expected a scene " +
                       "file");
    // Bounded recursion; real scenes extend one or two others.
    if (chain.size() >= kMaxExtendsChain)
      throw InputError(absolute.string() + ": /extends: more than " +
                       std::to_string(kMaxExtendsChain) + " scene files extend each other");
    scene.erase(it);
    scene = merge_json(read_chain(base_file, chain), scene);
  }
  chain.pop_back();
  return scene;
}

}  // namespace

void resolve_scene_paths(json& scene, const fs::path& folder) {
  if (!scene.is_object()) return;
  if (auto objects = scene.find("objects"); objects != scene.end() && objects->is_array())
    for (auto& object : *objects)
      if (object.is_object()) {
        if (object.contains("mesh")) make_absolute(object["mesh"], "file", folder);
        if (auto reference = object.find("reference");
            reference != object.end() && reference->is_object() && reference->contains("mesh"))
          make_absolute((*reference)["mesh"], "file", folder);
        if (object.contains("material")) make_absolute(object["material"], "E_file", folder);
      }
  if (auto obstacles = scene.find("obstacles"); obstacles != scene.end() && obstacles->is_array())
    for (auto& obstacle : *obstacles)
      if (obstacle.is_object() && obstacle.contains("mesh"))
        make_absolute(obstacle["mesh"], "file", folder);
}

json read_scene_with_extends(const fs::path& file) {
  std::vector<fs::path> chain;
  return read_chain(file, chain);
}

}  // namespace simrun
