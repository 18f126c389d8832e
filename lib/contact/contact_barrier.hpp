#pragma once
/// IPC contact as energy term (Li et al. 2020; Ascher et al. survey Sec. 5.1; Trusty et al. Eq. 2):
///   B(x) = kappa sum_k m_k b(d_k(x)^2, d_hat^2)
/// over the vertex-face and edge-edge pairs of the collision mesh closer than d_hat (m_k the
/// parallel-edge mollifier for edge-edge pairs, 1 otherwise) and the surface vertices within
/// d_hat of a contact plane. Each pair's Hessian is projected to PSD. The line search is kept
/// collision-free by max_feasible_step (broad phase over swept boxes, then additive CCD).
#include <array>
#include <limits>
#include <vector>

#include "contact/collision_mesh.hpp"
#include "core/timer.hpp"
#include "model/energy_term.hpp"

namespace simrun {

/// An analytic contact plane: the allowed side is where normal . (x - point) > 0.
struct ContactPlane {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitY();  ///< unit
};

struct BarrierSettings {
  double dhat = 1e-3;          ///< activation distance [m] (absolute)
  double kappa = 1.0;          ///< barrier stiffness [J] at the start
  double kappa_max = 1.0;      ///< the adaptive rule doubles kappa up to this
  double bbox_diagonal = 1.0;  ///< of the scene [m]: the adaptive rule's distance threshold
};

/// Where a step's contact time went (stats.csv contact_pairs_s, contact_ccd_s,
/// contact_assembly_s).
struct ContactTimes {
  double pairs = 0.0;     ///< broad phase and distances of the active set
  double ccd = 0.0;       ///< feasible-step CCD
  double assembly = 0.0;  ///< energies, gradients, Hessians (pair finding excluded)
};

/// Adds the wall time of its scope to `times.assembly`, less the pair finding done inside it.
class AssemblyClock {
 public:
  explicit AssemblyClock(ContactTimes& times) : m_times(times), m_pairs_before(times.pairs) {}
  ~AssemblyClock() { m_times.assembly += m_timer.seconds() - (m_times.pairs - m_pairs_before); }
  AssemblyClock(const AssemblyClock&) = delete;
  AssemblyClock& operator=(const AssemblyClock&) = delete;

 private:
  ContactTimes& m_times;
  double m_pairs_before;
  Timer m_timer;
};

class ContactBarrier final : public EnergyTerm {
 public:
  /// rest: full rest positions (the edge-edge mollifier's threshold uses rest edge lengths).
  ContactBarrier(CollisionMesh mesh, std::vector<ContactPlane> planes, BarrierSettings settings,
                 const VecX& rest);

  std::string name() const override { return "contact"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  bool is_quadratic() const override { return false; }

  void begin_step(const VecX& x) override;
  void on_iterate(const VecX& x) override;
  double max_feasible_step(const VecX& x, const VecX& dx) const override;
  /// True when no pair can come closer than 0 along x + t dx, t in [0, 1], by the motion bound
  /// alone (then max_feasible_step skips the swept broad phase and CCD): needs the pair search
  /// at x (the last one the term made; false elsewhere).
  bool step_is_collision_free(const VecX& x, const VecX& dx) const;
  void add_stencils(StencilList& stencils) const override;
  long pattern_version() const override { return m_pattern_version; }
  void add_step_stats(StepStats& stats) const override;
  /// The adapted stiffness: {"kappa": kappa}.
  std::map<std::string, double> persistent_state() const override;
  void restore_state(const std::map<std::string, double>& state) override;

  double kappa() const { return m_settings.kappa; }
  double dhat() const { return m_settings.dhat; }  ///< absolute [m]
  const std::vector<ContactPlane>& planes() const { return m_planes; }
  const CollisionMesh& mesh() const { return m_mesh; }

  /// A pair closer than d_hat: its four vertices (full ids; -1 unused) and kind.
  struct Pair {
    enum class Kind { kVertexFace, kEdgeEdge, kVertexPlane };
    Kind kind = Kind::kVertexFace;
    Stencil vertices = {-1, -1, -1, -1};
    int plane = -1;
    double eps_x = 0.0;  ///< edge-edge mollifier threshold
  };
  /// The pairs closer than d_hat at x, and the smallest distance among all candidates (d_hat when
  /// none is closer).
  std::vector<Pair> active_pairs(const VecX& x, double* min_distance = nullptr) const;

 private:
  /// active_pairs(x), remembered for the last x: energy, gradient and Hessian at one Newton
  /// iterate share one broad phase and one distance pass.
  const std::vector<Pair>& pairs_at(const VecX& x, double* min_distance = nullptr) const;
  /// True for a vertex (entry of mesh().vertices) of a static obstacle surface.
  bool vertex_is_static(size_t entry) const {
    return !m_mesh.is_static.empty() && m_mesh.is_static[m_mesh.vertex_object[entry]];
  }
  /// How far apart things are at a searched x: the smallest pair distance (capped at d_hat:
  /// pairs outside the search boxes are farther) and per plane the smallest height of a moving
  /// vertex over it (uncapped).
  struct Separation {
    double pairs = 0.0;
    std::vector<double> planes;
  };
  std::vector<Pair> active_pairs(const VecX& x, double* min_distance, Separation& separation) const;
  /// The broad phase's candidates for the pairs closer than d_hat at x (a Verlet list, reused
  /// while the motion since it was built stays within its margin).
  const ContactCandidates& candidates_near(const VecX& x) const;
  /// kappa m b(s), its gradient and Hessian over the pair's 12 coordinates.
  double pair_energy(const Pair& pair, const VecX& x, Eigen::Matrix<double, 12, 1>* gradient,
                     Eigen::Matrix<double, 12, 12>* hessian) const;

  CollisionMesh m_mesh;
  std::vector<ContactPlane> m_planes;
  BarrierSettings m_settings;
  std::vector<double> m_edge_eps;  ///< per edge pair threshold factor: |e_rest|^2
  const SpMat* m_pattern = nullptr;
  const DofMap* m_dofs = nullptr;
  std::vector<Stencil> m_stencils;  ///< the pairs at the last iterate (the pattern holds them)
  long m_pattern_version = 0;
  double m_previous_min_distance = 0.0;
  mutable VecX m_cached_x;  ///< where m_cached_pairs were found (empty: none yet)
  mutable std::vector<Pair> m_cached_pairs;
  mutable double m_cached_min_distance = 0.0;
  mutable Separation m_cached_separation;
  mutable ContactCandidates m_verlet;  ///< candidates within d_hat + margin of m_verlet_x
  mutable VecX m_verlet_x;
  mutable long m_ccd_skipped = 0;  ///< feasible steps decided by the motion bound
  // Step statistics (mutable: gathered by the const line-search hooks).
  mutable double m_step_min_distance = 0.0;
  mutable double m_step_ccd = 1.0;
  mutable ContactTimes m_times;  ///< this step's (reset in begin_step)
  int m_step_contacts = 0;
};

/// IPC's automatic initial stiffness in simrun's scaling (the potential enters the implicit
/// stage unscaled, IPC's with h^2): kappa = 1e11 m / (4 d0 b''(d0, d_hat^2)) / h^2 with
/// d0 = (1e-8 bbox)^2 and m the average vertex mass.
double automatic_barrier_stiffness(double average_mass, double dhat, double bbox_diagonal,
                                   double dt);

}  // namespace simrun
