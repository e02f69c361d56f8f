// grb::Context: where grb work runs. A context owns one device, one stream (created by grb, or
// the caller's, such as CuPy's or PyTorch's current stream), the non-blocking mode's queue of
// deferred work (grb/deferred.hpp), and the cuda backend's per-stream state (claim stamps, the
// cuSPARSE handle, the memory pool's kept blocks).
//
// Each host thread has a default context, on the legacy default stream of the device that was
// current when the thread first used grb: code that never names a context runs as it always has.
// (Changing the current device afterwards does not change the default context: name a Context
// for each device.) A ContextScope makes another context current on
// its thread (and its device the current device) until the scope ends:
//
//   grb::Context context(1);              // device 1, a new stream
//   grb::ContextScope scope(context);
//   grb::Vector<float> x(n, grb::Backend::cuda);   // made on device 1; its work goes to the stream
//
// Every Vector and Matrix records the context it was made in, and keeps it alive. Reading an
// object completes its own context's queue, in that context, whatever context is current; a
// copy of an object is made in the current context, after the source's context has finished
// with it (the way to move an object to another context). A cuda operation whose objects come
// from a context other than the current one throws ContextMismatch: work never crosses streams
// silently. Contexts are not shared between threads at once; objects of one context belong to
// one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "grb/deferred_queue.hpp"
#include "grb/error.hpp"

namespace grb {

namespace detail {

// Defined in the grb library (src/cuda/context.cu; src/no_cuda.cpp without CUDA, where every
// context is on device 0 and has no stream).
/// The calling thread's current device (0 where there is no GPU).
int active_device();
void make_device_current(int device);
/// A new stream on `device` that orders after the legacy default stream (null without a GPU).
void* create_stream(int device);
struct ContextState;
/// Waits for the context's stream (for the device, on the legacy stream).
void synchronize_context(const ContextState& context);

struct ContextState : std::enable_shared_from_this<ContextState> {
  int device = 0;
  void* stream = nullptr;  // a cudaStream_t; null: the legacy default stream
  bool owns_stream = false;
  DeferredState deferred;
  // The cuda backend's state, made on first use (src/cuda): its types are the backend's.
  std::shared_ptr<void> claim_stamps;
  std::shared_ptr<void> cusparse;
  // While grb::repeat_while records its body on the device (grb/loop.hpp): the work goes to a
  // capturing stream, `stream` above; allocations are made at once on the stream the loop will
  // run on (outer_stream), and the blocks freed meanwhile are kept until the loop has run, since
  // the recorded work goes on using them.
  bool recording = false;
  void* outer_stream = nullptr;
  std::vector<void*> freed_while_recording;
  void* loop_error = nullptr;  // a device word: 1 + the largest index a recorded check found bad
  std::uint64_t recording_serial = 0;  // which recording: objects made in it may be replaced
  std::string loop_violation;          // what the body did that a recorded loop cannot replay

  ContextState(int device, void* stream, bool owns_stream)
      : device(device), stream(stream), owns_stream(owns_stream) {}
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  /// Releases the backend's state and the stream's kept memory blocks, and waits for and
  /// destroys a stream grb created (src/context.cpp).
  ~ContextState();
};
using ContextRef = std::shared_ptr<ContextState>;

/// The calling thread's contexts: the current one (null until the first use, which makes the
/// default current), and the default, made on first use.
struct ThreadContexts {
  ContextState* current = nullptr;
  ContextRef fallback;
};
inline thread_local ThreadContexts thread_contexts;

/// The calling thread's current context. Asked on every launch, allocation and object method:
/// no runtime call once the thread's default context exists.
inline ContextState& current_context() {
  ThreadContexts& contexts = thread_contexts;
  if (contexts.current) return *contexts.current;
  if (!contexts.fallback)
    contexts.fallback = std::make_shared<ContextState>(active_device(), nullptr, false);
  contexts.current = contexts.fallback.get();
  return *contexts.current;
}

/// Throws NotInLoop when the current context is recording a device loop: `what` needs the host.
inline void check_not_recording(const char* what) {
  if (current_context().recording)
    throw NotInLoop(std::string(what) +
                    " inside grb::repeat_while: a loop recorded for the device cannot read "
                    "values back or replace the storage its operations write (see grb/loop.hpp)");
}

/// While alive, the current context's work runs at once, on the stream the loop being recorded
/// will run on, instead of being recorded: for what an operation computes once about an object
/// the loop does not write and caches with it (a matrix's transpose, its longest row). Those
/// facts hold on every iteration, so computing them while recording is right; recording them
/// would leave them uncomputed until the loop runs.
class OutsideRecording {
 public:
  OutsideRecording() : context_(current_context()), active_(context_.recording) {
    if (!active_) return;
    recorded_ = context_.stream;
    context_.stream = context_.outer_stream;
    context_.recording = false;
  }
  ~OutsideRecording() {
    if (!active_) return;
    context_.recording = true;
    context_.stream = recorded_;
  }
  OutsideRecording(const OutsideRecording&) = delete;
  OutsideRecording& operator=(const OutsideRecording&) = delete;

 private:
  ContextState& context_;
  bool active_;
  void* recorded_ = nullptr;
};

/// The recording an object is made in (0: none), for note_replaced_in_loop.
inline std::uint64_t loop_serial() {
  const ContextState& context = current_context();
  return context.recording ? context.recording_serial : 0;
}

/// An object made before the loop being recorded had its storage replaced: the recorded work
/// would go on using the old storage, so the recording fails when the body returns (noexcept:
/// moves call it).
inline void note_replaced_in_loop(std::uint64_t birth) noexcept {
  ContextState& context = current_context();
  if (!context.recording || birth == context.recording_serial || !context.loop_violation.empty())
    return;
  try {
    context.loop_violation =
        "an operation replaced the storage of a vector made before the loop (write into vectors "
        "stored dense: Vector::full or clear_dense before grb::repeat_while)";
  } catch (...) {
  }
}

/// The context an object was made in, which it keeps alive: the current one at construction.
/// A move copies it (the moved-from object keeps its context, for its destructor).
class ObjectContext {
 public:
  ObjectContext() : state_(current_context().shared_from_this()) {}
  ObjectContext(const ObjectContext&) = default;
  ObjectContext(ObjectContext&& other) noexcept : state_(other.state_) {}
  ObjectContext& operator=(const ObjectContext&) = default;
  ObjectContext& operator=(ObjectContext&& other) noexcept {
    state_ = other.state_;
    return *this;
  }
  ContextState& operator*() const { return *state_; }
  const ContextRef& ref() const { return state_; }

 private:
  ContextRef state_;
};

/// Makes `context` current on this thread (and its device the current device) for the
/// switch's lifetime; nothing changes when it is current already.
class ContextSwitch {
 public:
  explicit ContextSwitch(ContextState& context) {
    ContextState& now = current_context();
    previous_ = &now;
    if (&now == &context) {
      switched_ = false;
      return;
    }
    previous_device_ = now.device;
    if (context.device != previous_device_) make_device_current(context.device);
    thread_contexts.current = &context;
  }
  ~ContextSwitch() {
    if (!switched_) return;
    const int device = thread_contexts.current->device;
    thread_contexts.current = previous_;
    if (device != previous_device_) make_device_current(previous_device_);
  }
  ContextSwitch(const ContextSwitch&) = delete;
  ContextSwitch& operator=(const ContextSwitch&) = delete;

 private:
  ContextState* previous_ = nullptr;
  int previous_device_ = 0;
  bool switched_ = true;
};

}  // namespace detail

/// A device, a stream and a queue of deferred work (see the top of this file). A handle: copies
/// share one context, which lives as long as a handle, a scope or an object made in it.
class Context {
 public:
  /// A new stream on the current device.
  Context() : Context(detail::active_device()) {}
  /// A new stream on `device`.
  explicit Context(int device)
      : state_(std::make_shared<detail::ContextState>(device, detail::create_stream(device),
                                                      true)) {}
  /// The caller's stream (a cudaStream_t) on `device`, which grb uses and never destroys: the
  /// objects made in this context must be destroyed before the stream is.
  static Context on_stream(int device, void* stream) {
    return Context(std::make_shared<detail::ContextState>(device, stream, false));
  }
  /// The calling thread's current context.
  static Context current() { return Context(detail::current_context().shared_from_this()); }

  int device() const { return state_->device; }
  /// The stream (a cudaStream_t; null: the legacy default stream).
  void* stream() const { return state_->stream; }
  /// Completes this context's deferred work (an error in it is thrown here), then waits for its
  /// stream: every result made in it is complete when it returns.
  void wait() const;

  bool operator==(const Context& other) const { return state_ == other.state_; }

  explicit Context(detail::ContextRef state) : state_(std::move(state)) {}
  detail::ContextState& state() const { return *state_; }

 private:
  detail::ContextRef state_;
};

/// Makes a context current on this thread (and its device current) for the scope's lifetime.
/// Scopes nest; each restores what was current before it.
class ContextScope {
 public:
  explicit ContextScope(const Context& context) : context_(context), switch_(context.state()) {}
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  Context context_;  // keeps the context alive while it is current
  detail::ContextSwitch switch_;
};

}  // namespace grb
