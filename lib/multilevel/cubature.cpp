/// Modal moment-fitting cubature, Trusty et al. Sec. 3.8 (Eqs. 13-19, Alg. 3).
#include "multilevel/cubature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "multilevel/nnls.hpp"
#include "multilevel/scalar_operators.hpp"

namespace simrun {
namespace {

using RowSpMat = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

/// The rule of one partition, in global element indices.
struct PartitionFit {
  std::vector<int> elements;
  std::vector<double> weights;
  double residual = 0.0;
  int functions = 0;
  int rounds = 0;
  bool weights_only_fallback = false;
};

/// The moment matrix A (m x n_p) of Eqs. 16-17 and the targets b = A V (Eq. 19) of a partition.
struct MomentSystem {
  MatX A;
  VecX b;
  int functions = 0;
  bool weights_only_fallback = false;
};

/// Uniform double in [0, 1) from the top 53 bits of one draw (the same on every platform, unlike
/// std::uniform_real_distribution).
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Evaluates u_i at the barycentres of `elements` (vertex averages, Sec. 3.8.2) and stacks the
/// degree-2 moments {1, u_i, u_i u_j (i <= j)} into A.
MomentSystem moment_system(const MatX3& rest, const MatX4i& tets, const std::vector<int>& elements,
                           const VecX& volume, const RowSpMat& phi, const MatX3& origins,
                           bool weights_only) {
  // Handles whose weight is nonzero somewhere on the partition, with a local index each.
  std::vector<int> handles;
  Vec3 low = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 high = -low;
  for (int e : elements)
    for (int a = 0; a < 4; ++a) {
      const int v = tets(e, a);
      low = low.cwiseMin(rest.row(v).transpose());
      high = high.cwiseMax(rest.row(v).transpose());
      for (RowSpMat::InnerIterator it(phi, v); it; ++it)
        if (it.value() != 0.0) handles.push_back(it.col());
    }
  std::sort(handles.begin(), handles.end());
  handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
  std::vector<int> local(origins.rows(), -1);
  for (std::size_t i = 0; i < handles.size(); ++i) local[handles[i]] = static_cast<int>(i);

  MomentSystem system;
  const int num_handles = static_cast<int>(handles.size());
  int per_handle = weights_only ? 1 : 4;
  if (per_handle * num_handles > kMaxCubatureFunctions && per_handle > 1) {
    per_handle = 1;
    system.weights_only_fallback = true;
  }
  const int s = per_handle * num_handles;
  system.functions = s;
  // Monomials in units of the partition's size keep the rows of A comparable.
  double length = 0.5 * (high - low).norm();
  if (!(length > 0.0)) length = 1.0;

  const int n = static_cast<int>(elements.size());
  MatX u = MatX::Zero(s, n);
  for (int k = 0; k < n; ++k)
    for (int a = 0; a < 4; ++a) {
      const int v = tets(elements[k], a);
      for (RowSpMat::InnerIterator it(phi, v); it; ++it) {
        const int h = it.col();
        const int row = per_handle * local[h];
        const double quarter_phi = 0.25 * it.value();
        u(row, k) += quarter_phi;
        if (per_handle == 4)
          for (int c = 0; c < 3; ++c)
            u(row + 1 + c, k) += quarter_phi * (rest(v, c) - origins(h, c)) / length;
      }
    }

  const int m = 1 + s + s * (s + 1) / 2;
  system.A.resize(m, n);
  system.A.row(0).setOnes();
  system.A.middleRows(1, s) = u;
  int row = 1 + s;
  for (int i = 0; i < s; ++i)
    for (int j = i; j < s; ++j) system.A.row(row++) = u.row(i).cwiseProduct(u.row(j));
  VecX v(n);
  for (int k = 0; k < n; ++k) v[k] = volume[elements[k]];
  system.b = system.A * v;
  return system;
}

/// Draws up to `count` distinct candidates with probability proportional to `score` (zeroed as
/// they are taken), by inverse-CDF sampling on the running sum. Returns fewer when the remaining
/// scores sum to zero.
std::vector<int> draw_proportional(std::vector<double> score, int count, std::mt19937_64& rng) {
  std::vector<int> drawn;
  std::vector<double> cumulative(score.size());
  while (static_cast<int>(drawn.size()) < count) {
    double total = 0.0;
    for (std::size_t k = 0; k < score.size(); ++k) cumulative[k] = total += score[k];
    if (!(total > 0.0) || !std::isfinite(total)) break;
    const double target = uniform01(rng) * total;
    auto pick = static_cast<int>(std::upper_bound(cumulative.begin(), cumulative.end(), target) -
                                 cumulative.begin());
    pick = std::min(pick, static_cast<int>(score.size()) - 1);
    while (score[pick] <= 0.0) --pick;  // rounding can land on a zero-score run's end
    drawn.push_back(pick);
    score[pick] = 0.0;
  }
  return drawn;
}

/// Alg. 3 on one partition: NNLS on a growing random subset of its tets.
PartitionFit fit_partition(const MatX3& rest, const MatX4i& tets, const std::vector<int>& elements,
                           const VecX& volume, const RowSpMat& phi, const MatX3& origins,
                           const CubatureSettings& settings, int partition) {
  PartitionFit fit;
  if (elements.empty()) return fit;
  const MomentSystem system =
      moment_system(rest, tets, elements, volume, phi, origins, settings.weights_only);
  fit.functions = system.functions;
  fit.weights_only_fallback = system.weights_only_fallback;
  const int m = static_cast<int>(system.A.rows());
  const int n = static_cast<int>(system.A.cols());

  std::seed_seq seeds{static_cast<std::uint32_t>(settings.seed),
                      static_cast<std::uint32_t>(settings.seed >> 32),
                      static_cast<std::uint32_t>(partition)};
  std::mt19937_64 rng(seeds);
  // n_init = min(m, n) distinct tets, uniformly (a partial Fisher-Yates shuffle).
  std::vector<int> order(n);
  for (int k = 0; k < n; ++k) order[k] = k;
  // The sample's cap (settings.max_points); n when there is none or it is not below n.
  const int cap = settings.max_points > 0 ? std::min(n, settings.max_points) : n;
  const bool capped = cap < n;
  const int n_init = std::min({m, n, cap});
  for (int i = 0; i < n_init; ++i) {
    const int j = i + std::min(n - i - 1, static_cast<int>(uniform01(rng) * (n - i)));
    std::swap(order[i], order[j]);
  }
  std::vector<int> chosen(order.begin(), order.begin() + n_init);
  std::vector<char> is_chosen(n, 0);
  for (int k : chosen) is_chosen[k] = 1;
  const int batch = std::max(10, m / 10);

  auto add_all_remaining = [&] {
    for (int k = 0; k < n; ++k)
      if (!is_chosen[k]) {
        is_chosen[k] = 1;
        chosen.push_back(k);
      }
  };

  NnlsResult solution;
  while (true) {
    ++fit.rounds;
    MatX columns(m, static_cast<int>(chosen.size()));
    for (std::size_t c = 0; c < chosen.size(); ++c) columns.col(c) = system.A.col(chosen[c]);
    solution = solve_nnls(columns, system.b);
    if (solution.relative_residual <= settings.tolerance || static_cast<int>(chosen.size()) == n)
      break;
    if (capped && static_cast<int>(chosen.size()) >= cap) break;  // a miss, by the cap
    if (fit.rounds >= settings.max_rounds) {
      if (capped) break;
      add_all_remaining();
      continue;
    }
    // rho_k = (A_k . r)^2 for the tets not yet sampled (Alg. 3).
    const VecX r = columns * solution.x - system.b;
    const VecX projection = system.A.transpose() * r;
    std::vector<int> candidates;
    std::vector<double> score;
    for (int k = 0; k < n; ++k)
      if (!is_chosen[k]) {
        candidates.push_back(k);
        score.push_back(projection[k] * projection[k]);
      }
    const std::vector<int> drawn =
        draw_proportional(score, std::min(batch, cap - static_cast<int>(chosen.size())), rng);
    if (drawn.empty()) {
      if (capped) break;
      add_all_remaining();
      continue;
    }
    for (int d : drawn) {
      is_chosen[candidates[d]] = 1;
      chosen.push_back(candidates[d]);
    }
  }
  fit.residual = solution.relative_residual;
  for (std::size_t c = 0; c < chosen.size(); ++c)
    if (solution.x[c] > 0.0) {
      fit.elements.push_back(elements[chosen[c]]);
      fit.weights.push_back(solution.x[c]);
    }
  return fit;
}

}  // namespace

CubatureRule fit_cubature(const MatX3& rest, const MatX4i& tets,
                          const std::vector<int>& element_label, int num_partitions,
                          const SpMat& vertex_weights, const MatX3& handle_origins,
                          const CubatureSettings& settings) {
  require(static_cast<Eigen::Index>(element_label.size()) == tets.rows(),
          "fit_cubature: " + plural(element_label.size(), "element label") + " for " +
              plural(tets.rows(), "tet"));
  require(num_partitions >= 0, "fit_cubature: negative partition count");
  require(vertex_weights.rows() == rest.rows(),
          "fit_cubature: vertex weights have " + std::to_string(vertex_weights.rows()) +
              " rows for " + plural(rest.rows(), "vertex", "vertices"));
  require(vertex_weights.cols() == handle_origins.rows(),
          "fit_cubature: " + plural(vertex_weights.cols(), "handle weight column") + " but " +
              plural(handle_origins.rows(), "handle origin"));
  require(settings.tolerance > 0.0,
          "fit_cubature: tolerance must be > 0, got " + short_number(settings.tolerance));
  require(settings.max_points >= 0,
          "fit_cubature: max_points must be >= 0, got " + std::to_string(settings.max_points));
  require(settings.max_rounds >= 1,
          "fit_cubature: max_rounds must be >= 1, got " + std::to_string(settings.max_rounds));
  std::vector<std::vector<int>> members(num_partitions);
  for (std::size_t e = 0; e < element_label.size(); ++e) {
    const int label = element_label[e];
    require(label >= 0 && label < num_partitions,
            "fit_cubature: tet " + std::to_string(e) + " has partition label " +
                std::to_string(label) + ", expected 0.." + std::to_string(num_partitions - 1));
    members[label].push_back(static_cast<int>(e));
  }
  for (Eigen::Index e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a)
      require(tets(e, a) >= 0 && tets(e, a) < rest.rows(),
              "fit_cubature: tet " + std::to_string(e) + " names vertex " +
                  std::to_string(tets(e, a)) + " out of range");

  const VecX volume = tet_volumes(rest, tets);
  const RowSpMat phi = vertex_weights;
  std::vector<PartitionFit> fits(num_partitions);
  // Partitions are independent, each with its own generator, so threads do not change results.
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count()) if (thread_count() > 1)
  for (int p = 0; p < num_partitions; ++p)
    fits[p] = fit_partition(rest, tets, members[p], volume, phi, handle_origins, settings, p);

  CubatureRule rule;
  rule.partition_residual = VecX::Zero(num_partitions);
  std::vector<std::pair<int, double>> points;
  for (int p = 0; p < num_partitions; ++p) {
    const PartitionFit& fit = fits[p];
    rule.partition_residual[p] = fit.residual;
    rule.partition_points.push_back(static_cast<int>(fit.elements.size()));
    rule.partition_functions.push_back(fit.functions);
    rule.partition_rounds.push_back(fit.rounds);
    rule.partition_weights_only_fallback.push_back(fit.weights_only_fallback ? 1 : 0);
    for (std::size_t i = 0; i < fit.elements.size(); ++i)
      points.emplace_back(fit.elements[i], fit.weights[i]);
  }
  std::sort(points.begin(), points.end());
  for (const auto& [element, weight] : points) {
    rule.elements.push_back(element);
    rule.weights.push_back(weight);
  }
  return rule;
}

}  // namespace simrun
