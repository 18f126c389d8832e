#include "sim/checkpoint.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace simrun {

namespace {

constexpr const char* kMagic = "simrun-checkpoint 1";

/// Arrays in file order: the header names them, the body holds them back to back.
struct ArrayList {
  nlohmann::json names = nlohmann::json::array();
  std::string body;
  void add(const std::string& name, const double* data, std::size_t n) {
    names.push_back({name, n});
    body.append(reinterpret_cast<const char*>(data), n * sizeof(double));
  }
};

}  // namespace

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  nlohmann::json header = {{"step", c.step},
                           {"t0", c.t0},
                           {"monitor_total0", c.monitor_total0},
                           {"systems", nlohmann::json::array()}};
  ArrayList arrays;
  arrays.add("monitor_changes", c.monitor_changes.data(), c.monitor_changes.size());
  for (size_t k = 0; k < c.systems.size(); ++k) {
    const SystemCheckpoint& s = c.systems[k];
    const std::string prefix = std::to_string(k) + ".";
    header["systems"].push_back({{"t", s.state.t},
                                 {"constrained", s.constrained},
                                 {"numbers", s.history.numbers},
                                 {"terms", s.terms}});
    arrays.add(prefix + "q", s.state.q.data(), static_cast<std::size_t>(s.state.q.size()));
    arrays.add(prefix + "v", s.state.v.data(), static_cast<std::size_t>(s.state.v.size()));
    for (const auto& [name, vector] : s.history.vectors)
      arrays.add(prefix + "history." + name, vector.data(),
                 static_cast<std::size_t>(vector.size()));
  }
  header["arrays"] = arrays.names;
  // dump() writes doubles with 17 significant digits: they read back to the same bits.
  write_file_atomically(path, std::string(kMagic) + "\n" + header.dump() + "\n" + arrays.body);
}

Checkpoint read_checkpoint(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": no checkpoint (run with --checkpoint-every N)");
  const auto fail = [&](const std::string& why) {
    return InputError(path.string() + ": not a readable simrun checkpoint (" + why + ")");
  };
  std::string magic, header_text;
  if (!std::getline(in, magic) || magic != kMagic) throw fail("no '" + std::string(kMagic) + "'");
  if (!std::getline(in, header_text)) throw fail("no header");
  const nlohmann::json header = nlohmann::json::parse(header_text, nullptr, false);
  if (header.is_discarded() || !header.is_object()) throw fail("bad header");
  const std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  try {
    Checkpoint c;
    c.file = path;
    c.step = header.at("step").get<long>();
    c.t0 = header.at("t0").get<double>();
    c.monitor_total0 = header.at("monitor_total0").get<double>();
    std::size_t offset = 0;
    std::map<std::string, std::vector<double>> arrays;
    for (const auto& entry : header.at("arrays")) {
      const std::string name = entry.at(0).get<std::string>();
      const std::size_t n = entry.at(1).get<std::size_t>();
      if (n > (body.size() - offset) / sizeof(double)) throw fail("truncated at " + name);
      std::vector<double> values(n);
      if (n > 0) std::memcpy(values.data(), body.data() + offset, n * sizeof(double));
      offset += n * sizeof(double);
      arrays[name] = std::move(values);
    }
    if (offset != body.size()) throw fail("trailing bytes");
    const auto vec = [&](const std::string& name) {
      const auto it = arrays.find(name);
      if (it == arrays.end()) throw fail("no array " + name);
      return VecX(
          Eigen::Map<const VecX>(it->second.data(), static_cast<Eigen::Index>(it->second.size())));
    };
    c.monitor_changes = arrays["monitor_changes"];
    const auto& systems = header.at("systems");
    for (size_t k = 0; k < systems.size(); ++k) {
      const std::string prefix = std::to_string(k) + ".";
      SystemCheckpoint s;
      s.state = {vec(prefix + "q"), vec(prefix + "v"), systems[k].at("t").get<double>()};
      s.constrained = systems[k].at("constrained").get<std::vector<int>>();
      s.history.numbers = systems[k].at("numbers").get<std::map<std::string, double>>();
      // Checkpoints written before terms had state have none.
      if (systems[k].contains("terms"))
        s.terms = systems[k].at("terms").get<std::map<std::string, double>>();
      const std::string history = prefix + "history.";
      for (const auto& [name, values] : arrays)
        if (name.compare(0, history.size(), history) == 0)
          s.history.vectors[name.substr(history.size())] = vec(name);
      c.systems.push_back(std::move(s));
    }
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw fail(e.what());
  }
}

}  // namespace simrun
