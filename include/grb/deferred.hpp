// Deferred work: the non-blocking mode of the GraphBLAS C API. A cuda operation may leave its
// work queued instead of launching it, so that the operations called after it can join the same
// launch: a linear-algebra BFS level (a push vxm and the two assigns masked by its result) then
// costs one kernel launch and one read-back instead of three launches, each waiting on the last.
//
// At most one piece of work is pending. Every reader of a grb object completes it first: any
// Vector accessor (nvals() included), any operation (through those accessors), and the
// destruction, move or reassignment of a Vector or Matrix, so nothing the work reads or writes
// changes or disappears under it. Only an operation that fuses itself into the pending work
// (cuda/deferred.cuh) looks at objects without completing it, inside a DeferredHold.
//
// An error in deferred work surfaces where it completes. When it completes in a destructor
// (which must not throw) it is kept and thrown by the next grb call that completes work.
//
// set_mode(Mode::blocking) turns deferral off: every operation has finished its work (bar the
// in-place nvals change of Vector::update_dense) when it returns.
#pragma once

#include <exception>
#include <memory>
#include <utility>

namespace grb {

enum class Mode { nonblocking, blocking };

namespace detail {

/// Work an operation left queued; run() launches it and installs its results.
class Deferred {
 public:
  virtual ~Deferred() = default;
  virtual void run() = 0;
};

struct DeferredState {
  std::unique_ptr<Deferred> pending;
  int holds = 0;                 // > 0: inside a DeferredHold, readers do not complete
  std::exception_ptr error;      // from work completed in a destructor
  Mode mode = Mode::nonblocking;
};
inline DeferredState deferred_state;  // grb objects are not shared between host threads

/// Runs the pending work, if any (and rethrows an error kept from a destructor).
inline void complete_deferred() {
  DeferredState& state = deferred_state;
  if (state.holds > 0) return;
  if (state.error) std::rethrow_exception(std::exchange(state.error, nullptr));
  if (!state.pending) return;
  const std::unique_ptr<Deferred> work = std::move(state.pending);  // its own reads see none
  work->run();
}

/// complete_deferred() for destructors and moves: an error is kept for the next grb call.
inline void complete_deferred_quietly() noexcept {
  DeferredState& state = deferred_state;
  if (!state.pending || state.holds > 0) return;
  try {
    const std::unique_ptr<Deferred> work = std::move(state.pending);
    work->run();
  } catch (...) {
    state.error = std::current_exception();
  }
}

/// Queues `work` (after completing whatever was pending).
inline void defer(std::unique_ptr<Deferred> work) {
  complete_deferred();
  deferred_state.pending = std::move(work);
}

/// The pending work, for an operation that may fuse into it (null when none).
inline Deferred* pending_work() { return deferred_state.pending.get(); }

/// While alive, readers of grb objects leave the pending work pending.
class DeferredHold {
 public:
  DeferredHold() { ++deferred_state.holds; }
  ~DeferredHold() { --deferred_state.holds; }
  DeferredHold(const DeferredHold&) = delete;
  DeferredHold& operator=(const DeferredHold&) = delete;
};

}  // namespace detail

/// GrB_init's mode: nonblocking (the default) lets cuda operations defer and fuse their work;
/// blocking completes each operation before it returns. Changing it completes pending work.
inline void set_mode(Mode mode) {
  detail::complete_deferred();
  detail::deferred_state.mode = mode;
}
inline Mode mode() { return detail::deferred_state.mode; }

/// GrB_wait: completes all deferred work (an error in it is thrown here).
inline void wait() { detail::complete_deferred(); }

}  // namespace grb
