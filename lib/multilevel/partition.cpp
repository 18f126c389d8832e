/// Stiffness- and geometry-aware k-means partition (see partition.hpp).
#include "multilevel/partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "multilevel/heat_geodesic.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

void validate(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
              const std::vector<int>& material, const PartitionSettings& s) {
  const auto tet_count = static_cast<long>(tets.rows());
  require(tet_count > 0, "solver.partitions: the mesh has no tets to partition");
  require(s.clusters >= 1 && s.clusters <= tet_count,
          "solver.partitions: expected 1.." + std::to_string(tet_count) +
              " (at most one partition per tet), got " + std::to_string(s.clusters));
  require(s.max_iterations >= 1, "solver.partition_iterations: expected at least 1, got " +
                                     std::to_string(s.max_iterations));
  require(s.prune_interval >= 1,
          "solver.prune_interval: expected at least 1, got " + std::to_string(s.prune_interval));
  require(std::isfinite(s.prune_ratio) && s.prune_ratio >= 1.0,
          "solver.prune_ratio: expected a ratio >= 1 (paper: 1.75), got " +
              short_number(s.prune_ratio));
  require(std::isfinite(s.jump_penalty) && s.jump_penalty >= 0.0 && s.jump_penalty <= 1.0,
          "solver.jump_penalty: expected 0 (off) or a factor in (0, 1] (paper: 0.1-0.5), got " +
              short_number(s.jump_penalty));
  require(s.contrast_cap == 0.0 || (std::isfinite(s.contrast_cap) && s.contrast_cap >= 1.0),
          "solver.contrast_cap: expected 0 (no cap) or a ratio >= 1, got " +
              short_number(s.contrast_cap));
  require(youngs.size() == tet_count, "partition: expected one Young's modulus per tet (" +
                                          plural(tet_count, "tet") + "), got " +
                                          std::to_string(youngs.size()));
  require(material.empty() || static_cast<long>(material.size()) == tet_count,
          "partition: expected one material id per tet (" + plural(tet_count, "tet") +
              ") or none, got " + std::to_string(material.size()));
  require(tets.minCoeff() >= 0 && tets.maxCoeff() < rest.rows(),
          "partition: a tet refers to a vertex outside 0.." + std::to_string(rest.rows() - 1));
}

/// Uniform double in [0, 1) from the top 53 bits (portable, unlike std distributions).
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Index drawn with probability proportional to weight[i] (cumulative sums, binary search);
/// -1 when all weights are zero.
int sample_proportional(const std::vector<double>& weight, std::mt19937_64& rng) {
  std::vector<double> cumulative(weight.size());
  std::partial_sum(weight.begin(), weight.end(), cumulative.begin());
  if (cumulative.empty() || !(cumulative.back() > 0.0)) return -1;
  const double target = uniform01(rng) * cumulative.back();
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
  return static_cast<int>(std::min<std::ptrdiff_t>(it - cumulative.begin(),
                                                   static_cast<std::ptrdiff_t>(weight.size()) - 1));
}

/// Mean of the tet's vertex distances in column c of `distance` (elements are clustered at
/// their barycentres; Trusty et al. Sec. 3.6.1 leaves this open).
double element_distance(const MatX& distance, const MatX4i& tets, int e, int c) {
  return 0.25 * (distance(tets(e, 0), c) + distance(tets(e, 1), c) + distance(tets(e, 2), c) +
                 distance(tets(e, 3), c));
}

/// kmeans++ seeding (Arthur and Vassilvitskii 2007) with the heat distance, "D sampling" as in
/// the author's simkit: the next seed's tet is drawn with probability proportional to
/// V_e * D_e (volume-weighted so the seeding does not depend on the mesh density), D_e the
/// element distance to the nearest seed. Tets the heat of no seed reaches (another piece of the
/// mesh) are drawn first, by volume, so every piece gets a seed while seeds last. The seed is
/// the tet's vertex farthest from the existing seeds.
std::vector<int> seed_centers(const HeatGeodesic& geodesic, const MatX4i& tets, const VecX& volume,
                              int k, std::mt19937_64& rng) {
  const int elements = static_cast<int>(tets.rows());
  std::vector<int> centers;
  VecX nearest = VecX::Constant(geodesic.vertex_count(), kInfinity);
  while (static_cast<int>(centers.size()) < k) {
    std::vector<double> unreached(elements, 0.0), reached(elements, 0.0);
    bool any_unreached = false;
    for (int e = 0; e < elements; ++e) {
      double d = 0.0;
      for (int a = 0; a < 4; ++a) d += 0.25 * nearest[tets(e, a)];
      if (std::isinf(d)) {
        unreached[e] = volume[e];
        any_unreached = true;
      } else {
        reached[e] = volume[e] * d;
      }
    }
    const int e = sample_proportional(any_unreached ? unreached : reached, rng);
    if (e < 0) break;  // every vertex of every tet is already a seed
    int vertex = tets(e, 0);
    for (int a = 1; a < 4; ++a)
      if (nearest[tets(e, a)] > nearest[vertex]) vertex = tets(e, a);
    centers.push_back(vertex);
    nearest = nearest.cwiseMin(geodesic.distance({vertex}));
  }
  return centers;
}

/// Nearest centre per tet (lowest index on ties), -1 when no centre's heat reaches it.
std::vector<int> assign(const MatX& distance, const MatX4i& tets, const std::vector<char>& active) {
  const int elements = static_cast<int>(tets.rows());
  const int k = static_cast<int>(distance.cols());
  std::vector<int> label(elements, -1);
#pragma omp parallel for schedule(static) \
    num_threads(thread_count()) if (elements >= kParallelElementThreshold)
  for (int e = 0; e < elements; ++e) {
    double best = kInfinity;
    for (int c = 0; c < k; ++c) {
      if (!active[c]) continue;
      const double d = element_distance(distance, tets, e, c);
      if (d < best) {
        best = d;
        label[e] = c;
      }
    }
  }
  return label;
}

std::vector<double> cluster_volumes(const std::vector<int>& label, const VecX& volume, int k) {
  std::vector<double> total(k, 0.0);
  for (std::size_t e = 0; e < label.size(); ++e)
    if (label[e] >= 0) total[label[e]] += volume[static_cast<Eigen::Index>(e)];
  return total;
}

/// Pruning (paper sec. 3.6.3): clusters with median volume / volume > ratio are candidates; the
/// smallest of them are deactivated, up to 10% of the active count and at least one (the paper
/// leaves the count n open). The last centre of a vertex-connected piece of the
/// mesh is kept, or the piece would lose its partition. Returns the number deactivated.
int prune(const std::vector<int>& label, const VecX& volume, const std::vector<int>& centers,
          const std::vector<int>& vertex_piece, double ratio, std::vector<char>& active) {
  const int k = static_cast<int>(centers.size());
  const std::vector<double> total = cluster_volumes(label, volume, k);
  std::vector<int> live;
  for (int c = 0; c < k; ++c)
    if (active[c]) live.push_back(c);
  if (live.size() < 2) return 0;
  std::vector<double> sorted;
  for (int c : live) sorted.push_back(total[c]);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  const double median = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);

  std::vector<int> candidates;
  for (int c : live)
    if (median > ratio * total[c]) candidates.push_back(c);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int a, int b) { return total[a] < total[b]; });
  std::vector<int> centers_in_piece(*std::max_element(vertex_piece.begin(), vertex_piece.end()) + 1,
                                    0);
  for (int c : live) ++centers_in_piece[vertex_piece[centers[c]]];
  const int budget = std::max(1, static_cast<int>(live.size()) / 10);
  int removed = 0;
  for (int c : candidates) {
    if (removed == budget) break;
    int& in_piece = centers_in_piece[vertex_piece[centers[c]]];
    if (in_piece <= 1) continue;
    --in_piece;
    active[c] = 0;
    ++removed;
  }
  return removed;
}

/// Per label 0..count-1: the volume-weighted centroid of its tets' barycentres, snapped to the
/// nearest vertex of one of its own tets (the paper's handles sit at centroids, Sec. 3.5; the
/// centroid of a non-convex partition may lie outside it). Lowest vertex index on ties; -1 for an
/// empty label.
std::vector<int> snapped_centroids(const MatX3& rest, const MatX4i& tets, const VecX& volume,
                                   const std::vector<int>& label, int count) {
  const int elements = static_cast<int>(tets.rows());
  std::vector<Vec3> moment(count, Vec3::Zero());
  std::vector<double> total(count, 0.0);
  for (int e = 0; e < elements; ++e) {
    if (label[e] < 0) continue;
    Vec3 barycentre = Vec3::Zero();
    for (int a = 0; a < 4; ++a) barycentre += 0.25 * rest.row(tets(e, a)).transpose();
    moment[label[e]] += volume[e] * barycentre;
    total[label[e]] += volume[e];
  }
  std::vector<int> vertex(count, -1);
  std::vector<double> best(count, kInfinity);
  for (int e = 0; e < elements; ++e) {
    const int c = label[e];
    if (c < 0 || !(total[c] > 0.0)) continue;
    const Vec3 centroid = moment[c] / total[c];
    for (int a = 0; a < 4; ++a) {
      const int v = tets(e, a);
      const double d = (rest.row(v).transpose() - centroid).squaredNorm();
      if (d < best[c] || (d == best[c] && v < vertex[c])) {
        best[c] = d;
        vertex[c] = v;
      }
    }
  }
  return vertex;
}

/// Face-connected components of the tets of equal label: component id per tet.
std::vector<int> label_components(const std::vector<std::vector<int>>& adjacency,
                                  const std::vector<int>& label, int& component_count) {
  const int elements = static_cast<int>(label.size());
  std::vector<int> component(elements, -1), stack;
  component_count = 0;
  for (int start = 0; start < elements; ++start) {
    if (component[start] >= 0) continue;
    component[start] = component_count;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int e = stack.back();
      stack.pop_back();
      for (int f : adjacency[e])
        if (component[f] < 0 && label[f] == label[e]) {
          component[f] = component_count;
          stack.push_back(f);
        }
    }
    ++component_count;
  }
  return component;
}

/// Connectivity repair (Trusty et al. Sec. 3.6 wants connected partitions; k-means does not
/// guarantee them), in rounds: per label the face-connected component of largest volume is its
/// main one; every other component (and every component of tets no centre reached, label -1) is
/// stray and joins the label whose main component shares the most faces with it (ties: lowest
/// label). A stray that touches no main component waits
/// for the next round; when a round moves nothing, the strays left are cut off from every main
/// component (a separate piece of the mesh), and the first becomes a partition of its own.
/// Ends with labels 0..count-1, each face-connected and non-empty. Returns the strays moved or
/// promoted.
int repair_connectivity(const MatX4i& tets, const VecX& volume, std::vector<int>& label) {
  const std::vector<std::vector<int>> adjacency = face_adjacent_tets(tets);
  const int elements = static_cast<int>(label.size());
  int repaired = 0;
  for (;;) {
    int count = 0;
    const std::vector<int> component = label_components(adjacency, label, count);
    std::vector<double> component_volume(count, 0.0);
    std::vector<int> component_label(count, -1);
    for (int e = 0; e < elements; ++e) {
      component_volume[component[e]] += volume[e];
      component_label[component[e]] = label[e];
    }
    const int labels = 1 + *std::max_element(label.begin(), label.end());
    std::vector<int> main_component(std::max(labels, 0), -1);
    for (int c = 0; c < count; ++c) {
      const int l = component_label[c];
      if (l >= 0 &&
          (main_component[l] < 0 || component_volume[c] > component_volume[main_component[l]]))
        main_component[l] = c;
    }
    std::vector<int> strays;
    for (int c = 0; c < count; ++c)
      if (component_label[c] < 0 || main_component[component_label[c]] != c) strays.push_back(c);
    if (strays.empty()) break;

    // Faces each stray shares with each main component (by the main component's label).
    std::vector<std::vector<std::pair<int, int>>> shared(count);
    for (int e = 0; e < elements; ++e) {
      const int c = component[e];
      if (component_label[c] >= 0 && main_component[component_label[c]] == c) continue;
      for (int f : adjacency[e]) {
        const int other = component[f];
        const int l = component_label[other];
        if (l < 0 || main_component[l] != other) continue;
        auto& list = shared[c];
        auto it = std::find_if(list.begin(), list.end(), [l](auto& p) { return p.first == l; });
        if (it == list.end())
          list.emplace_back(l, 1);
        else
          ++it->second;
      }
    }
    std::vector<int> target(count, -1);
    bool moved = false;
    for (int c : strays) {
      int best_label = -1, best_faces = 0;
      for (const auto& [l, faces] : shared[c])
        if (faces > best_faces || (faces == best_faces && l < best_label)) {
          best_label = l;
          best_faces = faces;
        }
      target[c] = best_label;
      moved = moved || best_label >= 0;
    }
    if (!moved) target[strays.front()] = labels;  // cut off: a partition of its own
    for (int e = 0; e < elements; ++e)
      if (target[component[e]] >= 0) label[e] = target[component[e]];
    repaired += moved ? static_cast<int>(std::count_if(strays.begin(), strays.end(),
                                                       [&](int c) { return target[c] >= 0; }))
                      : 1;
  }
  // Renumber 0..count-1 in order of the old labels (drops labels left empty).
  const int labels = 1 + *std::max_element(label.begin(), label.end());
  std::vector<int> renumber(labels, -1);
  std::vector<char> used(labels, 0);
  for (int l : label) used[l] = 1;
  int next = 0;
  for (int l = 0; l < labels; ++l)
    if (used[l]) renumber[l] = next++;
  for (int& l : label) l = renumber[l];
  return repaired;
}
}  // namespace

VecX partition_element_weights(const MatX4i& tets, const VecX& youngs,
                               const std::vector<int>& material, double jump_penalty,
                               double contrast_cap) {
  const int elements = static_cast<int>(tets.rows());
  if (elements == 0) return {};
  VecX weight = youngs / youngs.minCoeff();
  if (contrast_cap > 0.0) weight = weight.cwiseMin(contrast_cap);
  if (jump_penalty <= 0.0 || material.empty()) return weight;
  // A vertex is on an interface when its tets carry more than one material id.
  const int vertices = tets.maxCoeff() + 1;
  std::vector<int> first_material(vertices, -1);
  std::vector<char> interface(vertices, 0);
  for (int e = 0; e < elements; ++e)
    for (int a = 0; a < 4; ++a) {
      int& seen = first_material[tets(e, a)];
      if (seen < 0) seen = material[e];
      if (seen != material[e]) interface[tets(e, a)] = 1;
    }
  // Trusty et al. Sec. 3.6.2: every tet touching the interface gets c * E_softest.
  for (int e = 0; e < elements; ++e)
    for (int a = 0; a < 4; ++a)
      if (interface[tets(e, a)]) {
        weight[e] = jump_penalty;
        break;
      }
  return weight;
}

MeshPartition partition_tets(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                             const std::vector<int>& material, const PartitionSettings& settings) {
  validate(rest, tets, youngs, material, settings);
  for (int e = 0; e < tets.rows(); ++e)
    require(std::isfinite(youngs[e]) && youngs[e] > 0.0,
            "partition: tet " + std::to_string(e) + " has Young's modulus " +
                short_number(youngs[e]) + "; expected a positive number");

  const HeatGeodesic geodesic(
      rest, tets,
      partition_element_weights(tets, youngs, material, settings.jump_penalty,
                                settings.contrast_cap));
  const VecX volume = tet_volumes(rest, tets).cwiseAbs();
  std::mt19937_64 rng(settings.seed);

  MeshPartition result;
  std::vector<int> centers = seed_centers(geodesic, tets, volume, settings.clusters, rng);
  std::vector<int> label;
  for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
    result.lloyd_iterations = iteration;
    const MatX distance = geodesic.distance_batch(centers);
    std::vector<char> active(centers.size(), 1);
    label = assign(distance, tets, active);
    int removed = 0;
    if (iteration % settings.prune_interval == 0) {
      removed =
          prune(label, volume, centers, geodesic.vertex_piece(), settings.prune_ratio, active);
      if (removed > 0) label = assign(distance, tets, active);
    }
    // Clusters no tet chose (a duplicate or crowded-out centre) are dropped too.
    const std::vector<double> total = cluster_volumes(label, volume, centers.size());
    for (std::size_t c = 0; c < centers.size(); ++c)
      if (active[c] && !(total[c] > 0.0)) {
        active[c] = 0;
        ++removed;
      }
    result.pruned += removed;

    // Update (Lloyd): volume-weighted centroid snapped to a vertex of the cluster's tets.
    std::vector<int> remap(centers.size(), -1);
    int live = 0;
    for (std::size_t c = 0; c < centers.size(); ++c)
      if (active[c]) remap[c] = live++;
    for (int& l : label)
      if (l >= 0) l = remap[l];
    const std::vector<int> updated = snapped_centroids(rest, tets, volume, label, live);
    const bool converged = removed == 0 && updated == centers;
    centers = updated;
    if (converged) break;
  }

  result.repaired_components = repair_connectivity(tets, volume, label);
  result.element_label = std::move(label);
  const int count = *std::max_element(result.element_label.begin(), result.element_label.end()) + 1;
  result.center_vertex = snapped_centroids(rest, tets, volume, result.element_label, count);
  return result;
}

}  // namespace simrun
