// The worklist's kernels and its host side (see worklist.cuh).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sssp/cuda/worklist_round.cuh"

namespace grb::sssp::kernels {
namespace {

__global__ void start_run(Index vertices, Index source, unsigned first_round,
                          unsigned long long* distance, unsigned* stamp, unsigned* in_far,
                          Index* parent, Index* queue) {
  const Index v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  distance[v] = v == source ? 0ull : infinity_bits;
  stamp[v] = v == source ? first_round : 0u;
  in_far[v] = 0u;
  parent[v] = no_index;
  if (v == source) queue[0] = source;
}

/// The vertex this thread's lanes take first in a small round (4 lanes a vertex, see
/// relax_queue), read before the round's size is known: the two loads then go out together, one
/// link less in the chain a grid's round waits for. The queue is cleared when allocated, so a
/// slot past the size holds an old vertex or 0, never garbage; its value is used only below the
/// size.
__device__ inline Index first_guess(const WeightedView& graph, const Round& round) {
  const unsigned long long i = first_item() / 32 * 8 + lane_id() / 4;
  return i < graph.nrows ? slot(round.queues.near, round.number % 3)[i] : 0;
}

/// Round k's relaxations: the `hubs` hubs round k - 1 collected, then the `size` vertices of
/// near queue k % 3 (`guess`: first_guess, read with the size).
__device__ void relax_queue(const WeightedView& graph, const Round& round, unsigned long long size,
                            unsigned long long hubs, Index guess) {
  const unsigned k = round.number;
  Counters* counters = round.counters;
  const unsigned lane = threadIdx.x & 31u;
  const unsigned long long thread = first_item();
  const unsigned long long threads = item_stride();
  unsigned long long inspected = 0;

  // Hubs found by the previous round: the whole grid strides over each one's edges.
  const Index* hub_list = slot(round.queues.hubs, (k + 2) % 3);
  for (unsigned long long h = 0; h < hubs; ++h) {
    const Index u = hub_list[h];
    const double from = distance_of(round.distance[u]);
    for (Offset e = graph.begin(u) + thread; e < graph.end(u); e += threads) {
      round.relax(from, graph.col_indices[e], graph.values[e]);
      ++inspected;
    }
  }

  // The queue, 32 / group vertices per warp at a time (the loop is warp-uniform, for the
  // ballots). A short list is relaxed by `group` lanes, one edge each per step: on roads and
  // grids (a few thousand vertices of degree 2-4 per round, and ~10^5 threads) a round then waits
  // for one chain of relaxation atomics instead of one per edge. At most 4 lanes (the grids'
  // degree, most road junctions'): groups spread over more warps append to the same queue tail
  // with one atomic per warp each, so wider groups would add same-address atomics for nothing.
  const unsigned group = size * 4 <= threads ? 4u : size * 2 <= threads ? 2u : 1u;
  const unsigned rank = lane & (group - 1);
  const Index* items = slot(round.queues.near, k % 3);
  for (unsigned long long base = (thread / 32) * (32 / group); base < size;
       base += threads / group) {
    const unsigned long long i = base + lane / group;
    Index u = 0;
    Offset begin = 0, end = 0;
    unsigned long long from_bits = 0;
    if (i < size) {  // u's distance read with its row, not after it: one link less a round
      u = group == 4 && base == thread / 32 * 8 ? guess : items[i];
      begin = graph.begin(u);
      end = graph.end(u);
      from_bits = round.distance[u];
    }
    const Offset degree = end - begin;
    if (rank == 0 && degree >= hub_degree) {
      slot(round.queues.hubs, k % 3)[queue_slot(&counters->hub_tail[k % 3])] = u;
    }
    unsigned medium =
        __ballot_sync(0xffffffffu, rank == 0 && degree >= warp_degree && degree < hub_degree);
    while (medium != 0) {
      const unsigned leader = __ffs(medium) - 1;
      medium &= medium - 1;
      const Index w = __shfl_sync(0xffffffffu, u, leader);
      const Offset w_begin = __shfl_sync(0xffffffffu, begin, leader);
      const Offset w_end = __shfl_sync(0xffffffffu, end, leader);
      const double from = distance_of(round.distance[w]);
      for (Offset e = w_begin + lane; e < w_end; e += 32) {
        round.relax(from, graph.col_indices[e], graph.values[e]);
        ++inspected;
      }
    }
    if (degree > rank && degree < warp_degree) {
      const double from = distance_of(from_bits);
      for (Offset e = begin + rank; e < end; e += group) {
        round.relax(from, graph.col_indices[e], graph.values[e]);
        ++inspected;
      }
    }
  }
  const unsigned warp_inspected = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(inspected));
  if (lane == 0 && warp_inspected > 0)
    atomicAdd(&counters->relaxations, static_cast<unsigned long long>(warp_inspected));
}

__global__ void __launch_bounds__(block) relax_round(WeightedView graph, Round round) {
  const unsigned k = round.number;
  const Index guess = first_guess(graph, round);
  const unsigned long long size = round.counters->near_tail[k % 3];
  const unsigned long long hubs = round.counters->hub_tail[(k + 2) % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0) begin_round(round.counters, k, size + hubs);
  relax_queue(graph, round, size, hubs, guess);
}

__global__ void __launch_bounds__(block)
    far_minimum(const unsigned long long* distance, const Index* far, unsigned far_slot,
                double split, Counters* counters) {
  fold_far_minimum(distance, far, counters->far_tail[far_slot], split, &counters->far_minimum[0]);
}

__global__ void __launch_bounds__(block)
    split_far(const unsigned long long* distance, unsigned* stamp, unsigned* in_far,
              Queues queues, unsigned from_slot, double old_split, double new_split,
              unsigned next, Counters* counters) {
  split_far_pile(distance, stamp, in_far, queues, from_slot, counters->far_tail[from_slot],
                 old_split, new_split, next, counters);
}

/// near-far's whole loop in one cooperative launch: rounds separated by grid barriers, and the
/// split moved on the device when the near side runs dry, so no launch and no host round trip
/// per round. Every value that decides control flow (queue and pile sizes, the far minimum) is
/// read after a barrier and is not written until the next one, so every thread takes the same
/// branch and all leave together. Round k that finds no work becomes a phase change: the far
/// minimum (barrier), then the split of the pile into queue k (barrier), then round k again.
/// The phase's far minimum lives in one of two slots, and each phase resets the other one,
/// which was last read before the previous phase's final barrier.
__global__ void __launch_bounds__(block)
    persistent_near_far(WeightedView graph, Round round, double delta, StepLog log) {
  const cg::grid_group grid = cg::this_grid();
  Counters* counters = round.counters;
  const bool first_thread = blockIdx.x == 0 && threadIdx.x == 0;
  for (unsigned phase = 0;;) {
    const unsigned k = round.number;
    const Index guess = first_guess(graph, round);
    const unsigned long long size = counters->near_tail[k % 3];
    const unsigned long long hubs = counters->hub_tail[(k + 2) % 3];
    if (size + hubs > 0) {
      if (first_thread) {
        begin_round(counters, k, size + hubs);
        log.record(counters, 0, size, 0);
      }
      relax_queue(graph, round, size, hubs, guess);
      ++round.number;
      grid.sync();
      continue;
    }
    const unsigned pile = round.far_slot;
    const unsigned long long piled = counters->far_tail[pile];
    if (piled == 0) break;
    unsigned long long* minimum = &counters->far_minimum[phase % 2];
    if (first_thread) {
      counters->far_minimum[(phase + 1) % 2] = ~0ull;
      log.record(counters, 2, piled, 0);
    }
    fold_far_minimum(round.distance, slot(round.queues.far, pile), piled, round.split, minimum);
    grid.sync();
    const unsigned long long smallest = *minimum;
    if (smallest >= infinity_bits) break;
    const double split = next_split_after(distance_of(smallest), delta);
    split_far_pile(round.distance, round.stamp, round.in_far, round.queues, pile, piled,
                   round.split, split, k, counters);
    // Every thread read the pile's size before the first barrier: its tail can be cleared.
    if (first_thread) {
      counters->far_tail[pile] = 0;
      ++counters->splits;
    }
    round.far_slot = 1 - pile;
    round.split = split;
    ++phase;
    grid.sync();
  }
  if (first_thread) log.record(counters, trace_end, 0, 0);
}

}  // namespace

Round Worklist::round() {
  return {distance_.data(), stamp_.data(), in_far_.data(), queues(), counters_.data(),
          round_,           far_slot_,     split_};
}

Queues Worklist::queues() {
  return {{near_[0].data(), near_[1].data(), near_[2].data()},
          {hubs_[0].data(), hubs_[1].data(), hubs_[2].data()},
          {far_[0].data(), far_[1].data()},
          {hub_ranges_[0].data(), hub_ranges_[1].data(), hub_ranges_[2].data()},
          {settled_[0].data(), settled_[1].data()}};
}

void Worklist::allocate(const WeightedGraph& graph, bool light_heavy) {
  graph_ = graph.view();
  symmetric_ = graph.symmetric();
  const Index n = graph.vertices();
  distance_ = detail::Array<unsigned long long>(n, Backend::cuda);
  stamp_ = detail::Array<unsigned>(n, Backend::cuda);
  in_far_ = detail::Array<unsigned>(n, Backend::cuda);
  resolved_ = detail::Array<unsigned>(n, Backend::cuda);
  parent_ = detail::Array<Index>(n, Backend::cuda);
  for (auto& queue : near_) {  // cleared once, for first_guess
    queue = detail::Array<Index>(n, Backend::cuda);
    GRB_CUDA_CHECK(cudaMemsetAsync(queue.data(), 0, n * sizeof(Index), current_stream()));
  }
  for (auto& queue : hubs_) queue = detail::Array<Index>(n, Backend::cuda);
  for (auto& queue : far_) queue = detail::Array<Index>(n, Backend::cuda);
  counters_ = detail::Array<Counters>(1, Backend::cuda);
  if (light_heavy) allocate_light_heavy(graph);
  // Enough resident blocks to keep every SM busy on big rounds; small rounds leave most idle.
  blocks_ = 4 * multiprocessor_count();
  // The persistent loop needs every block resident at once (for the grid barrier), and a
  // barrier costs more the more blocks arrive: two an SM, where the occupancy calculator would
  // fit eight (H100, one cooperative launch each, every run validated: grid2000 from vertex 0
  // 26.9 ms with eight, 24.4 with two; kron20 16.0 and 15.2); none where the GPU cannot launch
  // cooperative kernels.
  persistent_blocks_ =
      cooperative_launch_supported()
          ? std::min(resident_blocks(persistent_near_far, block), 2 * multiprocessor_count())
          : 0u;
}

void Worklist::start(Index source, double split) {
  round_ = 1;
  far_slot_ = 0;
  batch_ = 1;
  traced_ = false;
  split_ = split;
  GRB_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, sizeof(Counters), current_stream()));
  GRB_CUDA_CHECK(cudaMemsetAsync(counters_.data()->far_minimum, 0xff,
                                 sizeof counters_.data()->far_minimum, current_stream()));
  start_run<<<blocks_for(graph_.nrows), block, 0, current_stream()>>>(
      graph_.nrows, source, round_, distance_.data(), stamp_.data(), in_far_.data(), parent_.data(),
      near_[round_ % 3].data());
  GRB_CUDA_CHECK(cudaGetLastError());
  const unsigned long long one = 1;
  GRB_CUDA_CHECK(cudaMemcpyAsync(&counters_.data()->near_tail[round_ % 3], &one, sizeof one,
                                 cudaMemcpyHostToDevice, current_stream()));
  // The copy reads a host stack value: wait for it before returning.
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
}

void Worklist::read_counters() {
  GRB_CUDA_CHECK(cudaMemcpyAsync(host_.get(), counters_.data(), sizeof(Counters),
                                 cudaMemcpyDeviceToHost, current_stream()));
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
}

void Worklist::drain() {
  for (;;) {
    for (unsigned r = 0; r < batch_; ++r, ++round_) {
      relax_round<<<blocks_, block, 0, current_stream()>>>(graph_, round());
      GRB_CUDA_CHECK(cudaGetLastError());
    }
    read_counters();
    // Work left for round k: its queue, and the hubs round k - 1 collected.
    const Counters& c = *host_;
    if (c.near_tail[round_ % 3] + c.hub_tail[(round_ + 2) % 3] == 0) {
      batch_ = std::max(1u, batch_ / 2);
      return;
    }
    // Rounds launched past the end are nearly free (they find an empty queue), a host round
    // trip is not: grow the batch while the worklist keeps going.
    batch_ = std::min(2 * batch_, max_batch);
  }
}

bool Worklist::advance_split(double delta) {
  if ((*host_).far_tail[far_slot_] == 0) return false;
  GRB_CUDA_CHECK(cudaMemsetAsync(&counters_.data()->far_minimum[0], 0xff,
                                 sizeof(unsigned long long), current_stream()));
  const unsigned long long size = (*host_).far_tail[far_slot_];
  far_minimum<<<std::min(blocks_for(size), blocks_), block, 0, current_stream()>>>(
      distance_.data(), far_[far_slot_].data(), far_slot_, split_, counters_.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  read_counters();
  const unsigned long long smallest_bits = (*host_).far_minimum[0];
  if (smallest_bits >= infinity_bits) return false;
  double smallest;
  std::memcpy(&smallest, &smallest_bits, sizeof smallest);
  const double next_split = next_split_after(smallest, delta);
  const Queues queues = this->queues();
  split_far<<<std::min(blocks_for(size), blocks_), block, 0, current_stream()>>>(
      distance_.data(), stamp_.data(), in_far_.data(), queues, far_slot_, split_, next_split,
      round_, counters_.data());
  GRB_CUDA_CHECK(cudaGetLastError());
  // The emptied pile's tail is cleared for its next turn as the target.
  GRB_CUDA_CHECK(cudaMemsetAsync(&counters_.data()->far_tail[far_slot_], 0,
                                 sizeof(unsigned long long), current_stream()));
  far_slot_ = 1 - far_slot_;
  split_ = next_split;
  return true;
}

std::uint64_t Worklist::settle_on_host(double delta) {
  std::uint64_t phases = 0;
  do {
    drain();
    ++phases;
  } while (advance_split(delta));
  return phases;
}

std::uint64_t Worklist::settle(double delta, bool trace) {
  WeightedView graph = graph_;
  Round round = this->round();
  StepLog log = step_log(trace);
  void* arguments[] = {&graph, &round, &delta, &log};
  GRB_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(persistent_near_far),
                                             persistent_blocks_, block, arguments, 0,
                                             current_stream()));
  read_counters();
  return 1 + (*host_).splits;
}

std::vector<double> Worklist::distances() const {
  const std::vector<unsigned long long> bits = distance_.to_vector();
  std::vector<double> result(bits.size());
  std::memcpy(result.data(), bits.data(), bits.size() * sizeof(double));
  return result;
}

std::vector<Index> Worklist::parents() const { return parent_.to_vector(); }

Stats Worklist::counts() const {
  const std::vector<Counters> c = counters_.to_vector();
  Stats stats;
  stats.iterations = c[0].iterations;
  stats.relaxations = c[0].relaxations;
  return stats;
}

StepLog Worklist::step_log(bool trace) {
  // 2^16 steps: kron24 takes a few hundred, grids a few thousand (light-heavy: ~15 000 on
  // grid2000).
  if (trace && trace_.size() == 0) trace_ = detail::Array<StepTrace>(1 << 16, Backend::cuda);
  traced_ = trace;
  return trace ? StepLog{trace_.data(), trace_.size()} : StepLog{};
}

std::vector<Step> Worklist::steps() const {
  if (!traced_) return {};
  const std::size_t taken = std::min<std::size_t>((*host_).traced_steps, trace_.size());
  std::vector<StepTrace> trace(taken);
  GRB_CUDA_CHECK(cudaMemcpyAsync(trace.data(), trace_.data(), taken * sizeof(StepTrace),
                                 cudaMemcpyDeviceToHost, current_stream()));
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  std::vector<Step> steps;
  for (std::size_t i = 0; i + 1 < trace.size() && trace[i].kind != trace_end; ++i)
    steps.push_back(Step{Step::Kind(trace[i].kind), trace[i].items, trace[i].spread_edges,
                         1e-3 * double(trace[i + 1].start_ns - trace[i].start_ns)});
  return steps;
}

std::size_t Worklist::bytes() const {
  const std::size_t n = distance_.size();
  return n * (sizeof(unsigned long long) + 3 * sizeof(unsigned) + 9 * sizeof(Index)) +
         sizeof(Counters) + light_end_.size() * sizeof(Offset) +
         (settled_[0].size() + settled_[1].size()) * sizeof(Index) +
         settled_stamp_.size() * sizeof(unsigned) + 3 * hub_ranges_[0].size() * sizeof(HubRange) +
         trace_.size() * sizeof(StepTrace);
}

void WorklistEngine::prepare(const Matrix<double>& graph) {
  summary_ = check_weights(graph, name_);
  graph_.upload(graph, light_heavy_);
  worklist_.allocate(graph_, light_heavy_);
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  prepared_ = true;
}

void WorklistEngine::run(Index source, const Options& options) {
  if (!prepared_) throw InvalidValue("sssp engine " + name_ + ": run() before prepare()");
  if (source >= graph_.vertices())
    throw IndexOutOfBounds("sssp engine " + name_ + ": source " + std::to_string(source) +
                           " is not a vertex (n = " + std::to_string(graph_.vertices()) + ")");
  if (options.delta < 0 || !std::isfinite(options.delta))
    throw InvalidValue("sssp engine " + name_ + ": delta must be positive and finite, not " +
                       std::to_string(options.delta));
  search(source, options);
  if (options.parents) worklist_.recover_parents(source);
  GRB_CUDA_CHECK(cudaStreamSynchronize(current_stream()));
  parents_ = options.parents;
}

Result WorklistEngine::result() const {
  Result result;
  result.distance = worklist_.distances();
  if (parents_) result.parent = worklist_.parents();
  result.stats = worklist_.counts();
  result.stats.steps = worklist_.steps();
  result.stats.phases = phases_;
  result.stats.delta = delta_;
  return result;
}

}  // namespace grb::sssp::kernels
