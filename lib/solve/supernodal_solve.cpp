#include "solve/supernodal_solve.hpp"

#include <cholmod.h>
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>

namespace simrun {

namespace {

using ColumnBlock = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

struct Supernodes {
  const int* super;  ///< first column of each supernode (nsuper + 1)
  const int* pi;     ///< row-pattern offsets (nsuper + 1)
  const int* px;     ///< value offsets (nsuper + 1)
  const int* s;      ///< row patterns
  const double* x;   ///< values
  int nsuper;
  int columns(int k) const { return super[k + 1] - super[k]; }
  int rows(int k) const { return pi[k + 1] - pi[k]; }
};

Supernodes view(const cholmod_factor& L) {
  if (!L.is_super || !L.is_ll || L.itype != CHOLMOD_INT || L.xtype != CHOLMOD_REAL)
    throw std::invalid_argument("SupernodalSolve: needs a real supernodal LL' factor");
  return {static_cast<const int*>(L.super), static_cast<const int*>(L.pi),
          static_cast<const int*>(L.px),    static_cast<const int*>(L.s),
          static_cast<const double*>(L.x),  static_cast<int>(L.nsuper)};
}

/// The supernodal elimination tree, with each supernode's work (rows x columns) and its
/// subtree's.
struct SupernodeTree {
  std::vector<int> super_of_column;
  std::vector<int> parent;
  std::vector<std::vector<int>> children;
  std::vector<int> roots;
  std::vector<double> work, subtree;
  double total = 0.0;  ///< the work of every supernode
};

SupernodeTree supernode_tree(const Supernodes& S, int n) {
  SupernodeTree tree;
  // The supernodal elimination tree: the parent of k owns k's first off-diagonal row.
  std::vector<int>& super_of_column = tree.super_of_column;
  super_of_column.resize(n);
  for (int k = 0; k < S.nsuper; ++k)
    for (int c = S.super[k]; c < S.super[k + 1]; ++c) super_of_column[c] = k;
  tree.parent.assign(S.nsuper, -1);
  tree.children.resize(S.nsuper);
  tree.work.resize(S.nsuper);
  tree.subtree.resize(S.nsuper);
  for (int k = 0; k < S.nsuper; ++k) {
    tree.work[k] = static_cast<double>(S.rows(k)) * S.columns(k);
    if (S.rows(k) > S.columns(k)) {
      tree.parent[k] = super_of_column[S.s[S.pi[k] + S.columns(k)]];
      tree.children[tree.parent[k]].push_back(k);
    } else {
      tree.roots.push_back(k);
    }
  }
  // Children come before parents in CHOLMOD's supernode order: subtree work in one pass.
  for (int k = 0; k < S.nsuper; ++k) {
    tree.subtree[k] += tree.work[k];
    if (tree.parent[k] >= 0) tree.subtree[tree.parent[k]] += tree.subtree[k];
  }
  tree.total = std::accumulate(tree.work.begin(), tree.work.end(), 0.0);
  return tree;
}

/// Where the tree is cut: the supernodes solved serially (above the cut) and the subtrees
/// below it as (work, root).
struct TreeCut {
  std::vector<int> serial;
  std::vector<std::pair<double, int>> pieces;
};

TreeCut best_cut(const SupernodeTree& tree, int threads) {
  // Cut: repeatedly expand the heaviest subtree (its root joins the serial part, its children
  // become subtrees), estimating the solve's time as serial work + the makespan of the subtrees
  // assigned largest-first to the least loaded thread, and keep the best cut seen.
  auto makespan = [&](std::vector<double> weights) {
    std::sort(weights.begin(), weights.end(), std::greater<>());
    std::vector<double> bins(threads, 0.0);
    for (double w : weights) *std::min_element(bins.begin(), bins.end()) += w;
    return *std::max_element(bins.begin(), bins.end());
  };
  std::priority_queue<std::pair<double, int>> open;
  for (int r : tree.roots) open.push({tree.subtree[r], r});
  std::vector<int> serial;
  double serial_work = 0.0;
  TreeCut cut;
  auto snapshot = [&]() {
    std::vector<std::pair<double, int>> out;
    auto copy = open;
    while (!copy.empty()) {
      out.push_back(copy.top());
      copy.pop();
    }
    return out;
  };
  double best = std::numeric_limits<double>::infinity();
  const int max_expansions = threads == 1 ? 0 : 64 + 16 * threads;
  for (int expansion = 0;; ++expansion) {
    std::vector<std::pair<double, int>> now = snapshot();
    std::vector<double> weights;
    for (const auto& piece : now) weights.push_back(piece.first);
    const double estimate = serial_work + (weights.empty() ? 0.0 : makespan(weights));
    if (estimate < best) {
      best = estimate;
      cut.serial = serial;
      cut.pieces = now;
    }
    if (expansion >= max_expansions || open.empty() || serial_work >= best) break;
    const int k = open.top().second;
    if (tree.children[k].empty()) break;
    open.pop();
    serial.push_back(k);
    serial_work += tree.work[k];
    for (int c : tree.children[k]) open.push({tree.subtree[c], c});
  }
  if (threads == 1) {
    cut.serial.clear();
    cut.pieces.clear();
  }
  return cut;
}

/// The subtree roots of each thread.
std::vector<std::vector<int>> assign_pieces(std::vector<std::pair<double, int>> pieces,
                                            int threads) {
  // Largest subtrees first, each to the least loaded thread.
  std::sort(pieces.begin(), pieces.end(), std::greater<>());
  std::vector<double> load(threads, 0.0);
  std::vector<std::vector<int>> piece_roots(threads);
  for (const auto& [weight, root] : pieces) {
    const int t = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[t] += weight;
    piece_roots[t].push_back(root);
  }
  return piece_roots;
}

/// Expands each thread's subtree roots into its sorted supernodes (`parallel`); `owner`: the
/// thread of each supernode, -1 for the serial ones.
void expand_pieces(const SupernodeTree& tree, const std::vector<std::vector<int>>& piece_roots,
                   std::vector<std::vector<int>>& parallel, std::vector<int>& owner) {
  owner.assign(tree.parent.size(), -1);
  auto collect = [&](int root, std::vector<int>& out, int tag) {
    std::vector<int> stack = {root};
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      out.push_back(k);
      owner[k] = tag;
      for (int c : tree.children[k]) stack.push_back(c);
    }
  };
  for (int t = 0; t < static_cast<int>(piece_roots.size()); ++t) {
    for (int root : piece_roots[t]) collect(root, parallel[t], t);
    std::sort(parallel[t].begin(), parallel[t].end());
  }
}

}  // namespace

SupernodalSolve::SupernodalSolve(const cholmod_factor& L, int threads)
    : m_n(static_cast<int>(L.n)), m_threads(std::max(1, threads)) {
  const Supernodes S = view(L);
  const SupernodeTree tree = supernode_tree(S, m_n);
  const TreeCut cut = best_cut(tree, m_threads);
  const std::vector<std::vector<int>> piece_roots = assign_pieces(cut.pieces, m_threads);
  // Expand each thread's subtree roots into their supernodes; the serial set gets whole subtrees
  // of the pieces it absorbed (one thread) and the expanded ancestors.
  m_parallel.assign(m_threads, {});
  std::vector<int> owner;
  expand_pieces(tree, piece_roots, m_parallel, owner);
  if (m_threads == 1) {
    m_serial.resize(S.nsuper);
    std::iota(m_serial.begin(), m_serial.end(), 0);
  } else {
    m_serial = cut.serial;
    std::sort(m_serial.begin(), m_serial.end());
  }
  double final_serial_work = 0.0;
  for (int k : m_serial) final_serial_work += tree.work[k];
  m_serial_fraction = tree.total > 0.0 ? final_serial_work / tree.total : 1.0;
  m_owner_of_row.assign(m_n, -1);
  for (int c = 0; c < m_n; ++c) m_owner_of_row[c] = owner[tree.super_of_column[c]];
  // The threads' buffers hold only the rows above the cut (the serial supernodes' columns).
  m_buffer_slot.assign(m_n, -1);
  int serial_rows = 0;
  for (int k : m_serial)
    for (int c = S.super[k]; c < S.super[k + 1]; ++c) m_buffer_slot[c] = serial_rows++;
  m_buffers.assign(m_threads, std::vector<double>(m_threads > 1 ? serial_rows : 0, 0.0));
  m_y.resize(m_n);
}

void SupernodalSolve::forward_supernode(const cholmod_factor& L, int k, double* y,
                                        double* outside) const {
  const Supernodes S = view(L);
  const int nscol = S.columns(k), nsrow = S.rows(k), c0 = S.super[k];
  const ColumnBlock block(S.x + S.px[k], nsrow, nscol, Eigen::OuterStride<>(nsrow));
  Eigen::Map<Eigen::VectorXd> yk(y + c0, nscol);
  block.topRows(nscol).triangularView<Eigen::Lower>().solveInPlace(yk);
  const int below = nsrow - nscol;
  if (below == 0) return;
  thread_local Eigen::VectorXd update;
  update.noalias() = block.bottomRows(below) * yk;
  const int* rows = S.s + S.pi[k] + nscol;
  const int me = m_owner_of_row[c0];
  for (int j = 0; j < below; ++j) {
    const int r = rows[j];
    // Rows of the thread's own subtrees are updated in place; rows above the cut go to the
    // thread's buffer (several threads update them).
    if (outside && m_owner_of_row[r] != me)
      outside[m_buffer_slot[r]] += update[j];
    else
      y[r] -= update[j];
  }
}

void SupernodalSolve::backward_supernode(const cholmod_factor& L, int k, double* y) const {
  const Supernodes S = view(L);
  const int nscol = S.columns(k), nsrow = S.rows(k), c0 = S.super[k];
  const ColumnBlock block(S.x + S.px[k], nsrow, nscol, Eigen::OuterStride<>(nsrow));
  Eigen::Map<Eigen::VectorXd> yk(y + c0, nscol);
  const int below = nsrow - nscol;
  if (below > 0) {
    thread_local Eigen::VectorXd gathered;
    gathered.resize(below);
    const int* rows = S.s + S.pi[k] + nscol;
    for (int j = 0; j < below; ++j) gathered[j] = y[rows[j]];
    yk.noalias() -= block.bottomRows(below).transpose() * gathered;
  }
  block.topRows(nscol).triangularView<Eigen::Lower>().transpose().solveInPlace(yk);
}

void SupernodalSolve::solve(const cholmod_factor& L, const double* b, double* x) const {
  const int* perm = static_cast<const int*>(L.Perm);
  double* y = m_y.data();
  for (int i = 0; i < m_n; ++i) y[i] = b[perm[i]];
  if (m_threads > 1) {
    // OpenMP may give fewer threads than planned (a thread limit): each takes every nth piece.
#pragma omp parallel num_threads(m_threads)
    for (int t = omp_get_thread_num(); t < m_threads; t += omp_get_num_threads()) {
      double* buffer = m_buffers[t].data();
      for (int k : m_parallel[t]) forward_supernode(L, k, y, buffer);
    }
    // Gather the threads' updates of the rows above the cut (and clear the buffers).
    const Supernodes S = view(L);
    for (int k : m_serial) {
      for (int c = S.super[k]; c < S.super[k + 1]; ++c) {
        const int slot = m_buffer_slot[c];
        for (int t = 0; t < m_threads; ++t) {
          y[c] -= m_buffers[t][slot];
          m_buffers[t][slot] = 0.0;
        }
      }
    }
  }
  for (int k : m_serial) forward_supernode(L, k, y, nullptr);
  for (auto it = m_serial.rbegin(); it != m_serial.rend(); ++it) backward_supernode(L, *it, y);
  if (m_threads > 1) {
#pragma omp parallel num_threads(m_threads)
    for (int t = omp_get_thread_num(); t < m_threads; t += omp_get_num_threads()) {
      const auto& mine = m_parallel[t];
      for (auto it = mine.rbegin(); it != mine.rend(); ++it) backward_supernode(L, *it, y);
    }
  }
  for (int i = 0; i < m_n; ++i) x[perm[i]] = y[i];
}

}  // namespace simrun
