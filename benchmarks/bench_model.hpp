#pragma once
/// Shared benchmark fixture: a linear-elastic bar of ~49k tets (box [5,1,1], 50x14x14 cubes,
/// 5-split), optionally fixed at its -x end. Mirrors tests/model/model_fixture.hpp (which the
/// benchmarks must not include).
#include <dlfcn.h>

#include <memory>
#include <utility>
#include <vector>

#include "core/parallel.hpp"
#include "fem/tet_elements.hpp"
#include "material/lame.hpp"
#include "material/linear_elastic.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/model.hpp"

namespace simrun::bench {

inline constexpr double kDensity = 1000.0;

/// n threads for simrun's OpenMP loops and for OpenBLAS (when it is the BLAS): what
/// `--threads n` gives a run (CHOLMOD's own OpenMP regions follow OMP_THREAD_LIMIT, which
/// scripts/bench.sh sets to the core count).
inline void use_threads(int n) {
  set_thread_count(n);
  using Setter = void (*)(int);
  if (auto set = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(n);
}
inline const Eigen::Vector3i kBarCells(50, 14, 14);

struct Bar {
  TetMesh mesh;
  TetElements elements;
  std::vector<int> fixed;  ///< vertices on the x = 0 face
};

inline Bar make_bar() {
  Bar b;
  b.mesh = make_box(Vec3(5.0, 1.0, 1.0), kBarCells, 5);
  b.elements = precompute_tet_elements(b.mesh.vertices, b.mesh.tets);
  const int nx = kBarCells(0), ny = kBarCells(1), nz = kBarCells(2);
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j) b.fixed.push_back((nx + 1) * (j + (ny + 1) * k));
  return b;
}

/// The given material, E = 1e6, nu = 0.3.
inline std::unique_ptr<ElasticEnergy> make_elastic(const Bar& b,
                                                   std::shared_ptr<const Material> material) {
  return std::make_unique<ElasticEnergy>(
      b.elements, std::move(material),
      std::vector<LameParameters>(b.mesh.num_tets(), lame_from_young_poisson(1e6, 0.3)),
      b.mesh.num_vertices());
}

/// Linear material, E = 1e6, nu = 0.3.
inline std::unique_ptr<ElasticEnergy> make_elastic(const Bar& b) {
  return make_elastic(b, std::make_shared<LinearElastic>());
}

/// The bar fixed at its -x end: lumped mass, Rayleigh damping beta (stiffness at rest).
inline std::unique_ptr<Model> make_bar_model(
    const Bar& b, double beta,
    std::shared_ptr<const Material> material = std::make_shared<LinearElastic>()) {
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(make_elastic(b, std::move(material)));
  const VecX density = VecX::Constant(b.mesh.num_tets(), kDensity);
  RayleighDamping damping;
  damping.stiffness = beta;
  damping.stiffness_at_rest = true;
  return std::make_unique<Model>(b.mesh.vertices, b.elements, density, /*lumped_mass=*/true,
                                 DofMap(b.mesh.num_vertices(), b.fixed), std::move(terms), damping);
}

}  // namespace simrun::bench
