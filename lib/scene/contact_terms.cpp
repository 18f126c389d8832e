#include "scene/contact_terms.hpp"

#include "contact/collision_mesh_build.hpp"
#include "contact/intersection.hpp"
#include "core/error.hpp"
#include "scene/object_pieces.hpp"

namespace simrun {

namespace {
/// The collision object of a full vertex id: a scene object, or scene.objects.size() + k for
/// the k-th mesh obstacle.
size_t object_of_vertex(const MergedObjects& objects, int vertex) {
  const size_t n_objects = objects.vertex_offset.size() - 1;
  if (vertex >= objects.vertex_offset.back())
    for (size_t k = 0; k < objects.obstacle_surfaces.size(); ++k) {
      const ObstacleSurface& o = objects.obstacle_surfaces[k];
      if (vertex < o.first_vertex + o.num_vertices) return n_objects + k;
    }
  size_t object = 0;
  while (object + 2 < objects.vertex_offset.size() && vertex >= objects.vertex_offset[object + 1])
    ++object;
  return object;
}

/// "'name' (/objects/i)" or "the obstacle /obstacles/k" for a collision object.
std::string describe_object(const SceneConfig& scene, const MergedObjects& objects, size_t object) {
  if (object < scene.objects.size())
    return "'" + scene.objects[object].name + "' (" + object_pointer(object) + ")";
  const size_t k = object - scene.objects.size();
  return "the obstacle /obstacles/" + std::to_string(objects.obstacle_surfaces[k].obstacle);
}

/// First full vertex id of a collision object (object-local vertex ids in messages).
int first_vertex_of(const MergedObjects& objects, size_t object) {
  const size_t n_objects = objects.vertex_offset.size() - 1;
  return object < n_objects ? objects.vertex_offset[object]
                            : objects.obstacle_surfaces[object - n_objects].first_vertex;
}

/// The objects' surfaces (self-contact per config) and the mesh obstacles' static ones.
CollisionMesh scene_collision_mesh(const SceneConfig& scene, const MergedObjects& objects,
                                   const ContactConfig& config) {
  std::vector<int> tet_object(objects.num_tets());
  for (size_t i = 0; i + 1 < objects.tet_offset.size(); ++i)
    for (int e = objects.tet_offset[i]; e < objects.tet_offset[i + 1]; ++e)
      tet_object[e] = static_cast<int>(i);
  CollisionMesh mesh = build_collision_mesh(objects.mesh, tet_object,
                                            std::vector<bool>(scene.objects.size(), config.self));
  for (const ObstacleSurface& obstacle : objects.obstacle_surfaces)
    append_static_surface(mesh, obstacle.faces, objects.mesh.vertices);
  return mesh;
}

/// d_hat and kappa (automatic unless given) for the scene's size, masses and step.
BarrierSettings barrier_settings(const SceneConfig& scene, const MergedObjects& objects,
                                 const VecX& nodal_mass, const ContactConfig& config) {
  const MatX3& x0 = objects.initial_positions;
  const double diagonal = (x0.colwise().maxCoeff() - x0.colwise().minCoeff()).norm();
  BarrierSettings settings;
  settings.bbox_diagonal = diagonal;
  settings.dhat = config.dhat * diagonal;
  // Over the objects' vertices (mesh obstacles add massless fixed ones).
  const double average_mass = nodal_mass.sum() / 3.0 / std::max(1, objects.vertex_offset.back());
  const double automatic =
      automatic_barrier_stiffness(average_mass, settings.dhat, diagonal, scene.time.dt);
  settings.kappa = config.kappa > 0.0 ? config.kappa : automatic;
  settings.kappa_max = 100.0 * settings.kappa;
  return settings;
}

/// Every object vertex of the collision mesh starts strictly above every contact plane.
void require_above_planes(const SceneConfig& scene, const MergedObjects& objects,
                          const ContactBarrier& barrier, const std::vector<ContactPlane>& planes,
                          const VecX& x) {
  const std::string file = scene.source.string() + ": ";
  for (size_t p = 0; p < planes.size(); ++p)
    for (int v : barrier.mesh().vertices) {
      if (v >= objects.vertex_offset.back()) continue;  // mesh obstacles do not meet planes
      const double height = planes[p].normal.dot(x.segment<3>(3 * v) - planes[p].point);
      if (!(height > 0.0)) {
        const size_t object = object_of_vertex(objects, v);
        throw InputError(file + object_pointer(object) + ": object '" + scene.objects[object].name +
                         "' starts on or below the contact plane " + "/obstacles/" +
                         std::to_string(p) + " (vertex " +
                         std::to_string(v - objects.vertex_offset[object]) + ", height " +
                         short_number(height) + " m): start every vertex above it");
      }
    }
}

/// No two surfaces touch or cross at the start.
void require_apart(const SceneConfig& scene, const MergedObjects& objects,
                   const ContactBarrier& barrier, const VecX& x) {
  const std::string file = scene.source.string() + ": ";
  double min_distance = 0.0;
  for (const auto& pair : barrier.active_pairs(x, &min_distance)) {
    if (min_distance > 0.0) break;
    if (pair.kind == ContactBarrier::Pair::Kind::kVertexPlane) continue;
    const size_t a = object_of_vertex(objects, pair.vertices[0]);
    const size_t b = object_of_vertex(objects, pair.vertices[2]);
    throw InputError(file + "/objects: " + describe_object(scene, objects, a) + " and " +
                     describe_object(scene, objects, b) +
                     " touch or intersect at t = 0 (vertices " + std::to_string(pair.vertices[0]) +
                     ", " + std::to_string(pair.vertices[1]) + ", " +
                     std::to_string(pair.vertices[2]) + ", " + std::to_string(pair.vertices[3]) +
                     " at distance 0): move them apart");
  }
  // Deep overlaps have no pair at distance 0 near the crossing: the exact face-face test
  // (contact/intersection.hpp) finds them.
  if (const auto hit = first_face_intersection(barrier.mesh(), x)) {
    const CollisionMesh& m = barrier.mesh();
    const auto face_text = [&](int f, size_t object) {
      const int offset = first_vertex_of(objects, object);
      return "face (" + std::to_string(m.faces(f, 0) - offset) + ", " +
             std::to_string(m.faces(f, 1) - offset) + ", " +
             std::to_string(m.faces(f, 2) - offset) + ")";
    };
    const auto a = static_cast<size_t>(hit->object_a), b = static_cast<size_t>(hit->object_b);
    throw InputError(file + "/objects: " + describe_object(scene, objects, a) + " and " +
                     describe_object(scene, objects, b) +
                     " intersect at t = 0: " + face_text(hit->face_a, a) +
                     " of the first crosses " + face_text(hit->face_b, b) +
                     " of the second (vertex ids of each object): " + "move them apart");
  }
}
}  // namespace

std::unique_ptr<ContactBarrier> make_contact_barrier(const SceneConfig& scene,
                                                     const MergedObjects& objects,
                                                     const VecX& nodal_mass,
                                                     std::vector<std::string>& notes) {
  const ContactConfig& config = *scene.contact;
  CollisionMesh mesh = scene_collision_mesh(scene, objects, config);
  std::vector<ContactPlane> planes;
  for (const ObstacleConfig& o : scene.obstacles)
    if (o.kind == ObstacleConfig::Kind::kPlane) planes.push_back({o.point, o.normal.normalized()});

  const MatX3& x0 = objects.initial_positions;
  const BarrierSettings settings = barrier_settings(scene, objects, nodal_mass, config);
  auto barrier = std::make_unique<ContactBarrier>(std::move(mesh), planes, settings,
                                                  VecX(as_flat(objects.mesh.vertices)));

  // The start must be intersection-free with a positive gap (the barrier is infinite at 0).
  const VecX x = as_flat(x0);
  require_above_planes(scene, objects, *barrier, planes, x);
  require_apart(scene, objects, *barrier, x);
  notes.push_back(
      "contact: " + std::to_string(barrier->mesh().num_faces()) + " surface triangles, " +
      std::to_string(barrier->mesh().num_edges()) + " edges (mesh obstacles included), " +
      std::to_string(planes.size()) + " plane(s); d_hat = " + short_number(settings.dhat) + " m (" +
      short_number(config.dhat) + " of the diagonal), kappa = " + short_number(settings.kappa) +
      " J" + (config.kappa > 0.0 ? "" : " (automatic)"));
  return barrier;
}

}  // namespace simrun
