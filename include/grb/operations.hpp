// The grb operations, with GraphBLAS C API 2.x semantics:
//
//   output<mask, replace> = accum(output, result)
//
// `mask` is grb::no_mask or a Vector/Matrix of any type (valued by default; structural or
// complemented through the Descriptor); `accum` is grb::no_accum or a binary operator. The
// output may be the same object as the mask or an input. All objects must live on one backend
// (else grb::BackendMismatch); dimensions must agree (else grb::DimensionMismatch).
//
// Each operation's semantics is written once, in the cpu backend (grb/cpu/); the cuda backend
// (grb/cuda/, compiled by nvcc) is tested against it.
#pragma once

#include <string>
#include <type_traits>

#include "grb/cpu/operations.hpp"
#include "grb/descriptor.hpp"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/operators.hpp"
#include "grb/scalar.hpp"
#include "grb/vector.hpp"

#if defined(__CUDACC__) && GRB_WITH_CUDA
#include "grb/cuda/operations.cuh"
#define GRB_CUDA_OPERATIONS 1
#define GRB_OPERATIONS_NAMESPACE with_cuda
#else
#define GRB_CUDA_OPERATIONS 0
#define GRB_OPERATIONS_NAMESPACE host_only
#endif

// Files compiled by nvcc see the cuda operations; files compiled by a host compiler do not, and
// their operations refuse cuda objects. The two kinds of instantiation live in different inline
// namespaces (grb::with_cuda, grb::host_only), so a program that mixes both kinds of file never
// has two different definitions of one function for the linker to choose between. Templates
// built on operations (algorithms/) do the same.

namespace grb {
namespace detail {

inline Backend backend_of(const NoMask&) { return Backend::cpu; }
template <class X>
  requires requires(const X& x) { x.backend(); }
Backend backend_of(const X& x) { return x.backend(); }

/// The backend all of an operation's objects share (the mask may be no_mask). Cuda objects must
/// also belong to the current context (grb/context.hpp): their work goes to its stream.
template <class First, class... Rest>
Backend common_backend(const char* operation, const First& first, const Rest&... rest) {
  const Backend backend = first.backend();
  auto check = [&](const auto& object) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(object)>, NoMask>) {
      if (object.backend() != backend)
        throw BackendMismatch(std::string(operation) + ": objects on different backends (" +
                              std::string(to_string(backend)) + " and " +
                              std::string(to_string(object.backend())) + ")");
    }
  };
  (check(rest), ...);
  if (backend == Backend::cuda) {
    ContextState& current = current_context();
    auto same_context = [&](const auto& object) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(object)>, NoMask>) {
        if (&Storage::context(object) != &current)
          throw ContextMismatch(std::string(operation) +
                                ": an object of another context than the current one (copy it "
                                "into this context, or make its own context current)");
      }
    };
    same_context(first);
    (same_context(rest), ...);
  }
  return backend;
}

[[noreturn]] inline void no_cuda_operations(const char* operation) {
  throw BackendUnavailable(std::string(operation) +
                           ": cuda objects need this translation unit compiled by nvcc with a "
                           "CUDA-enabled grb");
}

}  // namespace detail

inline namespace GRB_OPERATIONS_NAMESPACE {

// Each public operation checks backends, then runs the backend's implementation.
#if GRB_CUDA_OPERATIONS
#define GRB_DISPATCH(NAME, BACKEND, ...)          \
  do {                                            \
    if ((BACKEND) == Backend::cpu) cpu::NAME(__VA_ARGS__); \
    else cuda::NAME(__VA_ARGS__);                 \
  } while (0)
#else
#define GRB_DISPATCH(NAME, BACKEND, ...)          \
  do {                                            \
    if ((BACKEND) == Backend::cpu) cpu::NAME(__VA_ARGS__); \
    else detail::no_cuda_operations(#NAME);       \
  } while (0)
#endif

/// w<mask> = accum(w, A ⊕.⊗ u)   (A' with desc.transpose_first)
template <class W, class Mask, class Accum, class Semiring, class A, class U>
void mxv(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Vector<U>& u, const Descriptor& desc = {}) {
  GRB_DISPATCH(mxv, detail::common_backend("mxv", w, mask, a, u), w, mask, accum, semiring, a, u,
               desc);
}

/// w<mask> = accum(w, u' ⊕.⊗ A)   (A' with desc.transpose_second)
template <class W, class Mask, class Accum, class Semiring, class U, class A>
void vxm(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Vector<U>& u, const Matrix<A>& a, const Descriptor& desc = {}) {
  GRB_DISPATCH(vxm, detail::common_backend("vxm", w, mask, u, a), w, mask, accum, semiring, u, a,
               desc);
}

/// C<M> = accum(C, A ⊕.⊗ B)
template <class C, class Mask, class Accum, class Semiring, class A, class B>
void mxm(Matrix<C>& c, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc = {}) {
  GRB_DISPATCH(mxm, detail::common_backend("mxm", c, mask, a, b), c, mask, accum, semiring, a, b,
               desc);
}

/// Union: op(u(i), v(i)) where both exist, the one present otherwise.
template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
               const Vector<U>& u, const Vector<V>& v, const Descriptor& desc = {}) {
  GRB_DISPATCH(ewise_add, detail::common_backend("ewise_add", w, mask, u, v), w, mask, accum, op,
               u, v, desc);
}
template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_add(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
               const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc = {}) {
  GRB_DISPATCH(ewise_add, detail::common_backend("ewise_add", c, mask, a, b), c, mask, accum, op,
               a, b, desc);
}

/// Intersection: op(u(i), v(i)) where both exist.
template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
                const Vector<U>& u, const Vector<V>& v, const Descriptor& desc = {}) {
  GRB_DISPATCH(ewise_mult, detail::common_backend("ewise_mult", w, mask, u, v), w, mask, accum,
               op, u, v, desc);
}
template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_mult(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
                const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc = {}) {
  GRB_DISPATCH(ewise_mult, detail::common_backend("ewise_mult", c, mask, a, b), c, mask, accum,
               op, a, b, desc);
}

/// w = op(u) entry by entry (a unary operator; bind a scalar by capturing it in the functor).
template <class W, class Mask, class Accum, class Op, class U>
void apply(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<U>& u,
           const Descriptor& desc = {}) {
  GRB_DISPATCH(apply, detail::common_backend("apply", w, mask, u), w, mask, accum, op, u, desc);
}
template <class C, class Mask, class Accum, class Op, class A>
void apply(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op, const Matrix<A>& a,
           const Descriptor& desc = {}) {
  GRB_DISPATCH(apply, detail::common_backend("apply", c, mask, a), c, mask, accum, op, a, desc);
}

/// w(indices)<mask> = accum(w(indices), u): u has indices.size(w.size()) entries.
template <class W, class Mask, class Accum, class U>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
            const IndexList& indices, const Descriptor& desc = {}) {
  GRB_DISPATCH(assign, detail::common_backend("assign", w, mask, u), w, mask, accum, u, indices,
               desc);
}
/// w(indices)<mask> = accum(w(indices), value)
template <class W, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& indices, const Descriptor& desc = {}) {
  GRB_DISPATCH(assign, detail::common_backend("assign", w, mask), w, mask, accum, value, indices,
               desc);
}
/// C(rows, cols)<mask> = accum(C(rows, cols), A)
template <class C, class Mask, class Accum, class A>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc = {}) {
  GRB_DISPATCH(assign, detail::common_backend("assign", c, mask, a), c, mask, accum, a, rows, cols,
               desc);
}
/// C(rows, cols)<mask> = accum(C(rows, cols), value)
template <class C, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc = {}) {
  GRB_DISPATCH(assign, detail::common_backend("assign", c, mask), c, mask, accum, value, rows,
               cols, desc);
}

/// The monoid's sum of all entries of u (its identity when u is empty).
template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  if (u.backend() == Backend::cpu) return cpu::reduce(monoid, u);
#if GRB_CUDA_OPERATIONS
  return cuda::reduce(monoid, u);
#else
  detail::no_cuda_operations("reduce");
#endif
}
/// s = the monoid's sum of u's entries, written where s lives: on cuda nothing is read back, so
/// that a device loop can test it (grb/loop.hpp).
template <class T, class Monoid, class U>
void reduce(Scalar<T>& s, const Monoid& monoid, const Vector<U>& u) {
  if (s.backend() != u.backend())
    throw BackendMismatch("reduce: the scalar and the vector are on different backends (" +
                          std::string(to_string(s.backend())) + " and " +
                          std::string(to_string(u.backend())) + ")");
  if (u.backend() == Backend::cpu) {
    s.set(static_cast<T>(cpu::reduce(monoid, u)));
    return;
  }
#if GRB_CUDA_OPERATIONS
  cuda::reduce(s.data(), monoid, u);
#else
  detail::no_cuda_operations("reduce");
#endif
}
template <class Monoid, class A>
typename Monoid::value_type reduce(const Monoid& monoid, const Matrix<A>& a) {
  if (a.backend() == Backend::cpu) return cpu::reduce(monoid, a);
#if GRB_CUDA_OPERATIONS
  return cuda::reduce(monoid, a);
#else
  detail::no_cuda_operations("reduce");
#endif
}
/// w<mask> = accum(w, row-wise monoid sums of A)   (column sums with desc.transpose_first)
template <class W, class Mask, class Accum, class Monoid, class A>
void reduce(Vector<W>& w, const Mask& mask, const Accum& accum, const Monoid& monoid,
            const Matrix<A>& a, const Descriptor& desc = {}) {
  GRB_DISPATCH(reduce, detail::common_backend("reduce", w, mask, a), w, mask, accum, monoid, a,
               desc);
}

/// Keeps the entries for which predicate(value, i, j) is true (j = 0 for vectors).
template <class W, class Mask, class Accum, class Predicate, class U>
void select(Vector<W>& w, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Vector<U>& u, const Descriptor& desc = {}) {
  GRB_DISPATCH(select, detail::common_backend("select", w, mask, u), w, mask, accum, predicate, u,
               desc);
}
template <class C, class Mask, class Accum, class Predicate, class A>
void select(Matrix<C>& c, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Matrix<A>& a, const Descriptor& desc = {}) {
  GRB_DISPATCH(select, detail::common_backend("select", c, mask, a), c, mask, accum, predicate, a,
               desc);
}

/// w<mask> = accum(w, u(indices))
template <class W, class Mask, class Accum, class U>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
             const IndexList& indices, const Descriptor& desc = {}) {
  GRB_DISPATCH(extract, detail::common_backend("extract", w, mask, u), w, mask, accum, u, indices,
               desc);
}
/// C<mask> = accum(C, A(rows, cols))
template <class C, class Mask, class Accum, class A>
void extract(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, const IndexList& cols, const Descriptor& desc = {}) {
  GRB_DISPATCH(extract, detail::common_backend("extract", c, mask, a), c, mask, accum, a, rows,
               cols, desc);
}
/// w<mask> = accum(w, A(rows, column))   (a column; a row with desc.transpose_first)
template <class W, class Mask, class Accum, class A>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, Index column, const Descriptor& desc = {}) {
  GRB_DISPATCH(extract, detail::common_backend("extract", w, mask, a), w, mask, accum, a, rows,
               column, desc);
}

/// C<mask> = accum(C, A')
template <class C, class Mask, class Accum, class A>
void transpose(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
               const Descriptor& desc = {}) {
  GRB_DISPATCH(transpose, detail::common_backend("transpose", c, mask, a), c, mask, accum, a,
               desc);
}

#undef GRB_DISPATCH

}  // namespace GRB_OPERATIONS_NAMESPACE
}  // namespace grb
