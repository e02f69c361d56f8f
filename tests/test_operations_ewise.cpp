// ewise_add (union) and ewise_mult (intersection) on vectors and matrices, against the dense
// reference: non-commutative and type-changing operators, every write case, transposed
// matrices, both vector formats, aliasing and dimension errors.
#include <doctest/doctest.h>

#include <algorithm>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

template <class Z, class U, class V, class Op>
DenseVector<Z> reference_ewise(bool is_union, const DenseVector<U>& u, const DenseVector<V>& v, Op op) {
  DenseVector<Z> t(u.size);
  for (Index i = 0; i < u.size; ++i) {
    if (u.has(i) && v.has(i)) t.set(i, static_cast<Z>(op(u.value[i], v.value[i])));
    else if (is_union && u.has(i)) t.set(i, static_cast<Z>(u.value[i]));
    else if (is_union && v.has(i)) t.set(i, static_cast<Z>(v.value[i]));
  }
  return t;
}

template <class Z, class A, class B, class Op>
DenseMatrix<Z> reference_ewise(bool is_union, const DenseMatrix<A>& a, const DenseMatrix<B>& b, Op op) {
  DenseMatrix<Z> t(a.nrows, a.ncols);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index j = 0; j < a.ncols; ++j) {
      if (a.has(i, j) && b.has(i, j)) t.set(i, j, static_cast<Z>(op(a.get(i, j), b.get(i, j))));
      else if (is_union && a.has(i, j)) t.set(i, j, static_cast<Z>(a.get(i, j)));
      else if (is_union && b.has(i, j)) t.set(i, j, static_cast<Z>(b.get(i, j)));
    }
  return t;
}

/// One operator on vectors and matrices of every shape; W the output type, Z the op's.
template <class W, class Z, class T, class GrbOp, class Op>
void check_operator(GrbOp grb_op, Op op) {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(31);
    for (bool is_union : {true, false})
      for (auto [m, n] : test_shapes())
        for (double density : test_densities()) {
          INFO((is_union ? "ewise_add " : "ewise_mult "), m, "x", n, " density ", density);
          {
            const auto u = random_vector<T>(rng, n, density, -3, 3);
            const auto v = random_vector<T>(rng, n, chance(rng, 0.5) ? density : 0.5, -3, 3);
            const auto u_object = to_grb(u, backend, chance(rng, 0.5));
            const auto v_object = to_grb(v, backend, chance(rng, 0.5));
            check_vector_cases<W>(backend, rng, reference_ewise<Z>(is_union, u, v, op), grb::minus<W>{},
                                  [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                    if (is_union) grb::ewise_add(w, mask, acc, grb_op, u_object, v_object, desc);
                                    else grb::ewise_mult(w, mask, acc, grb_op, u_object, v_object, desc);
                                  });
          }
          for (bool transpose_first : {false, true})
            for (bool transpose_second : {false, true}) {
              const auto a = random_matrix<T>(rng, m, n, density, -3, 3);
              const auto b = random_matrix<T>(rng, m, n, 0.4, -3, 3);
              const auto a_object = to_grb(transpose_first ? a.transposed() : a, backend);
              const auto b_object = to_grb(transpose_second ? b.transposed() : b, backend);
              grb::Descriptor base;
              base.transpose_first = transpose_first;
              base.transpose_second = transpose_second;
              check_matrix_cases<W>(backend, rng, reference_ewise<Z>(is_union, a, b, op), grb::minus<W>{},
                                    [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                      if (is_union) grb::ewise_add(c, mask, acc, grb_op, a_object, b_object, desc);
                                      else grb::ewise_mult(c, mask, acc, grb_op, a_object, b_object, desc);
                                    },
                                    base);
            }
        }
  }
}

/// A user-defined operator with a result type of its own: 2x - y as a double.
struct twice_minus {
  using result_type = double;
  GRB_HOST_DEVICE double operator()(int x, int y) const { return 2.0 * x - y; }
};

}  // namespace

TEST_CASE("ewise: minus (operand order) on int") {
  check_operator<int, int, int>(grb::minus<int>{}, std::minus<int>{});
}

TEST_CASE("ewise: min on double into int, and times") {
  check_operator<int, double, double>(grb::min<double>{}, [](double x, double y) { return std::min(x, y); });
  check_operator<double, double, double>(grb::times<double>{}, std::multiplies<double>{});
}

TEST_CASE("ewise: comparison to bool and a user-defined operator") {
  check_operator<bool, bool, int>(grb::lt<int>{}, [](int x, int y) { return x < y; });
  check_operator<double, double, int>(twice_minus{}, [](int x, int y) { return 2.0 * x - y; });
}

TEST_CASE("ewise by hand: union and intersection of two short vectors") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<int> u(5, backend), v(5, backend), w(5, backend);
    u.build(std::vector<Index>{0, 2, 4}, std::vector<int>{10, 20, 40});
    v.build(std::vector<Index>{2, 3}, std::vector<int>{1, 3});
    grb::ewise_add(w, grb::no_mask, grb::no_accum, grb::minus<int>{}, u, v);
    CHECK(to_dense(w).value == std::vector<int>{10, 0, 19, 3, 40});
    CHECK(w.nvals() == 4);
    grb::ewise_mult(w, grb::no_mask, grb::no_accum, grb::minus<int>{}, u, v);
    CHECK(w.nvals() == 1);
    CHECK(w.extract_element(2) == 19);
  }
}

TEST_CASE("ewise: output aliases inputs and mask") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(8);
    for (int trial = 0; trial < 30; ++trial) {
      const Index n = Index(rng() % 50);
      const auto u = random_vector<int>(rng, n, 0.5, 0, 3);
      const auto v = random_vector<int>(rng, n, 0.5, 0, 3);
      grb::Vector<int> w = to_grb(u, backend, chance(rng, 0.5));
      // w<w> = w + v: the mask and the first input are the output.
      grb::ewise_add(w, w, grb::no_accum, grb::plus<int>{}, w, to_grb(v, backend), grb::Descriptor{});
      const WriteCase masked{WriteCase::valued, false, false, false};
      const auto t = reference_ewise<int>(true, u, v, std::plus<int>{});
      const std::string diff = difference(to_dense(w), expected_write(masked, u, u, std::plus<int>{}, t));
      CHECK_MESSAGE(diff.empty(), diff);

      const auto a = random_matrix<int>(rng, n % 9, n % 7, 0.5);
      grb::Matrix<int> c = to_grb(a, backend);
      grb::ewise_mult(c, grb::no_mask, grb::plus<int>{}, grb::times<int>{}, c, c, grb::Descriptor{});
      const auto expected = expected_write(WriteCase{WriteCase::none, false, false, true}, a, a,
                                           std::plus<int>{}, reference_ewise<int>(false, a, a, std::multiplies<int>{}));
      const std::string matrix_diff = difference(to_dense(c), expected);
      CHECK_MESSAGE(matrix_diff.empty(), matrix_diff);
    }
  }
}

TEST_CASE("ewise: dimension mismatches") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<int> u(3, backend), v(4, backend), w(3, backend);
    CHECK_THROWS_WITH_AS(grb::ewise_add(w, grb::no_mask, grb::no_accum, grb::plus<int>{}, u, v),
                         doctest::Contains("ewise_add"), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::ewise_mult(v, grb::no_mask, grb::no_accum, grb::plus<int>{}, u, u), grb::DimensionMismatch);
    grb::Matrix<int> a(2, 3, backend), b(3, 2, backend), c(2, 3, backend);
    CHECK_THROWS_WITH_AS(grb::ewise_mult(c, grb::no_mask, grb::no_accum, grb::plus<int>{}, a, b),
                         doctest::Contains("ewise_mult"), grb::DimensionMismatch);
    grb::Descriptor transposed;
    transposed.transpose_second = true;
    CHECK_NOTHROW(grb::ewise_add(c, grb::no_mask, grb::no_accum, grb::plus<int>{}, a, b, transposed));
  }
}
