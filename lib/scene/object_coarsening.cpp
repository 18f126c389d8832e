#include "scene/object_coarsening.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>
#include <sstream>

#include "coarsen/galerkin_stiffness.hpp"
#include "coarsen/tet_overlap.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "fem/tet_elements.hpp"
#include "io/cache_dir.hpp"
#include "material/voigt.hpp"
#include "scene/coarsening_cache.hpp"
#include "scene/memory_estimate.hpp"

namespace simrun {

namespace {

/// Fine vertices held at zero in the mixed harmonic problems: the fixed, never released
/// Dirichlet groups (thesis Sec. 4.3.9: "vertices always fixed during simulation").
std::vector<int> always_fixed_vertices(const ObjectPieces& pieces) {
  std::vector<int> fixed;
  for (const DirichletGroup& group : pieces.groups)
    if (group.motion.kind == PrescribedMotion::Kind::kFixed &&
        group.release_time == std::numeric_limits<double>::infinity())
      fixed.insert(fixed.end(), group.vertices.begin(), group.vertices.end());
  std::sort(fixed.begin(), fixed.end());
  fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
  return fixed;
}

std::vector<LameParameters> lame_of(const ObjectPieces& pieces) {
  std::vector<LameParameters> lame;
  for (int e = 0; e < pieces.mesh.num_tets(); ++e)
    lame.push_back(lame_from_young_poisson(pieces.youngs[e], pieces.poisson[e]));
  return lame;
}

/// Up to ten indices of `tets` and how many more, for messages.
std::string list_tets(const std::vector<int>& tets) {
  std::ostringstream s;
  for (size_t k = 0; k < std::min<size_t>(tets.size(), 10); ++k) s << (k ? ", " : "") << tets[k];
  if (tets.size() > 10) s << " and " << tets.size() - 10 << " more";
  return s.str();
}

/// Per coarse tet, the volume the fine mesh fills in it.
VecX overlap_sum(const TetOverlaps& overlaps, int num_coarse) {
  VecX volume = VecX::Zero(num_coarse);
  for (int k = 0; k < overlaps.size(); ++k) volume[overlaps.coarse[k]] += overlaps.volume[k];
  return volume;
}

VecX overlap_average(const VecX& fine_values, const TetOverlaps& overlaps, int num_coarse) {
  const VecX volume = overlap_sum(overlaps, num_coarse);
  VecX sum = VecX::Zero(num_coarse);
  for (int k = 0; k < overlaps.size(); ++k)
    sum[overlaps.coarse[k]] += overlaps.volume[k] * fine_values[overlaps.fine[k]];
  for (int q = 0; q < num_coarse; ++q) sum[q] = volume[q] > 0.0 ? sum[q] / volume[q] : 0.0;
  return sum;
}

}  // namespace

ObjectCoarsening coarsen_object(const ObjectConfig& object, size_t index,
                                const std::string& scene_file, double dt,
                                const ObjectPieces& coarse, bool reuse_cache) {
  const std::string at = scene_file + ": " + object_pointer(index);
  ObjectCoarsening out;
  ObjectConfig fine_object = object;
  fine_object.mesh = *object.reference_mesh;
  fine_object.reference_mesh.reset();
  fine_object.coarsening = {};
  // The fine mesh is built and factorized here, before the run's own memory check: its estimate
  // comes first (a box's counts before generating it, any mesh's once read).
  const MeshConfig& fine_mesh = *object.reference_mesh;
  if (fine_mesh.kind == MeshConfig::Kind::kBox) {
    const Eigen::Vector3d cells = fine_mesh.box_cells.cast<double>();
    require_memory(at + "/reference/mesh/box/cells", (cells.array() + 1.0).prod(),
                   cells.prod() * fine_mesh.box_split, /*factorizes=*/true);
  }
  std::vector<std::string> fine_notes;
  out.fine = build_object(fine_object, index, scene_file, dt, fine_notes);
  const TetMesh& fine = out.fine.mesh;
  require_memory(at + "/reference/mesh", fine.num_vertices(), fine.num_tets(),
                 /*factorizes=*/true);
  const int nq = coarse.mesh.num_tets();

  const std::filesystem::path cache_dir = user_cache_dir();
  const bool mixed_boundary = object.coarsening.boundary == CoarseningConfig::Boundary::kMixed;
  const std::uint64_t key =
      coarsening_key(object.coarsening, out.fine, coarse.mesh,
                     mixed_boundary ? always_fixed_vertices(out.fine) : std::vector<int>{});
  const std::filesystem::path cache_file =
      cache_dir.empty() ? cache_dir : coarsening_cache_file(cache_dir, key);
  const bool galerkin = object.coarsening.method == CoarseningConfig::Method::kGalerkin;
  if (reuse_cache && !galerkin && !cache_dir.empty() &&
      read_coarsening_cache(cache_file, key, nq, coarse.mesh.num_vertices(), fine.num_vertices(),
                            out)) {
    out.notes.insert(
        out.notes.begin(),
        object_pointer(index) + "/coarsening: inputs unchanged, reused " + cache_file.string());
    return out;
  }
  const TetElements fine_el = precompute_tet_elements(fine.vertices, fine.tets);
  const TetElements coarse_el = precompute_tet_elements(coarse.mesh.vertices, coarse.mesh.tets);

  Timer timer;
  const TetOverlaps overlaps = tet_overlaps(fine, coarse.mesh);
  out.overlap_pairs = overlaps.size();
  out.overlap_seconds = timer.seconds();
  const std::vector<double> covered = fine_covered_volume(overlaps, fine.num_tets());
  double uncovered = 0.0;
  for (int p = 0; p < fine.num_tets(); ++p)
    uncovered += std::max(0.0, fine_el.volume[p] - covered[p]);
  out.uncovered_fine_fraction = uncovered / fine_el.volume.sum();
  if (out.uncovered_fine_fraction > 1e-3)
    throw InputError(at + "/mesh: the coarse mesh does not cover the reference (fine) mesh: " +
                     std::to_string(100.0 * out.uncovered_fine_fraction) +
                     " % of the fine volume lies outside it (numerical coarsening needs a coarse "
                     "mesh around the whole object)");

  const std::vector<LameParameters> fine_lame = lame_of(out.fine);
  if (object.coarsening.method == CoarseningConfig::Method::kHarmonic) {
    std::vector<VoigtTensor> fine_tensors;
    for (const LameParameters& l : fine_lame)
      fine_tensors.push_back(isotropic_voigt(l.mu, l.lambda));
    HarmonicOptions options;
    options.normal =
        object.coarsening.coarse_normals ? NeumannNormal::kCoarse : NeumannNormal::kFine;
    options.coarse = &coarse.mesh;
    const auto homogenize = [&](const HarmonicOptions& o, HarmonicDisplacements& harmonic) {
      timer.reset();
      harmonic =
          solve_harmonic_displacements(fine, fine_el, fine_tensors, o, at + "/reference/mesh");
      out.harmonic_seconds += timer.seconds();
      timer.reset();
      HomogenizedTensors h = homogenize_tensors(fine, fine_el, fine_tensors, harmonic.fields,
                                                coarse.mesh, coarse_el, overlaps);
      out.tensor_seconds += timer.seconds();
      return h;
    };
    out.homogenized = homogenize(options, out.harmonic);
    out.tensors = out.homogenized.tensors;
    if (object.coarsening.boundary == CoarseningConfig::Boundary::kMixed) {
      options.fixed_vertices = always_fixed_vertices(out.fine);
      if (options.fixed_vertices.empty())
        throw InputError(at +
                         "/coarsening/boundary: 'mixed' holds the object's fixed Dirichlet "
                         "vertices, but it has none that stay fixed for the whole run");
      out.mixed_boundary = true;
      HarmonicDisplacements mixed_fields;
      const HomogenizedTensors mixed = homogenize(options, mixed_fields);
      // Coarse tets with 3-4 fixed vertices have a singular G_q: they keep the Neumann tensor.
      for (int q = 0; q < nq; ++q) {
        if (mixed.condition[q] > 1e6 || !(mixed.min_eigenvalue[q] > 0.0)) {
          ++out.neumann_fallbacks;
          continue;
        }
        out.tensors[q] = mixed.tensors[q];
        out.homogenized.condition[q] = mixed.condition[q];
      }
      out.harmonic = std::move(mixed_fields);
      out.homogenized.coarse_fields = mixed.coarse_fields;  // the fields the display map uses
    }
  } else if (galerkin) {
    // K_c = P^T K_f P, P the barycentric interpolation to the fine vertices (Kharevych Fig. 4.5).
    std::vector<VoigtTensor> fine_tensors;
    for (const LameParameters& l : fine_lame)
      fine_tensors.push_back(isotropic_voigt(l.mu, l.lambda));
    timer.reset();
    const SpMat K = voigt_stiffness(fine_el, fine_tensors, DofMap(fine.num_vertices(), {}));
    out.galerkin = galerkin_coarse_stiffness(fine, K, coarse.mesh);
    out.tensor_seconds = timer.seconds();
  } else {
    for (const LameParameters& l : average_lame(fine_lame, overlaps, coarse_el.volume))
      out.tensors.push_back(isotropic_voigt(l.mu, l.lambda));
  }

  // A coarse tet that the object fills to less than kNearlyEmpty of its volume (a boundary
  // sliver of a coarse mesh around the object) has harmonic strains from a few fine tets, or
  // none, and displacements extrapolated to vertices outside the object: its homogenized tensor
  // is not positive definite, or hundreds of times stiffer than the material (a 1.5 %-filled
  // tet of a 1e7 Pa bar measured 8e9 Pa, and backward Euler's Newton then failed on the
  // resulting system). Such tets take the averaged-Lame tensor of the material they hold
  // instead (the volume fraction times it: zero when they hold none), a warning lists them;
  // any other tensor that is not positive definite is an error.
  constexpr double kNearlyEmpty = 0.05;
  // A coarse tet whose harmonic strain matrix G_q has a condition number above this gets a
  // warning. A sliver does (tests/app/coarsening_cli_test.cpp): its P1 gradient amplifies the
  // fields' non-affine part by 1 / its height, so G_q and C_q = G_q^-T A_q G_q^-1 lose
  // balance: at cond 3e4 the largest eigenvalue of C_q is 1.5e11 Pa in a 1e7 Pa bar (a stiff,
  // badly conditioned coarse system), and near cond 1e5.5 the smallest falls below 1e-12 of it
  // (the error below). Well-shaped coarse meshes stay under it: at most 90 on the crack bar,
  // 2917 on the organ of benchmarks/coarsening_precompute.py (which prints it).
  constexpr double kIllConditioned = 1e4;
  const VecX held = overlap_sum(overlaps, nq);
  const VecX filled = held.cwiseQuotient(coarse_el.volume);
  // A coarse vertex all of whose tets lie outside the object would have neither mass nor
  // stiffness (the run's matrices would be singular there).
  std::vector<double> vertex_held(static_cast<size_t>(coarse.mesh.num_vertices()), 0.0);
  for (int q = 0; q < nq; ++q)
    for (int a = 0; a < 4; ++a) vertex_held[static_cast<size_t>(coarse.mesh.tets(q, a))] += held[q];
  std::vector<int> bare;
  for (int v = 0; v < coarse.mesh.num_vertices(); ++v)
    if (!(vertex_held[static_cast<size_t>(v)] > 0.0)) bare.push_back(v);
  if (!bare.empty())
    throw InputError(at + "/mesh: " + std::to_string(bare.size()) +
                     " coarse vertices lie only in coarse tets outside the reference (fine) mesh, "
                     "so they would have no mass or stiffness: " +
                     list_tets(bare) + " (a coarse mesh reaching too far beyond the object)");
  std::vector<LameParameters> averaged;
  std::vector<int> indefinite, nearly_empty, ill_conditioned;
  for (int q = 0; q < static_cast<int>(out.tensors.size()); ++q) {
    if (filled[q] < kNearlyEmpty) {
      if (averaged.empty()) averaged = average_lame(fine_lame, overlaps, coarse_el.volume);
      out.tensors[q] = isotropic_voigt(averaged[q].mu, averaged[q].lambda);
      nearly_empty.push_back(q);
      continue;
    }
    const Eigen::SelfAdjointEigenSolver<VoigtTensor> eig(out.tensors[q], Eigen::EigenvaluesOnly);
    if (!(eig.eigenvalues()[0] > 1e-12 * eig.eigenvalues()[5])) indefinite.push_back(q);
    if (out.homogenized.condition.size() > 0 && out.homogenized.condition[q] > kIllConditioned)
      ill_conditioned.push_back(q);
  }
  if (!indefinite.empty()) {
    const int first = indefinite.front();
    std::ostringstream detail;
    detail.precision(3);
    detail << "the first filled to " << 100.0 * filled[first] << " % by the fine mesh";
    if (out.homogenized.condition.size() > 0)
      detail << ", cond G_q " << out.homogenized.condition[first];
    throw InputError(at + "/coarsening: the homogenized tensor is not positive definite on " +
                     std::to_string(indefinite.size()) +
                     " coarse tet(s): " + list_tets(indefinite) + " (" + detail.str() +
                     "; a sliver or degenerate coarse tet?)");
  }
  if (!nearly_empty.empty())
    out.notes.push_back("warning: " + object_pointer(index) +
                        "/coarsening: " + std::to_string(nearly_empty.size()) +
                        " coarse tet(s) filled to less than " +
                        std::to_string(static_cast<int>(100 * kNearlyEmpty)) +
                        " % by the fine mesh take the averaged Lame tensor (their homogenized "
                        "one rests on too few fine tets): " +
                        list_tets(nearly_empty));
  if (!ill_conditioned.empty())
    out.notes.push_back("warning: " + object_pointer(index) +
                        "/coarsening: " + std::to_string(ill_conditioned.size()) +
                        " coarse tet(s) with an ill-conditioned harmonic strain matrix "
                        "(cond G_q > 1e4; slivers?): " +
                        list_tets(ill_conditioned));

  out.density = coarse_density(out.fine.density, overlaps, coarse_el.volume);
  out.youngs = overlap_average(out.fine.youngs, overlaps, nq);
  out.poisson = overlap_average(out.fine.poisson, overlaps, nq);

  std::ostringstream note;
  note << object_pointer(index) << "/coarsening: " << fine.num_tets() << " fine tets onto " << nq
       << " coarse, " << overlaps.size() << " overlapping pairs";
  if (object.coarsening.method == CoarseningConfig::Method::kHarmonic) {
    note << "; harmonic problems " << (out.mixed_boundary ? "mixed" : "pure Neumann")
         << ", residual " << out.harmonic.max_relative_residual << "; max cond G_q "
         << out.homogenized.condition.maxCoeff() << ", coarse vertices outside the fine mesh "
         << out.homogenized.coarse_in_fine.num_outside;
  }
  if (out.mixed_boundary)
    note << "; " << out.neumann_fallbacks
         << " coarse tets at the fixed vertices took their pure-Neumann tensor";
  out.notes.insert(out.notes.begin(), note.str());
  if (!cache_dir.empty())
    out.notes.push_back(
        write_coarsening_cache(cache_file, key, out)
            ? object_pointer(index) + "/coarsening: cached in " + cache_file.string()
            : "warning: could not write the coarsening cache " + cache_file.string());
  return out;
}

void apply_coarsening(const ObjectCoarsening& coarsening, ObjectPieces& coarse) {
  coarse.stiffness = coarsening.tensors;
  coarse.galerkin_stiffness = coarsening.galerkin;
  coarse.density = coarsening.density;
  coarse.youngs = coarsening.youngs;
  coarse.poisson = coarsening.poisson;
}

}  // namespace simrun
