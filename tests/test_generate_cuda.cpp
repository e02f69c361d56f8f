// Graph construction on the GPU against the cpu: the Kronecker generator (the same edges to the
// bit for the same seed), edge list -> CSR (the same matrix as the host to_matrix), and
// Matrix::build on the cuda backend (the same matrix as the cpu build, duplicates folded with
// each operator in input order, the same errors). The cuda cases are skipped, visibly, where no
// GPU is present; the cpu-only checks (the GPU functions refuse to run there) always run.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <grb/generate.hpp>
#include <grb/matrix.hpp>

#include "support.hpp"

namespace {

using grb::Backend;
using grb::Index;
using grb::Offset;
namespace generate = grb::generate;

/// True where the cuda cases can run; says once, on stdout, that they are skipped otherwise.
bool gpu_here() {
  static const bool available = [] {
    if (!grb::cuda_available())
      std::printf("test_generate_cuda: cuda cases SKIPPED (%s)\n",
                  GRB_WITH_CUDA ? "no GPU on this machine" : "grb built without CUDA");
    return grb::cuda_available();
  }();
  return available;
}

template <class T>
struct Stored {
  std::vector<Offset> row_offsets;
  std::vector<Index> col_indices;
  std::vector<T> values;
  bool operator==(const Stored&) const = default;
};

/// The CSR arrays exactly as stored (on the host).
template <class T>
Stored<T> stored(const grb::Matrix<T>& a) {
  const grb::Csr<T>& csr = a.csr();
  return {csr.row_offsets.to_vector(), csr.col_indices.to_vector(), csr.values.to_vector()};
}

/// Counts values whose bits differ (== on doubles would let -0.0 match 0.0).
std::size_t bitwise_differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t differences = a.size() == b.size() ? 0 : 1;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    differences += std::bit_cast<std::uint64_t>(a[k]) != std::bit_cast<std::uint64_t>(b[k]);
  return differences;
}

/// An edge list with parallel edges of varied weights (in no order), self loops, and both
/// directions of some edges: everything to_matrix's options act on.
generate::EdgeList tangled_edges() {
  generate::EdgeList edges{7, {}, {}, {}};
  std::mt19937_64 random(11);
  std::uniform_int_distribution<Index> vertex(0, 6);
  std::uniform_real_distribution<double> weight(0.0, 1.0);
  for (int k = 0; k < 400; ++k) {
    edges.source.push_back(vertex(random));
    edges.target.push_back(vertex(random));
    edges.weight.push_back(k % 5 == 0 ? 0.5 : weight(random));  // ties among parallel edges
  }
  return edges;
}

std::vector<generate::Options> every_option_combination() {
  std::vector<generate::Options> all;
  for (bool symmetrize : {true, false})
    for (bool drop_self_loops : {true, false})
      for (bool drop_duplicates : {true, false})
        all.push_back({.seed = 1,
                       .symmetrize = symmetrize,
                       .drop_self_loops = drop_self_loops,
                       .drop_duplicates = drop_duplicates});
  return all;
}

std::string describe(const generate::Options& o) {
  return std::string(o.symmetrize ? "symmetrize" : "directed") +
         (o.drop_self_loops ? ", no loops" : ", loops") +
         (o.drop_duplicates ? ", min of duplicates" : ", sum of duplicates");
}

}  // namespace

TEST_CASE("the GPU generators refuse to run without a GPU") {
  if (grb::cuda_available()) return;  // covered by the cuda cases below
  CHECK_THROWS_AS((void)generate::kronecker_edges_cuda(4), grb::BackendUnavailable);
  CHECK_THROWS_AS((void)generate::to_device(generate::kronecker_edges(4)),
                  grb::BackendUnavailable);
  CHECK_THROWS_AS((void)generate::to_matrix(generate::DeviceEdgeList{}), grb::BackendUnavailable);
}

TEST_CASE("the GPU Kronecker generator checks its arguments like the cpu one") {
  CHECK_THROWS_AS((void)generate::kronecker_edges_cuda(0), grb::InvalidValue);
  CHECK_THROWS_AS((void)generate::kronecker_edges_cuda(32), grb::InvalidValue);
  CHECK_THROWS_AS((void)generate::kronecker_edges_cuda(4, 0), grb::InvalidValue);
}

TEST_CASE("the GPU Kronecker generator gives the cpu's edges, bit for bit") {
  if (!gpu_here()) return;
  struct Case {
    int scale, edge_factor;
    std::uint64_t seed;
  };
  for (const Case c : {Case{1, 1, 1}, Case{4, 16, 1}, Case{10, 16, 7}, Case{13, 5, 123456789}}) {
    CAPTURE(c.scale);
    CAPTURE(c.edge_factor);
    CAPTURE(c.seed);
    const generate::EdgeList cpu = generate::kronecker_edges(c.scale, c.edge_factor, c.seed);
    const generate::DeviceEdgeList device =
        generate::kronecker_edges_cuda(c.scale, c.edge_factor, c.seed);
    CHECK(device.nvertices == cpu.nvertices);
    CHECK(device.source.backend() == Backend::cuda);
    const generate::EdgeList gpu = generate::to_host(device);
    CHECK(gpu.source == cpu.source);
    CHECK(gpu.target == cpu.target);
    CHECK(bitwise_differences(gpu.weight, cpu.weight) == 0);
  }
}

TEST_CASE("the GPU edge list -> CSR gives the cpu's to_matrix, to the bit") {
  if (!gpu_here()) return;
  const std::vector<std::pair<std::string, generate::EdgeList>> lists{
      {"tangled", tangled_edges()},
      {"kronecker 11", generate::kronecker_edges(11, 16, 3)},
      {"kronecker 3", generate::kronecker_edges(3, 4, 5)},
      {"empty", generate::EdgeList{5, {}, {}, {}}},
      {"one vertex", generate::EdgeList{1, {0, 0}, {0, 0}, {0.25, 0.75}}}};
  for (const auto& [name, edges] : lists) {
    for (const generate::Options& options : every_option_combination()) {
      CAPTURE(name);
      CAPTURE(describe(options));
      const grb::Matrix<double> cpu = generate::to_matrix(edges, options);
      const grb::Matrix<double> gpu = generate::to_matrix(generate::to_device(edges), options);
      REQUIRE(gpu.backend() == Backend::cuda);
      CHECK(gpu.nrows() == cpu.nrows());
      CHECK(gpu.ncols() == cpu.ncols());
      const Stored<double> expected = stored(cpu), actual = stored(gpu);
      CHECK(actual.row_offsets == expected.row_offsets);
      CHECK(actual.col_indices == expected.col_indices);
      CHECK(bitwise_differences(actual.values, expected.values) == 0);
    }
  }
}

TEST_CASE("GPU generation and construction together give the cpu's Kronecker graph") {
  if (!gpu_here()) return;
  const grb::Matrix<double> cpu = generate::kronecker(12, 16, {.seed = 9});
  generate::DeviceEdgeList edges = generate::kronecker_edges_cuda(12, 16, 9);
  // An rvalue list is consumed (its endpoints freed early); the result must not change.
  const grb::Matrix<double> gpu = generate::to_matrix(std::move(edges), {.seed = 9});
  CHECK(edges.source.empty());
  CHECK(edges.target.empty());
  const Stored<double> expected = stored(cpu), actual = stored(gpu);
  CHECK(actual.row_offsets == expected.row_offsets);
  CHECK(actual.col_indices == expected.col_indices);
  CHECK(bitwise_differences(actual.values, expected.values) == 0);
}

TEST_CASE("the GPU edge list -> CSR refuses bad input like the cpu one") {
  if (!gpu_here()) return;
  generate::EdgeList bad{4, {0, 1, 2, 3}, {1, 2, 9, 0}, {1, 1, 1, 1}};
  std::string cpu_message, gpu_message;
  try {
    (void)generate::to_matrix(bad);
  } catch (const grb::IndexOutOfBounds& error) {
    cpu_message = error.what();
  }
  try {
    (void)generate::to_matrix(generate::to_device(bad));
  } catch (const grb::IndexOutOfBounds& error) {
    gpu_message = error.what();
  }
  CHECK(!cpu_message.empty());
  CHECK(gpu_message == cpu_message);

  generate::DeviceEdgeList uneven = generate::to_device(generate::EdgeList{4, {0, 1}, {1, 2}, {1, 1}});
  uneven.weight = grb::detail::Array<double>(1, Backend::cuda);
  CHECK_THROWS_AS((void)generate::to_matrix(uneven), grb::DimensionMismatch);
}

namespace {

struct Tuples {
  std::vector<Index> rows, cols;
};

/// `count` tuples in an nrows x ncols matrix, with many duplicates when `crowded`.
Tuples random_tuples(Index nrows, Index ncols, std::size_t count, bool crowded,
                     std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const Index row_range = crowded ? std::min<Index>(nrows, 5) : nrows;
  const Index col_range = crowded ? std::min<Index>(ncols, 7) : ncols;
  std::uniform_int_distribution<Index> row(0, row_range - 1), col(0, col_range - 1);
  Tuples t;
  for (std::size_t k = 0; k < count; ++k) {
    t.rows.push_back(row(random));
    t.cols.push_back(col(random));
  }
  return t;
}

template <class T, class Dup>
void check_build_agrees(Index nrows, Index ncols, const Tuples& t, const std::vector<T>& values,
                        Dup dup) {
  grb::Matrix<T> cpu(nrows, ncols, Backend::cpu), gpu(nrows, ncols, Backend::cuda);
  cpu.build(t.rows, t.cols, values, dup);
  gpu.build(t.rows, t.cols, values, dup);
  REQUIRE(gpu.backend() == Backend::cuda);
  CHECK(stored(gpu) == stored(cpu));
}

}  // namespace

TEST_CASE("build on the cuda backend gives the cpu build, for every duplicate operator") {
  if (!gpu_here()) return;
  struct Shape {
    Index nrows, ncols;
    std::size_t count;
    bool crowded;
  };
  for (const Shape s : {Shape{1, 1, 0, false}, Shape{1, 1, 9, true}, Shape{10, 3, 200, true},
                        Shape{3, 100000, 5000, false}, Shape{70000, 70000, 100000, false},
                        Shape{70000, 2, 30000, true}}) {
    CAPTURE(s.nrows);
    CAPTURE(s.ncols);
    CAPTURE(s.count);
    const Tuples t = random_tuples(s.nrows, s.ncols, s.count, s.crowded, s.count + 1);
    std::vector<double> reals(s.count);
    std::vector<std::int32_t> integers(s.count);
    std::vector<bool> flags(s.count);
    for (std::size_t k = 0; k < s.count; ++k) {
      reals[k] = 0.1 * double(k % 97) - 3.0;  // sums depend on the order of addition
      integers[k] = std::int32_t(k * 7919 % 1001) - 500;
      flags[k] = k % 3 == 0;
    }
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::plus<double>{});
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::min<double>{});
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::max<double>{});
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::first<double>{});
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::second<double>{});
    check_build_agrees(s.nrows, s.ncols, t, reals, grb::minus<double>{});  // order-sensitive
    check_build_agrees(s.nrows, s.ncols, t, integers, grb::plus<std::int32_t>{});
    check_build_agrees(s.nrows, s.ncols, t, integers, grb::times<std::int32_t>{});
    check_build_agrees(s.nrows, s.ncols, t, flags, grb::lor<bool>{});
    check_build_agrees(s.nrows, s.ncols, t, flags, grb::land<bool>{});
  }
}

TEST_CASE("build on the cuda backend without duplicates needs no operator") {
  if (!gpu_here()) return;
  // Every (i, j) at most once, in scrambled order.
  Tuples t;
  std::vector<double> values;
  for (Index i = 0; i < 300; ++i)
    for (Index j = 0; j < 40; j += 3) {
      t.rows.push_back((i * 7) % 300);
      t.cols.push_back(39 - j);
      values.push_back(double(i) + 0.001 * j);
    }
  check_build_agrees(300, 40, t, values, grb::no_duplicates);
}

TEST_CASE("build on the cuda backend refuses what the cpu build refuses, with the same message") {
  if (!gpu_here()) return;
  struct Outcome {
    std::string code = "no error";
    std::string message;
  };
  const auto outcome_of = [](Backend backend, auto&& body) {
    grb::Matrix<double> a(4, 5, backend);
    try {
      body(a);
    } catch (const grb::Error& error) {
      return Outcome{std::string(grb::to_string(error.code())), error.what()};
    }
    return Outcome{};
  };
  const auto out_of_range_row = [](grb::Matrix<double>& a) {
    a.build(std::vector<Index>{0, 4}, std::vector<Index>{0, 1}, std::vector<double>{1, 2},
            grb::plus<double>{});
  };
  const auto out_of_range_column = [](grb::Matrix<double>& a) {
    a.build(std::vector<Index>{0, 1, 2}, std::vector<Index>{0, 1, 5},
            std::vector<double>{1, 2, 3});
  };
  const auto duplicate_without_operator = [](grb::Matrix<double>& a) {
    a.build(std::vector<Index>{3, 1, 2, 1}, std::vector<Index>{0, 4, 2, 4},
            std::vector<double>{1, 2, 3, 4});
  };
  const auto lengths_differ = [](grb::Matrix<double>& a) {
    a.build(std::vector<Index>{0, 1}, std::vector<Index>{0}, std::vector<double>{1, 2},
            grb::plus<double>{});
  };
  const auto not_empty = [](grb::Matrix<double>& a) {
    a.build(std::vector<Index>{0}, std::vector<Index>{0}, std::vector<double>{1});
    a.build(std::vector<Index>{1}, std::vector<Index>{1}, std::vector<double>{1});
  };
  struct Expected {
    const char* what;
    std::function<void(grb::Matrix<double>&)> body;
    grb::ErrorCode code;
  };
  for (const Expected& e :
       {Expected{"row out of range", out_of_range_row, grb::ErrorCode::index_out_of_bounds},
        Expected{"column out of range", out_of_range_column, grb::ErrorCode::index_out_of_bounds},
        Expected{"duplicate", duplicate_without_operator, grb::ErrorCode::invalid_value},
        Expected{"lengths", lengths_differ, grb::ErrorCode::dimension_mismatch},
        Expected{"not empty", not_empty, grb::ErrorCode::invalid_value}}) {
    CAPTURE(e.what);
    const Outcome gpu = outcome_of(Backend::cuda, e.body), cpu = outcome_of(Backend::cpu, e.body);
    CHECK(gpu.code == grb::to_string(e.code));
    CHECK(gpu.code == cpu.code);
    CHECK(gpu.message == cpu.message);
  }
}
