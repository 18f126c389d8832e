#pragma once
/// energy.csv rows: step, t, kinetic, one column per potential term name (terms sharing a name,
/// e.g. the elastic energies of several objects, are summed), total.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/csv_writer.hpp"
#include "model/model.hpp"

namespace simrun {

class EnergyTable {
 public:
  EnergyTable(const std::filesystem::path& path, const Model& model, const VecX& q, const VecX& v);
  /// Appends a row and returns the total energy.
  double write(int step, double t, const Model& model, const VecX& q, const VecX& v);
  /// Total energy without writing.
  static double total(const Model& model, const VecX& q, const VecX& v);

 private:
  std::vector<std::string> m_names;  ///< energy columns after step,t (without total)
  std::unique_ptr<CsvWriter> m_csv;
};

}  // namespace simrun
