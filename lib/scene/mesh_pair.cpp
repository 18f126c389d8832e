#include "scene/mesh_pair.hpp"

#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "io/cache_dir.hpp"
#include "scene/object_pieces.hpp"
#include "scene/rest_eigen_cache.hpp"

namespace simrun {

namespace {

std::string pointer(size_t object, const std::string& rest) {
  return "/objects/" + std::to_string(object) + rest;
}

/// The method shared by every object; InputError when objects disagree or a fitted object lacks
/// a reference mesh.
EigenFitConfig::Method common_method(const SceneConfig& scene) {
  const std::string file = scene.source.string() + ": ";
  const ObjectConfig& first = scene.objects.front();
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const ObjectConfig& o = scene.objects[i];
    require(o.eigenfit.method == first.eigenfit.method && o.eigenfit.modes == first.eigenfit.modes,
            file + pointer(i, "/eigenfit") +
                ": every object of a scene takes the same EigenFit method and modes (the modes "
                "of all objects are fitted together); /objects/0/eigenfit differs");
    if (o.eigenfit.method != EigenFitConfig::Method::kNone) {
      require(o.reference_mesh.has_value(),
              file + pointer(i, "/eigenfit/method") + ": needs \"reference\": {\"mesh\": ...}");
      for (size_t d = 0; d < o.dirichlet.size() && scene.objects.size() > 1; ++d)
        require(o.dirichlet[d].release_step == 0 && !o.dirichlet[d].release_time,
                file + pointer(i, "/dirichlet/" + std::to_string(d)) +
                    ": EigenFit recomputes its ratios at a release in single-object scenes "
                    "only (the rigid modes of each object would have to be counted apart)");
    }
  }
  return first.eigenfit.method;
}

std::vector<RatioRow> ratio_rows(const EigenRatios& ratios, const VecX& compatibility) {
  std::vector<RatioRow> rows;
  for (int i = 0; i < ratios.ratios.size(); ++i) {
    RatioRow row;
    row.rigid = i < ratios.rigid;
    row.lambda_coarse = ratios.coarse[i];
    row.lambda_fine = ratios.fine.size() > i ? ratios.fine[i] : NAN;
    row.ratio = ratios.ratios[i];
    row.compatibility = compatibility.size() > i ? compatibility[i] : NAN;
    rows.push_back(row);
  }
  return rows;
}

EigenFitSettings fit_settings(const EigenRatios& ratios, const EigenFitConfig& config) {
  EigenFitSettings fit;
  fit.ratios = ratios.ratios;
  fit.rest_modes = ratios.coarse_modes;
  fit.rest_eigenvalues = ratios.coarse;
  fit.rigid = ratios.rigid;
  fit.plain_on_tracking_failure = config.plain_on_tracking_failure;
  return fit;
}

/// The release listener of a single-object EigenFit scene: the fine model follows the
/// constraints of its own schedule, the ratios are recomputed at rest on both meshes (a body
/// left with no constraint gets its 6 rigid modes at ratio 1), and the correction restarts.
struct RecomputeAtRelease {
  std::shared_ptr<Model> fine;
  DirichletSchedule fine_schedule;
  std::shared_ptr<EigenFitCorrection> fit;
  std::shared_ptr<RatioLog> log;
  EigenFitConfig config;
  std::string where;
  RestEigenSolve solve;

  void operator()(Model& coarse, double t) const {
    fine->set_fixed_vertices(fine_schedule.constrained_vertices(t));
    const int rigid = coarse.num_free() == 3 * coarse.num_vertices() ? 6 : 0;
    const EigenRatios ratios =
        rest_eigen_ratios(coarse, fine.get(), config.modes, rigid, config.ratios, where, solve);
    fit->reset(fit_settings(ratios, config));
    log->entries.emplace_back(t, ratio_rows(ratios, VecX()));
  }
};

/// Two meshes of one object span about the same box: the largest difference between the
/// bounding boxes' faces, over the run's mesh's diagonal. A coarse cage around a fine mesh sits
/// a few percent outside it; a reference of another size or in another place is far off.
constexpr double kMaxBoundingBoxMismatch = 0.1;

/// The bounding box of the rest vertices of object `object`'s tets (false: it has none).
bool object_box(const FrameData& frames, int object, Vec3& lo, Vec3& hi) {
  bool any = false;
  for (Eigen::Index e = 0; e < frames.mesh.num_tets(); ++e) {
    if (frames.object[static_cast<size_t>(e)] != object) continue;
    for (int k = 0; k < 4; ++k) {
      const Vec3 x = frames.mesh.vertices.row(frames.mesh.tets(e, k)).transpose();
      lo = any ? Vec3(lo.cwiseMin(x)) : x;
      hi = any ? Vec3(hi.cwiseMax(x)) : x;
      any = true;
    }
  }
  return any;
}

/// Each object with a reference mesh: both of its meshes span about the same box.
void require_same_extent(const SceneConfig& scene, const FrameData& run,
                         const FrameData& reference) {
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    if (!scene.objects[i].reference_mesh) continue;
    Vec3 lo, hi, ref_lo, ref_hi;
    if (!object_box(run, static_cast<int>(i), lo, hi) ||
        !object_box(reference, static_cast<int>(i), ref_lo, ref_hi))
      continue;
    const double diagonal = (hi - lo).norm();
    const double mismatch =
        std::max((lo - ref_lo).cwiseAbs().maxCoeff(), (hi - ref_hi).cwiseAbs().maxCoeff());
    const auto box = [](const Vec3& a, const Vec3& b) {
      // Appended piece by piece: "x" + string temporaries trip GCC 12's -Wrestrict (as for the
      // ratio list in build_mesh_pair).
      std::string text = "[";
      for (const Vec3* corner : {&a, &b}) {
        if (corner == &b) text += "] to [";
        text += short_number(corner->x());
        text += ", ";
        text += short_number(corner->y());
        text += ", ";
        text += short_number(corner->z());
      }
      text += ']';
      return text;
    };
    require(mismatch <= kMaxBoundingBoxMismatch * diagonal,
            scene.source.string() + ": " + object_pointer(i) +
                "/reference: the reference mesh and the run's mesh are not two meshes of one "
                "object: their bounding boxes differ by up to " +
                short_number(mismatch) + " m, " + short_number(100.0 * mismatch / diagonal, 3) +
                " % of the run's diagonal (at most " +
                short_number(100.0 * kMaxBoundingBoxMismatch) + " %): run " + box(lo, hi) +
                ", reference " + box(ref_lo, ref_hi) +
                " (give both the same transform, size and position)");
  }
}

}  // namespace

SceneConfig reference_scene(const SceneConfig& scene) {
  SceneConfig fine = scene;
  for (ObjectConfig& object : fine.objects) {
    // An E file lists the run's mesh's tets (a coarsened object's lists the reference mesh's,
    // docs/coarsening.md): the reference samples it at its own centroids.
    if (object.reference_mesh && !object.material.E_file.empty() &&
        object.coarsening.method == CoarseningConfig::Method::kNone)
      object.material.E_file_mesh = object.mesh;
    if (object.reference_mesh) object.mesh = *object.reference_mesh;
    object.reference_mesh.reset();
    object.eigenfit = EigenFitConfig{};
    object.coarsening = CoarseningConfig{};
  }
  return fine;
}

MeshPair build_mesh_pair(const SceneConfig& scene, const IntegratorSettings& settings) {
  MeshPair pair;
  pair.method = common_method(scene);
  const std::string file = scene.source.string() + ": ";
  if (pair.method == EigenFitConfig::Method::kEigenFit)
    require(scene.integrator.type == "si" || scene.integrator.type == "im",
            file +
                "/integrator/type: EigenFit is implemented in 'si' and 'im' (the paper's "
                "integrators); '" +
                scene.integrator.type + "' does not apply it yet");
  if (pair.method == EigenFitConfig::Method::kEigenFit)
    require(!scene.integrator.eigen_tracking || scene.integrator.type == "si",
            file +
                "/integrator/eigen_update: 'subspace' tracks EigenFit's modes with SI's step "
                "factorization; with '" +
                scene.integrator.type + "' use 'lanczos'");

  pair.coarse = build_model(scene);  // first: its own errors are not the reference's
  SceneConfig fine = reference_scene(scene);
  if (!scene.reference_run) {
    // Only the reference's rest state is used (its modes, the embedding): its start and the
    // obstacles, checked for the run, are not its business.
    for (ObjectConfig& object : fine.objects) object.initial = InitialConfig{};
    fine.obstacles.clear();
  }
  try {
    pair.reference = build_model(fine);
  } catch (const InputError& e) {
    // The reference scene holds the reference mesh in the object's place: say which mesh.
    throw InputError(std::string("in the reference meshes (/objects/i/reference/mesh, put in "
                                 "place of the objects' meshes): ") +
                     e.what());
  }
  require_same_extent(scene, pair.coarse.frames, pair.reference.frames);
  pair.embedding = embed_points(pair.coarse.frames.mesh, pair.reference.frames.mesh.vertices);
  const Embedding& e = pair.embedding;
  std::string note = "reference: " + std::to_string(pair.reference.frames.mesh.num_vertices()) +
                     " vertices, " + std::to_string(pair.reference.frames.mesh.num_tets()) +
                     " tets; embedded in the run's mesh, " + std::to_string(e.num_outside) +
                     " vertices outside it";
  if (e.num_outside > 0) {
    note += " (up to " + short_number(e.max_outside_distance);
    note += " m: extrapolated from the nearest well-shaped tet";
    if (e.num_clamped > 0) {
      // lib/mesh/embedding.hpp: a gain above kMaxExtrapolationGain is clamped.
      note += "; " + std::to_string(e.num_clamped);
      note += " of them held at their tet's closest point, where extrapolating would amplify";
      note += " the tet's motion more than " + short_number(kMaxExtrapolationGain) + " times";
    }
    note += ")";
  }
  pair.notes.push_back(note);

  if (pair.method == EigenFitConfig::Method::kNone) return pair;
  const EigenFitConfig& config = scene.objects.front().eigenfit;
  const std::string where = file + "/objects/0/eigenfit";
  require(config.ratios.size() <= static_cast<size_t>(config.modes),
          where + "/ratios: " + std::to_string(config.ratios.size()) + " ratios for " +
              plural(static_cast<size_t>(config.modes), "fitted mode") +
              ": give at most one per mode (or raise \"modes\")");
  // The rest eigensolves come from the cache when K, M and the mode count are unchanged
  // (docs/caches.md): the reference mesh's costs about as much as its whole linear run.
  const auto cache = std::make_shared<RestEigenCache>(user_cache_dir());
  const RestEigenSolve solve = [cache](const SpMat& K, const SpMat& M, int count) {
    return cache->solve(K, M, count);
  };
  EigenRatios ratios =
      rest_eigen_ratios(*pair.coarse.model, pair.reference.model.get(), config.modes,
                        settings.rigid_modes, config.ratios, where, solve);
  if (const std::string cached = cache->summary(); !cached.empty())
    pair.notes.push_back("eigenfit: " + cached);
  VecX compatibility = VecX::Constant(ratios.ratios.size(), NAN);
  if (ratios.fine_modes.cols() > 0) {
    const int rigid = ratios.rigid, s = static_cast<int>(ratios.ratios.size()) - rigid;
    std::vector<int> matched;
    const VecX maxima = compatibility_column_maxima(
        *pair.coarse.model, pair.coarse.frames.mesh, *pair.reference.model, pair.embedding,
        ratios.coarse_modes.rightCols(s), ratios.fine_modes.rightCols(s), &matched);
    compatibility.tail(s) = maxima;
    std::string swapped;
    for (int k = 0; k < s; ++k)
      if (matched[static_cast<size_t>(k)] != k)
        swapped += (swapped.empty() ? "" : ", ") + std::to_string(k + 1) + " -> " +
                   std::to_string(matched[static_cast<size_t>(k)] + 1);
    if (!swapped.empty())
      pair.notes.push_back(
          "eigenfit: warning: coarse modes look most like fine modes of another index (" + swapped +
          "): the ratios pair modes by index, so these modes get another mode's ratio; give "
          "\"ratios\" by hand or use a finer coarse mesh");
    const std::string result = std::to_string(columns_passing(maxima)) + " of " +
                               std::to_string(s) + " modes match (|(B U_c)^T M_f U_f| > 0.6)";
    // The paper deems a pair that fails it unusable (Chen et al. 2019 (EigenFit), Sec. 3.5,
    // first-frame test): computed ratios would scale modes by another shape's eigenvalue. With
    // every ratio given by hand no fine modes are computed and there is no test.
    // DAC takes r_1 only: a failing test is a warning there.
    require(passes_mode_test(maxima) || pair.method == EigenFitConfig::Method::kDac,
            where + ": the coarse/fine compatibility test failed: only " + result +
                "; the two meshes' modes differ, so their eigenvalue ratios would scale the "
                "wrong shapes (the paper deems such a pair unusable): check that both meshes "
                "are the same object, refine the coarse mesh, or give all " +
                std::to_string(s) + " \"ratios\" by hand");
    pair.notes.push_back(passes_mode_test(maxima)
                             ? "eigenfit: coarse/fine compatibility test passed: " + result
                             : "dac: warning: coarse/fine compatibility test FAILED: " + result +
                                   " (DAC uses r_1 only; check that mode 1 matches)");
    std::string above_one;
    for (int k = 0; k < s; ++k)
      if (ratios.fine.size() > ratios.rigid + k &&
          ratios.fine[ratios.rigid + k] > 1.05 * ratios.coarse[ratios.rigid + k])
        above_one += (above_one.empty() ? "" : ", ") + std::to_string(k + 1);
    if (!above_one.empty())
      pair.notes.push_back(
          "eigenfit: warning: lambda_fine / lambda_coarse > 1.05 for mode(s) " + above_one +
          ": the reference mesh is stiffer than the run's there, while refining a P1 mesh of "
          "one object softens it (ratios below 1); check the meshes and materials of the pair");
  }
  pair.ratio_log = std::make_shared<RatioLog>();
  pair.ratio_log->entries.emplace_back(0.0, ratio_rows(ratios, compatibility));
  std::string listed;
  for (int i = ratios.rigid; i < ratios.ratios.size(); ++i) {
    // Appended in two steps: "x" + string temporaries here trip GCC 12's -Wrestrict (a false
    // positive in basic_string::insert).
    if (!listed.empty()) listed += ' ';
    listed += short_number(ratios.ratios[i]);
  }
  pair.notes.push_back(
      std::string(pair.method == EigenFitConfig::Method::kDac ? "dac" : "eigenfit") +
      (ratios.manual && ratios.fine.size() == 0 ? ": ratios r_i (given by hand): "
                                                : ": ratios r_i = lambda_fine / lambda_coarse: ") +
      listed +
      (ratios.rigid > 0 ? " (" + std::to_string(ratios.rigid) + " rigid modes at 1)"
                        : std::string()));

  if (pair.method == EigenFitConfig::Method::kDac) {
    // Dynamics-aware coarsening as the authors compare it: every E scaled by r_1 (Chen et al.
    // 2019 (EigenFit), Secs. 2 and 4.2), which for a fixed nu scales the whole elastic energy.
    SceneConfig scaled = scene;
    const double r1 = ratios.ratios[ratios.rigid];
    for (ObjectConfig& object : scaled.objects) object.material.youngs_scale = r1;
    pair.coarse = build_model(scaled);
    pair.notes.push_back("dac: Young's modulus scaled by r_1 = " + short_number(r1));
  } else {
    if (scene.integrator.eigen_tracking && scene.damping.stiffness != 0.0 &&
        scene.damping.stiffness_at == DampingConfig::StiffnessAt::kRest)
      pair.notes.push_back(
          "eigenfit: warning: 'eigen_update': 'subspace' iterates with M + h D + h^2 K(q), whose "
          "D holds the rest stiffness here (damping 'stiffness_at': 'rest'): between the Lanczos "
          "solves the tracked modes lean towards the rest ones; 'stiffness_at': 'current' or a "
          "smaller eigen_refresh keeps them closer");
    pair.eigenfit = std::make_shared<EigenFitCorrection>(
        fit_settings(ratios, config), settings.linear_solver,
        EigenModeUpdate{scene.integrator.eigen_refresh, scene.integrator.eigen_tracking,
                        settings.eigensolver});
    if (pair.coarse.schedule && pair.coarse.schedule->has_releases()) {
      // A fine model of its own: the reference run's (if any) steps on its own schedule.
      BuiltModel fine = build_model(reference_scene(scene));
      pair.on_release = RecomputeAtRelease{std::shared_ptr<Model>(std::move(fine.model)),
                                           *fine.schedule,
                                           pair.eigenfit,
                                           pair.ratio_log,
                                           config,
                                           where,
                                           solve};
    }
  }
  pair.ratios = std::move(ratios);
  return pair;
}

}  // namespace simrun
