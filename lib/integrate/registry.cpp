#include <functional>

#include "core/name_registry.hpp"
#include "integrate/backward_euler.hpp"
#include "integrate/bdf2.hpp"
#include "integrate/exponential_rosenbrock_euler.hpp"
#include "integrate/forward_euler.hpp"
#include "integrate/generalized_alpha.hpp"
#include "integrate/implicit_midpoint.hpp"
#include "integrate/integrator.hpp"
#include "integrate/mssi.hpp"
#include "integrate/newmark.hpp"
#include "integrate/reversible_corotated.hpp"
#include "integrate/rk4.hpp"
#include "integrate/sdirk2.hpp"
#include "integrate/semi_implicit_euler.hpp"
#include "integrate/siere.hpp"
#include "integrate/str_sbdf2ere.hpp"
#include "integrate/symplectic_euler.hpp"
#include "integrate/tr_bdf2.hpp"
#include "integrate/trapezoidal.hpp"
#include "integrate/variational_alpha.hpp"
#include "integrate/velocity_verlet.hpp"

namespace simrun {

namespace {

using IntegratorFactory = std::function<std::unique_ptr<Integrator>(const IntegratorSettings&)>;

template <class T>
IntegratorFactory factory() {
  return [](const IntegratorSettings& s) { return std::make_unique<T>(s); };
}

/// The registry: one line per integrator.
const NameRegistry<IntegratorFactory>& registry() {
  static const NameRegistry<IntegratorFactory> entries(
      "integrator",
      {
          {"fe", factory<ForwardEuler>()},
          {"rk4", factory<RungeKutta4>()},
          {"symplectic_euler", factory<SymplecticEuler>()},
          {"verlet", factory<VelocityVerlet>()},
          {"si", factory<SemiImplicitEuler>()},
          {"be", factory<BackwardEuler>()},
          {"im", factory<ImplicitMidpoint>()},
          {"trapezoidal", factory<Trapezoidal>()},
          {"bdf2", factory<Bdf2>()},
          {"sbdf2", factory<Sbdf2>()},
          {"tr_bdf2", factory<TrBdf2>()},
          {"sdirk2", factory<Sdirk2>()},
          {"newmark", factory<Newmark>()},
          {"generalized_alpha", factory<GeneralizedAlpha>()},
          {"ere", factory<ExponentialRosenbrockEuler>()},
          {"siere", factory<Siere>()},
          {"sbdf2ere", factory<Sbdf2Ere>()},
          {"str_sbdf2ere", factory<StrSbdf2Ere>()},
          {"mssi", factory<MaterialStiffnessSemiImplicit>()},
          {"variational_midpoint",
           [](const IntegratorSettings& s) {
             return std::make_unique<VariationalAlpha>(s, 0.5, "variational_midpoint");
           }},
          {"reversible_corotated", factory<ReversibleCorotated>()},
          {"variational_alpha",
           [](const IntegratorSettings& s) {
             return std::make_unique<VariationalAlpha>(s, s.variational_alpha, "variational_alpha");
           }},
      });
  return entries;
}

}  // namespace

std::vector<std::string> integrator_names() { return registry().names(); }

std::unique_ptr<Integrator> make_integrator(std::string_view name,
                                            const IntegratorSettings& settings) {
  return registry().find(name)(settings);
}

}  // namespace simrun
