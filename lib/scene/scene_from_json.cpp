#include "scene/scene_from_json.hpp"

#include <string>

#include "scene/adaptive_time.hpp"

namespace simrun {

using nlohmann::json;

namespace {

Vec3 vec3(const json& a) {
  return {a.at(0).get<double>(), a.at(1).get<double>(), a.at(2).get<double>()};
}

std::optional<double> optional_number(const json& object, const char* key) {
  if (!object.contains(key)) return std::nullopt;
  return object[key].get<double>();
}

TransformConfig transform_from_json(const json& t) {
  TransformConfig c;
  const json& scale = t.at("scale");
  c.scale = scale.is_number() ? Vec3::Constant(scale.get<double>()) : vec3(scale);
  c.rotate_axis = vec3(t.at("rotate").at("axis"));
  c.rotate_deg = t.at("rotate").at("angle_deg").get<double>();
  c.translate = vec3(t.at("translate"));
  return c;
}

MeshConfig mesh_from_json(const json& j) {
  MeshConfig m;
  if (j.contains("box")) {
    m.kind = MeshConfig::Kind::kBox;
    const json& box = j["box"];
    m.box_size = vec3(box.at("size"));
    for (int i = 0; i < 3; ++i) m.box_cells[i] = box.at("cells").at(i).get<int>();
    m.box_split = box.at("split").get<int>();
  } else if (j.contains("rope")) {
    m.kind = MeshConfig::Kind::kRope;
    m.rope_particles = j["rope"].at("particles").get<int>();
    m.rope_length = j["rope"].at("length").get<double>();
  } else if (j.contains("cloth")) {
    m.kind = MeshConfig::Kind::kCloth;
    const json& cloth = j["cloth"];
    for (int i = 0; i < 2; ++i) {
      m.cloth_size[i] = cloth.at("size").at(i).get<double>();
      m.cloth_particles[i] = cloth.at("particles").at(i).get<int>();
    }
    m.cloth_shear = cloth.at("shear").get<bool>();
  } else {
    m.kind = MeshConfig::Kind::kFile;
    m.file = j.at("file").get<std::string>();
    const json& t = j.at("tetgen");
    m.tetgen.quality = t.at("quality").get<double>();
    m.tetgen.max_volume = t.at("max_volume").get<double>();
    m.tetgen.target_tets = t.at("target_tets").get<int>();
    m.tetgen.surface_faces = t.at("surface_faces").get<int>();
  }
  m.transform = transform_from_json(j.at("transform"));
  return m;
}

MotionConfig motion_from_json(const json& j) {
  MotionConfig m;
  if (j.contains("translate")) {
    const json& t = j["translate"];
    m.kind = MotionConfig::Kind::kTranslate;
    m.velocity = vec3(t.at("velocity"));
    m.steps = t.value("steps", 0);
    m.duration = t.value("duration", 0.0);
    m.start = t.value("start", 0.0);
  } else if (j.contains("shake")) {
    const json& s = j["shake"];
    m.kind = MotionConfig::Kind::kShake;
    m.direction = vec3(s.at("direction"));
    m.amplitude = s.at("amplitude").get<double>();
    m.frequency = s.at("frequency").get<double>();
    m.steps = s.value("steps", 0);
    m.duration = s.value("duration", 0.0);
    m.start = s.value("start", 0.0);
  } else if (j.contains("twist")) {
    const json& t = j["twist"];
    m.kind = MotionConfig::Kind::kTwist;
    m.axis = vec3(t.at("axis"));
    if (t.contains("point")) m.point = vec3(t["point"]);
    m.angular_velocity = t.at("angular_velocity").get<double>();
    m.steps = t.value("steps", 0);
    m.duration = t.value("duration", 0.0);
    m.start = t.value("start", 0.0);
  }
  return m;
}

WindConfig wind_from_json(const json& j) {
  WindConfig w;
  w.pressure = j.at("pressure").get<double>();
  w.direction = vec3(j.at("direction"));
  const json& gust = j.at("gust");
  w.gust_amplitude = gust.at("amplitude").get<double>();
  w.gust_frequency = gust.at("frequency").get<double>();
  const json& sway = j.at("sway");
  w.sway_axis = vec3(sway.at("axis"));
  w.sway_angle_deg = sway.at("angle_deg").get<double>();
  w.sway_frequency = sway.at("frequency").get<double>();
  return w;
}

ObstacleConfig obstacle_from_json(const json& j) {
  ObstacleConfig o;
  if (j.contains("plane")) {
    const json& plane = j["plane"];
    o.kind = ObstacleConfig::Kind::kPlane;
    o.point = vec3(plane.at("point"));
    o.normal = vec3(plane.at("normal"));
    o.stiffness = plane.value("stiffness", 0.0);  // 0: the factory's default
    o.pressure_stiffness = plane.value("pressure_stiffness", 0.0);
  } else if (j.contains("mesh")) {
    const json& mesh = j["mesh"];
    o.kind = ObstacleConfig::Kind::kMesh;
    o.file = mesh.at("file").get<std::string>();
    o.transform = transform_from_json(mesh.at("transform"));
    if (mesh.contains("motion")) o.motion = motion_from_json(mesh["motion"]);
  } else {
    const json& sphere = j.at("sphere");
    o.kind = ObstacleConfig::Kind::kSphere;
    o.center = vec3(sphere.at("center"));
    o.radius = sphere.at("radius").get<double>();
  }
  return o;
}

ObjectConfig object_from_json(const json& j) {
  ObjectConfig o;
  o.name = j.at("name").get<std::string>();
  o.mesh = mesh_from_json(j.at("mesh"));
  const json& mat = j.at("material");
  o.material.model = mat.at("model").get<std::string>();
  o.material.E = mat.at("E").get<double>();
  if (mat.contains("E_file")) o.material.E_file = mat["E_file"].get<std::string>();
  o.material.nu = mat.at("nu").get<double>();
  o.material.density = mat.at("density").get<double>();
  o.material.stiffness = mat.at("stiffness").get<double>();
  o.material.particle_mass = mat.at("particle_mass").get<double>();
  if (mat.contains("C")) {
    VoigtTensor C;
    for (int i = 0; i < 6; ++i)
      for (int k = 0; k < 6; ++k) C(i, k) = mat["C"][i][k].get<double>();
    o.material.C = C;
  }
  for (const json& r : j.at("regions")) {
    RegionConfig region;
    region.select = selection_from_json(r.at("select"));
    region.E = optional_number(r, "E");
    region.nu = optional_number(r, "nu");
    region.density = optional_number(r, "density");
    region.stiffness = optional_number(r, "stiffness");
    region.particle_mass = optional_number(r, "particle_mass");
    o.regions.push_back(std::move(region));
  }
  for (const json& d : j.at("dirichlet")) {
    DirichletConfig dirichlet;
    dirichlet.select = selection_from_json(d.at("select"));
    if (d.contains("motion")) dirichlet.motion = motion_from_json(d["motion"]);
    dirichlet.release_step = d.value("release_step", 0);
    dirichlet.release_time = optional_number(d, "release_time");
    o.dirichlet.push_back(std::move(dirichlet));
  }
  o.gravity_scale = j.at("gravity_scale").get<double>();
  if (j.contains("reference")) o.reference_mesh = mesh_from_json(j["reference"].at("mesh"));
  const json& eigenfit = j.at("eigenfit");
  const std::string method = eigenfit.at("method").get<std::string>();
  o.eigenfit.method = method == "eigenfit" ? EigenFitConfig::Method::kEigenFit
                      : method == "dac"    ? EigenFitConfig::Method::kDac
                                           : EigenFitConfig::Method::kNone;
  o.eigenfit.modes = eigenfit.at("modes").get<int>();
  if (eigenfit.contains("ratios"))
    o.eigenfit.ratios = eigenfit["ratios"].get<std::vector<double>>();
  o.eigenfit.plain_on_tracking_failure =
      eigenfit.at("on_tracking_failure").get<std::string>() == "plain";
  const json& coarsening = j.at("coarsening");
  const std::string coarsen = coarsening.at("method").get<std::string>();
  o.coarsening.method = coarsen == "harmonic"       ? CoarseningConfig::Method::kHarmonic
                        : coarsen == "average_lame" ? CoarseningConfig::Method::kAverageLame
                        : coarsen == "galerkin"     ? CoarseningConfig::Method::kGalerkin
                                                    : CoarseningConfig::Method::kNone;
  o.coarsening.coarse_normals = coarsening.at("neumann_normal").get<std::string>() == "coarse";
  const std::string boundary = coarsening.at("boundary").get<std::string>();
  o.coarsening.boundary = boundary == "mixed" ? CoarseningConfig::Boundary::kMixed
                                              : CoarseningConfig::Boundary::kNeumann;
  const json& init = j.at("initial");
  o.initial.velocity = vec3(init.at("velocity"));
  o.initial.angular_velocity = vec3(init.at("angular_velocity"));
  for (const char* key : {"stretch", "compress"}) {
    if (!init.contains(key)) continue;
    const double amount = init[key].at("amount").get<double>();
    o.initial.axial_scales.push_back({init[key].at("axis").get<std::string>()[0] - 'x',
                                      std::string(key) == "stretch" ? 1.0 + amount : 1.0 - amount});
  }
  if (init.contains("twist")) {
    TwistConfig twist;
    twist.axis = init["twist"].at("axis").get<std::string>()[0] - 'x';
    twist.angle_deg = init["twist"].at("angle_deg").get<double>();
    o.initial.twist = twist;
  }
  return o;
}

ContactConfig contact_from_json(const json& contact) {
  ContactConfig cc;
  cc.dhat = contact.at("dhat").get<double>();
  cc.kappa = contact.value("kappa", 0.0);
  cc.self = contact.at("self").get<bool>();
  cc.friction = contact.at("friction").get<double>();
  cc.epsv = contact.at("epsv").get<double>();
  cc.lag_updates = contact.at("lag_updates").get<int>();
  return cc;
}

void read_damping(const json& damping, DampingConfig& d) {
  d.mass = damping.at("mass").get<double>();
  d.stiffness = damping.at("stiffness").get<double>();
  d.stiffness_at = damping.at("stiffness_at").get<std::string>() == "current"
                       ? DampingConfig::StiffnessAt::kCurrent
                       : DampingConfig::StiffnessAt::kRest;
  if (damping.contains("viscous")) {
    d.viscous_k_d = damping["viscous"].at("k_d").get<double>();
    d.viscous_implicit = damping["viscous"].at("form").get<std::string>() == "implicit";
  }
}

/// The integrator's type, predictor and Newton settings.
void read_integrator_newton(const json& integrator, IntegratorConfig& i) {
  i.type = integrator.at("type").get<std::string>();
  i.predictor = integrator.at("predictor").get<std::string>();
  const json& newton = integrator.at("newton");
  i.newton.tolerance = newton.at("tolerance").get<double>();
  i.newton.max_iterations = newton.at("max_iterations").get<int>();
  i.newton.line_search = newton.at("line_search").get<bool>();
  i.newton.step_halving = newton.at("step_halving").get<bool>();
  i.newton.projection = newton.at("projection").get<std::string>();
  i.newton.reuse_factorization = newton.at("reuse_factorization").get<std::string>();
  i.newton.reuse_contraction = newton.at("reuse_contraction").get<double>();
  i.newton.direction_tolerance = newton.at("direction_tolerance").get<double>();
  i.newton.direction_norm = newton.at("direction_norm").get<std::string>();
}

void read_solver(const json& solver, SolverConfig& s) {
  s.type = solver.at("type").get<std::string>();
  s.tolerance = solver.at("tolerance").get<double>();
  s.max_iterations = solver.at("max_iterations").get<int>();
  s.partitions = solver.at("partitions").get<int>();
  s.fine_iterations =
      solver.at("fine_iterations").is_string() ? -1 : solver.at("fine_iterations").get<int>();
  s.subspace_tolerance = solver.at("subspace_tolerance").get<double>();
  s.assembled_subspace = solver.at("subspace_products").get<std::string>() == "assembled";
  s.sms_deflation = solver.at("sms_deflation").get<std::string>() == "affine";
  s.sms_ritz_vectors = solver.at("sms_ritz_vectors").get<int>();
  s.jump_penalty = solver.at("jump_penalty").get<double>();
  s.contrast_cap = solver.at("contrast_cap").get<double>();
  s.seed = solver.at("seed").get<int>();
  s.dirichlet_aware = solver.at("dirichlet_aware").get<bool>();
  s.basis = solver.at("basis").get<std::string>();
  s.cache = solver.at("cache").get<std::string>();
  s.cubature = solver.at("cubature").get<bool>();
  s.cubature_max_points = solver.at("cubature_max_points").get<int>();
  s.cubature_stop_on_miss = solver.at("cubature_on_miss").get<std::string>() == "stop";
  s.lag_elastic_hessian = solver.at("lag_elastic_hessian").get<bool>();
  s.lag_window = solver.at("lag_window").get<int>();
  s.lag_threshold = solver.at("lag_threshold").get<double>();
  s.lag_interval = solver.at("lag_interval").get<int>();
  s.fine_residual_subspace = solver.at("fine_residual").get<std::string>() == "subspace";
}

/// The integrator's settings other than its type, predictor and Newton's.
void read_integrator_settings(const json& integrator, IntegratorConfig& i) {
  i.newmark_beta = integrator.at("newmark_beta").get<double>();
  i.newmark_gamma = integrator.at("newmark_gamma").get<double>();
  i.rho_inf = integrator.at("rho_inf").get<double>();
  i.alpha = integrator.at("alpha").get<double>();
  i.reinject_residual = integrator.at("reinject_residual").get<bool>();
  i.modes = integrator.at("modes").get<int>();
  i.eigen_refresh = integrator.at("eigen_refresh").get<int>();
  i.krylov_dimension = integrator.at("krylov").at("dimension").get<int>();
  i.krylov_tolerance = integrator.at("krylov").at("tolerance").get<double>();
  i.krylov_max_substeps = integrator.at("krylov").at("max_substeps").get<int>();
  const json& eigensolver = integrator.at("eigensolver");
  i.eigensolver_max_iterations = eigensolver.at("max_iterations").get<int>();
  i.eigensolver_tolerance = eigensolver.at("tolerance").get<double>();
  i.mssi_literal = integrator.at("mssi_form").get<std::string>() == "literal";
  i.eigen_tracking = integrator.at("eigen_update").get<std::string>() == "subspace";
  i.printed_phi_argument = integrator.at("phi_argument").get<std::string>() == "printed";
}

void read_output(const json& output, OutputConfig& o) {
  o.dir = output.at("dir").get<std::string>();
  o.every = output.value("every", 0);
  o.interval = output.value("interval", 0.0);
  o.frames = output.at("frames").get<std::vector<std::string>>();
  o.surface = output.at("surface").get<bool>();
  o.compress = output.at("compress").get<bool>();
  o.points = output.at("points").get<std::string>();
}

}  // namespace

Selection selection_from_json(const json& j) {
  Selection s;
  if (j.contains("side")) {
    s.kind = Selection::Kind::kSide;
    s.side = j["side"].get<std::string>();
    s.tol = j.value("tol", s.tol);
  } else if (j.contains("box")) {
    s.kind = Selection::Kind::kBox;
    s.min = vec3(j["box"].at("min"));
    s.max = vec3(j["box"].at("max"));
  } else if (j.contains("sphere")) {
    s.kind = Selection::Kind::kSphere;
    s.center = vec3(j["sphere"].at("center"));
    s.radius = j["sphere"].at("radius").get<double>();
  } else if (j.contains("region")) {
    s.kind = Selection::Kind::kRegion;
    s.region = j["region"].get<int>();
  } else if (j.contains("vertices")) {
    s.kind = Selection::Kind::kVertices;
    s.vertices = j["vertices"].get<std::vector<int>>();
  } else {
    s.kind = Selection::Kind::kAll;
  }
  return s;
}

SceneConfig scene_from_json(const json& j) {
  SceneConfig c;
  c.name = j.at("name").get<std::string>();
  c.format = j.at("format").get<int>();
  c.time.dt = j.at("time").at("dt").get<double>();
  const json& time = j.at("time");
  c.time.steps =
      time.contains("steps") ? std::optional<int>(time["steps"].get<int>()) : std::nullopt;
  c.time.end = optional_number(time, "end");
  if (time.contains("adaptive")) c.time.adaptive = adaptive_from_json(time["adaptive"]);
  for (const json& o : j.at("objects")) c.objects.push_back(object_from_json(o));
  c.gravity = vec3(j.at("gravity"));
  if (j.contains("wind")) c.wind = wind_from_json(j["wind"]);
  if (j.contains("obstacles"))
    for (const json& o : j["obstacles"]) c.obstacles.push_back(obstacle_from_json(o));
  if (j.contains("contact")) c.contact = contact_from_json(j["contact"]);
  c.lumped_mass = j.at("mass").get<std::string>() == "lumped";
  read_damping(j.at("damping"), c.damping);
  const json& integrator = j.at("integrator");
  read_integrator_newton(integrator, c.integrator);
  read_solver(j.at("solver"), c.solver);
  read_integrator_settings(integrator, c.integrator);
  read_output(j.at("output"), c.output);
  c.threads = j.at("threads").get<int>();
  c.reference_run = j.at("reference").at("run").get<bool>();
  c.reference_track = j.at("reference").at("track").get<std::vector<int>>();
  c.normalized = j;
  return c;
}

}  // namespace simrun
