// reduce to a scalar (vectors, matrices) and row-wise to a vector (column-wise with the
// transpose), against plain loops, over built-in and user-defined monoids.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// A user-defined monoid: bitwise or, identity 0.
struct bitwise_or {
  using result_type = int;
  GRB_HOST_DEVICE int operator()(int x, int y) const { return x | y; }
};

template <class Monoid, class Fold>
void check_monoid(const Monoid& monoid, Fold fold) {
  using Z = typename Monoid::value_type;
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(3);
    for (auto [m, n] : test_shapes())
      for (double density : test_densities()) {
        INFO(m, "x", n, " density ", density);
        const auto u = random_vector<int>(rng, n, density, -5, 5);
        Z expected = monoid.identity();
        for (Index i = 0; i < n; ++i)
          if (u.has(i)) expected = fold(expected, static_cast<Z>(u.value[i]));
        CHECK(grb::reduce(monoid, to_grb(u, backend, chance(rng, 0.5))) == expected);

        const auto a = random_matrix<int>(rng, m, n, density, -5, 5);
        Z matrix_expected = monoid.identity();
        for (Index i = 0; i < m; ++i)
          for (Index j = 0; j < n; ++j)
            if (a.has(i, j)) matrix_expected = fold(matrix_expected, static_cast<Z>(a.get(i, j)));
        const auto a_object = to_grb(a, backend);
        CHECK(grb::reduce(monoid, a_object) == matrix_expected);

        for (bool transposed : {false, true}) {
          const auto effective = transposed ? a.transposed() : a;
          DenseVector<Z> t(effective.nrows);
          for (Index i = 0; i < effective.nrows; ++i)
            for (Index j = 0; j < effective.ncols; ++j)
              if (effective.has(i, j))
                t.set(i, t.has(i) ? fold(t.value[i], static_cast<Z>(effective.get(i, j)))
                                  : static_cast<Z>(effective.get(i, j)));
          grb::Descriptor base;
          base.transpose_first = transposed;
          check_vector_cases<Z>(backend, rng, t, grb::minus<Z>{},
                                [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                  grb::reduce(w, mask, acc, monoid, a_object, desc);
                                },
                                base);
        }
      }
  }
}

}  // namespace

TEST_CASE("reduce: plus, times, min, max") {
  check_monoid(grb::plus_monoid<int>{}, std::plus<int>{});
  check_monoid(grb::times_monoid<double>{}, std::multiplies<double>{});
  check_monoid(grb::min_monoid<int>{}, [](int x, int y) { return std::min(x, y); });
  check_monoid(grb::max_monoid<double>{}, [](double x, double y) { return std::max(x, y); });
}

TEST_CASE("reduce: lor and land (terminal values) and a user-defined monoid") {
  check_monoid(grb::lor_monoid<bool>{}, [](bool x, bool y) { return x || y; });
  check_monoid(grb::land_monoid<bool>{}, [](bool x, bool y) { return x && y; });
  check_monoid(grb::monoid<bitwise_or>(0), [](int x, int y) { return x | y; });
}

TEST_CASE("reduce: any gives one of the entries") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 20; ++trial) {
      const auto u = random_vector<int>(rng, 30, 0.3, 1, 9);
      const int got = grb::reduce(grb::any_monoid<int>{}, to_grb(u, backend));
      bool found = false;
      for (Index i = 0; i < u.size; ++i) found |= u.has(i) && u.value[i] == got;
      bool empty = std::none_of(u.present.begin(), u.present.end(), [](char p) { return p; });
      CHECK((found || (empty && got == 0)));
    }
  }
}

TEST_CASE("reduce by hand, and dimension errors") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<int> a(3, 2, backend);
    a.build(std::vector<Index>{0, 0, 2}, std::vector<Index>{0, 1, 1}, std::vector<int>{4, 5, 6});
    grb::Vector<int> rows(3, backend), cols(2, backend);
    grb::reduce(rows, grb::no_mask, grb::no_accum, grb::plus_monoid<int>{}, a);
    CHECK(rows.nvals() == 2);  // row 1 is empty: no entry, not the identity
    CHECK(rows.extract_element(0) == 9);
    CHECK(rows.extract_element(2) == 6);
    grb::Descriptor transposed;
    transposed.transpose_first = true;
    grb::reduce(cols, grb::no_mask, grb::no_accum, grb::max_monoid<int>{}, a, transposed);
    CHECK(to_dense(cols).value == std::vector<int>{4, 6});
    CHECK(grb::reduce(grb::plus_monoid<int>{}, grb::Vector<int>(0, backend)) == 0);
    CHECK_THROWS_WITH_AS(grb::reduce(cols, grb::no_mask, grb::no_accum, grb::plus_monoid<int>{}, a),
                         doctest::Contains("reduce"), grb::DimensionMismatch);
  }
}
