// Deferred work: the non-blocking mode of the GraphBLAS C API. A cuda operation may leave its
// work queued instead of launching it, so that the operations called after it can join the same
// launch: a linear-algebra BFS level (a push vxm and the two assigns masked by its result) then
// costs one kernel launch and one read-back instead of three launches, each waiting on the last.
//
// Work goes through two stages. Pending: queued, not launched; at most one piece of work, and the
// only one an operation may fuse into. Launched: its kernels are issued, its results not yet
// installed in the objects it writes (at most a couple: see nvals below). Work without results
// (kernels that update their targets in place: assigns queued behind a product, set_element's
// writes) has only the first stage: once launched, nothing is left of it to wait for.
//
// Each context (grb/context.hpp) has its own queue. Every reader of a grb object completes all
// of its context's queue first (launches what is pending, then waits
// for everything and installs the results, oldest first): any Vector accessor, any operation
// (through those accessors), and the destruction, move or reassignment of a Vector or Matrix, so
// nothing the work reads or writes changes or disappears under it. Two exceptions:
//   - Vector::nvals() waits only for the work that writes that vector, after launching the
//     pending work if that does not write it: a BFS that tests the frontier of the level before
//     the one it has just queued lets the GPU run that level while the host waits
//     (bfs/linear_algebra.hpp);
//   - an operation that fuses itself into the pending work, or that queues behind launched work
//     whose result it reads (cuda/deferred.cuh), looks at objects without completing anything,
//     inside a DeferredHold.
//
// An error in deferred work surfaces where it completes. When it completes in a destructor
// (which must not throw) it is kept and thrown by the next grb call that completes work.
//
// set_mode(Mode::blocking) turns deferral off: every operation has finished its work (bar the
// in-place nvals change of Vector::update_dense) when it returns.
#pragma once

#include <algorithm>
#include <exception>
#include <memory>
#include <utility>

#include "grb/context.hpp"
#include "grb/deferred_queue.hpp"

namespace grb {

namespace detail {

/// The current context's queue: the one every operation queues into and completes.
inline DeferredState& deferred_state() { return current_context().deferred; }

/// While alive, readers of grb objects leave deferred work as it is.
class DeferredHold {
 public:
  DeferredHold() : state_(deferred_state()) { ++state_.holds; }
  ~DeferredHold() { --state_.holds; }
  DeferredHold(const DeferredHold&) = delete;
  DeferredHold& operator=(const DeferredHold&) = delete;

 private:
  DeferredState& state_;
};

/// Launches the pending work, if any: it moves to the launched queue.
inline void launch_pending() {
  DeferredState& state = deferred_state();
  if (!state.pending) return;
  std::unique_ptr<Deferred> work = std::move(state.pending);  // its own reads see it no more
  {
    const DeferredHold hold;  // launching reads nothing launched work may still write
    work->launch();
  }
  if (work->has_results()) state.launched.push_back(std::move(work));
}

/// Finishes the oldest launched work.
inline void finish_oldest() {
  DeferredState& state = deferred_state();
  const std::unique_ptr<Deferred> work = std::move(state.launched.front());
  state.launched.pop_front();
  const DeferredHold hold;  // installing results replaces objects: that must not complete more
  work->finish();
}

/// Runs all deferred work, if any (and rethrows an error kept from a destructor).
inline void complete_deferred() {
  DeferredState& state = deferred_state();
  if (state.holds > 0) return;
  if (state.error) std::rethrow_exception(std::exchange(state.error, nullptr));
  launch_pending();
  while (!state.launched.empty()) finish_oldest();
}

/// complete_deferred() for Vector::nvals(): waits only for the work that writes `object`, and
/// first launches the pending work unless it writes `object` too (see the top of this file).
inline void complete_deferred_writing(const void* object) {
  DeferredState& state = deferred_state();
  if (state.holds > 0) return;
  if (state.error) std::rethrow_exception(std::exchange(state.error, nullptr));
  if (state.pending && state.pending->writes(object)) return complete_deferred();
  launch_pending();
  const auto last = std::find_if(state.launched.rbegin(), state.launched.rend(),
                                 [&](const auto& work) { return work->writes(object); });
  for (auto left = state.launched.rend() - last; left > 0; --left) finish_oldest();
}

/// complete_deferred() for destructors and moves: an error is kept for the next grb call.
inline void complete_deferred_quietly() noexcept {
  DeferredState& state = deferred_state();
  if (state.holds > 0 || (!state.pending && state.launched.empty())) return;
  try {
    launch_pending();
    while (!state.launched.empty()) finish_oldest();
  } catch (...) {
    state.error = std::current_exception();
  }
}

/// Queues `work` (after completing whatever was deferred).
inline void defer(std::unique_ptr<Deferred> work) {
  complete_deferred();
  deferred_state().pending = std::move(work);
}

/// Queues `work` behind the deferred work, which it reads: what was pending is launched, nothing
/// is waited for.
inline void defer_behind(std::unique_ptr<Deferred> work) {
  launch_pending();
  deferred_state().pending = std::move(work);
}

/// Launches `work` at once, behind whatever is deferred, and leaves it launched: it finishes when
/// its result is read. The operations after it may queue behind it on the device (a BFS level's
/// assigns behind its product: cuda/deferred.cuh) while the host has not waited for anything.
inline void launch_deferred(std::unique_ptr<Deferred> work) {
  launch_pending();
  {
    const DeferredHold hold;
    work->launch();
  }
  deferred_state().launched.push_back(std::move(work));
}

/// The pending work, for an operation that may fuse into it (null when none).
inline Deferred* pending_work() { return deferred_state().pending.get(); }

/// The newest deferred work with results, pending or launched (null when none): pending work
/// without results (assigns queued behind a product, element writes) is skipped, as it will be
/// once launched.
inline Deferred* newest_work() {
  DeferredState& state = deferred_state();
  if (state.pending && state.pending->has_results()) return state.pending.get();
  return state.launched.empty() ? nullptr : state.launched.back().get();
}

/// Whether any deferred work is left (pending or launched).
inline bool has_deferred_work() {
  return deferred_state().pending || !deferred_state().launched.empty();
}

/// Whether deferred work (pending or launched) replaces the grb object at this address: its
/// host side is stale until that work finishes, so nobody may read it inside a hold.
inline bool deferred_work_replaces(const void* object) {
  const DeferredState& state = deferred_state();
  if (state.pending && state.pending->replaces(object)) return true;
  return std::any_of(state.launched.begin(), state.launched.end(),
                     [&](const auto& work) { return work->replaces(object); });
}

// An object's readers, moves and destruction complete the queue of the context the object was
// made in, in that context (its stream, its device), whichever is current.
/// complete_deferred() for an object of `context`.
inline void complete_deferred(ContextState& context) {
  if (context.deferred.idle()) return;
  const ContextSwitch use(context);
  complete_deferred();
}
/// complete_deferred_writing() for an object of `context`.
inline void complete_deferred_writing(ContextState& context, const void* object) {
  if (context.deferred.idle()) return;
  const ContextSwitch use(context);
  complete_deferred_writing(object);
}
/// complete_deferred_quietly() for an object of `context`.
inline void complete_deferred_quietly(ContextState& context) noexcept {
  if (context.deferred.idle()) return;
  const ContextSwitch use(context);
  complete_deferred_quietly();
}
/// For a method of an object of `context`: makes the context current while the method runs
/// (its device work goes to the context's stream and device) and completes its queue.
class ObjectScope {
 public:
  explicit ObjectScope(ContextState& context) : switch_(context) { complete_deferred(); }

 private:
  ContextSwitch switch_;
};

/// Before a copy of an object of `source` is made in the current context: the source's work is
/// completed, and when the source is a device object of another context, its stream has
/// finished too.
inline void complete_for_copy(ContextState& source, bool on_device) {
  complete_deferred(source);
  if (on_device && &source != &current_context()) synchronize_context(source);
}

}  // namespace detail

/// GrB_init's mode, for the current context: nonblocking (the default) lets cuda operations
/// defer and fuse their work; blocking completes each operation before it returns. Changing it
/// completes pending work.
inline void set_mode(Mode mode) {
  detail::complete_deferred();
  detail::deferred_state().mode = mode;
}
inline Mode mode() { return detail::deferred_state().mode; }

inline void Context::wait() const {
  detail::complete_deferred(*state_);
  detail::synchronize_context(*state_);
}

/// GrB_wait, for the current context: completes its deferred work (an error in it is thrown
/// here), then waits for its stream, so that every result is complete when it returns: a
/// caller's clock may stop there (an operation that needs no read-back, such as a BFS level's
/// assigns, may still be running when it returns, even in blocking mode).
inline void wait() { Context::current().wait(); }

}  // namespace grb
