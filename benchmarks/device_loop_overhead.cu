// What a loop costs per iteration when its stopping test is on the host, and when it is a CUDA
// graph's conditional while node (the device loop of grb::repeat_while). Each iteration runs K
// small kernels, the last of which decrements a device counter (the loop's "frontier"); the loop
// stops when it reaches zero. Three ways, each timed over --iterations iterations:
//   host:  K launches, the counter copied to page-locked memory, a stream synchronisation, the
//          host tests it (a GraphBLAS loop that asks nvals() every level);
//   graph: the K kernels recorded once by stream capture into the body of a conditional while
//          node; the last kernel sets the condition (cudaGraphSetConditional); one graph launch.
//   graph-unrolled: as graph, with the body holding U copies of the K kernels, each later copy
//          returning at once once the counter is zero (fewer conditional iterations).
// Kernels run `blocks` blocks of 256 threads that touch one word each; their work is not the
// point, the gaps between them are.
//
//   device_loop_overhead [--iterations 2845] [--kernels 3] [--blocks 264]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "grb/cuda/primitives/while_node.cuh"

namespace {

#define CHECK(call)                                                                         \
  do {                                                                                      \
    cudaError_t status_ = (call);                                                           \
    if (status_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(status_));                                            \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

__global__ void touch(unsigned* scratch, const int* counter) {
  if (*counter <= 0) return;  // an unrolled copy past the end does nothing
  scratch[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

__global__ void step(unsigned* scratch, int* counter) {
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0 && *counter > 0) --*counter;
  scratch[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

__global__ void step_and_test(unsigned* scratch, int* counter, cudaGraphConditionalHandle handle) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    if (*counter > 0) --*counter;
    // Only this block sets the condition, after its own decrement: no race with other blocks.
    cudaGraphSetConditional(handle, *counter > 0 ? 1 : 0);
  }
  scratch[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

struct Options {
  int iterations = 2845;  // grid2000's BFS levels
  int kernels = 3;
  int blocks = 264;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double host_loop(const Options& o, cudaStream_t stream, unsigned* scratch, int* counter,
                 int* pinned) {
  CHECK(cudaMemcpyAsync(counter, &o.iterations, sizeof(int), cudaMemcpyHostToDevice, stream));
  CHECK(cudaStreamSynchronize(stream));
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  for (;;) {
    for (int k = 0; k + 1 < o.kernels; ++k) touch<<<o.blocks, 256, 0, stream>>>(scratch, counter);
    step<<<o.blocks, 256, 0, stream>>>(scratch, counter);
    CHECK(cudaMemcpyAsync(pinned, counter, sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    ++done;
    if (*pinned == 0) break;
  }
  const double elapsed = seconds_since(start);
  if (done != o.iterations) std::fprintf(stderr, "host loop: %d iterations\n", done);
  return elapsed;
}

double graph_loop(const Options& o, int unroll, cudaStream_t stream, unsigned* scratch,
                  int* counter) {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  cudaGraph_t body;
  CHECK(grb::cuda::detail::add_while_node(graph, handle, body));

  cudaStream_t capture;
  CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCaptureToGraph(capture, body, nullptr, nullptr, 0,
                                      cudaStreamCaptureModeThreadLocal));
  for (int u = 0; u < unroll; ++u) {
    for (int k = 0; k + 1 < o.kernels; ++k) touch<<<o.blocks, 256, 0, capture>>>(scratch, counter);
    if (u + 1 < unroll)
      step<<<o.blocks, 256, 0, capture>>>(scratch, counter);
    else
      step_and_test<<<o.blocks, 256, 0, capture>>>(scratch, counter, handle);
  }
  CHECK(cudaStreamEndCapture(capture, &body));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  CHECK(cudaMemcpyAsync(counter, &o.iterations, sizeof(int), cudaMemcpyHostToDevice, stream));
  CHECK(cudaGraphUpload(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  const auto start = std::chrono::steady_clock::now();
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  const double elapsed = seconds_since(start);
  int left = -1;
  CHECK(cudaMemcpy(&left, counter, sizeof(int), cudaMemcpyDeviceToHost));
  if (left != 0) std::fprintf(stderr, "graph loop: counter ended at %d\n", left);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(capture));
  return elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](int& target) {
      if (i + 1 >= argc || std::atoi(argv[i + 1]) <= 0) {
        std::fprintf(stderr, "device_loop_overhead: %s needs a positive number\n", a.c_str());
        std::exit(2);
      }
      target = std::atoi(argv[++i]);
    };
    if (a == "--iterations") value(o.iterations);
    else if (a == "--kernels") value(o.kernels);
    else if (a == "--blocks") value(o.blocks);
    else {
      std::fprintf(stderr,
                   "usage: device_loop_overhead [--iterations N] [--kernels K] [--blocks B]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  unsigned* scratch;
  int* counter;
  int* pinned;
  CHECK(cudaMalloc(&scratch, sizeof(unsigned) * 256 * o.blocks));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMallocHost(&pinned, sizeof(int)));
  cudaDeviceProp properties;
  CHECK(cudaGetDeviceProperties(&properties, 0));
  std::printf("%s, %d iterations of %d kernels of %d blocks; microseconds per iteration "
              "(best of 5)\n",
              properties.name, o.iterations, o.kernels, o.blocks);
  auto best = [&](auto run) {
    double fastest = 1e30;
    for (int r = 0; r < 6; ++r) {  // the first run warms up
      const double t = run();
      if (r > 0 && t < fastest) fastest = t;
    }
    return fastest * 1e6 / o.iterations;
  };
  std::printf("host loop (count read back)   %8.2f\n",
              best([&] { return host_loop(o, stream, scratch, counter, pinned); }));
  for (int unroll : {1, 2, 4})
    std::printf("graph while, body x%d         %8.2f\n", unroll,
                best([&] { return graph_loop(o, unroll, stream, scratch, counter); }));
  return 0;
}
