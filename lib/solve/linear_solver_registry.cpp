/// The linear solvers a scene can choose ("solver": {"type": ...}).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/name_registry.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

namespace {

using SolverFactoryMaker = std::function<LinearSolverFactory(const IterativeSolverSettings&)>;

const NameRegistry<SolverFactoryMaker>& registry() {
  static const NameRegistry<SolverFactoryMaker> entries(
      "linear solver",
      {
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
      });
  return entries;
}

}  // namespace

std::vector<std::string> linear_solver_names() { return registry().names(); }

LinearSolverFactory linear_solver_factory(std::string_view name,
                                          const IterativeSolverSettings& iterative) {
  return registry().find(name)(iterative);
}

}  // namespace simrun
