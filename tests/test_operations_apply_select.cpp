// apply (unary and index-unary operators) and select (index and value predicates) on vectors and
// matrices, against the dense reference, with every write case and transposed inputs.
#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// A user-defined unary operator with its own result type.
struct square_plus_half {
  using result_type = double;
  GRB_HOST_DEVICE double operator()(int x) const { return x * x + 0.5; }
};

/// An index-unary operator: value + 10 i + 100 j.
struct place_value {
  using result_type = long;
  GRB_HOST_DEVICE long operator()(int x, Index i, Index j) const { return x + 10L * i + 100L * j; }
};

/// Runs the same check for a vector operation and a matrix operation of every shape.
/// vector_reference(u) / matrix_reference(a) give T; run_vector / run_matrix call grb.
template <class W, class VectorReference, class MatrixReference, class RunVector, class RunMatrix>
void check_everywhere(VectorReference vector_reference, MatrixReference matrix_reference,
                      RunVector run_vector, RunMatrix run_matrix) {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(77);
    for (auto [m, n] : test_shapes())
      for (double density : test_densities()) {
        INFO(m, "x", n, " density ", density);
        const auto u = random_vector<int>(rng, n, density, -4, 4);
        const auto u_object = to_grb(u, backend, chance(rng, 0.5));
        check_vector_cases<W>(backend, rng, vector_reference(u), grb::minus<W>{},
                              [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                run_vector(w, mask, acc, u_object, desc);
                              });
        for (bool transposed : {false, true}) {
          const auto a = random_matrix<int>(rng, m, n, density, -4, 4);
          const auto a_object = to_grb(transposed ? a.transposed() : a, backend);
          grb::Descriptor base;
          base.transpose_first = transposed;
          check_matrix_cases<W>(backend, rng, matrix_reference(a), grb::minus<W>{},
                                [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                  run_matrix(c, mask, acc, a_object, desc);
                                },
                                base);
        }
      }
  }
}

/// T = f(value, i, j) at every entry, from plain loops.
template <class Z, class F>
auto map_reference(F f) {
  return std::pair{[f](const DenseVector<int>& u) {
                     DenseVector<Z> t(u.size);
                     for (Index i = 0; i < u.size; ++i)
                       if (u.has(i)) t.set(i, static_cast<Z>(f(u.value[i], i, Index{0})));
                     return t;
                   },
                   [f](const DenseMatrix<int>& a) {
                     DenseMatrix<Z> t(a.nrows, a.ncols);
                     for (Index i = 0; i < a.nrows; ++i)
                       for (Index j = 0; j < a.ncols; ++j)
                         if (a.has(i, j)) t.set(i, j, static_cast<Z>(f(a.get(i, j), i, j)));
                     return t;
                   }};
}

/// T = the entries where keep(value, i, j) holds.
template <class F>
auto filter_reference(F keep) {
  return std::pair{[keep](const DenseVector<int>& u) {
                     DenseVector<int> t(u.size);
                     for (Index i = 0; i < u.size; ++i)
                       if (u.has(i) && keep(u.value[i], i, Index{0})) t.set(i, u.value[i]);
                     return t;
                   },
                   [keep](const DenseMatrix<int>& a) {
                     DenseMatrix<int> t(a.nrows, a.ncols);
                     for (Index i = 0; i < a.nrows; ++i)
                       for (Index j = 0; j < a.ncols; ++j)
                         if (a.has(i, j) && keep(a.get(i, j), i, j)) t.set(i, j, a.get(i, j));
                     return t;
                   }};
}

template <class W, class Op, class Reference>
void check_apply(Op op, Reference reference) {
  check_everywhere<W>(
      reference.first, reference.second,
      [&](auto& w, const auto& mask, const auto& acc, const auto& u, const auto& desc) {
        grb::apply(w, mask, acc, op, u, desc);
      },
      [&](auto& c, const auto& mask, const auto& acc, const auto& a, const auto& desc) {
        grb::apply(c, mask, acc, op, a, desc);
      });
}

template <class Predicate, class Reference>
void check_select(Predicate predicate, Reference reference) {
  check_everywhere<int>(
      reference.first, reference.second,
      [&](auto& w, const auto& mask, const auto& acc, const auto& u, const auto& desc) {
        grb::select(w, mask, acc, predicate, u, desc);
      },
      [&](auto& c, const auto& mask, const auto& acc, const auto& a, const auto& desc) {
        grb::select(c, mask, acc, predicate, a, desc);
      });
}

}  // namespace

TEST_CASE("apply: built-in unary operators") {
  check_apply<int>(grb::ainv<int>{}, map_reference<int>([](int x, Index, Index) { return -x; }));
  check_apply<int>(grb::abs<int>{}, map_reference<int>([](int x, Index, Index) { return x < 0 ? -x : x; }));
  check_apply<bool>(grb::lnot<int>{}, map_reference<bool>([](int x, Index, Index) { return x == 0; }));
  check_apply<float>(grb::one<float>{}, map_reference<float>([](int, Index, Index) { return 1.0f; }));
}

TEST_CASE("apply: user-defined unary and index-unary operators") {
  check_apply<double>(square_plus_half{},
                      map_reference<double>([](int x, Index, Index) { return x * x + 0.5; }));
  check_apply<long>(place_value{},
                    map_reference<long>([](int x, Index i, Index j) { return x + 10L * i + 100L * j; }));
}

TEST_CASE("select: index predicates tril / triu / diag / offdiag with offsets") {
  for (std::int64_t k : {-2, 0, 1}) {
    INFO("k = ", k);
    check_select(grb::tril{k}, filter_reference([k](int, Index i, Index j) { return std::int64_t(j) <= std::int64_t(i) + k; }));
    check_select(grb::triu{k}, filter_reference([k](int, Index i, Index j) { return std::int64_t(j) >= std::int64_t(i) + k; }));
    check_select(grb::diag{k}, filter_reference([k](int, Index i, Index j) { return std::int64_t(j) == std::int64_t(i) + k; }));
    check_select(grb::offdiag{k}, filter_reference([k](int, Index i, Index j) { return std::int64_t(j) != std::int64_t(i) + k; }));
  }
}

TEST_CASE("select: value predicates") {
  check_select(grb::value_gt<int>{1}, filter_reference([](int x, Index, Index) { return x > 1; }));
  check_select(grb::value_eq<int>{0}, filter_reference([](int x, Index, Index) { return x == 0; }));
  check_select(grb::value_le<int>{-1}, filter_reference([](int x, Index, Index) { return x <= -1; }));
}

TEST_CASE("apply and select by hand; aliasing and dimension errors") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<int> a(3, 3, backend);
    a.build(std::vector<Index>{0, 1, 2, 2}, std::vector<Index>{1, 1, 0, 2}, std::vector<int>{5, -6, 7, 8});
    grb::select(a, grb::no_mask, grb::no_accum, grb::tril{}, a);  // output == input
    CHECK(a.nvals() == 3);
    CHECK_FALSE(a.extract_element(0, 1).has_value());
    a.set_element(1, 2, 0);
    // x + 1 where the valued mask (a itself) allows: everywhere but the stored zero at (1, 2).
    grb::apply(a, a, grb::plus<int>{}, grb::one<int>{}, a);
    CHECK(a.extract_element(1, 1) == -5);
    CHECK(a.extract_element(2, 0) == 8);
    CHECK(a.extract_element(1, 2) == 0);
    CHECK(a.nvals() == 4);
    grb::Vector<int> u(4, backend), w(3, backend);
    CHECK_THROWS_WITH_AS(grb::apply(w, grb::no_mask, grb::no_accum, grb::ainv<int>{}, u),
                         doctest::Contains("apply"), grb::DimensionMismatch);
    CHECK_THROWS_WITH_AS(grb::select(w, grb::no_mask, grb::no_accum, grb::tril{}, u),
                         doctest::Contains("select"), grb::DimensionMismatch);
    grb::Matrix<int> wide(3, 4, backend);
    CHECK_THROWS_AS(grb::apply(a, grb::no_mask, grb::no_accum, grb::ainv<int>{}, wide), grb::DimensionMismatch);
  }
}
