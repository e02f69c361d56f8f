// grb::repeat_while: a loop whose body is grb operations and whose test is a grb::Scalar that
// the body writes. On the cpu backend it is a plain do-while loop. On cuda the body is recorded
// once, by stream capture, into a CUDA graph whose conditional while node repeats it; a kernel
// at the end of each iteration reads the scalar on the GPU and sets the node's condition. The
// whole loop is one graph launch: the host waits once, at the end, instead of once an iteration
// (benchmarks/device_loop_overhead: ~23 us an iteration with the host reading a count back,
// ~7 us in the graph, for three small kernels on an H200).
//
// What a recorded body may do, since its work is replayed as recorded:
//   - operations whose outputs are stored dense before the loop (Vector::full, clear_dense):
//     they write in place and keep their entry counts on the device;
//   - temporaries made inside the body (their blocks are allocated once, when recorded, and
//     freed after the loop);
//   - no reading values back (Vector::nvals, Scalar::value, extract_tuples), no replacing the
//     storage of a vector made before the loop, no host decision that could differ from one
//     iteration to the next. These throw grb::NotInLoop, and nothing of the loop runs.
// After the loop, every object reads as the host loop would have left it. LoopMode::host runs
// the same body as a host loop on any backend (the reference the device loop is tested against);
// the environment variable GRB_LOOP=host makes it the default, to compare the two on any
// algorithm written with repeat_while.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <type_traits>

#include "grb/context.hpp"
#include "grb/scalar.hpp"

namespace grb {

enum class LoopMode { device, host };

namespace detail {
/// Records `body` into a CUDA graph with a conditional while node, which repeats it while the
/// `bytes` bytes at `condition` (device memory) are not all zero, runs it on the current
/// context's stream, and returns how many times the body ran (src/cuda/loop.cu).
std::uint64_t run_device_loop(const void* condition, std::size_t bytes,
                              const std::function<void()>& body);
/// LoopMode::host where the environment says GRB_LOOP=host, else LoopMode::device.
inline LoopMode default_loop_mode() {
  static const LoopMode mode = [] {
    const char* value = std::getenv("GRB_LOOP");
    return value && std::strcmp(value, "host") == 0 ? LoopMode::host : LoopMode::device;
  }();
  return mode;
}
}  // namespace detail

/// Runs `body`, then runs it again while `condition` (which the body writes) is not zero: a
/// do-while loop. Returns how many times the body ran. The condition's backend picks where the
/// loop runs (see the top of this file).
template <class T, class Body>
std::uint64_t repeat_while(const Scalar<T>& condition, Body&& body,
                           LoopMode mode = detail::default_loop_mode()) {
  static_assert(std::is_integral_v<T>, "repeat_while tests an integer or bool Scalar");
  if (condition.backend() == Backend::cpu || mode == LoopMode::host) {
    std::uint64_t iterations = 0;
    do {
      body();
      ++iterations;
    } while (condition.value() != T{});
    return iterations;
  }
  const ContextScope scope(condition.context());
  return detail::run_device_loop(condition.data(), sizeof(T),
                                 std::function<void()>(std::ref(body)));
}

}  // namespace grb
