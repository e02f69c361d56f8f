// The worklist both hand-written SSSP engines run on (Davidson et al. 2014): the vertices whose
// distance improved, relaxed round after round. A round is one kernel that needs no host round
// trip: it reads its queue's size from device memory, and the host launches rounds in batches,
// checking for an empty worklist once per batch (thousands of small rounds on roads and grids
// are latency, not work). Rounds, queues and counters:
//
// - distances are 64-bit patterns of non-negative doubles: those order like the unsigned
//   integers of the same bits (IEEE 754: sign 0, then exponent, then mantissa; +inf above every
//   finite value), so atomicMin on the bits is an exact atomicMin on the distances;
// - a vertex that improves below the split joins the next round's queue once per round: it
//   claims a slot by swapping the round's number into its stamp (no flags to clear); the round
//   that relaxes it reads its distance then, so an update that arrives after it was queued is
//   not lost; an improvement at or above the split goes to the far pile once (a flag);
// - round k reads near queue k % 3 and appends to (k + 1) % 3, and clears the tail of
//   (k + 2) % 3, which round k - 1 read and round k + 1 will fill: three queues let one kernel per
//   round do its own bookkeeping;
// - work per vertex by degree: 1, 2 or 4 lanes for short lists (4 when the round has 4 threads
//   per vertex to spare, as on roads and grids), a warp for lists of 32 or more, the
//   whole grid for hubs (4096 or more), which round k collects and round k + 1 relaxes (a hub's
//   distance is read when relaxed, so the delay loses nothing).
//
// frontier-bellman-ford runs it with the split at +inf (every improvement relaxes next round);
// near-far raises the split by delta each time the near side runs dry, pulling the far pile's
// vertices below the new split into the queue, deciding on the host between batches of rounds;
// near-far-persistent runs the same rounds and splits in one cooperative launch (settle()), a
// grid barrier between rounds. Parents are recovered after convergence.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "grb/array.hpp"
#include "sssp/engine.hpp"
#include "sssp/cuda/weighted_graph.cuh"

namespace grb::sssp::kernels {

struct Round;  // worklist_round.cuh

/// Device counters of a run (see the header comment for the rings of three).
struct Counters {
  unsigned long long near_tail[3];
  unsigned long long hub_tail[3];  // light-heavy: ranges << 40 | their edges (light_heavy.cu)
  unsigned long long far_tail[2];
  // Bits of the smallest live far distance: slot 0 for the host loop, a ring of 2 for settle(),
  // of 3 for settle_light_heavy() (see light_heavy.cu).
  unsigned long long far_minimum[3];
  unsigned long long splits;          // split moves made by settle()
  unsigned long long relaxations;  // edges inspected
  unsigned long long iterations;   // rounds that had work
  unsigned long long unresolved;   // parent pass: reached vertices still without a parent
  unsigned long long settled_tail[2];  // light-heavy: the lists of vertices owing heavy edges
  unsigned long long heavy_rounds;     // light-heavy: rounds over heavy edges
  unsigned long long traced_steps;     // with a trace: steps begun (StepLog)
  unsigned long long long_rows;        // parent pass: rows listed for long_row_parents
};

/// A step of a persistent launch as its first thread saw it begin (Options::trace_steps):
/// %globaltimer, the step's kind (sssp::Step::Kind; trace_end = the end of the launch) and work.
struct StepTrace {
  unsigned long long start_ns;
  unsigned long long items;
  unsigned long long spread_edges;
  unsigned kind;
};
inline constexpr unsigned trace_end = 3;

/// Where a persistent launch records its steps: nowhere unless the run is traced.
struct StepLog {
  StepTrace* entries = nullptr;
  unsigned long long capacity = 0;

#ifdef __CUDACC__
  /// The start of a step (the first thread only: it alone counts the steps).
  __device__ void record(Counters* counters, unsigned kind, unsigned long long items,
                         unsigned long long spread_edges) const {
    if (entries == nullptr) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const unsigned long long i = counters->traced_steps++;
    if (i < capacity) entries[i] = StepTrace{now, items, spread_edges, kind};
  }
#endif
};

/// A vertex's edges [begin, end) owed a relaxation, laid out at positions [base, base + end -
/// begin) of the round's spread ranges: light-heavy's rounds collect the vertices with many edges
/// to relax this way, and the next round spreads all of their edges over the whole grid at once.
/// Ranges are numbered in the order of their positions (one atomic gives both: see
/// light_heavy.cu), so the range holding a position is a binary search away.
struct HubRange {
  Index vertex;
  Offset begin, end;
  Offset base;
};

struct Queues {
  Index* near[3];
  Index* hubs[3];
  Index* far[2];
  HubRange* hub_ranges[3];  // light-heavy only
  Index* settled[2];        // light-heavy only
};

class Worklist {
 public:
  /// `light_heavy`: also the lists settle_light_heavy() needs (the graph's rows sorted by length).
  void allocate(const WeightedGraph& graph, bool light_heavy = false);
  /// Every distance +inf but the source's 0; the source queued; `split` the first bound.
  void start(Index source, double split);
  /// Rounds until no vertex below the split is left to relax.
  void drain();
  /// Near-far's phase change: the split moves to the smallest live far distance + delta, and
  /// the far vertices below it are queued. False when the far pile holds no live vertex.
  bool advance_split(double delta);
  /// drain() and advance_split(delta) until the far pile is empty, in one cooperative kernel
  /// launch (no host round trip per round); returns the phases (buckets). Only if persistent().
  std::uint64_t settle(double delta, bool trace = false);
  /// Delta-stepping with light and heavy edges (light_heavy.cu), in one cooperative launch:
  /// rounds relax the near queue's light edges (length <= delta) only; when the near side runs
  /// dry, one round relaxes the heavy edges of every vertex those rounds relaxed, once; then
  /// the split moves as in settle(). Returns the phases. Only if persistent() and allocated
  /// with light_heavy.
  std::uint64_t settle_light_heavy(double delta, bool trace = false);
  /// near-far's host loop: drain() and advance_split(delta) until the far pile is empty;
  /// returns the phases. Runs on any GPU.
  std::uint64_t settle_on_host(double delta);
  /// Whether settle() can run: the GPU launches cooperative kernels.
  bool persistent() const { return persistent_blocks_ > 0; }
  /// For each reached v != source, an in-neighbour u with dist[u] + w(u, v) == dist[v]
  /// (parents.cu).
  void recover_parents(Index source);

  std::vector<double> distances() const;
  std::vector<Index> parents() const;
  /// Rounds with work and edges inspected, read from the device.
  Stats counts() const;
  /// The steps the last settle(delta, true) or settle_light_heavy(delta, true) timed (empty
  /// after any other run).
  std::vector<Step> steps() const;
  std::size_t bytes() const;

 private:
  void read_counters();
  unsigned long long count_unresolved(Index source, unsigned round);  // parents.cu
  Queues queues();
  StepLog step_log(bool trace);  // trace_ (allocated the first time) when tracing
  Round round();  // the next round's view of the worklist (worklist_round.cuh)
  void allocate_light_heavy(const WeightedGraph& graph);  // light_heavy.cu

  WeightedView graph_;
  bool symmetric_ = false;  // the graph's rows hold its in-edges too (parents.cu)
  detail::Array<unsigned long long> distance_;
  detail::Array<unsigned> stamp_, in_far_, resolved_;
  detail::Array<Index> parent_;
  detail::Array<Index> near_[3], hubs_[3], far_[2];
  // light-heavy: each vertex's first heavy edge for delta_light_, the settled lists and their
  // generation stamps, the hubs' ranges.
  detail::Array<Offset> light_end_;
  double light_delta_ = -1;
  detail::Array<Index> settled_[2];
  detail::Array<unsigned> settled_stamp_;
  detail::Array<HubRange> hub_ranges_[3];
  detail::Array<StepTrace> trace_;  // allocated by the first traced run
  bool traced_ = false;             // whether the last run filled trace_
  unsigned light_heavy_blocks_ = 0;
  detail::Array<Counters> counters_;
  PinnedValue<Counters> host_;  // read back once per batch of rounds
  unsigned blocks_ = 0;
  unsigned persistent_blocks_ = 0;  // settle()'s grid: every block resident at once
  unsigned round_ = 1;  // the next round's number
  unsigned far_slot_ = 0;
  unsigned batch_ = 1;
  double split_ = 0;
};

/// The shell the engines share: prepare() checks the lengths and uploads the graph; run()
/// starts the worklist, calls the engine's own loop and recovers parents; result() copies back.
class WorklistEngine : public Engine {
 public:
  /// `light_heavy`: the engine runs settle_light_heavy() (rows sorted by length, its lists).
  explicit WorklistEngine(std::string_view name, bool light_heavy = false)
      : name_(name), light_heavy_(light_heavy) {}

  void prepare(const Matrix<double>& graph) final;
  void run(Index source, const Options& options) final;
  Result result() const final;
  std::size_t device_bytes() const final { return graph_.bytes() + worklist_.bytes(); }

 protected:
  /// The engine's loop over the started worklist; sets phases_ and delta_.
  virtual void search(Index source, const Options& options) = 0;

  std::string name_;
  WeightSummary summary_;
  WeightedGraph graph_;
  Worklist worklist_;
  std::uint64_t phases_ = 0;
  double delta_ = 0;
  bool light_heavy_ = false;

 private:
  bool prepared_ = false;
  bool parents_ = true;
};

}  // namespace grb::sssp::kernels
