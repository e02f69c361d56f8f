// The cuda backend (compiled by nvcc): the same operations and signatures as grb/cpu, on
// device-resident objects. Work in progress: operations not yet on the GPU say so.
#pragma once

#include <string>

#include "grb/cuda/check.cuh"
#include "grb/cuda/launch.cuh"
#include "grb/descriptor.hpp"
#include "grb/error.hpp"
#include "grb/matrix.hpp"
#include "grb/operators.hpp"
#include "grb/vector.hpp"

namespace grb::cuda {

[[noreturn]] inline void not_yet(const char* operation) {
  throw BackendUnavailable(std::string(operation) + ": not yet implemented on the cuda backend");
}

template <class W, class Mask, class Accum, class Semiring, class A, class U>
void mxv(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Vector<U>& u, const Descriptor& desc) {
  not_yet("mxv");
}

template <class W, class Mask, class Accum, class Semiring, class U, class A>
void vxm(Vector<W>& w, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Vector<U>& u, const Matrix<A>& a, const Descriptor& desc) {
  not_yet("vxm");
}

template <class C, class Mask, class Accum, class Semiring, class A, class B>
void mxm(Matrix<C>& c, const Mask& mask, const Accum& accum, const Semiring& semiring,
         const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  not_yet("mxm");
}

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_add(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
               const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  not_yet("ewise_add");
}

template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_add(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
               const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  not_yet("ewise_add");
}

template <class W, class Mask, class Accum, class Op, class U, class V>
void ewise_mult(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op,
                const Vector<U>& u, const Vector<V>& v, const Descriptor& desc) {
  not_yet("ewise_mult");
}

template <class C, class Mask, class Accum, class Op, class A, class B>
void ewise_mult(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op,
                const Matrix<A>& a, const Matrix<B>& b, const Descriptor& desc) {
  not_yet("ewise_mult");
}

template <class W, class Mask, class Accum, class Op, class U>
void apply(Vector<W>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<U>& u,
           const Descriptor& desc) {
  not_yet("apply");
}

template <class C, class Mask, class Accum, class Op, class A>
void apply(Matrix<C>& c, const Mask& mask, const Accum& accum, const Op& op, const Matrix<A>& a,
           const Descriptor& desc) {
  not_yet("apply");
}

template <class W, class Mask, class Accum, class U>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
            const IndexList& indices, const Descriptor& desc) {
  not_yet("assign");
}

template <class W, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Vector<W>& w, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& indices, const Descriptor& desc) {
  not_yet("assign");
}

template <class C, class Mask, class Accum, class A>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  not_yet("assign");
}

template <class C, class Mask, class Accum, class Scalar>
  requires std::is_arithmetic_v<Scalar>
void assign(Matrix<C>& c, const Mask& mask, const Accum& accum, Scalar value,
            const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  not_yet("assign");
}

template <class Monoid, class U>
typename Monoid::value_type reduce(const Monoid& monoid, const Vector<U>& u) {
  not_yet("reduce");
}

template <class Monoid, class A>
typename Monoid::value_type reduce(const Monoid& monoid, const Matrix<A>& a) {
  not_yet("reduce");
}

template <class W, class Mask, class Accum, class Monoid, class A>
void reduce(Vector<W>& w, const Mask& mask, const Accum& accum, const Monoid& monoid,
            const Matrix<A>& a, const Descriptor& desc) {
  not_yet("reduce");
}

template <class W, class Mask, class Accum, class Predicate, class U>
void select(Vector<W>& w, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Vector<U>& u, const Descriptor& desc) {
  not_yet("select");
}

template <class C, class Mask, class Accum, class Predicate, class A>
void select(Matrix<C>& c, const Mask& mask, const Accum& accum, const Predicate& predicate,
            const Matrix<A>& a, const Descriptor& desc) {
  not_yet("select");
}

template <class W, class Mask, class Accum, class U>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Vector<U>& u,
             const IndexList& indices, const Descriptor& desc) {
  not_yet("extract");
}

template <class C, class Mask, class Accum, class A>
void extract(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, const IndexList& cols, const Descriptor& desc) {
  not_yet("extract");
}

template <class W, class Mask, class Accum, class A>
void extract(Vector<W>& w, const Mask& mask, const Accum& accum, const Matrix<A>& a,
             const IndexList& rows, Index column, const Descriptor& desc) {
  not_yet("extract");
}

template <class C, class Mask, class Accum, class A>
void transpose(Matrix<C>& c, const Mask& mask, const Accum& accum, const Matrix<A>& a,
               const Descriptor& desc) {
  not_yet("transpose");
}

}  // namespace grb::cuda
