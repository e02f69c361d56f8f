// The types of the non-blocking mode's queue (grb/deferred.hpp runs it): a piece of deferred
// work, and the queue each context (grb/context.hpp) keeps of it.
#pragma once

#include <deque>
#include <exception>
#include <memory>

namespace grb {

enum class Mode { nonblocking, blocking };

namespace detail {

/// Work an operation left queued: launch() issues it, finish() waits for it and installs its
/// results (each called once, in that order; finish() runs inside a DeferredHold).
class Deferred {
 public:
  virtual ~Deferred() = default;
  virtual void launch() {}
  virtual void finish() = 0;
  /// Whether the work writes the grb object at this address (its result, or a target it updates
  /// in place).
  virtual bool writes(const void* object) const = 0;
  /// Whether it replaces that object's storage (a target updated in place keeps its arrays).
  virtual bool replaces(const void* object) const { return writes(object); }
  /// False: launch() is all there is (kernels that update their targets in place, whose counts
  /// stay on the device), so the work is dropped once launched and nothing waits for it.
  virtual bool has_results() const { return true; }
};

/// One context's queue.
struct DeferredState {
  std::unique_ptr<Deferred> pending;
  std::deque<std::unique_ptr<Deferred>> launched;  // oldest first
  int holds = 0;                 // > 0: inside a DeferredHold, readers do not complete
  std::exception_ptr error;      // from work completed in a destructor
  Mode mode = Mode::nonblocking;

  /// Nothing to complete and nothing to rethrow.
  bool idle() const { return !pending && launched.empty() && !error; }
};

}  // namespace detail
}  // namespace grb
