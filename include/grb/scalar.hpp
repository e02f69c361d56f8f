// grb::Scalar<T>: one value that lives where the work runs (GrB_Scalar, always holding a value).
// On cuda it is a device word: an operation writes it without a read-back (reduce into a
// Scalar), and a device loop tests it on the GPU (grb::repeat_while, grb/loop.hpp); value()
// reads it back, completing the work queued before.
#pragma once

#include "grb/array.hpp"
#include "grb/context.hpp"
#include "grb/deferred.hpp"
#include "grb/types.hpp"

namespace grb {

template <class T>
class Scalar {
  static_assert(std::is_trivially_copyable_v<T>, "a grb::Scalar holds a trivially copyable value");

 public:
  using value_type = T;

  explicit Scalar(T value = T{}, Backend backend = default_backend()) : value_(1, backend) {
    set(value);
  }
  Scalar(const Scalar&) = delete;  // one word that operations write: no silent copies
  Scalar& operator=(const Scalar&) = delete;
  Scalar(Scalar&&) noexcept = default;
  Scalar& operator=(Scalar&&) noexcept = default;

  Backend backend() const { return value_.backend(); }
  Context context() const { return Context(context_.ref()); }

  /// The value, once the work queued before has written it (a read-back on cuda).
  T value() const {
    detail::check_not_recording("Scalar::value");
    const detail::ContextSwitch use(*context_);
    detail::complete_deferred();
    T result;
    detail::copy_bytes(&result, Backend::cpu, value_.data(), backend(), sizeof(T));
    return result;
  }
  void set(T value) {
    detail::check_not_recording("Scalar::set");
    const detail::ContextSwitch use(*context_);
    detail::complete_deferred();
    detail::copy_bytes(value_.data(), backend(), &value, Backend::cpu, sizeof(T));
  }

  /// The value's storage, for the backends' kernels.
  T* data() { return value_.data(); }
  const T* data() const { return value_.data(); }

 private:
  detail::ObjectContext context_;  // first: the value is freed while it is alive
  detail::Array<T> value_;
};

}  // namespace grb
