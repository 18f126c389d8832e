/// The linear solvers a scene can choose ("solver": {"type": ...}).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/string_distance.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

namespace {

struct RegisteredSolver {
  const char* name;
  std::function<LinearSolverFactory(const IterativeSolverSettings&)> make;
};

const std::vector<RegisteredSolver>& registry() {
  static const std::vector<RegisteredSolver> entries = {
      {"cholmod",
       [](const IterativeSolverSettings&) -> LinearSolverFactory {
         return [] { return make_cholmod_solver(); };
       }},
      {"pcg",
       [](const IterativeSolverSettings& settings) -> LinearSolverFactory {
         return [settings] { return make_pcg_solver(settings); };
       }},
      // Its bases come from the scene's meshes: scene/multilevel_factory makes it.
      {"multilevel",
       [](const IterativeSolverSettings&) -> LinearSolverFactory {
         return []() -> std::unique_ptr<LinearSolver> {
           throw std::logic_error(
               "the multilevel solver is made by the scene factory (it needs the meshes)");
         };
       }},
  };
  return entries;
}

}  // namespace

std::vector<std::string> linear_solver_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.emplace_back(entry.name);
  return names;
}

LinearSolverFactory linear_solver_factory(std::string_view name,
                                          const IterativeSolverSettings& iterative) {
  for (const auto& entry : registry()) {
    if (name == entry.name) return entry.make(iterative);
  }
  std::string message = "unknown linear solver '" + std::string(name) + "' (available:";
  for (const auto& n : linear_solver_names()) message += " " + n;
  message += ")";
  if (auto near = nearest_name(name, linear_solver_names()); !near.empty())
    message += "; did you mean '" + near + "'?";
  throw InputError(message);
}

}  // namespace simrun
