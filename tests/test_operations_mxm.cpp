// mxm against the dense reference: semirings (positional and user-defined included), every mask /
// accumulator / replace combination (which exercises both the Gustavson and the masked-dot
// method), transposed inputs, empty and 1x1 shapes, triangle counting by hand, aliasing and
// dimension errors.
#include <doctest/doctest.h>

#include <algorithm>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// C(i,j) = add over k of multiply(A(i,k), B(k,j), i, k, j), from plain loops.
template <class Z, class A, class B, class Add, class Multiply>
DenseMatrix<Z> reference_mxm(const DenseMatrix<A>& a, const DenseMatrix<B>& b, Add add,
                             Multiply multiply) {
  DenseMatrix<Z> c(a.nrows, b.ncols);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index j = 0; j < b.ncols; ++j)
      for (Index k = 0; k < a.ncols; ++k) {
        if (!a.has(i, k) || !b.has(k, j)) continue;
        const Z term = static_cast<Z>(multiply(a.get(i, k), b.get(k, j), i, k, j));
        c.set(i, j, c.has(i, j) ? static_cast<Z>(add(c.get(i, j), term)) : term);
      }
  return c;
}

template <class C, class T, class Semiring, class Add, class Multiply, class Accum>
void check_semiring(const Semiring& semiring, Add add, Multiply multiply, Accum accum) {
  using Z = typename Semiring::value_type;
  const Index inner_sizes[] = {0, 1, 6};
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(2024);
    for (auto [m, n] : test_shapes()) {
      if (m > 40 || n > 40) continue;  // the reference is cubic
      for (Index k : inner_sizes)
        for (double density : test_densities())
          for (bool transpose_first : {false, true})
            for (bool transpose_second : {false, true}) {
              const auto a = random_matrix<T>(rng, m, k, density);
              const auto b = random_matrix<T>(rng, k, n, chance(rng, 0.5) ? density : 0.5);
              const grb::Matrix<T> a_object = to_grb(transpose_first ? a.transposed() : a, backend);
              const grb::Matrix<T> b_object = to_grb(transpose_second ? b.transposed() : b, backend);
              grb::Descriptor base;
              base.transpose_first = transpose_first;
              base.transpose_second = transpose_second;
              INFO(m, "x", k, " times ", k, "x", n, " density ", density, " transposes ",
                   transpose_first, transpose_second);
              check_matrix_cases<C>(backend, rng, reference_mxm<Z>(a, b, add, multiply), accum,
                                    [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                      grb::mxm(c, mask, acc, semiring, a_object, b_object, desc);
                                    },
                                    base);
            }
    }
  }
}

auto values_only = [](auto op) {
  return [op](auto x, auto y, Index, Index, Index) { return op(x, y); };
};

/// A user-defined semiring over int: max monoid, multiply x * y + 1.
struct times_plus_one {
  using result_type = int;
  GRB_HOST_DEVICE int operator()(int x, int y) const { return x * y + 1; }
};

}  // namespace

TEST_CASE("mxm: plus_times on int") {
  check_semiring<int, int>(grb::plus_times<int>{}, std::plus<int>{},
                           values_only(std::multiplies<int>{}), grb::minus<int>{});
}

TEST_CASE("mxm: min_plus on double and max_times into int") {
  check_semiring<double, double>(
      grb::min_plus<double>{}, [](double x, double y) { return std::min(x, y); },
      values_only(std::plus<double>{}), grb::minus<double>{});
  check_semiring<int, double>(
      grb::max_times<double>{}, [](double x, double y) { return std::max(x, y); },
      values_only(std::multiplies<double>{}), grb::minus<int>{});
}

TEST_CASE("mxm: lor_land on bool and plus_pair") {
  check_semiring<bool, bool>(
      grb::lor_land<bool>{}, [](bool x, bool y) { return x || y; },
      values_only([](bool x, bool y) { return x && y; }), grb::lxor<bool>{});
  check_semiring<int, int>(grb::plus_pair<int>{}, std::plus<int>{},
                           [](int, int, Index, Index, Index) { return 1; }, grb::minus<int>{});
}

TEST_CASE("mxm: positional (min_secondi, firsti, secondj) and user-defined semirings") {
  check_semiring<Index, int>(
      grb::min_secondi<Index>{}, [](Index x, Index y) { return std::min(x, y); },
      [](int, int, Index, Index k, Index) { return k; }, grb::max<Index>{});
  check_semiring<Index, int>(grb::semiring<grb::plus_monoid<Index>, grb::firsti<Index>>{},
                             std::plus<Index>{}, [](int, int, Index i, Index, Index) { return i; },
                             grb::plus<Index>{});
  check_semiring<Index, int>(
      grb::semiring<grb::max_monoid<Index>, grb::secondj<Index>>{},
      [](Index x, Index y) { return std::max(x, y); },
      [](int, int, Index, Index, Index j) { return j; }, grb::plus<Index>{});
  check_semiring<int, int>(
      grb::semiring<grb::monoid<grb::max<int>>, times_plus_one>{grb::monoid<grb::max<int>>(-99)},
      [](int x, int y) { return std::max(x, y); },
      values_only([](int x, int y) { return x * y + 1; }), grb::minus<int>{});
}

TEST_CASE("mxm by hand: triangles of K4 and of a square with one diagonal") {
  GRB_FOR_EACH_BACKEND(backend) {
    auto count_triangles = [&](const std::vector<std::pair<Index, Index>>& edges, Index n) {
      std::vector<Index> rows, cols;
      for (auto [u, v] : edges) {  // L: the strictly lower triangle of the undirected graph
        rows.push_back(std::max(u, v));
        cols.push_back(std::min(u, v));
      }
      grb::Matrix<int> lower(n, n, backend);
      lower.build(rows, cols, std::vector<int>(rows.size(), 1));
      grb::Matrix<int> c(n, n, backend);
      grb::Descriptor desc;
      desc.structural_mask = true;
      desc.transpose_second = true;
      grb::mxm(c, lower, grb::no_accum, grb::plus_pair<int>{}, lower, lower, desc);
      return grb::reduce(grb::plus_monoid<int>{}, c);
    };
    CHECK(count_triangles({{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}, 4) == 4);
    CHECK(count_triangles({{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}}, 4) == 2);
    CHECK(count_triangles({{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 4) == 0);
  }
}

TEST_CASE("mxm: output aliases an input and the mask") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 20; ++trial) {
      const Index n = 1 + Index(rng() % 25);
      const auto a = random_matrix<int>(rng, n, n, 0.3, 0, 3);
      const auto t = reference_mxm<int>(a, a, std::plus<int>{}, values_only(std::multiplies<int>{}));
      {  // C<C> += C * C
        grb::Matrix<int> c = to_grb(a, backend);
        grb::mxm(c, c, grb::plus<int>{}, grb::plus_times<int>{}, c, c, grb::Descriptor{});
        const WriteCase masked{WriteCase::valued, false, false, true};
        const std::string diff = difference(to_dense(c), expected_write(masked, a, a, std::plus<int>{}, t));
        CHECK_MESSAGE(diff.empty(), diff);
      }
      {  // C<!C, replace> = C * C
        grb::Matrix<int> c = to_grb(a, backend);
        grb::Descriptor desc;
        desc.complement_mask = true;
        desc.structural_mask = true;
        desc.replace = true;
        grb::mxm(c, c, grb::no_accum, grb::plus_times<int>{}, c, c, desc);
        const WriteCase masked{WriteCase::structural, true, true, false};
        const std::string diff = difference(to_dense(c), expected_write(masked, a, a, std::plus<int>{}, t));
        CHECK_MESSAGE(diff.empty(), diff);
      }
    }
  }
}

TEST_CASE("mxm: dimension mismatches") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<int> a(2, 3, backend), b(3, 4, backend), c(2, 4, backend), wrong(4, 2, backend);
    const grb::plus_times<int> semiring;
    CHECK_NOTHROW(grb::mxm(c, grb::no_mask, grb::no_accum, semiring, a, b));
    CHECK_THROWS_WITH_AS(grb::mxm(c, grb::no_mask, grb::no_accum, semiring, b, a),
                         doctest::Contains("mxm"), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::mxm(wrong, grb::no_mask, grb::no_accum, semiring, a, b), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::mxm(c, wrong, grb::no_accum, semiring, a, b), grb::DimensionMismatch);
    grb::Descriptor both;
    both.transpose_first = both.transpose_second = true;
    CHECK_NOTHROW(grb::mxm(wrong, grb::no_mask, grb::no_accum, semiring, b, a, both));
  }
}
