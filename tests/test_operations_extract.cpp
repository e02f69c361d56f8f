// extract (sub-vector, sub-matrix, one column or row) and transpose, against the dense
// reference: index lists all / shuffled / repeated, every write case, transposed inputs, errors.
#include <doctest/doctest.h>

#include <algorithm>

#include <grb/grb.hpp>

#include "operations_reference.hpp"
#include "support.hpp"

using grb::Index;
using namespace grb::test;

namespace {

/// Positions into [0, dimension): all, or a shuffled list with repeats.
struct RandomList {
  bool all = false;
  std::vector<Index> ids;
  grb::IndexList list() const { return all ? grb::IndexList(grb::all) : grb::IndexList(ids); }
  Index size(Index dimension) const { return all ? dimension : Index(ids.size()); }
  Index operator()(Index p) const { return all ? p : ids[p]; }
};

RandomList random_list(std::mt19937& rng, Index dimension) {
  RandomList list;
  list.all = dimension == 0 || chance(rng, 0.3);
  if (list.all) return list;
  const Index count = Index(rng() % (2 * dimension + 1));
  for (Index p = 0; p < count; ++p) list.ids.push_back(Index(rng() % dimension));
  return list;
}

}  // namespace

TEST_CASE("extract: sub-vectors") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(21);
    for (auto [unused, n] : test_shapes())
      for (double density : test_densities())
        for (int trial = 0; trial < 3; ++trial) {
          const auto u = random_vector<int>(rng, n, density, -3, 3);
          const RandomList list = random_list(rng, n);
          DenseVector<int> t(list.size(n));
          for (Index p = 0; p < t.size; ++p)
            if (u.has(list(p))) t.set(p, u.value[list(p)]);
          const auto u_object = to_grb(u, backend, chance(rng, 0.5));
          INFO("n ", n, " list of ", t.size);
          check_vector_cases<int>(backend, rng, t, std::minus<int>{},
                                  [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                    grb::extract(w, mask, acc, u_object, list.list(), desc);
                                  });
        }
  }
}

TEST_CASE("extract: sub-matrices and single columns / rows, transposed") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(22);
    for (auto [m, n] : test_shapes()) {
      if (m > 40 || n > 40) continue;
      for (double density : test_densities())
        for (bool transposed : {false, true}) {
          const auto effective = random_matrix<int>(rng, m, n, density, -3, 3);
          const auto a_object = to_grb(transposed ? effective.transposed() : effective, backend);
          const RandomList rows = random_list(rng, m), cols = random_list(rng, n);
          DenseMatrix<int> t(rows.size(m), cols.size(n));
          for (Index p = 0; p < t.nrows; ++p)
            for (Index q = 0; q < t.ncols; ++q)
              if (effective.has(rows(p), cols(q))) t.set(p, q, effective.get(rows(p), cols(q)));
          grb::Descriptor base;
          base.transpose_first = transposed;
          INFO(m, "x", n, " transposed ", transposed, " region ", t.nrows, "x", t.ncols);
          check_matrix_cases<int>(backend, rng, t, std::minus<int>{},
                                  [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                    grb::extract(c, mask, acc, a_object, rows.list(), cols.list(), desc);
                                  },
                                  base);
          if (n == 0) continue;
          const Index column = Index(rng() % n);
          DenseVector<int> column_t(rows.size(m));
          for (Index p = 0; p < column_t.size; ++p)
            if (effective.has(rows(p), column)) column_t.set(p, effective.get(rows(p), column));
          check_vector_cases<int>(backend, rng, column_t, std::minus<int>{},
                                  [&](auto& w, const auto& mask, const auto& acc, const auto& desc) {
                                    grb::extract(w, mask, acc, a_object, rows.list(), column, desc);
                                  },
                                  base);
        }
    }
  }
}

TEST_CASE("transpose: every write case, and transpose_first undoing it") {
  GRB_FOR_EACH_BACKEND(backend) {
    std::mt19937 rng(23);
    for (auto [m, n] : test_shapes())
      for (double density : test_densities()) {
        const auto a = random_matrix<int>(rng, m, n, density, -3, 3);
        const auto a_object = to_grb(a, backend);
        INFO(m, "x", n, " density ", density);
        check_matrix_cases<double>(backend, rng, a.transposed(), std::minus<double>{},
                                   [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                     grb::transpose(c, mask, acc, a_object, desc);
                                   });
        grb::Descriptor twice;
        twice.transpose_first = true;
        check_matrix_cases<int>(backend, rng, a, std::minus<int>{},
                                [&](auto& c, const auto& mask, const auto& acc, const auto& desc) {
                                  grb::transpose(c, mask, acc, a_object, desc);
                                },
                                twice);
      }
  }
}

TEST_CASE("extract and transpose: aliasing, index and dimension errors") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<int> u(4, backend);
    u.build(std::vector<Index>{1, 2}, std::vector<int>{5, 6});
    const std::vector<Index> reversed{3, 2, 1, 0};
    grb::extract(u, grb::no_mask, grb::no_accum, u, reversed);  // output == input
    CHECK(to_dense(u).value == std::vector<int>{0, 6, 5, 0});
    const std::vector<Index> outside{4};
    grb::Vector<int> one(1, backend);
    CHECK_THROWS_WITH_AS(grb::extract(one, grb::no_mask, grb::no_accum, u, outside),
                         doctest::Contains("extract"), grb::IndexOutOfBounds);
    CHECK_THROWS_AS(grb::extract(one, grb::no_mask, grb::no_accum, u, reversed), grb::DimensionMismatch);
    grb::Matrix<int> a(2, 3, backend);
    a.build(std::vector<Index>{0, 1}, std::vector<Index>{2, 0}, std::vector<int>{7, 8});
    grb::Vector<int> column(2, backend), row(3, backend);
    CHECK_THROWS_AS(grb::extract(column, grb::no_mask, grb::no_accum, a, grb::all, Index{3}), grb::IndexOutOfBounds);
    grb::extract(column, grb::no_mask, grb::no_accum, a, grb::all, Index{2});
    CHECK(to_dense(column).value == std::vector<int>{7, 0});
    grb::Descriptor transposed;
    transposed.transpose_first = true;
    grb::extract(row, grb::no_mask, grb::no_accum, a, grb::all, Index{1}, transposed);
    CHECK(to_dense(row).value == std::vector<int>{8, 0, 0});
    grb::Matrix<int> square(3, 3, backend);
    square.build(std::vector<Index>{0, 2}, std::vector<Index>{1, 0}, std::vector<int>{1, 2});
    grb::transpose(square, grb::no_mask, grb::no_accum, square);  // output == input
    CHECK(square.extract_element(1, 0) == 1);
    CHECK(square.extract_element(0, 2) == 2);
    CHECK(square.nvals() == 2);
    CHECK_THROWS_WITH_AS(grb::transpose(a, grb::no_mask, grb::no_accum, a),
                         doctest::Contains("transpose"), grb::DimensionMismatch);
  }
}
