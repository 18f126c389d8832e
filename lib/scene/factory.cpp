#include "scene/factory.hpp"

#include "coarsen/display_map.hpp"
#include "core/error.hpp"
#include "fem/mass.hpp"
#include "integrate/adaptive_variational.hpp"
#include "mesh/boundary.hpp"
#include "scene/contact_terms.hpp"
#include "scene/energy_terms.hpp"
#include "scene/friction_terms.hpp"
#include "scene/initial_state.hpp"
#include "scene/memory_estimate.hpp"
#include "scene/merged_objects.hpp"
#include "scene/mesh_pair.hpp"
#include "scene/multilevel_factory.hpp"
#include "scene/object_coarsening.hpp"
#include "scene/object_pieces.hpp"
#include "scene/obstacle_display.hpp"
#include "scene/obstacle_surfaces.hpp"
#include "scene/scene_obstacles.hpp"
#include "sim/eigenfit_tracking_monitor.hpp"
#include "sim/linear_strain_monitor.hpp"
#include "sim/output_observers.hpp"

namespace simrun {

namespace {

/// Initial velocities of every object (its "initial" block) over the global numbering.
VecX scene_initial_velocities(const SceneConfig& scene, const MergedObjects& objects,
                              const VecX& nodal_mass) {
  VecX v = VecX::Zero(3 * objects.num_vertices());
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const int begin = objects.vertex_offset[i], count = objects.vertex_offset[i + 1] - begin;
    VecX mass(count);
    for (int k = 0; k < count; ++k) mass[k] = nodal_mass[3 * (begin + k)];
    const MatX3 object_v = initial_velocities(objects.initial_positions.middleRows(begin, count),
                                              mass, scene.objects[i].initial);
    v.segment(3 * begin, 3 * count) = as_flat(object_v);
  }
  return v;
}

FrameData frame_data(const MergedObjects& objects) {
  FrameData frames;
  frames.mesh = objects.mesh;
  frames.youngs = objects.youngs;
  frames.poisson = objects.poisson;
  frames.density = objects.density;
  frames.material_region = objects.material_region;
  frames.surface = boundary_faces(frames.mesh);
  const auto n_objects = objects.tet_offset.size() - 1;
  for (size_t i = 0; i < n_objects; ++i)
    frames.object.insert(frames.object.end(),
                         static_cast<size_t>(objects.tet_offset[i + 1] - objects.tet_offset[i]),
                         static_cast<int>(i));
  for (const auto& edge : frames.mesh.edges) {  // spring lines: the object of their first vertex
    const auto it =
        std::upper_bound(objects.vertex_offset.begin(), objects.vertex_offset.end(), edge[0]);
    frames.object.push_back(static_cast<int>(it - objects.vertex_offset.begin()) - 1);
  }
  return frames;
}

std::string model_note(const MergedObjects& objects, const Model& model, size_t fixed) {
  return "model: " + plural(static_cast<size_t>(objects.num_vertices()), "vertex", "vertices") +
         ", " + plural(static_cast<size_t>(objects.num_tets()), "tet") + ", " +
         (objects.springs.empty() ? std::string()
                                  : plural(objects.springs.size(), "spring") + ", ") +
         plural(static_cast<size_t>(model.num_free()), "free DOF") + ", " +
         plural(fixed, "constrained vertex", "constrained vertices");
}

/// The sizes of the merged model and of each object's piece (after coarsening).
SceneCounts model_counts(const SceneConfig& scene, const std::vector<ObjectPieces>& pieces,
                         const MergedObjects& objects, const Model& model, size_t fixed) {
  SceneCounts counts;
  counts.vertices = model.num_vertices();
  counts.tets = objects.num_tets();
  counts.springs = static_cast<int>(objects.springs.size());
  counts.free_dofs = model.num_free();
  counts.constrained_vertices = static_cast<int>(fixed);
  for (size_t i = 0; i < pieces.size(); ++i)
    counts.objects.push_back({scene.objects[i].name, pieces[i].mesh.num_vertices(),
                              pieces[i].mesh.num_tets(),
                              static_cast<int>(pieces[i].mesh.edges.size())});
  return counts;
}

/// False for runs that never factorize a matrix (explicit integrators, the iterative solvers).
bool run_factorizes(const SceneConfig& scene) {
  static const std::vector<std::string> kExplicit = {"fe", "rk4", "symplectic_euler", "verlet"};
  const std::string& type = scene.integrator.type;
  return scene.solver.type == "cholmod" &&
         std::find(kExplicit.begin(), kExplicit.end(), type) == kExplicit.end();
}

}  // namespace

namespace {

/// Token mass of a kinematic vertex, relative to the objects' mean vertex mass: enough for the
/// mass-scaled Newton residual, too little to show in energies and momenta.
constexpr double kKinematicMassFraction = 1e-6;
/// Tie stiffness of a kinematic vertex: this many times the heaviest object vertex's m / dt^2
/// (its inertia stiffness in the implicit stage), so contact holds it back by F / k only.
constexpr double kKinematicStiffnessFactor = 1e6;

/// Moving mesh obstacles: gives their vertices the token mass (in objects.point_mass and
/// nodal_mass) and returns the term that ties them to their scripted positions (null without).
std::unique_ptr<KinematicTarget> make_kinematic_target(const SceneConfig& scene,
                                                       MergedObjects& objects, VecX& nodal_mass,
                                                       std::vector<std::string>& notes) {
  if (objects.kinematic.empty()) return nullptr;
  const Eigen::Index object_dofs = 3 * objects.vertex_offset.back();
  const double mean = nodal_mass.head(object_dofs).mean();
  const double heaviest = nodal_mass.head(object_dofs).maxCoeff();
  const double token = kKinematicMassFraction * mean;
  for (const KinematicGroup& group : objects.kinematic)
    for (int v : group.vertices) {
      objects.point_mass.segment<3>(3 * v).setConstant(token);
      nodal_mass.segment<3>(3 * v).setConstant(token);
    }
  const double k = kKinematicStiffnessFactor * heaviest / (scene.time.dt * scene.time.dt);
  notes.push_back("moving obstacles: kinematic vertices tied to their scripted positions by k = " +
                  short_number(k) + " N/m (stats.csv kinematic_lag)");
  return std::make_unique<KinematicTarget>(objects.kinematic, k);
}

/// Boxes first: their counts are known before generating them (a box can ask for 2^30 tets).
void require_box_memory(const SceneConfig& scene, bool factorizes) {
  double box_vertices = 0.0, box_tets = 0.0;
  std::string box_pointers;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const ObjectConfig& object = scene.objects[i];
    if (object.mesh.kind == MeshConfig::Kind::kBox) {
      const Eigen::Vector3d cells = object.mesh.box_cells.cast<double>();
      box_vertices += (cells.array() + 1.0).prod();
      box_tets += cells.prod() * object.mesh.box_split;
      box_pointers += (box_pointers.empty() ? ": " : ", ") +
                      ("/objects/" + std::to_string(i) + "/mesh/box/cells");
    }
  }
  require_memory(scene.source.string() + box_pointers, box_vertices, box_tets, factorizes);
}

/// Each object's pieces, coarsened where the object asks (the coarsening's notes and display
/// fields into `built`); then the memory check of the meshes as built.
std::vector<ObjectPieces> build_pieces(const SceneConfig& scene, bool factorizes,
                                       BuiltModel& built) {
  std::vector<ObjectPieces> pieces;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    pieces.push_back(
        build_object(scene.objects[i], i, scene.source.string(), scene.time.dt, built.notes));
    if (scene.objects[i].coarsening.method == CoarseningConfig::Method::kNone) continue;
    const ObjectCoarsening coarsening =
        coarsen_object(scene.objects[i], i, scene.source.string(), scene.time.dt, pieces.back());
    apply_coarsening(coarsening, pieces.back());
    built.notes.insert(built.notes.end(), coarsening.notes.begin(), coarsening.notes.end());
    if (coarsening.homogenized.coarse_fields.cols() == 6 && coarsening.harmonic.fields.cols() == 6)
      built.coarsened.push_back(
          {static_cast<int>(i), coarsening.homogenized.coarse_fields, coarsening.harmonic.fields});
  }
  double vertices = 0.0, tets = 0.0;
  for (const ObjectPieces& piece : pieces) {
    vertices += piece.mesh.num_vertices();
    tets += piece.mesh.num_tets();
  }
  require_memory(scene.source.string() + ": /objects", vertices, tets, factorizes);
  return pieces;
}

/// The error of a scene whose every vertex is constrained, naming the Dirichlet groups.
[[noreturn]] void throw_nothing_free(const SceneConfig& scene) {
  std::string pointers;
  for (size_t i = 0; i < scene.objects.size(); ++i)
    if (!scene.objects[i].dirichlet.empty())
      pointers += (pointers.empty() ? "" : ", ") + ("/objects/" + std::to_string(i) + "/dirichlet");
  throw InputError(scene.source.string() + ": " + pointers +
                   ": every vertex of the scene is constrained: nothing to simulate");
}

}  // namespace

BuiltModel build_model(const SceneConfig& scene) {
  BuiltModel built;
  const bool factorizes = run_factorizes(scene);
  require_box_memory(scene, factorizes);
  const std::vector<ObjectPieces> pieces = build_pieces(scene, factorizes, built);
  MergedObjects objects = merge_objects(pieces);
  append_obstacle_surfaces(scene, objects, built.notes);
  built.frames = frame_data(objects);
  built.frames.obstacles = displayed_obstacles(scene, objects);

  const TetElements elements = precompute_tet_elements(objects.mesh.vertices, objects.mesh.tets);
  VecX nodal_mass =
      lumped_mass_per_dof(elements, objects.density, objects.num_vertices()) + objects.point_mass;
  std::unique_ptr<KinematicTarget> kinematic =
      make_kinematic_target(scene, objects, nodal_mass, built.notes);
  SceneTerms terms = make_energy_terms(scene, objects, elements, nodal_mass, built.frames.surface);
  built.time_dependent_loads = terms.time_dependent_loads;
  built.notes.insert(built.notes.end(), terms.notes.begin(), terms.notes.end());
  SceneObstacles obstacles = make_obstacles(scene, objects, nodal_mass);
  for (auto& term : obstacles.terms) terms.terms.push_back(std::move(term));
  if (scene.contact) {
    auto barrier = make_contact_barrier(scene, objects, nodal_mass, built.notes);
    // Friction lags on the barrier's pairs (the term keeps a reference to the barrier).
    auto friction = make_friction_term(scene, *barrier, built.notes);
    terms.terms.push_back(std::move(barrier));
    if (friction) terms.terms.push_back(std::move(friction));
  }
  if (kinematic) terms.terms.push_back(std::move(kinematic));
  built.projections = std::move(obstacles.projections);

  // Release times are compared with step start times that accumulate round-off: a millionth of
  // a step tells them apart from the neighbouring steps.
  const VecX x0 = as_flat(objects.initial_positions);
  const DirichletSchedule schedule(objects.groups, x0, 1e-6 * scene.time.dt);
  const std::vector<int> fixed = schedule.constrained_vertices(0.0);
  if (schedule.is_time_dependent()) built.schedule = schedule;

  const RayleighDamping damping{scene.damping.mass, scene.damping.stiffness,
                                scene.damping.stiffness_at == DampingConfig::StiffnessAt::kRest};
  DofMap dofs(objects.num_vertices(), fixed);
  if (dofs.num_free() == 0) throw_nothing_free(scene);
  built.model =
      std::make_unique<Model>(objects.mesh.vertices, elements, objects.density, scene.lumped_mass,
                              objects.point_mass, std::move(dofs), std::move(terms.terms), damping);

  built.model->set_constrained_positions(x0);
  built.initial.q = built.model->restrict_vector(x0);
  built.initial.v =
      built.model->restrict_vector(scene_initial_velocities(scene, objects, nodal_mass));
  built.initial.t = 0.0;
  built.notes.push_back(model_note(objects, *built.model, fixed.size()));
  built.counts = model_counts(scene, pieces, objects, *built.model, fixed.size());
  built.notes.insert(built.notes.end(), obstacles.notes.begin(), obstacles.notes.end());
  return built;
}

IntegratorSettings integrator_settings(const SceneConfig& scene) {
  IntegratorSettings s;
  s.newton.tolerance = scene.integrator.newton.tolerance;
  s.newton.max_iterations = scene.integrator.newton.max_iterations;
  s.newton.line_search = scene.integrator.newton.line_search;
  s.step_halving = scene.integrator.newton.step_halving;
  s.lag_updates = scene.contact ? scene.contact->lag_updates : 0;
  const std::string& projection = scene.integrator.newton.projection;
  s.newton.projection = projection == "never"  ? HessianProjection::kNever
                        : projection == "auto" ? HessianProjection::kAuto
                                               : HessianProjection::kAlways;
  // The multilevel solver needs the built model's meshes: build_simulation installs it; until
  // then (and for reference runs) CHOLMOD solves.
  s.linear_solver = linear_solver_factory(
      scene.solver.type == "multilevel" ? std::string("cholmod") : scene.solver.type,
      {scene.solver.tolerance, scene.solver.max_iterations});
  const std::string& reuse = scene.integrator.newton.reuse_factorization;
  s.newton.reuse_contraction = reuse == "never" ? 0.0 : scene.integrator.newton.reuse_contraction;
  s.newton.direction_tolerance = scene.integrator.newton.direction_tolerance;
  const std::string& norm = scene.integrator.newton.direction_norm;
  s.newton.direction_norm = norm == "inf" ? NewtonSettings::DirectionNorm::kInf
                            : norm == "l2_over_sqrtV"
                                ? NewtonSettings::DirectionNorm::kL2OverSqrtCount
                                : NewtonSettings::DirectionNorm::kL2OverCount;
  s.reuse_across_steps = reuse == "across_steps";
  s.extrapolate_guess = scene.integrator.predictor == "acceleration";
  s.newmark_beta = scene.integrator.newmark_beta;
  s.newmark_gamma = scene.integrator.newmark_gamma;
  s.rho_inf = scene.integrator.rho_inf;
  s.variational_alpha = scene.integrator.alpha;
  s.reinject_residual = scene.integrator.reinject_residual;
  s.viscous_k_d = scene.damping.viscous_k_d;
  s.viscous_implicit = scene.damping.viscous_implicit;
  s.modes = scene.integrator.modes;
  // Objects without Dirichlet conditions are free at the start: their six rigid modes
  // (lambda ~ 0) join the split's exponential part on top of the s elastic ones.
  for (const ObjectConfig& object : scene.objects)
    if (object.dirichlet.empty()) s.rigid_modes += 6;
  s.eigen_refresh = scene.integrator.eigen_refresh;
  s.krylov.dimension = scene.integrator.krylov_dimension;
  s.krylov.tolerance = scene.integrator.krylov_tolerance;
  s.krylov.max_substeps = scene.integrator.krylov_max_substeps;
  s.mssi_literal = scene.integrator.mssi_literal;
  s.printed_phi_argument = scene.integrator.printed_phi_argument;
  s.eigen_tracking = scene.integrator.eigen_tracking;
  s.eigensolver.max_iterations = scene.integrator.eigensolver_max_iterations;
  s.eigensolver.tolerance = scene.integrator.eigensolver_tolerance;
  return s;
}

RunSettings run_settings(const SceneConfig& scene) {
  RunSettings r;
  r.dt = scene.time.dt;
  r.steps = scene.time.steps ? *scene.time.steps : -1;
  if (scene.time.end) r.end_time = *scene.time.end;
  r.adaptive = scene.time.adaptive.has_value();
  r.out_dir = scene.output.dir;
  r.output_every = scene.output.every > 0 ? scene.output.every : 1;
  r.output_interval = scene.output.interval;
  r.write_vtu = std::find(scene.output.frames.begin(), scene.output.frames.end(), "vtu") !=
                scene.output.frames.end();
  r.write_surface = scene.output.surface;
  r.compress_frames = scene.output.compress;
  r.rest_points = scene.output.points == "rest";
  return r;
}

namespace {

SimulatedSystem make_system(const std::string& name, BuiltModel built, const std::string& type,
                            const IntegratorSettings& settings,
                            const std::optional<AdaptiveSettings>& adaptive = std::nullopt) {
  const auto make = [type, settings, adaptive]() -> std::unique_ptr<Integrator> {
    if (adaptive) return std::make_unique<AdaptiveVariational>(type, settings, *adaptive);
    return make_integrator(type, settings);
  };
  SimulatedSystem system(name, std::move(built.frames), std::move(built.model), make,
                         std::move(built.initial));
  if (built.schedule) system.set_dirichlet_schedule(std::move(*built.schedule));
  system.set_time_dependent_loads(built.time_dependent_loads);
  for (auto& projection : built.projections) system.add_projection(std::move(projection));
  return system;
}

/// A LinearStrainMonitor over the tets of objects with the linear material, if any.
void add_linear_strain_monitor(Simulation& simulation, const SceneConfig& scene) {
  const FrameData& frames = simulation.primary().frames();
  if (frames.object.size() < static_cast<size_t>(frames.mesh.num_tets())) return;
  std::vector<int> tets;
  std::vector<std::string> names;
  for (Eigen::Index e = 0; e < frames.mesh.num_tets(); ++e) {
    const int object = frames.object[static_cast<size_t>(e)];
    const ObjectConfig& config = scene.objects[static_cast<size_t>(object)];
    if (config.material.model != "linear") continue;
    tets.push_back(static_cast<int>(e));
    names.push_back("/objects/" + std::to_string(object) + " (" + config.name + ")");
  }
  if (!tets.empty())
    simulation.add_observer(std::make_unique<LinearStrainMonitor>(
        frames.mesh.vertices, frames.mesh.tets, std::move(tets), std::move(names)));
}

/// First vertex of each object in a merged mesh (from the tets' object index; -1: no tets).
std::vector<int> object_vertex_offsets(const FrameData& frames, size_t num_objects) {
  std::vector<int> offset(num_objects, -1);
  for (int e = 0; e < frames.mesh.num_tets(); ++e) {
    int& first = offset[static_cast<size_t>(frames.object[e])];
    const int lowest = frames.mesh.tets.row(e).minCoeff();
    first = first < 0 ? lowest : std::min(first, lowest);
  }
  return offset;
}

/// The fine vertices driven by the run: the display map (Kharevych Eqs. 4.6-4.7) on the tets of
/// objects coarsened harmonically, barycentric interpolation elsewhere.
CoarseToFineMap coarse_to_fine_map(const FrameData& coarse, const FrameData& fine,
                                   const Embedding& embedding,
                                   const std::vector<BuiltModel::CoarsenedFields>& coarsened,
                                   size_t num_objects) {
  MatX coarse_fields = MatX::Zero(3 * coarse.mesh.num_vertices(), 6);
  MatX fine_fields = MatX::Zero(3 * fine.mesh.num_vertices(), 6);
  std::vector<bool> mapped_object(num_objects, false);
  const std::vector<int> coarse_offset = object_vertex_offsets(coarse, num_objects);
  const std::vector<int> fine_offset = object_vertex_offsets(fine, num_objects);
  for (const auto& c : coarsened) {
    mapped_object[static_cast<size_t>(c.object)] = true;
    coarse_fields.middleRows(3 * coarse_offset[c.object], c.coarse.rows()) = c.coarse;
    fine_fields.middleRows(3 * fine_offset[c.object], c.fine.rows()) = c.fine;
  }
  std::vector<bool> mapped(coarse.mesh.num_tets());
  for (int e = 0; e < coarse.mesh.num_tets(); ++e) mapped[e] = mapped_object[coarse.object[e]];
  return CoarseToFineMap(coarse.mesh, coarse_fields, std::move(mapped), fine.mesh.vertices,
                         fine_fields, embedding);
}

bool has_reference_meshes(const SceneConfig& scene) {
  return std::any_of(scene.objects.begin(), scene.objects.end(),
                     [](const ObjectConfig& o) { return o.reference_mesh.has_value(); });
}

/// The multilevel solver as the run's linear solver, with its cubature and lagged Hessian.
void install_multilevel_solver(const SceneConfig& scene, BuiltModel& built,
                               IntegratorSettings& settings) {
  MultilevelSolverSetup multilevel = make_multilevel_solver_setup(scene, built, built.notes);
  settings.linear_solver = multilevel.factory;
  if (scene.solver.cubature) use_cubature_hessian(multilevel, built);
  settings.newton.elastic_lag = {scene.solver.lag_elastic_hessian, scene.solver.lag_window,
                                 scene.solver.lag_threshold, scene.solver.lag_interval};
  add_multilevel_fields(multilevel, built.frames);
  built.counts.multilevel = multilevel.counts;
}

/// The mode count fits the free DOFs, and an implicit adaptive step's dense system fits its
/// limit.
void require_integrator_fits(const SceneConfig& scene, const IntegratorSettings& settings,
                             const Model& model) {
  const std::string& type = scene.integrator.type;
  if (type == "siere" || type == "sbdf2ere" || type == "str_sbdf2ere") {
    const int rigid = scene.integrator.modes > 0 ? settings.rigid_modes : 0;
    require(scene.integrator.modes + rigid <= model.num_free(),
            scene.source.string() + ": /integrator/modes: " +
                std::to_string(scene.integrator.modes) + " modes requested" +
                (rigid > 0 ? " (plus " + std::to_string(rigid) + " rigid modes of free bodies)"
                           : std::string()) +
                ", but the scene has " + std::to_string(model.num_free()) + " free DOFs");
  }
  if (scene.time.adaptive &&
      AdaptiveVariational(type, settings, *scene.time.adaptive).implicit(model.has_damping()))
    require(model.num_free() <= adaptive_dense_dof_limit(),
            scene.source.string() + ": /time/adaptive: implicit adaptive steps solve a dense " +
                "system; the scene has " + std::to_string(model.num_free()) +
                " free DOFs, more than " + std::to_string(adaptive_dense_dof_limit()) +
                " (use the naive scheme with verlet or symplectic_euler and sigma at 'start')");
}

/// ratios.csv, eigenvalues.csv, the tracking monitor and the release listener of EigenFit.
void add_eigenfit_outputs(const SceneConfig& scene, const MeshPair& pair,
                          const std::filesystem::path& out, Simulation& simulation) {
  if (pair.ratio_log)
    simulation.add_observer(
        std::make_unique<RatiosCsvObserver>(out / "ratios.csv", pair.ratio_log));
  if (pair.on_release) simulation.primary().set_release_listener(pair.on_release);
  if (pair.eigenfit) {
    simulation.add_observer(
        std::make_unique<EigenvaluesCsvObserver>(out / "eigenvalues.csv", pair.eigenfit));
    const ObjectConfig& object = scene.objects.front();
    simulation.add_observer(std::make_unique<EigenFitTrackingMonitor>(
        "/objects/0 (" + object.name + ")", object.eigenfit.plain_on_tracking_failure));
  }
}

/// Where the reference mesh's outputs go, with the run's frame settings, and the map that
/// drives it by the run.
struct ReferenceOutputs {
  std::filesystem::path out;
  RunSettings frames;
  std::shared_ptr<const CoarseToFineMap> map;

  std::unique_ptr<FrameObserver> frame_observer(const char* folder, FrameData data,
                                                FrameObserver::Source source) const {
    return std::make_unique<FrameObserver>(out / folder, frames, std::move(data),
                                           std::move(source));
  }
};

/// The reference run as the simulation's companion, its frames and error.csv.
void add_reference_run(const SceneConfig& scene, MeshPair& pair, const ReferenceOutputs& outputs,
                       Simulation& simulation) {
  const int reference_vertices = pair.reference.frames.mesh.num_vertices();
  for (size_t i = 0; i < scene.reference_track.size(); ++i)
    require(scene.reference_track[i] < reference_vertices,
            scene.source.string() + ": /reference/track/" + std::to_string(i) + ": vertex " +
                std::to_string(scene.reference_track[i]) +
                " does not exist (the reference "
                "meshes have " +
                std::to_string(reference_vertices) + " vertices)");
  // No EigenFit on the reference, and exact directions: a multilevel run's reference solves
  // with CHOLMOD (integrator_settings), being the truth error.csv measures the run against.
  IntegratorSettings plain = integrator_settings(scene);
  if (outputs.frames.write_vtu || outputs.frames.write_surface)
    simulation.add_observer(outputs.frame_observer("reference", pair.reference.frames,
                                                   [](const Simulation& s, VecX& x, VecX& v) {
                                                     x = s.companions().front().full_positions();
                                                     v = s.companions().front().full_velocities();
                                                   }));
  simulation.add_companion(make_system(scene.name + " (reference)", std::move(pair.reference),
                                       scene.integrator.type, plain));
  simulation.add_observer(std::make_unique<ReferenceErrorObserver>(
      outputs.out / "error.csv", outputs.map, 0, scene.reference_track));
}

}  // namespace

std::unique_ptr<Simulation> build_simulation(const SceneConfig& scene,
                                             std::vector<std::string>* notes, SceneCounts* counts) {
  // The integrator first: an unknown name is reported before the meshes are loaded.
  IntegratorSettings settings = integrator_settings(scene);
  make_integrator(scene.integrator.type, settings);
  std::optional<MeshPair> pair;
  if (has_reference_meshes(scene)) pair = build_mesh_pair(scene, settings);
  BuiltModel built = pair ? std::move(pair->coarse) : build_model(scene);
  const std::vector<BuiltModel::CoarsenedFields> coarsened = std::move(built.coarsened);
  if (pair) {
    built.notes.insert(built.notes.end(), pair->notes.begin(), pair->notes.end());
    settings.eigenfit = pair->eigenfit;
    const TetMesh& fine = pair->reference.frames.mesh;
    built.counts.reference = SceneCounts::Mesh{fine.num_vertices(), fine.num_tets()};
  }
  const std::string& type = scene.integrator.type;
  if (scene.solver.type == "multilevel") install_multilevel_solver(scene, built, settings);
  settings.newton.direction_count = std::max(1, built.model->num_free() / 3);  // |V|
  require_integrator_fits(scene, settings, *built.model);
  if (notes) *notes = built.notes;
  if (counts) *counts = built.counts;
  auto simulation = std::make_unique<Simulation>(
      make_system(scene.name, std::move(built), type, settings, scene.time.adaptive));
  add_linear_strain_monitor(*simulation, scene);
  if (!pair) return simulation;

  const std::filesystem::path out = run_settings(scene).out_dir;
  add_eigenfit_outputs(scene, *pair, out, *simulation);
  // The reference mesh driven by the run (x_f = B x_c) in OUT/embedded/, and the reference run
  // itself in OUT/reference/, with the run's frame settings.
  const ReferenceOutputs outputs{out, run_settings(scene),
                                 std::make_shared<const CoarseToFineMap>(coarse_to_fine_map(
                                     simulation->primary().frames(), pair->reference.frames,
                                     pair->embedding, coarsened, scene.objects.size()))};
  const std::shared_ptr<const CoarseToFineMap>& map = outputs.map;
  if (outputs.frames.write_vtu || outputs.frames.write_surface) {
    simulation->add_observer(outputs.frame_observer(
        "embedded", pair->reference.frames, [map](const Simulation& s, VecX& x, VecX& v) {
          x = map->positions(s.primary().full_positions());
          v = map->velocities(s.primary().full_velocities());
        }));
  }
  if (scene.reference_run) add_reference_run(scene, *pair, outputs, *simulation);
  return simulation;
}

}  // namespace simrun
