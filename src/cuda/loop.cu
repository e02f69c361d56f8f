// grb::repeat_while on cuda (grb/loop.hpp): the body recorded once into the body graph of a
// conditional while node, by capturing the context's work on a stream of the loop's own.
//
// While the body records, the context's stream is the capturing one, so every kernel, copy and
// memset of its operations lands in the graph. Allocations are not recorded: they are made at
// once on the stream the loop will run on (src/cuda/memory.cu), and the blocks the body frees
// are kept until the graph has run, since the recorded work reuses them on every iteration.
// Deferred work is off (blocking mode) while recording: a fused launch would read its counts
// back. Anything that needs the host throws NotInLoop (grb::detail::check_not_recording), and
// then nothing of the loop runs.
#include <cuda_runtime.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "grb/cuda/primitives/check.cuh"
#include "grb/cuda/primitives/launch.cuh"
#include "grb/cuda/primitives/while_node.cuh"
#include "grb/cuda/runtime.cuh"
#include "grb/deferred.hpp"
#include "grb/loop.hpp"

namespace grb::detail {

namespace {

/// The end of each iteration: the condition is "some byte of it is not zero"; an iteration that
/// met a bad index (status[1]) is the last. status[0] counts the iterations.
__global__ void test_condition(const unsigned char* condition, unsigned bytes,
                               cudaGraphConditionalHandle handle, unsigned long long* status) {
  bool any = false;
  for (unsigned b = 0; b < bytes; ++b) any = any || condition[b] != 0;
  ++status[0];
  cudaGraphSetConditional(handle, any && status[1] == 0 ? 1u : 0u);
}

/// The graph and its executable, destroyed however the loop ends.
struct Graphs {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~Graphs() {
    if (exec) (void)cudaGraphExecDestroy(exec);
    if (graph) (void)cudaGraphDestroy(graph);
  }
};

/// The context in recording state for the body's duration, restored however the body ends.
class Recording {
 public:
  Recording(ContextState& context, cudaStream_t capture, unsigned long long* error)
      : context_(context), outer_(context.stream), mode_(deferred_state().mode) {
    context_.outer_stream = outer_;
    context_.loop_error = error;
    context_.stream = capture;
    context_.recording = true;
    ++context_.recording_serial;
    context_.loop_violation.clear();
    deferred_state().mode = Mode::blocking;
  }
  ~Recording() {
    deferred_state().mode = mode_;
    context_.recording = false;
    context_.stream = outer_;
    context_.outer_stream = nullptr;
    context_.loop_error = nullptr;
  }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

 private:
  ContextState& context_;
  void* outer_;
  Mode mode_;
};

/// Gives the blocks freed while recording back to the pool, in the stream's order (after the
/// loop's graph, when it was launched).
void release_recorded_blocks(ContextState& context) {
  std::vector<void*> blocks = std::move(context.freed_while_recording);
  context.freed_while_recording.clear();
  for (void* block : blocks) free_bytes(block, Backend::cuda);
}

}  // namespace

std::uint64_t run_device_loop(const void* condition, std::size_t bytes,
                              const std::function<void()>& body) {
  ContextState& context = current_context();
  if (context.recording)
    throw NotInLoop("grb::repeat_while inside another loop's body: device loops do not nest");
  complete_deferred();  // the work queued before the loop runs before it
  const auto outer = static_cast<cudaStream_t>(context.stream);
  // The iterations the loop ran, and 1 + the largest bad index its checks found (0: none).
  struct Status {
    unsigned long long iterations, bad_index;
  };
  auto status = grb::cuda::detail::device_array<unsigned long long>(2);
  grb::cuda::detail::fill_zero(status.data(), 2);

  Graphs graphs;
  GRB_CUDA_CHECK(cudaGraphCreate(&graphs.graph, 0));
  cudaGraphConditionalHandle handle;
  cudaGraph_t body_graph;
  GRB_CUDA_CHECK(grb::cuda::detail::add_while_node(graphs.graph, handle, body_graph));

  cudaStream_t capture;
  GRB_CUDA_CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  std::exception_ptr failure;
  cudaError_t captured = cudaSuccess;
  {
    // Relaxed: the allocations made while recording (on the outer stream) are allowed.
    captured = cudaStreamBeginCaptureToGraph(capture, body_graph, nullptr, nullptr, 0,
                                             cudaStreamCaptureModeRelaxed);
    if (captured == cudaSuccess) {
      const Recording recording(context, capture, status.data() + 1);
      try {
        body();
        test_condition<<<1, 1, 0, capture>>>(static_cast<const unsigned char*>(condition),
                                             static_cast<unsigned>(bytes), handle,
                                             status.data());
        GRB_CUDA_CHECK_LAUNCH();
      } catch (...) {
        failure = std::current_exception();
      }
      cudaGraph_t ended = nullptr;
      captured = cudaStreamEndCapture(capture, &ended);
    }
  }
  (void)cudaStreamDestroy(capture);
  std::string violation = std::move(context.loop_violation);
  context.loop_violation.clear();
  if (!failure && captured != cudaSuccess) {
    (void)cudaGetLastError();
    failure = std::make_exception_ptr(NotInLoop(
        std::string("grb::repeat_while: the body could not be recorded (") +
        cudaGetErrorString(captured) + "): an operation in it synchronised or read back"));
  }
  if (!failure && !violation.empty())
    failure = std::make_exception_ptr(NotInLoop("grb::repeat_while: " + violation));
  if (failure) {
    release_recorded_blocks(context);  // nothing recorded ever ran
    std::rethrow_exception(failure);
  }
  GRB_CUDA_CHECK(cudaGraphInstantiate(&graphs.exec, graphs.graph, 0));
  GRB_CUDA_CHECK(cudaGraphLaunch(graphs.exec, outer));
  release_recorded_blocks(context);
  // The one wait of the loop; an error of its kernels surfaces here.
  const Status result =
      grb::cuda::detail::read_scalar(reinterpret_cast<const Status*>(status.data()));
  if (result.bad_index != 0)
    throw IndexOutOfBounds("grb::repeat_while: index " + std::to_string(result.bad_index - 1) +
                           " of a device index list was out of range in an iteration of the loop "
                           "(the loop ran " + std::to_string(result.iterations) +
                           " iterations; its outputs are unspecified)");
  return result.iterations;
}

}  // namespace grb::detail
