// mxv and vxm against the dense reference: many semirings (positional and user-defined ones
// included), every mask / accumulator / replace combination, transposed inputs, forced push and
// pull, both vector formats, empty and 1x1 objects, dimension errors and aliasing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// A user-defined multiply operator: |x - y|.
struct absolute_difference {
  using result_type = int;
  GRB_HOST_DEVICE int operator()(int x, int y) const { return x < y ? y - x : x - y; }
};
/// A user-defined semiring: max over |a - u| (a max monoid built from grb::monoid).
using max_absolute_difference = grb::semiring<grb::monoid<grb::max<int>>, absolute_difference>;

/// w(i) = add over k of multiply(A(i,k), u(k), i, k, 0), from plain loops.
template <class Z, class A, class U, class Add, class Multiply>
DenseVector<Z> reference_mxv(const DenseMatrix<A>& a, const DenseVector<U>& u, Add add,
                             Multiply multiply) {
  DenseVector<Z> w(a.nrows);
  for (Index i = 0; i < a.nrows; ++i)
    for (Index k = 0; k < a.ncols; ++k) {
      if (!a.has(i, k) || !u.has(k)) continue;
      const Z term = static_cast<Z>(multiply(a.get(i, k), u.value[k], i, k, Index{0}));
      w.set(i, w.has(i) ? static_cast<Z>(add(w.value[i], term)) : term);
    }
  return w;
}

/// w(j) = add over k of multiply(u(k), A(k,j), 0, k, j).
template <class Z, class U, class A, class Add, class Multiply>
DenseVector<Z> reference_vxm(const DenseVector<U>& u, const DenseMatrix<A>& a, Add add,
                             Multiply multiply) {
  DenseVector<Z> w(a.ncols);
  for (Index j = 0; j < a.ncols; ++j)
    for (Index k = 0; k < a.nrows; ++k) {
      if (!a.has(k, j) || !u.has(k)) continue;
      const Z term = static_cast<Z>(multiply(u.value[k], a.get(k, j), Index{0}, k, j));
      w.set(j, w.has(j) ? static_cast<Z>(add(w.value[j], term)) : term);
    }
  return w;
}

const grb::MxvStrategy strategies[] = {grb::MxvStrategy::automatic, grb::MxvStrategy::push,
                                       grb::MxvStrategy::pull};

/// Every shape, density, transpose and strategy, for one semiring; W is the output type.
template <class W, class T, class Semiring, class Add, class Multiply, class Accum>
void check_semiring(const Semiring& semiring, Add add, Multiply multiply, Accum accum,
                    int low = 0, int high = 4) {
  using Z = typename Semiring::value_type;
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(12345);
    for (auto [m, n] : test_shapes())
      for (double density : test_densities())
        for (bool transposed : {false, true})
          for (auto strategy : strategies) {
            const auto effective = random_matrix<T>(rng, m, n, density, low, high);
            const auto stored = transposed ? effective.transposed() : effective;
            const grb::Matrix<T> a = to_grb(stored, backend);
            const double u_density = std::uniform_real_distribution<double>(0, 1)(rng);
            grb::Descriptor base;
            base.strategy = strategy;
            INFO("shape ", m, "x", n, " density ", density, " transposed ", transposed,
                 " strategy ", int(strategy));
            {  // mxv: w (m) = A (m x n) u (n)
              const auto u = random_vector<T>(rng, n, u_density, low, high);
              const grb::Vector<T> u_object = to_grb(u, backend, chance(rng, 0.5));
              base.transpose_first = transposed;
              base.transpose_second = false;
              check_vector_cases<W>(backend, rng, reference_mxv<Z>(effective, u, add, multiply),
                                    accum,
                                    [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                      grb::mxv(w, mask, acc, semiring, a, u_object, desc);
                                    },
                                    base);
            }
            {  // vxm: w (n) = u (m) A (m x n)
              const auto u = random_vector<T>(rng, m, u_density, low, high);
              const grb::Vector<T> u_object = to_grb(u, backend, chance(rng, 0.5));
              base.transpose_first = false;
              base.transpose_second = transposed;
              check_vector_cases<W>(backend, rng, reference_vxm<Z>(u, effective, add, multiply),
                                    accum,
                                    [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                      grb::vxm(w, mask, acc, semiring, u_object, a, desc);
                                    },
                                    base);
            }
          }
  }
}

auto values_only = [](auto op) {
  return [op](auto x, auto y, Index, Index, Index) { return op(x, y); };
};

}  // namespace

TEST_CASE("mxv and vxm: plus_times on int") {
  check_semiring<int, int>(grb::plus_times<int>{}, std::plus<int>{}, values_only(std::multiplies<int>{}),
                           grb::minus<int>{});
}

TEST_CASE("mxv and vxm: min_plus on double, into a float output") {
  check_semiring<float, double>(
      grb::min_plus<double>{}, [](double x, double y) { return std::min(x, y); },
      values_only(std::plus<double>{}), grb::minus<float>{}, -3, 5);
}

TEST_CASE("mxv and vxm: max_times on double") {
  check_semiring<double, double>(
      grb::max_times<double>{}, [](double x, double y) { return std::max(x, y); },
      values_only(std::multiplies<double>{}), grb::minus<double>{}, -2, 3);
}

TEST_CASE("mxv and vxm: lor_land on bool (terminal monoid)") {
  check_semiring<bool, bool>(
      grb::lor_land<bool>{}, [](bool x, bool y) { return x || y; },
      values_only([](bool x, bool y) { return x && y; }), grb::lxor<bool>{});
}

TEST_CASE("mxv and vxm: plus_pair counts common entries") {
  check_semiring<int, int>(grb::plus_pair<int>{}, std::plus<int>{},
                           [](int, int, Index, Index, Index) { return 1; }, grb::minus<int>{});
}

TEST_CASE("mxv and vxm: min_secondi gives the smallest k (BFS parent)") {
  check_semiring<Index, int>(
      grb::min_secondi<Index>{}, [](Index x, Index y) { return std::min(x, y); },
      [](int, int, Index, Index k, Index) { return k; }, grb::max<Index>{});
}

TEST_CASE("mxv and vxm: user-defined semiring and positional firsti / secondj") {
  check_semiring<int, int>(
      max_absolute_difference{grb::monoid<grb::max<int>>(-1000)},
      [](int x, int y) { return std::max(x, y); },
      values_only([](int x, int y) { return std::abs(x - y); }), grb::minus<int>{});
  check_semiring<Index, int>(
      grb::semiring<grb::plus_monoid<Index>, grb::firsti<Index>>{},
      std::plus<Index>{}, [](int, int, Index i, Index, Index) { return i; }, grb::plus<Index>{});
  check_semiring<Index, int>(
      grb::semiring<grb::max_monoid<Index>, grb::secondj<Index>>{},
      [](Index x, Index y) { return std::max(x, y); },
      [](int, int, Index, Index, Index j) { return j; }, grb::plus<Index>{});
}

TEST_CASE("vxm any_secondi: some frontier vertex that reaches each output") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(7);
    for (auto strategy : strategies)
      for (int trial = 0; trial < 20; ++trial) {
        const Index n = 1 + Index(rng() % 60);
        const auto a = random_matrix<bool>(rng, n, n, 0.1);
        const auto frontier = random_vector<bool>(rng, n, 0.2);
        const auto visited = random_vector<bool>(rng, n, 0.3);
        grb::Vector<Index> parents(n, backend);
        grb::Descriptor desc;
        desc.complement_mask = true;
        desc.structural_mask = true;
        desc.replace = true;
        desc.strategy = strategy;
        grb::vxm(parents, to_grb(visited, backend), grb::no_accum, grb::any_secondi<Index>{},
                 to_grb(frontier, backend), to_grb(a, backend), desc);
        const auto got = to_dense(parents);
        for (Index j = 0; j < n; ++j) {
          bool reachable = false;
          for (Index k = 0; k < n; ++k) reachable |= frontier.has(k) && a.has(k, j);
          const bool expected = reachable && !visited.has(j);
          INFO("j = ", j);
          REQUIRE(got.has(j) == expected);
          if (expected) {
            const Index k = got.value[j];
            REQUIRE(k < n);
            CHECK((frontier.has(k) && a.has(k, j)));
          }
        }
      }
  }
}

TEST_CASE("vxm by hand: one BFS step on a diamond") {
  // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3.
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<bool> a(4, 4, backend);
    a.build(std::vector<Index>{0, 0, 1, 2}, std::vector<Index>{1, 2, 3, 3},
            std::vector<bool>{true, true, true, true});
    grb::Vector<bool> frontier(4, backend);
    frontier.build(std::vector<Index>{1, 2}, std::vector<bool>{true, true});
    grb::Vector<bool> visited(4, backend);
    visited.build(std::vector<Index>{0, 1, 2}, std::vector<bool>{true, true, true});
    grb::Descriptor desc;
    desc.complement_mask = true;
    desc.replace = true;

    grb::Vector<int> paths(4, backend);
    grb::vxm(paths, visited, grb::no_accum, grb::plus_pair<int>{}, frontier, a, desc);
    CHECK(paths.nvals() == 1);
    CHECK(paths.extract_element(3) == 2);

    grb::Vector<Index> parent(4, backend);
    grb::vxm(parent, visited, grb::no_accum, grb::min_secondi<Index>{}, frontier, a, desc);
    CHECK(parent.nvals() == 1);
    CHECK(parent.extract_element(3) == Index{1});

    // Pull over A' (mxv with the transpose) gives the same answer.
    grb::Vector<Index> pulled(4, backend);
    desc.transpose_first = true;
    grb::mxv(pulled, visited, grb::no_accum, grb::min_secondi<Index>{}, a, frontier, desc);
    CHECK(pulled.extract_element(3) == Index{1});
  }
}

TEST_CASE("mxv and vxm: output aliases the input vector or the mask") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 30; ++trial) {
      const Index n = 1 + Index(rng() % 40);
      const auto a = random_matrix<int>(rng, n, n, 0.15);
      const grb::Matrix<int> a_object = to_grb(a, backend);
      const auto u = random_vector<int>(rng, n, 0.4, 0, 2);
      const WriteCase accumulate{WriteCase::none, false, false, true};
      const WriteCase masked{WriteCase::structural, true, true, false};
      for (auto strategy : strategies) {
        grb::Descriptor desc;
        desc.strategy = strategy;
        {  // w = w + A w
          grb::Vector<int> w = to_grb(u, backend, chance(rng, 0.5));
          grb::mxv(w, grb::no_mask, grb::plus<int>{}, grb::plus_times<int>{}, a_object, w, desc);
          const auto t = reference_mxv<int>(a, u, std::plus<int>{}, values_only(std::multiplies<int>{}));
          const std::string diff = difference(to_dense(w), expected_write(accumulate, u, u, std::plus<int>{}, t));
          CHECK_MESSAGE(diff.empty(), diff);
        }
        {  // q<!q, replace> = q' A: the BFS step with the frontier as its own mask
          grb::Vector<int> q = to_grb(u, backend, chance(rng, 0.5));
          grb::Descriptor d = masked.descriptor();
          d.strategy = strategy;
          grb::vxm(q, q, grb::no_accum, grb::plus_times<int>{}, q, a_object, d);
          const auto t = reference_vxm<int>(u, a, std::plus<int>{}, values_only(std::multiplies<int>{}));
          const std::string diff = difference(to_dense(q), expected_write(masked, u, u, std::plus<int>{}, t));
          CHECK_MESSAGE(diff.empty(), diff);
        }
      }
    }
  }
}

TEST_CASE("mxv and vxm: dimension mismatches name the operation") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<int> a(3, 4, backend);
    grb::Vector<int> u3(3, backend), u4(4, backend), w3(3, backend), w4(4, backend);
    const grb::plus_times<int> semiring;
    CHECK_NOTHROW(grb::mxv(w3, grb::no_mask, grb::no_accum, semiring, a, u4));
    CHECK_NOTHROW(grb::vxm(w4, grb::no_mask, grb::no_accum, semiring, u3, a));
    CHECK_THROWS_AS(grb::mxv(w3, grb::no_mask, grb::no_accum, semiring, a, u3), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::mxv(w4, grb::no_mask, grb::no_accum, semiring, a, u4), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::vxm(w4, grb::no_mask, grb::no_accum, semiring, u4, a), grb::DimensionMismatch);
    CHECK_THROWS_AS(grb::mxv(w3, w4, grb::no_accum, semiring, a, u4), grb::DimensionMismatch);
    grb::Descriptor transposed;
    transposed.transpose_first = true;
    CHECK_NOTHROW(grb::mxv(w4, grb::no_mask, grb::no_accum, semiring, a, u3, transposed));
    CHECK_THROWS_WITH_AS(grb::mxv(w3, grb::no_mask, grb::no_accum, semiring, a, u4, transposed),
                         doctest::Contains("mxv"), grb::DimensionMismatch);
  }
}
