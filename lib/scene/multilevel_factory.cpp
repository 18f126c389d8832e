/// The multilevel solver's scene binding (see multilevel_factory.hpp).
#include "scene/multilevel_factory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "core/timer.hpp"
#include "model/elastic_energy.hpp"
#include "multilevel/cubature.hpp"
#include "multilevel/precompute_cache.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {

namespace {

/// The integrators whose steps are Newton minimizations of the incremental potential the
/// multilevel directions are made for (Trusty et al. use implicit Euler and BDF2).
const std::vector<std::string>& multilevel_integrators() {
  static const std::vector<std::string> names = {"be", "bdf2"};
  return names;
}

MultilevelInput multilevel_input(const BuiltModel& built) {
  const FrameData& frames = built.frames;
  const Model& model = *built.model;
  MultilevelInput in;
  in.rest = frames.mesh.vertices;
  in.tets = frames.mesh.tets;
  in.youngs = frames.youngs;
  in.material = frames.material_region;
  const int num_tets = frames.mesh.num_tets();
  // Objects own contiguous tet ranges (merge order).
  in.tet_offset.push_back(0);
  for (int e = 1; e <= num_tets; ++e)
    if (e == num_tets || frames.object[e] != frames.object[e - 1]) in.tet_offset.push_back(e);
  const int n = frames.mesh.num_vertices();
  in.full_to_free.resize(3 * static_cast<size_t>(n));
  in.fixed.assign(n, false);
  for (int i = 0; i < 3 * n; ++i) in.full_to_free[i] = model.dofs().free_index(i);
  for (int v = 0; v < n; ++v) in.fixed[v] = in.full_to_free[3 * v] < 0;
  in.num_free = model.num_free();
  in.vertex_mass = VecX::Zero(n);
  const VecX volume = tet_volumes(in.rest, in.tets);
  for (int e = 0; e < num_tets; ++e) {
    const double density = frames.density.size() ? frames.density[e] : 1.0;
    for (int a = 0; a < 4; ++a) in.vertex_mass[in.tets(e, a)] += density * volume[e] / 4.0;
  }
  return in;
}

/// Fits the modal cubature on the scene's partitions (cubature.hpp): w_k / V_k per tet; the log
/// gets the points, the fit time and the worst partition residual, `counts` the first two.
CachedCubature fit_scene_cubature(const MultilevelInput& input,
                                  const MultilevelPrecompute& precompute,
                                  const CubatureSettings& settings, std::vector<std::string>& notes,
                                  SceneCounts::Multilevel& counts) {
  const Timer timer;
  MatX3 origin = MatX3::Zero(precompute.handles, 3);
  for (int h = 0; h < precompute.handles; ++h)
    if (precompute.origin_vertex[h] >= 0)
      origin.row(h) = input.rest.row(precompute.origin_vertex[h]);
  const CubatureRule rule = fit_cubature(input.rest, input.tets, precompute.element_label,
                                         precompute.handles, precompute.phi, origin, settings);
  const VecX volume = tet_volumes(input.rest, input.tets);
  CachedCubature fitted;
  fitted.weight = VecX::Zero(input.tets.rows());
  for (size_t k = 0; k < rule.elements.size(); ++k)
    fitted.weight[rule.elements[k]] = rule.weights[k] / volume[rule.elements[k]];
  for (char f : rule.partition_weights_only_fallback) fitted.weights_only_partitions += f ? 1 : 0;
  fitted.worst_residual = rule.partition_residual.size() ? rule.partition_residual.maxCoeff() : 0.0;
  const auto missed = (rule.partition_residual.array() > settings.tolerance).count();
  counts.cubature_points = static_cast<long>(rule.elements.size());
  counts.cubature_fit_seconds = timer.seconds();
  char line[320];
  std::snprintf(line, sizeof line,
                "multilevel: cubature %zu points (%.1f %% of the tets), fit %.2f s, worst "
                "partition residual %.1e (%ld of %ld partitions above the tolerance %.0e)%s",
                rule.elements.size(), 100.0 * double(rule.elements.size()) / input.tets.rows(),
                *counts.cubature_fit_seconds, fitted.worst_residual, static_cast<long>(missed),
                static_cast<long>(rule.partition_residual.size()), settings.tolerance,
                fitted.weights_only_partitions
                    ? (", " + std::to_string(fitted.weights_only_partitions) +
                       " partitions with too many functions fitted weights only")
                          .c_str()
                    : "");
  notes.push_back(line);
  return fitted;
}

/// The cubature from the cache folder when it holds the rule for this input (`cache_file`
/// empty: no cache), else fitted (and saved there); `counts` gets its points (and fit time).
CachedCubature scene_cubature(const MultilevelInput& input, const MultilevelPrecompute& precompute,
                              const CubatureSettings& settings,
                              const std::filesystem::path& cache_file, std::uint64_t hash,
                              std::vector<std::string>& notes, SceneCounts::Multilevel& counts) {
  if (cache_file.empty()) return fit_scene_cubature(input, precompute, settings, notes, counts);
  std::string problem;
  std::optional<CachedCubature> cached =
      load_multilevel_cubature(cache_file, hash, static_cast<int>(input.tets.rows()), &problem);
  if (!problem.empty()) notes.push_back("multilevel cache: " + problem);
  if (cached) {
    const auto points = (cached->weight.array() > 0.0).count();
    char line[256];
    std::snprintf(line, sizeof line,
                  "multilevel: cubature %ld points (%.1f %% of the tets), worst partition "
                  "residual %.1e, loaded from %s",
                  static_cast<long>(points), 100.0 * double(points) / input.tets.rows(),
                  cached->worst_residual, cache_file.string().c_str());
    notes.push_back(line);
    counts.cubature_points = static_cast<long>(points);
    return *cached;
  }
  const CachedCubature fitted = fit_scene_cubature(input, precompute, settings, notes, counts);
  try {
    save_multilevel_cubature(cache_file, hash, fitted);
    notes.push_back("multilevel: cubature saved to " + cache_file.string());
  } catch (const std::exception& e) {
    notes.push_back(std::string("multilevel: warning: ") + e.what() + " (continuing without)");
  }
  return fitted;
}

/// A rule that missed its tolerance (only possible under /solver/cubature_max_points, or by
/// rounding): a logged warning with the residual and the rule kept ("continue"), or bad input
/// before anything is simulated ("stop").
void check_cubature_miss(const SceneConfig& scene, const CachedCubature& rule, double tolerance,
                         std::vector<std::string>& notes) {
  if (!(rule.worst_residual > tolerance)) return;
  char residual[96];
  std::snprintf(residual, sizeof residual, "worst partition residual %.2e above the tolerance %.0e",
                rule.worst_residual, tolerance);
  const std::string cap = scene.solver.cubature_max_points > 0
                              ? " with at most " +
                                    std::to_string(scene.solver.cubature_max_points) +
                                    " points per partition (/solver/cubature_max_points)"
                              : "";
  require(!scene.solver.cubature_stop_on_miss,
          scene.source.string() + ": /solver/cubature_on_miss: the cubature fit missed its " +
              "tolerance" + cap + ": " + residual +
              "; stopping as \"stop\" asks (\"continue\" keeps the rule it has" +
              (cap.empty() ? "; without a cap only rounding misses, so \"continue\" is safe here)"
                           : "; a larger or no cubature_max_points reaches the tolerance)"));
  notes.push_back("multilevel: warning: the cubature fit missed its tolerance" + cap + ": " +
                  residual + "; continuing with the rule it has (/solver/cubature_on_miss)");
}

/// The multilevel solver serves 'be' and 'bdf2', one set of free DOFs and tet meshes only.
void require_multilevel_applies(const SceneConfig& scene, const BuiltModel& built,
                                const std::string& where) {
  const auto& allowed = multilevel_integrators();
  require(std::find(allowed.begin(), allowed.end(), scene.integrator.type) != allowed.end(),
          where +
              " makes Newton directions for the incremental potentials of 'be' and 'bdf2'; "
              "the integrator is '" +
              scene.integrator.type + "' (use cholmod or pcg with it)");
  require(!built.schedule || !built.schedule->has_releases(),
          where +
              " builds its bases for one set of free DOFs; this scene releases Dirichlet "
              "vertices during the run (use cholmod or pcg)");
  require(built.frames.mesh.num_tets() > 0, where + " needs tet meshes (the scene has none)");
}

MultilevelSetupSettings setup_settings(const SceneConfig& scene) {
  MultilevelSetupSettings settings;
  settings.partitions = scene.solver.partitions;
  settings.jump_penalty = scene.solver.jump_penalty;
  settings.contrast_cap = scene.solver.contrast_cap;
  settings.seed = static_cast<std::uint64_t>(scene.solver.seed);
  settings.dirichlet_aware = scene.solver.dirichlet_aware;
  settings.basis = handle_basis_from_name(scene.solver.basis);  // the schema lists the names
  return settings;
}

/// The cubature's cache file and key (empty: no cache), and the note on the weights' cache.
struct MultilevelCacheUse {
  std::filesystem::path cubature_file;
  std::uint64_t cubature_hash = 0;
  std::string note;
};

/// The partitions and handle weights, from the cache folder when it holds them for this input,
/// else computed (and saved there).
std::optional<MultilevelPrecompute> partitions_and_weights(const SceneConfig& scene,
                                                           const MultilevelInput& input,
                                                           const MultilevelSetupSettings& settings,
                                                           MultilevelCacheUse& cache,
                                                           std::vector<std::string>& notes) {
  std::optional<MultilevelPrecompute> weights;
  std::filesystem::path cache_file;
  std::uint64_t hash = 0;
  if (!scene.solver.cache.empty()) {
    std::filesystem::path dir = scene.solver.cache;
    if (dir.is_relative()) dir = scene.source.parent_path() / dir;
    hash = multilevel_input_hash(input, settings);
    cache_file = multilevel_cache_file(dir, hash);
    // A capped fit is another rule: its own file (uncapped rules keep their names).
    cache.cubature_hash =
        scene.solver.cubature_max_points > 0
            ? hash ^ (0x9e3779b97f4a7c15ULL *
                      static_cast<std::uint64_t>(scene.solver.cubature_max_points))
            : hash;
    cache.cubature_file = multilevel_cubature_file(dir, cache.cubature_hash);
    std::string problem;
    weights = load_multilevel_cache(cache_file, hash, input, &problem);
    if (!problem.empty()) notes.push_back("multilevel cache: " + problem);
    if (weights) {
      weights->basis = settings.basis;
      cache.note = "multilevel: partitions and weights loaded from " + cache_file.string();
    } else {
      weights = compute_multilevel_weights(input, settings);
      try {
        save_multilevel_cache(cache_file, hash, *weights);
        cache.note = "multilevel: partitions and weights saved to " + cache_file.string();
      } catch (const std::exception& e) {
        cache.note = std::string("multilevel: warning: ") + e.what() + " (continuing without)";
      }
    }
  } else {
    weights = compute_multilevel_weights(input, settings);
  }
  return weights;
}

/// The solver's settings from the scene's /solver (the polish iterations noted).
MultilevelSolverSettings solver_settings(const SceneConfig& scene,
                                         const MultilevelPrecompute& precompute,
                                         std::vector<std::string>& notes) {
  MultilevelSolverSettings solver;
  solver.fine_iterations = scene.solver.fine_iterations >= 0
                               ? scene.solver.fine_iterations
                               : automatic_fine_iterations(precompute);
  notes.push_back("multilevel: " + std::to_string(solver.fine_iterations) + " polish iterations" +
                  (scene.solver.fine_iterations >= 0
                       ? std::string(" (solver.fine_iterations)")
                       : " (auto: mean partition radius " +
                             std::to_string(int(std::lround(precompute.mean_hop_radius))) +
                             " edge hops)"));
  if (scene.solver.assembled_subspace)
    solver.products = MultilevelSolverSettings::Products::kAssembled;
  solver.sms_deflation = scene.solver.sms_deflation
                             ? MultilevelSolverSettings::SmsDeflation::kAffine
                             : MultilevelSolverSettings::SmsDeflation::kNone;
  solver.sms_ritz_vectors = scene.solver.sms_ritz_vectors;
  limit_deflation_memory(*precompute.bases, solver, notes);
  solver.hessian_parts = scene.solver.cubature || scene.solver.lag_elastic_hessian;
  solver.fine_residual = scene.solver.fine_residual_subspace
                             ? MultilevelSolverSettings::FineResidual::kSubspace
                             : MultilevelSolverSettings::FineResidual::kLagged;
  solver.subspace_tolerance = scene.solver.subspace_tolerance;
  return solver;
}

}  // namespace

MultilevelSolverSetup make_multilevel_solver_setup(const SceneConfig& scene,
                                                   const BuiltModel& built,
                                                   std::vector<std::string>& notes) {
  const std::string where = scene.source.string() + ": /solver/type: multilevel";
  require_multilevel_applies(scene, built, where);
  const MultilevelSetupSettings settings = setup_settings(scene);
  const MultilevelInput input = multilevel_input(built);
  MultilevelCacheUse cache;
  std::optional<MultilevelPrecompute> weights =
      partitions_and_weights(scene, input, settings, cache, notes);
  assemble_multilevel_bases(input, *weights);
  auto precompute = std::make_shared<const MultilevelPrecompute>(std::move(*weights));
  notes.push_back(precompute->summary());
  if (!cache.note.empty()) notes.push_back(cache.note);

  const MultilevelSolverSettings solver = solver_settings(scene, *precompute, notes);
  std::shared_ptr<const MultilevelBases> bases = precompute->bases;
  MultilevelSolverSetup setup{
      [bases, solver] { return make_multilevel_solver(bases, solver); }, precompute, VecX(), {}};
  setup.counts.sms_handles = precompute->handles;
  setup.counts.affine_handles = precompute->objects;
  setup.counts.polish_iterations = solver.fine_iterations;
  setup.counts.partition_seconds = precompute->partition_seconds;
  setup.counts.bases_seconds = precompute->basis_seconds;
  if (scene.solver.cubature) {
    CubatureSettings cubature;
    cubature.max_points = scene.solver.cubature_max_points;
    const CachedCubature rule = scene_cubature(input, *precompute, cubature, cache.cubature_file,
                                               cache.cubature_hash, notes, setup.counts);
    check_cubature_miss(scene, rule, cubature.tolerance, notes);
    setup.cubature_weight = rule.weight;
  }
  return setup;
}

void use_cubature_hessian(const MultilevelSolverSetup& setup, BuiltModel& built) {
  const MatX4i& scene_tets = built.frames.mesh.tets;
  std::vector<VecX> weights;
  for (const auto& term : built.model->terms()) {
    if (term->name() != Model::kElasticTermName) continue;
    const auto* elastic = dynamic_cast<const ElasticEnergy*>(term.get());
    if (!elastic) {  // no elements (the Galerkin baseline): its Hessian enters in full
      weights.emplace_back();
      continue;
    }
    // The term's elements are a run of the scene's tets (one object, merge order).
    const MatX4i& tets = elastic->elements().tets;
    const Eigen::Index count = tets.rows();
    Eigen::Index start = -1;
    for (Eigen::Index e = 0; e + count <= scene_tets.rows() && start < 0; ++e)
      if (count > 0 && scene_tets.row(e) == tets.row(0) && scene_tets.middleRows(e, count) == tets)
        start = e;
    if (start < 0 && count > 0)
      throw std::logic_error("use_cubature_hessian: an elastic term's tets are not scene tets");
    weights.push_back(count > 0 ? VecX(setup.cubature_weight.segment(start, count)) : VecX());
  }
  built.model->set_elastic_cubature(std::move(weights));
}

void add_multilevel_fields(const MultilevelSolverSetup& setup, FrameData& frames) {
  const MultilevelPrecompute& precompute = *setup.precompute;
  const int n = frames.mesh.num_vertices();
  if (setup.cubature_weight.size() == frames.mesh.num_tets())
    frames.extra_cell_scalars.emplace_back("cubature_weight", setup.cubature_weight);
  frames.extra_cell_ints.emplace_back("partition", precompute.element_label);
  VecX origin = VecX::Constant(n, -1.0), count = VecX::Zero(n), weight_max = VecX::Zero(n);
  for (size_t h = 0; h < precompute.origin_vertex.size(); ++h)
    if (precompute.origin_vertex[h] >= 0) origin[precompute.origin_vertex[h]] = double(h);
  for (int h = 0; h < precompute.phi.outerSize(); ++h)
    for (SpMat::InnerIterator it(precompute.phi, h); it; ++it) {
      count[it.row()] += 1.0;
      weight_max[it.row()] = std::max(weight_max[it.row()], it.value());
    }
  frames.extra_point_scalars.emplace_back("handle_origin", origin);
  frames.extra_point_scalars.emplace_back("handle_count", count);
  frames.extra_point_scalars.emplace_back("weight_max", weight_max);
}

// U Z and H U Z of the deflated SMS PCG are dense; the plain PCG converges to the same
// directions, in more iterations.
void limit_deflation_memory(const MultilevelBases& bases, MultilevelSolverSettings& solver,
                            std::vector<std::string>& notes) {
  constexpr double kDeflationBytes = 1024.0 * 1024.0 * 1024.0;
  if (solver.products != MultilevelSolverSettings::Products::kMatrixFree ||
      solver.sms_deflation != MultilevelSolverSettings::SmsDeflation::kAffine)
    return;
  const double columns =
      static_cast<double>(bases.affine_in_sms.cols()) + std::max(0, solver.sms_ritz_vectors);
  const double bytes = 2.0 * static_cast<double>(bases.sms.rows()) * columns * sizeof(double);
  if (bytes <= kDeflationBytes) return;
  solver.sms_deflation = MultilevelSolverSettings::SmsDeflation::kNone;
  notes.push_back("multilevel: warning: sms_deflation off: its dense coarse blocks would take " +
                  std::to_string(std::lround(bytes / (1024.0 * 1024.0))) + " MB (" +
                  std::to_string(static_cast<long>(columns)) + " columns over " +
                  std::to_string(bases.sms.rows()) +
                  " DOFs, above 1024 MB); fewer objects or /solver/sms_ritz_vectors bring it back");
}

}  // namespace simrun
