#pragma once
/// The scene as plain structs: what parse_scene() produces after strict validation with every
/// default filled, and what the factory turns into a Simulation. No JSON beyond `normalized`.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "integrate/adaptive_settings.hpp"
#include "material/material_parameters.hpp"
#include "mesh/selection.hpp"

namespace simrun {

struct TetgenOptions {
  double quality = 2.0;     ///< max radius-edge ratio (TetGen -q); 0 disables quality refinement
  double max_volume = 0.0;  ///< max tet volume [m^3] (TetGen -a); 0 = unbounded
  int target_tets = 0;      ///< approximate tet count; sets max_volume = volume / target_tets
  int surface_faces = 0;    ///< simplify the surface to at most this many triangles first; 0 = no
};

struct TransformConfig {
  Vec3 scale = Vec3::Ones();  ///< applied first
  Vec3 rotate_axis = Vec3::UnitZ();
  double rotate_deg = 0.0;        ///< then rotation about rotate_axis through the origin
  Vec3 translate = Vec3::Zero();  ///< then translation [m]
};

struct MeshConfig {
  enum class Kind { kBox, kFile, kRope, kCloth };
  Kind kind = Kind::kBox;
  int rope_particles = 2;                                ///< along -y from the origin
  double rope_length = 1.0;                              ///< [m]
  Eigen::Vector2d cloth_size = Eigen::Vector2d::Ones();  ///< [m] along x, z
  Eigen::Vector2i cloth_particles = Eigen::Vector2i::Constant(2);
  bool cloth_shear = true;
  Vec3 box_size = Vec3::Ones();  ///< [m], min corner at the origin
  Eigen::Vector3i box_cells = Eigen::Vector3i::Ones();
  int box_split = 5;           ///< 5 or 6 tets per cube (5: symmetric bending)
  std::filesystem::path file;  ///< absolute (resolved against the scene)
  TetgenOptions tetgen;
  TransformConfig transform;
};

struct MaterialConfig {
  std::string model = "linear";
  double E = 1e5;                ///< Young's modulus [Pa]
  std::filesystem::path E_file;  ///< optional per-element E field (absolute), replaces E
  /// Not a scene key: the mesh whose elements E_file lists, when the object's mesh is another
  /// one (a reference mesh, scene/mesh_pair.hpp). E is then sampled at each element's centroid:
  /// the value of the listed mesh's element that contains it (or the nearest one).
  std::optional<MeshConfig> E_file_mesh;
  double nu = 0.3;             ///< Poisson's ratio
  double density = 1000;       ///< [kg/m^3]
  double stiffness = 100;      ///< mass_spring: spring constant [N/m]
  double particle_mass = 0.1;  ///< mass_spring: point mass per particle [kg]
  /// Not a scene key: the factory's DAC sets it to r_1 (every E of the object is scaled).
  double youngs_scale = 1.0;
  /// "C": the anisotropic models' Voigt tensor (material/material_parameters.hpp convention).
  std::optional<VoigtTensor> C;
};

/// Overrides material parameters on the tets selected by `select` (centroid inside).
struct RegionConfig {
  Selection select;
  std::optional<double> E, nu, density;  ///< tet objects (by tet centroid)
  std::optional<double> stiffness;       ///< mass-spring objects: springs by midpoint [N/m]
  std::optional<double> particle_mass;   ///< mass-spring objects: particles [kg]
};

/// Prescribed motion of a Dirichlet selection ("motion" of a dirichlet entry).
struct MotionConfig {
  enum class Kind { kFixed, kTranslate, kShake, kTwist };
  Kind kind = Kind::kFixed;
  Vec3 velocity = Vec3::Zero();    ///< translate [m/s]
  Vec3 direction = Vec3::UnitX();  ///< shake (normalized by the factory)
  double amplitude = 0.0;          ///< shake [m]
  double frequency = 0.0;          ///< shake [Hz]
  Vec3 axis = Vec3::UnitX();       ///< twist (normalized by the factory)
  std::optional<Vec3> point;       ///< twist axis point [m]; default: the selection's centroid
  double angular_velocity = 0.0;   ///< twist [rad/s]
  int steps = 0;                   ///< moves during the first `steps` steps, then held; 0 = always
  double duration = 0.0;           ///< or for `duration` seconds [s]; 0 = not given
  double start = 0.0;              ///< begins at this time [s] (held at X0 before)
};

struct DirichletConfig {
  Selection select;
  MotionConfig motion;
  int release_step = 0;                ///< free from this step on; 0 = never
  std::optional<double> release_time;  ///< or free from this time on [s]
};

/// Wind on the boundary faces (model/wind_load.hpp).
struct WindConfig {
  double pressure = 0.0;  ///< [Pa]
  Vec3 direction = Vec3::UnitX();
  double gust_amplitude = 0.0;  ///< relative
  double gust_frequency = 0.0;  ///< [Hz]
  Vec3 sway_axis = Vec3::UnitY();
  double sway_angle_deg = 0.0;
  double sway_frequency = 0.0;  ///< [Hz]
};

/// An entry of "obstacles" (docs/obstacles.md): a penalty plane (an energy term) or a sphere
/// enforced by projection after each step.
struct ObstacleConfig {
  enum class Kind { kPlane, kSphere, kMesh };
  Kind kind = Kind::kPlane;
  Vec3 point = Vec3::Zero();        ///< plane: a point on it [m]
  Vec3 normal = Vec3::UnitY();      ///< plane: towards the allowed side (normalized by the factory)
  double stiffness = 0.0;           ///< plane: penalty per vertex [N/m]; 0 = not given (default)
  double pressure_stiffness = 0.0;  ///< plane: penalty per boundary area [Pa/m]; 0 = not given
  Vec3 center = Vec3::Zero();       ///< sphere [m]
  double radius = 0.0;              ///< sphere [m]
  std::filesystem::path file;       ///< mesh: a triangle surface (.obj, .off, .stl), absolute
  TransformConfig transform;        ///< mesh: placed like an object's mesh
  std::optional<MotionConfig> motion;  ///< mesh: a scripted motion (kinematic obstacle)
};

/// "contact": IPC barrier contact (docs/contact.md; Trusty et al. / Li et al. 2020).
struct ContactConfig {
  double dhat = 1e-3;     ///< activation distance, relative to the scene's bounding-box diagonal
  double kappa = 0.0;     ///< barrier stiffness [J]; 0 = IPC's automatic value
  bool self = true;       ///< objects touch themselves
  double friction = 0.0;  ///< mu
  double epsv = 1e-3;     ///< friction smoothing velocity [m/s]
  int lag_updates = 0;    ///< extra updates of the lagged friction quantities per step
};

struct TwistConfig {
  int axis = 0;            ///< 0 = x, 1 = y, 2 = z
  double angle_deg = 0.0;  ///< rotation of the +axis end; linear along the axis
};

/// Initial stretch (amount > 0: length x (1 + amount)) or compression (x (1 - amount)) along an
/// axis, the -axis end staying.
struct AxialScaleConfig {
  int axis = 0;
  double factor = 1.0;  ///< new length / rest length
};

struct InitialConfig {
  Vec3 velocity = Vec3::Zero();                ///< [m/s]
  Vec3 angular_velocity = Vec3::Zero();        ///< [rad/s] about the center of mass
  std::vector<AxialScaleConfig> axial_scales;  ///< stretch, then compress
  std::optional<TwistConfig> twist;
};

/// "eigenfit" of an object (docs/eigenfit.md, Chen et al. 2019).
struct EigenFitConfig {
  enum class Method { kNone, kEigenFit, kDac };
  Method method = Method::kNone;
  int modes = 10;                          ///< s = m, elastic modes fitted
  std::vector<double> ratios;              ///< manual r_1, r_2, ... (empty: computed)
  bool plain_on_tracking_failure = false;  ///< "on_tracking_failure": "plain"
};

/// "coarsening" of an object (docs/coarsening.md, Kharevych thesis Ch. 4): this (coarse) mesh
/// gets one anisotropic tensor per tet homogenized from its reference (fine) mesh.
struct CoarseningConfig {
  enum class Method { kNone, kHarmonic, kAverageLame, kGalerkin };
  enum class Boundary { kNeumann, kMixed };
  Method method = Method::kNone;
  bool coarse_normals = false;  ///< "neumann_normal": "coarse" (thesis Sec. 4.4.2)
  /// Harmonic problems: pure Neumann, or mixed with the object's fixed Dirichlet vertices
  /// (thesis Sec. 4.3.9).
  Boundary boundary = Boundary::kNeumann;
};

struct ObjectConfig {
  std::string name;
  MeshConfig mesh;
  std::optional<MeshConfig> reference_mesh;  ///< "reference": a finer mesh of the object
  EigenFitConfig eigenfit;
  CoarseningConfig coarsening;
  MaterialConfig material;
  std::vector<RegionConfig> regions;
  std::vector<DirichletConfig> dirichlet;
  InitialConfig initial;
  double gravity_scale = 1.0;  ///< this object's weight is gravity_scale * m g
};

struct TimeConfig {
  double dt = 0.01;                ///< [s]
  std::optional<int> steps = 100;  ///< step count (a cap when `end` is given too)
  std::optional<double> end;       ///< end time [s]
  /// Kharevych time adaptivity ("adaptive"): dt is then the fictitious step.
  std::optional<AdaptiveSettings> adaptive;
};

struct DampingConfig {
  double mass = 0.0;       ///< alpha in D = alpha M + beta K [1/s]
  double stiffness = 0.0;  ///< beta [s]
  enum class StiffnessAt { kRest, kCurrent };
  StiffnessAt stiffness_at = StiffnessAt::kRest;
  double viscous_k_d = 0.0;       ///< Kharevych step-size independent damping k_D [s] (0: none)
  bool viscous_implicit = false;  ///< its "form": "implicit"
};

struct NewtonConfig {
  double tolerance = 1e-6;  ///< on the velocity residual |v - v_n - h M^-1 f| (thesis Ch. 4)
  int max_iterations = 20;
  bool line_search = true;
  bool step_halving = false;  ///< thesis Ch. 4: halve h when Newton stalls (IntegratorSettings)
  std::string projection = "auto";  ///< "always" | "never" | "auto" (solve/newton.hpp)
  std::string reuse_factorization = "within_step";  ///< "never" | "within_step" | "across_steps"
  double reuse_contraction = 0.25;                  ///< NewtonSettings::reuse_contraction
  double direction_tolerance = 0.0;                 ///< [m/s], Trusty et al.'s stop (0 = off)
  std::string direction_norm = "l2_over_V";         ///< l2_over_V | l2_over_sqrtV | inf
};

struct IntegratorConfig {
  std::string type = "si";
  std::string predictor = "acceleration";  ///< be: "acceleration" | "velocity"
  NewtonConfig newton;
  double newmark_beta = 0.25;  ///< newmark only
  double newmark_gamma = 0.5;  ///< newmark only
  double rho_inf = 0.5;        ///< generalized_alpha only
  int modes = 5;               ///< siere family: s
  int eigen_refresh = 1;       ///< siere family: steps between eigendecompositions
  int krylov_dimension = 30;   ///< ere: Krylov m
  double krylov_tolerance = 1e-7;
  int krylov_max_substeps = 10000;
  /// siere family and EigenFit: the per-step Lanczos solve's "eigensolver" settings.
  int eigensolver_max_iterations = 1000;
  double eigensolver_tolerance = 1e-8;
  /// sbdf2ere, str_sbdf2ere: "phi_argument": "printed".
  bool printed_phi_argument = false;
  /// siere family: "eigen_update": "subspace".
  bool eigen_tracking = false;
  bool mssi_literal = false;      ///< mssi_form "literal"
  double alpha = 0.5;             ///< variational_alpha: the quadrature point
  bool reinject_residual = true;  ///< variational integrators (Kharevych Sec. 3.2.11)
};

struct SolverConfig {
  std::string type = "cholmod";  ///< a name of linear_solver_names()
  double tolerance = 1e-8;       ///< pcg: relative residual at which CG stops
  int max_iterations = 10000;    ///< pcg: CG iterations per solve at most
  // multilevel (docs/multilevel.md):
  int partitions = 16;               ///< initial k-means clusters over the scene
  int fine_iterations = -1;          ///< full-space Jacobi-PCG polish iterations (-1: auto)
  double subspace_tolerance = 1e-4;  ///< affine and SMS PCG relative residual
  bool assembled_subspace = true;    ///< subspace_products "assembled" (else matrix-free PCG)
  bool sms_deflation = true;         ///< matrix-free: sms_deflation "affine" (else "none")
  int sms_ritz_vectors = 16;         ///< Ritz vectors beside the affine deflation space
  double jump_penalty = 0.0;         ///< material-interface heat weight (x softest E)
  double contrast_cap = 0.0;         ///< largest heat weight E / min E (0: no cap)
  int seed = 1;                      ///< k-means++ seed
  bool dirichlet_aware = true;       ///< Eq. 11 weights
  std::string basis = "sms";         ///< SMS weights, or "rbf", "biharmonic", "eigenmodes"
  std::string cache;                 ///< precomputation cache folder ("" = none), scene-relative
  bool cubature = false;             ///< the modal cubature elastic Hessian in the subspace levels
  int cubature_max_points = 0;       ///< per partition, at most (0: no cap)
  bool cubature_stop_on_miss = false;   ///< cubature_on_miss "stop" (else "continue")
  bool lag_elastic_hessian = false;     ///< the polish's elastic Hessian lagged (Sec. 3.7.2)
  int lag_window = 3;                   ///< line-search steps averaged by the lag trigger
  double lag_threshold = 0.5;           ///< refresh when their mean falls below this
  int lag_interval = 5;                 ///< at most one refresh every this many iterations
  bool fine_residual_subspace = false;  ///< fine_residual "subspace" (else "lagged")
};

struct OutputConfig {
  std::filesystem::path dir = "out";  ///< absolute after parsing (relative to the scene file)
  int every = 1;                      ///< write a frame every N steps (when interval is 0)
  double interval = 0.0;              ///< or whenever t passes a multiple of it [s]
  std::vector<std::string> frames = {"vtu"};
  bool surface = false;             ///< also write surface/*.obj
  bool compress = true;             ///< zlib-compressed VTU arrays
  std::string points = "deformed";  ///< VTU points: "deformed" x or "rest" X (+ displacement)
};

struct SceneConfig {
  std::string name;
  int format = 1;
  TimeConfig time;
  std::vector<ObjectConfig> objects;
  Vec3 gravity = Vec3(0, -9.81, 0);  ///< [m/s^2]
  std::optional<WindConfig> wind;
  std::vector<ObstacleConfig> obstacles;
  std::optional<ContactConfig> contact;  ///< "contact": IPC barrier contact
  bool lumped_mass = true;               ///< "mass": "lumped" | "consistent"
  DampingConfig damping;
  IntegratorConfig integrator;
  SolverConfig solver;
  OutputConfig output;
  int threads = 0;                   ///< 0 = OpenMP default
  bool reference_run = false;        ///< "reference": {"run": true}
  std::vector<int> reference_track;  ///< reference-mesh vertices whose trajectories are written

  std::filesystem::path source;  ///< the scene file
  nlohmann::json normalized;     ///< the validated scene with every default filled
};

}  // namespace simrun
