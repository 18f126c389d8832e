#include "sim/energy_table.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace simrun {

namespace {

/// The interface contract's momentum columns, after total.
constexpr const char* kMomentumColumns[] = {"px", "py", "pz", "lx", "ly", "lz"};
constexpr const char* kFrictionDissipated = "friction_dissipated";

/// Energies summed by name in first-seen order.
std::vector<std::pair<std::string, double>> grouped(const Model& model, const VecX& q,
                                                    const VecX& v) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& entry : model.energies(q, v)) {
    const std::string& name = entry.first;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
    if (it == out.end()) {
      out.push_back(entry);
    } else {
      it->second += entry.second;
    }
  }
  return out;
}

/// Whether the header of the CSV file at `path` names `column` (false when there is no file).
bool first_line_has(const std::filesystem::path& path, const std::string& column) {
  std::ifstream in(path);
  std::string header;
  if (!std::getline(in, header)) return false;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = header.find(',', start);
    if (header.substr(start, comma - start) == column) return true;
    if (comma == std::string::npos) return false;
    start = comma + 1;
  }
}

}  // namespace

EnergyTable::EnergyTable(const std::filesystem::path& path, const Model& model, const VecX& q,
                         const VecX& v, long resume_step, bool adaptive, bool discrete_energy)
    : m_adaptive(adaptive), m_discrete(discrete_energy) {
  std::vector<std::string> columns = {"step", "t"};
  for (const auto& entry : grouped(model, q, v)) {
    columns.push_back(entry.first);
    if (entry.first == "friction") m_friction = true;
  }
  columns.push_back("total");
  for (const char* name : kMomentumColumns) columns.emplace_back(name);
  if (adaptive) columns.insert(columns.end(), {"h", "lambda"});
  if (discrete_energy) columns.emplace_back("discrete_energy");
  if (m_friction && resume_step >= 0 && std::filesystem::exists(path) &&
      !first_line_has(path, kFrictionDissipated))
    m_friction = false;  // a run started before the column existed: continued without it
  if (m_friction) columns.emplace_back(kFrictionDissipated);
  m_csv = std::make_unique<CsvWriter>(
      resume_step >= 0 ? CsvWriter::resumed(path, columns, resume_step) : CsvWriter(path, columns));
  if (m_friction && resume_step >= 0) {
    const double carried = m_csv->resumed_value(kFrictionDissipated);
    if (std::isfinite(carried)) m_friction_dissipated = carried;
  }
}

EnergyRow EnergyTable::measure(const Model& model, const VecX& q, const VecX& v) {
  EnergyRow row;
  for (const auto& entry : grouped(model, q, v)) {
    row.values.push_back(entry.second);
    // The lagged friction potential is a dissipation potential of the step, not stored energy.
    if (entry.first != "friction") row.total += entry.second;
  }
  row.momentum = model.momentum(q, v);
  return row;
}

void EnergyTable::write(int step, double t, const EnergyRow& energies, double h, double lambda,
                        double discrete) {
  std::vector<double> row = {static_cast<double>(step), t};
  row.insert(row.end(), energies.values.begin(), energies.values.end());
  row.push_back(energies.total);
  for (int k = 0; k < 3; ++k) row.push_back(energies.momentum.linear[k]);
  for (int k = 0; k < 3; ++k) row.push_back(energies.momentum.angular[k]);
  if (m_adaptive) row.insert(row.end(), {h, lambda});
  if (m_discrete) row.push_back(discrete);
  if (m_friction) row.push_back(m_friction_dissipated);
  m_csv->row(row);
}

}  // namespace simrun
