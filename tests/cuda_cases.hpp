// Shared by the tests of the cuda backend against the cpu backend (test_cuda_operations.cpp,
// test_cuda_vector_operations.cpp): random inputs of many shapes, the backend an input runs on,
// and the comparisons. Skipped, visibly, without a GPU.
#pragma once

#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support.hpp"


namespace grb::test::cuda_cases {
namespace {  // each test program its own copy

using grb::Backend;
using grb::Index;

bool skip_without_cuda() {
  if (grb::cuda_available()) return false;
  MESSAGE("cuda backend not available here: cuda-vs-cpu cases SKIPPED");
  return true;
}

using grb::test::in_shard;  // the long loops (mxv, matrix operations) are split by GRB_TEST_SHARD

struct Shape {
  Index nrows, ncols;
  double density;
  bool celebrity;  // row 0 and column 0 full
};

const std::vector<Shape> all_shapes = {
    {0, 0, 0.0, false},   {1, 1, 1.0, false},   {1, 1, 0.0, false},  {7, 5, 0.3, false},
    {40, 40, 0.1, false}, {64, 33, 0.05, true}, {300, 300, 0.02, true}, {1000, 800, 0.004, false},
};
/// Under compute-sanitizer (GRB_SANITIZER set) the small shapes only: every kernel still runs.
const std::vector<Shape> shapes(all_shapes.begin(),
                                all_shapes.end() - (std::getenv("GRB_SANITIZER") ? 2 : 0));

template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) return std::uniform_int_distribution<int>(0, 3)(rng) != 0;
  else if constexpr (std::is_floating_point_v<T>) return std::uniform_real_distribution<T>(-4, 9)(rng);
  else return static_cast<T>(std::uniform_int_distribution<int>(0, 20)(rng));
}

template <class T>
grb::Matrix<T> random_matrix(const Shape& shape, std::mt19937_64& rng) {
  std::vector<Index> rows, cols;
  std::vector<T> values;
  std::bernoulli_distribution keep(shape.density);
  for (Index i = 0; i < shape.nrows; ++i)
    for (Index j = 0; j < shape.ncols; ++j)
      if (keep(rng) || (shape.celebrity && (i == 0 || j == 0))) {
        rows.push_back(i), cols.push_back(j), values.push_back(random_value<T>(rng));
      }
  grb::Matrix<T> a(shape.nrows, shape.ncols, Backend::cpu);
  a.build(rows, cols, values);
  return a;
}

template <class T>
grb::Vector<T> random_vector(Index size, double density, std::mt19937_64& rng) {
  std::vector<Index> indices;
  std::vector<T> values;
  std::bernoulli_distribution keep(density);
  for (Index i = 0; i < size; ++i)
    if (keep(rng)) indices.push_back(i), values.push_back(random_value<T>(rng));
  grb::Vector<T> v(size, Backend::cpu);
  v.build(indices, values);
  return v;
}

template <class T>
bool close(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isinf(x) || std::isinf(y)) return x == y;
    return std::fabs(x - y) <= 1e-9 * (1 + std::fabs(x) + std::fabs(y));
  } else {
    return x == y;
  }
}

/// The same entries (values compared only when `compare_values`: `any` results may differ).
template <class T>
void check_same(const grb::Vector<T>& cpu, const grb::Vector<T>& cuda, bool compare_values = true) {
  REQUIRE(cuda.backend() == Backend::cuda);
  CHECK(cpu.size() == cuda.size());
  std::vector<Index> ci, gi;
  std::vector<T> cv, gv;
  cpu.extract_tuples(ci, cv);
  cuda.extract_tuples(gi, gv);
  INFO("cpu " << ci.size() << " entries (nvals " << cpu.nvals() << "), cuda " << gi.size()
              << " entries (nvals " << cuda.nvals() << ", "
              << (cuda.format() == grb::VectorFormat::dense ? "dense" : "sparse") << ")");
  if (!ci.empty() && !gi.empty()) INFO("first index cpu " << ci[0] << ", cuda " << gi[0]);
  REQUIRE(ci == gi);
  if (!compare_values) return;
  for (std::size_t e = 0; e < cv.size(); ++e) {
    INFO("index " << ci[e] << ": cpu " << cv[e] << ", cuda " << gv[e]);
    CHECK(close<T>(cv[e], gv[e]));
  }
}

template <class T>
void check_same(const grb::Matrix<T>& cpu, const grb::Matrix<T>& cuda, bool compare_values = true) {
  REQUIRE(cuda.backend() == Backend::cuda);
  CHECK(cpu.nrows() == cuda.nrows());
  CHECK(cpu.ncols() == cuda.ncols());
  std::vector<Index> cr, cc, gr, gc;
  std::vector<T> cv, gv;
  cpu.extract_tuples(cr, cc, cv);
  cuda.extract_tuples(gr, gc, gv);
  INFO("cpu " << cr.size() << " entries, cuda " << gr.size() << " entries");
  REQUIRE(cr == gr);
  REQUIRE(cc == gc);
  if (!compare_values) return;
  for (std::size_t e = 0; e < cv.size(); ++e) {
    INFO("entry (" << cr[e] << ", " << cc[e] << "): cpu " << cv[e] << ", cuda " << gv[e]);
    CHECK(close<T>(cv[e], gv[e]));
  }
}

/// The mask kinds: none, valued, structural, complemented structural, complemented valued.
struct MaskKind {
  const char* name;
  bool use_mask, structural, complement, replace;
};
const std::vector<MaskKind> mask_kinds = {
    {"none", false, false, false, false},        {"none, complemented", false, false, true, true},
    {"valued", true, false, false, false},       {"valued, replace", true, false, false, true},
    {"structural", true, true, false, false},    {"!structural, replace", true, true, true, true},
    {"!valued", true, false, true, false},
};

grb::Descriptor descriptor_for(const MaskKind& kind, grb::MxvStrategy strategy = grb::MxvStrategy::automatic) {
  grb::Descriptor desc;
  desc.structural_mask = kind.structural;
  desc.complement_mask = kind.complement;
  desc.replace = kind.replace;
  desc.strategy = strategy;
  return desc;
}

/// Runs `operation(output, mask or no_mask, desc, backend)` on a cpu copy and a cuda copy of
/// `output` and compares the results. `mask` may be null when `kind` uses none.
template <class Output, class MaskObject, class Operation>
void differential(const Output& output, const MaskObject* mask, const MaskKind& kind,
                  const grb::Descriptor& desc, Operation operation, bool compare_values = true) {
  INFO("mask " << std::string(kind.name));
  Output cpu = output;
  Output cuda = output.to(Backend::cuda);
  if (!kind.use_mask) {
    operation(cpu, grb::no_mask, desc, Backend::cpu);
    operation(cuda, grb::no_mask, desc, Backend::cuda);
  } else {
    REQUIRE(mask != nullptr);
    operation(cpu, *mask, desc, Backend::cpu);
    operation(cuda, mask->to(Backend::cuda), desc, Backend::cuda);
  }
  check_same(cpu, cuda, compare_values);
}

/// An index-unary operator (GrB_IndexUnaryOp): x + i + 2j.
struct IndexSum {
  GRB_HOST_DEVICE double operator()(double x, Index i, Index j) const { return x + i + 2.0 * j; }
};

/// An input on the backend an operation runs on.
template <class X>
X on(const X& x, Backend backend) {
  return x.to(backend);
}

}  // namespace
}  // namespace grb::test::cuda_cases
