// Cross-check of the grb operations against SuiteSparse:GraphBLAS on random inputs: mxv, vxm and
// mxm over plus_times, min_plus, max_times, plus_pair and lor_land; ewise_add / ewise_mult;
// apply; reduce (to scalars and row-wise). Every mask / complement / replace / accumulator
// combination, transposed inputs, several shapes and densities. Integer-valued doubles keep
// every result exact, so the two libraries must agree bit for bit.
// Built against libgraphblas when configure finds it (GRB_HAVE_SUITESPARSE); skipped otherwise.
// Compiled by the host compiler (GraphBLAS.h is C, and this file only uses the cpu backend).
#include <doctest/doctest.h>

#include <cstdio>

#include <grb/grb.hpp>

#include "bfs/linear_algebra.hpp"
#include "cc/fastsv.hpp"
#include "grb/io.hpp"
#include "operations_reference.hpp"
#include "sssp/bellman_ford.hpp"
#include "support.hpp"

#if GRB_HAVE_SUITESPARSE

#include <memory>
#include <type_traits>

// SuiteSparse 7's header declares C functions without an extern "C" guard of its own.
extern "C" {
#include <GraphBLAS.h>
}

using grb::Index;
using namespace grb::test;

namespace {

#define SS_CHECK(call) REQUIRE((call) == GrB_SUCCESS)

/// GrB_init once per process; GrB_finalize at exit.
struct Session {
  Session() { GrB_init(GrB_NONBLOCKING); }
  ~Session() { GrB_finalize(); }
};
void start_graphblas() { static Session session; }

/// Owning handles.
struct SsMatrix {
  GrB_Matrix handle = nullptr;
  ~SsMatrix() { if (handle) GrB_Matrix_free(&handle); }
};
struct SsVector {
  GrB_Vector handle = nullptr;
  ~SsVector() { if (handle) GrB_Vector_free(&handle); }
};
struct SsDescriptor {
  GrB_Descriptor handle = nullptr;
  ~SsDescriptor() { if (handle) GrB_Descriptor_free(&handle); }
};

// Values are double (GrB_FP64) or bool (GrB_BOOL).
template <class T> GrB_Type type_of() { return std::is_same_v<T, bool> ? GrB_BOOL : GrB_FP64; }

template <class T>
void to_suitesparse(const DenseMatrix<T>& d, SsMatrix& out) {
  SS_CHECK(GrB_Matrix_new(&out.handle, type_of<T>(), d.nrows, d.ncols));
  std::vector<GrB_Index> rows, cols;
  std::unique_ptr<T[]> values(new T[std::size_t(d.nrows) * d.ncols + 1]);
  for (Index i = 0; i < d.nrows; ++i)
    for (Index j = 0; j < d.ncols; ++j)
      if (d.has(i, j)) values[rows.size()] = d.get(i, j), rows.push_back(i), cols.push_back(j);
  if (rows.empty()) return;  // build rejects the null arrays of an empty list
  if constexpr (std::is_same_v<T, bool>)
    SS_CHECK(GrB_Matrix_build_BOOL(out.handle, rows.data(), cols.data(), values.get(), rows.size(), GrB_LOR));
  else
    SS_CHECK(GrB_Matrix_build_FP64(out.handle, rows.data(), cols.data(), values.get(), rows.size(), GrB_PLUS_FP64));
}

template <class T>
void to_suitesparse(const DenseVector<T>& d, SsVector& out) {
  SS_CHECK(GrB_Vector_new(&out.handle, type_of<T>(), d.size));
  std::vector<GrB_Index> indices;
  std::unique_ptr<T[]> values(new T[std::size_t(d.size) + 1]);
  for (Index i = 0; i < d.size; ++i)
    if (d.has(i)) values[indices.size()] = d.value[i], indices.push_back(i);
  if (indices.empty()) return;
  if constexpr (std::is_same_v<T, bool>)
    SS_CHECK(GrB_Vector_build_BOOL(out.handle, indices.data(), values.get(), indices.size(), GrB_LOR));
  else
    SS_CHECK(GrB_Vector_build_FP64(out.handle, indices.data(), values.get(), indices.size(), GrB_PLUS_FP64));
}

template <class T>
DenseMatrix<T> from_suitesparse(GrB_Matrix a) {
  GrB_Index nrows = 0, ncols = 0, nvals = 0;
  SS_CHECK(GrB_Matrix_nrows(&nrows, a));
  SS_CHECK(GrB_Matrix_ncols(&ncols, a));
  SS_CHECK(GrB_Matrix_nvals(&nvals, a));
  std::vector<GrB_Index> rows(nvals + 1), cols(nvals + 1);
  std::unique_ptr<T[]> values(new T[nvals + 1]);
  if constexpr (std::is_same_v<T, bool>)
    SS_CHECK(GrB_Matrix_extractTuples_BOOL(rows.data(), cols.data(), values.get(), &nvals, a));
  else
    SS_CHECK(GrB_Matrix_extractTuples_FP64(rows.data(), cols.data(), values.get(), &nvals, a));
  DenseMatrix<T> d(static_cast<Index>(nrows), static_cast<Index>(ncols));
  for (GrB_Index e = 0; e < nvals; ++e) d.set(Index(rows[e]), Index(cols[e]), values[e]);
  return d;
}

template <class T>
DenseVector<T> from_suitesparse(GrB_Vector v) {
  GrB_Index size = 0, nvals = 0;
  SS_CHECK(GrB_Vector_size(&size, v));
  SS_CHECK(GrB_Vector_nvals(&nvals, v));
  std::vector<GrB_Index> indices(nvals + 1);
  std::unique_ptr<T[]> values(new T[nvals + 1]);
  if constexpr (std::is_same_v<T, bool>)
    SS_CHECK(GrB_Vector_extractTuples_BOOL(indices.data(), values.get(), &nvals, v));
  else
    SS_CHECK(GrB_Vector_extractTuples_FP64(indices.data(), values.get(), &nvals, v));
  DenseVector<T> d(static_cast<Index>(size));
  for (GrB_Index e = 0; e < nvals; ++e) d.set(Index(indices[e]), values[e]);
  return d;
}

/// The SuiteSparse descriptor for a write case plus input transposes.
void to_suitesparse(const WriteCase& c, bool transpose_first, bool transpose_second, SsDescriptor& out) {
  SS_CHECK(GrB_Descriptor_new(&out.handle));
  if (c.replace) SS_CHECK(GrB_Descriptor_set(out.handle, GrB_OUTP, GrB_REPLACE));
  const bool structural = c.mask == WriteCase::structural;
  if (structural && c.complement)
    SS_CHECK(GrB_Descriptor_set(out.handle, GrB_MASK, GrB_Desc_Value(GrB_COMP + GrB_STRUCTURE)));
  else if (structural) SS_CHECK(GrB_Descriptor_set(out.handle, GrB_MASK, GrB_STRUCTURE));
  else if (c.complement) SS_CHECK(GrB_Descriptor_set(out.handle, GrB_MASK, GrB_COMP));
  if (transpose_first) SS_CHECK(GrB_Descriptor_set(out.handle, GrB_INP0, GrB_TRAN));
  if (transpose_second) SS_CHECK(GrB_Descriptor_set(out.handle, GrB_INP1, GrB_TRAN));
}

/// The accumulator both sides use: minus (x - y, so the operand order is checked) on doubles,
/// xor on bools.
template <class T> GrB_BinaryOp accumulator() { return std::is_same_v<T, bool> ? GrB_LXOR : GrB_MINUS_FP64; }
template <class T> auto grb_accumulator() {
  if constexpr (std::is_same_v<T, bool>) return grb::lxor<bool>{};
  else return grb::minus<double>{};
}

/// Runs one vector-output operation both ways for every write case and compares.
/// run_grb(w, mask, accum, desc); run_suitesparse(w, mask, accum, desc): GrB_Info.
template <class T, class RunGrb, class RunSuiteSparse>
void compare_vector_cases(std::mt19937& rng, Index n, bool transpose_first, bool transpose_second,
                          RunGrb run_grb, RunSuiteSparse run_suitesparse) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_vector<T>(rng, n, 0.5);
    const auto mask = random_vector<double>(rng, n, 0.5, 0, 2);
    grb::Vector<T> w = to_grb(old, grb::Backend::cpu, chance(rng, 0.5));
    const grb::Vector<double> mask_object = to_grb(mask, grb::Backend::cpu);
    grb::Descriptor desc = c.descriptor();
    desc.transpose_first = transpose_first;
    desc.transpose_second = transpose_second;
    with_modifiers(c, mask_object, grb_accumulator<T>(),
                   [&](const auto& m, const auto& a) { run_grb(w, m, a, desc); });

    SsVector ss_w, ss_mask;
    SsDescriptor ss_desc;
    to_suitesparse(old, ss_w);
    to_suitesparse(mask, ss_mask);
    to_suitesparse(c, transpose_first, transpose_second, ss_desc);
    SS_CHECK(run_suitesparse(ss_w.handle, c.mask == WriteCase::none ? nullptr : ss_mask.handle,
                             c.accumulate ? accumulator<T>() : nullptr, ss_desc.handle));
    INFO(c.name(), " transposes ", transpose_first, transpose_second);
    const std::string diff = difference(to_dense(w), from_suitesparse<T>(ss_w.handle));
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

template <class T, class RunGrb, class RunSuiteSparse>
void compare_matrix_cases(std::mt19937& rng, Index m, Index n, bool transpose_first,
                          bool transpose_second, RunGrb run_grb, RunSuiteSparse run_suitesparse) {
  for (const WriteCase& c : all_write_cases()) {
    const auto old = random_matrix<T>(rng, m, n, 0.4);
    const auto mask = random_matrix<double>(rng, m, n, 0.5, 0, 2);
    grb::Matrix<T> out = to_grb(old, grb::Backend::cpu);
    const grb::Matrix<double> mask_object = to_grb(mask, grb::Backend::cpu);
    grb::Descriptor desc = c.descriptor();
    desc.transpose_first = transpose_first;
    desc.transpose_second = transpose_second;
    with_modifiers(c, mask_object, grb_accumulator<T>(),
                   [&](const auto& mk, const auto& a) { run_grb(out, mk, a, desc); });

    SsMatrix ss_out, ss_mask;
    SsDescriptor ss_desc;
    to_suitesparse(old, ss_out);
    to_suitesparse(mask, ss_mask);
    to_suitesparse(c, transpose_first, transpose_second, ss_desc);
    SS_CHECK(run_suitesparse(ss_out.handle, c.mask == WriteCase::none ? nullptr : ss_mask.handle,
                             c.accumulate ? accumulator<T>() : nullptr, ss_desc.handle));
    INFO(c.name(), " transposes ", transpose_first, transpose_second);
    const std::string diff = difference(to_dense(out), from_suitesparse<T>(ss_out.handle));
    CHECK_MESSAGE(diff.empty(), diff);
  }
}

const std::pair<Index, Index> shapes[] = {{1, 1}, {9, 14}, {30, 30}, {57, 41}};
const double densities[] = {0.03, 0.2, 0.8};

/// Calls f(grb semiring, SuiteSparse semiring, value type tag) for each semiring compared.
template <class F>
void for_each_semiring(F&& f) {
  f(grb::plus_times<double>{}, GrB_PLUS_TIMES_SEMIRING_FP64, double{});
  f(grb::min_plus<double>{}, GrB_MIN_PLUS_SEMIRING_FP64, double{});
  f(grb::max_times<double>{}, GrB_MAX_TIMES_SEMIRING_FP64, double{});
  f(grb::plus_pair<double>{}, GxB_PLUS_PAIR_FP64, double{});
  f(grb::lor_land<bool>{}, GrB_LOR_LAND_SEMIRING_BOOL, bool{});
}

}  // namespace

TEST_CASE("SuiteSparse cross-check: mxv and vxm") {
  start_graphblas();
  std::mt19937 rng(1);
  for_each_semiring([&](auto semiring, GrB_Semiring ss_semiring, auto tag) {
    using T = decltype(tag);
    for (auto [m, n] : shapes)
      for (double density : densities)
        for (bool transposed : {false, true}) {
          INFO(m, "x", n, " density ", density);
          const auto a = random_matrix<T>(rng, transposed ? n : m, transposed ? m : n, density, -3, 3);
          const grb::Matrix<T> a_object = to_grb(a, grb::Backend::cpu);
          SsMatrix ss_a;
          to_suitesparse(a, ss_a);
          const auto u = random_vector<T>(rng, n, chance(rng, 0.5) ? 0.1 : 0.7, -3, 3);
          const grb::Vector<T> u_object = to_grb(u, grb::Backend::cpu, chance(rng, 0.5));
          SsVector ss_u;
          to_suitesparse(u, ss_u);
          compare_vector_cases<T>(
              rng, m, transposed, false,
              [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
                grb::mxv(w, mask, accum, semiring, a_object, u_object, desc);
              },
              [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_mxv(w, mask, accum, ss_semiring, ss_a.handle, ss_u.handle, desc);
              });
          const auto v = random_vector<T>(rng, m, chance(rng, 0.5) ? 0.1 : 0.7, -3, 3);
          const grb::Vector<T> v_object = to_grb(v, grb::Backend::cpu, chance(rng, 0.5));
          SsVector ss_v;
          to_suitesparse(v, ss_v);
          compare_vector_cases<T>(
              rng, n, false, transposed,
              [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
                grb::vxm(w, mask, accum, semiring, v_object, a_object, desc);
              },
              [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_vxm(w, mask, accum, ss_semiring, ss_v.handle, ss_a.handle, desc);
              });
        }
  });
}

TEST_CASE("SuiteSparse cross-check: mxm") {
  start_graphblas();
  std::mt19937 rng(2);
  for_each_semiring([&](auto semiring, GrB_Semiring ss_semiring, auto tag) {
    using T = decltype(tag);
    for (auto [m, n] : shapes)
      for (double density : densities)
        for (bool transpose_first : {false, true})
          for (bool transpose_second : {false, true}) {
            const Index k = 1 + Index(rng() % 20);
            INFO(m, "x", k, " times ", k, "x", n, " density ", density);
            const auto a = random_matrix<T>(rng, transpose_first ? k : m, transpose_first ? m : k, density, -3, 3);
            const auto b = random_matrix<T>(rng, transpose_second ? n : k, transpose_second ? k : n, density, -3, 3);
            const grb::Matrix<T> a_object = to_grb(a, grb::Backend::cpu), b_object = to_grb(b, grb::Backend::cpu);
            SsMatrix ss_a, ss_b;
            to_suitesparse(a, ss_a);
            to_suitesparse(b, ss_b);
            compare_matrix_cases<T>(
                rng, m, n, transpose_first, transpose_second,
                [&](auto& c, const auto& mask, const auto& accum, const auto& desc) {
                  grb::mxm(c, mask, accum, semiring, a_object, b_object, desc);
                },
                [&](GrB_Matrix c, GrB_Matrix mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                  return GrB_mxm(c, mask, accum, ss_semiring, ss_a.handle, ss_b.handle, desc);
                });
          }
  });
}

TEST_CASE("SuiteSparse cross-check: ewise_add, ewise_mult, apply") {
  start_graphblas();
  std::mt19937 rng(3);
  auto each_op = [&](auto grb_op, GrB_BinaryOp ss_op) {
    for (auto [m, n] : shapes)
      for (double density : densities) {
        INFO(m, "x", n, " density ", density);
        const auto u = random_vector<double>(rng, n, density, -3, 3), v = random_vector<double>(rng, n, 0.4, -3, 3);
        const auto u_object = to_grb(u, grb::Backend::cpu, chance(rng, 0.5));
        const auto v_object = to_grb(v, grb::Backend::cpu, chance(rng, 0.5));
        SsVector ss_u, ss_v;
        to_suitesparse(u, ss_u);
        to_suitesparse(v, ss_v);
        compare_vector_cases<double>(
            rng, n, false, false,
            [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
              grb::ewise_add(w, mask, accum, grb_op, u_object, v_object, desc);
            },
            [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
              return GrB_Vector_eWiseAdd_BinaryOp(w, mask, accum, ss_op, ss_u.handle, ss_v.handle, desc);
            });
        compare_vector_cases<double>(
            rng, n, false, false,
            [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
              grb::ewise_mult(w, mask, accum, grb_op, u_object, v_object, desc);
            },
            [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
              return GrB_Vector_eWiseMult_BinaryOp(w, mask, accum, ss_op, ss_u.handle, ss_v.handle, desc);
            });
        for (bool transpose_second : {false, true}) {
          const auto a = random_matrix<double>(rng, m, n, density, -3, 3);
          const auto b = random_matrix<double>(rng, transpose_second ? n : m, transpose_second ? m : n, 0.4, -3, 3);
          const auto a_object = to_grb(a, grb::Backend::cpu), b_object = to_grb(b, grb::Backend::cpu);
          SsMatrix ss_a, ss_b;
          to_suitesparse(a, ss_a);
          to_suitesparse(b, ss_b);
          compare_matrix_cases<double>(
              rng, m, n, false, transpose_second,
              [&](auto& c, const auto& mask, const auto& accum, const auto& desc) {
                grb::ewise_add(c, mask, accum, grb_op, a_object, b_object, desc);
              },
              [&](GrB_Matrix c, GrB_Matrix mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_Matrix_eWiseAdd_BinaryOp(c, mask, accum, ss_op, ss_a.handle, ss_b.handle, desc);
              });
          compare_matrix_cases<double>(
              rng, m, n, false, transpose_second,
              [&](auto& c, const auto& mask, const auto& accum, const auto& desc) {
                grb::ewise_mult(c, mask, accum, grb_op, a_object, b_object, desc);
              },
              [&](GrB_Matrix c, GrB_Matrix mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_Matrix_eWiseMult_BinaryOp(c, mask, accum, ss_op, ss_a.handle, ss_b.handle, desc);
              });
        }
      }
  };
  each_op(grb::plus<double>{}, GrB_PLUS_FP64);
  each_op(grb::minus<double>{}, GrB_MINUS_FP64);
  each_op(grb::min<double>{}, GrB_MIN_FP64);

  auto each_unary = [&](auto grb_op, GrB_UnaryOp ss_op) {
    for (auto [m, n] : shapes)
      for (double density : densities)
        for (bool transposed : {false, true}) {
          const auto u = random_vector<double>(rng, n, density, -3, 3);
          const auto u_object = to_grb(u, grb::Backend::cpu, chance(rng, 0.5));
          SsVector ss_u;
          to_suitesparse(u, ss_u);
          compare_vector_cases<double>(
              rng, n, false, false,
              [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
                grb::apply(w, mask, accum, grb_op, u_object, desc);
              },
              [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_Vector_apply(w, mask, accum, ss_op, ss_u.handle, desc);
              });
          const auto a = random_matrix<double>(rng, transposed ? n : m, transposed ? m : n, density, -3, 3);
          const auto a_object = to_grb(a, grb::Backend::cpu);
          SsMatrix ss_a;
          to_suitesparse(a, ss_a);
          compare_matrix_cases<double>(
              rng, m, n, transposed, false,
              [&](auto& c, const auto& mask, const auto& accum, const auto& desc) {
                grb::apply(c, mask, accum, grb_op, a_object, desc);
              },
              [&](GrB_Matrix c, GrB_Matrix mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_Matrix_apply(c, mask, accum, ss_op, ss_a.handle, desc);
              });
        }
  };
  each_unary(grb::ainv<double>{}, GrB_AINV_FP64);
  each_unary(grb::abs<double>{}, GrB_ABS_FP64);
}

TEST_CASE("SuiteSparse cross-check: reduce") {
  start_graphblas();
  std::mt19937 rng(4);
  auto each_monoid = [&](auto monoid, GrB_Monoid ss_monoid) {
    for (auto [m, n] : shapes)
      for (double density : densities)
        for (bool transposed : {false, true}) {
          const auto a = random_matrix<double>(rng, transposed ? n : m, transposed ? m : n, density, -3, 3);
          const auto a_object = to_grb(a, grb::Backend::cpu);
          SsMatrix ss_a;
          to_suitesparse(a, ss_a);
          double ss_sum = 0;
          SS_CHECK(GrB_Matrix_reduce_FP64(&ss_sum, nullptr, ss_monoid, ss_a.handle, nullptr));
          CHECK(grb::reduce(monoid, a_object) == ss_sum);
          const auto u = random_vector<double>(rng, n, density, -3, 3);
          SsVector ss_u;
          to_suitesparse(u, ss_u);
          SS_CHECK(GrB_Vector_reduce_FP64(&ss_sum, nullptr, ss_monoid, ss_u.handle, nullptr));
          CHECK(grb::reduce(monoid, to_grb(u, grb::Backend::cpu, chance(rng, 0.5))) == ss_sum);
          compare_vector_cases<double>(
              rng, m, transposed, false,
              [&](auto& w, const auto& mask, const auto& accum, const auto& desc) {
                grb::reduce(w, mask, accum, monoid, a_object, desc);
              },
              [&](GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum, GrB_Descriptor desc) {
                return GrB_Matrix_reduce_Monoid(w, mask, accum, ss_monoid, ss_a.handle, desc);
              });
        }
  };
  each_monoid(grb::plus_monoid<double>{}, GrB_PLUS_MONOID_FP64);
  each_monoid(grb::min_monoid<double>{}, GrB_MIN_MONOID_FP64);
  each_monoid(grb::max_monoid<double>{}, GrB_MAX_MONOID_FP64);
  each_monoid(grb::times_monoid<double>{}, GrB_TIMES_MONOID_FP64);
}

// ---------------------------------------------------------------- algorithms on real graphs
// BFS levels, Bellman-Ford distances and min-label components computed with SuiteSparse's own
// operations (the textbook formulations), against grb's algorithms on the test graphs.

namespace {

struct SsGraph {
  SsMatrix weights;  // FP64, as read
  SsMatrix pattern;  // BOOL
  SsMatrix undirected;  // INT64 pattern of A + A'
  Index n = 0;
};

void load(const grb::Matrix<double>& a, SsGraph& g) {
  std::vector<Index> rows, cols;
  std::vector<double> values;
  a.extract_tuples(rows, cols, values);
  g.n = a.nrows();
  std::vector<GrB_Index> r(rows.begin(), rows.end()), c(cols.begin(), cols.end());
  std::unique_ptr<bool[]> ones(new bool[r.size() + 1]);
  std::unique_ptr<std::int64_t[]> int_ones(new std::int64_t[r.size() + 1]);
  for (std::size_t e = 0; e < r.size(); ++e) ones[e] = true, int_ones[e] = 1;
  SS_CHECK(GrB_Matrix_new(&g.weights.handle, GrB_FP64, g.n, g.n));
  SS_CHECK(GrB_Matrix_new(&g.pattern.handle, GrB_BOOL, g.n, g.n));
  SS_CHECK(GrB_Matrix_new(&g.undirected.handle, GrB_INT64, g.n, g.n));
  SS_CHECK(GrB_Matrix_build_FP64(g.weights.handle, r.data(), c.data(), values.data(), r.size(), GrB_PLUS_FP64));
  SS_CHECK(GrB_Matrix_build_BOOL(g.pattern.handle, r.data(), c.data(), ones.get(), r.size(), GrB_LOR));
  SS_CHECK(GrB_Matrix_build_INT64(g.undirected.handle, r.data(), c.data(), int_ones.get(), r.size(), GrB_PLUS_INT64));
  SS_CHECK(GrB_Matrix_eWiseAdd_BinaryOp(g.undirected.handle, nullptr, nullptr, GrB_MAX_INT64, g.undirected.handle,
                                        g.undirected.handle, GrB_DESC_T1));
}

std::vector<std::int32_t> suitesparse_bfs_levels(const SsGraph& g, Index source) {
  SsVector frontier, level;
  SS_CHECK(GrB_Vector_new(&frontier.handle, GrB_BOOL, g.n));
  SS_CHECK(GrB_Vector_new(&level.handle, GrB_INT32, g.n));
  SS_CHECK(GrB_Vector_setElement_BOOL(frontier.handle, true, source));
  GrB_Index nvals = 1;
  for (std::int32_t depth = 0; nvals > 0; ++depth) {
    SS_CHECK(GrB_Vector_assign_INT32(level.handle, frontier.handle, nullptr, depth, GrB_ALL, g.n, GrB_DESC_S));
    SS_CHECK(GrB_vxm(frontier.handle, level.handle, nullptr, GrB_LOR_LAND_SEMIRING_BOOL, frontier.handle,
                     g.pattern.handle, GrB_DESC_RSC));
    SS_CHECK(GrB_Vector_nvals(&nvals, frontier.handle));
  }
  std::vector<std::int32_t> result(g.n, -1);
  GrB_Index count = g.n;
  std::vector<GrB_Index> ids(g.n);
  std::vector<std::int32_t> values(g.n);
  SS_CHECK(GrB_Vector_extractTuples_INT32(ids.data(), values.data(), &count, level.handle));
  for (GrB_Index e = 0; e < count; ++e) result[ids[e]] = values[e];
  return result;
}

std::vector<double> suitesparse_distances(const SsGraph& g, Index source) {
  SsVector distance;
  SS_CHECK(GrB_Vector_new(&distance.handle, GrB_FP64, g.n));
  SS_CHECK(GrB_Vector_setElement_FP64(distance.handle, 0.0, source));
  std::vector<GrB_Index> ids(g.n);
  std::vector<double> values(g.n), previous;
  for (Index round = 0; round <= g.n; ++round) {
    SS_CHECK(GrB_vxm(distance.handle, nullptr, GrB_MIN_FP64, GrB_MIN_PLUS_SEMIRING_FP64, distance.handle,
                     g.weights.handle, nullptr));
    GrB_Index count = g.n;
    SS_CHECK(GrB_Vector_extractTuples_FP64(ids.data(), values.data(), &count, distance.handle));
    std::vector<double> current(g.n, INFINITY);
    for (GrB_Index e = 0; e < count; ++e) current[ids[e]] = values[e];
    if (current == previous) break;
    previous = std::move(current);
  }
  return previous;
}

std::vector<Index> suitesparse_components(const SsGraph& g) {
  SsVector label;
  SS_CHECK(GrB_Vector_new(&label.handle, GrB_INT64, g.n));
  std::vector<GrB_Index> ids(g.n);
  std::vector<std::int64_t> values(g.n), previous;
  for (Index v = 0; v < g.n; ++v) ids[v] = v, values[v] = v;
  SS_CHECK(GrB_Vector_build_INT64(label.handle, ids.data(), values.data(), g.n, GrB_PLUS_INT64));
  for (;;) {
    SS_CHECK(GrB_mxv(label.handle, nullptr, GrB_MIN_INT64, GrB_MIN_SECOND_SEMIRING_INT64, g.undirected.handle,
                     label.handle, nullptr));
    GrB_Index count = g.n;
    SS_CHECK(GrB_Vector_extractTuples_INT64(ids.data(), values.data(), &count, label.handle));
    if (values == previous) break;
    previous = values;
  }
  return std::vector<Index>(values.begin(), values.end());
}

}  // namespace

TEST_CASE("SuiteSparse cross-check: BFS, SSSP and CC on the test graphs") {
  start_graphblas();
  for (const char* name : {"lagraph/karate.mtx", "lagraph/west0067.mtx", "lagraph/bcsstk13.mtx",
                           "lagraph/jagmesh7.mtx", "lagraph/LFAT5_two.mtx", "road/berlin-center.mtx",
                           "snap/email-Eu-core.txt", "ldbc/example-directed.properties"}) {
    const std::string graph_name = name;
    CAPTURE(graph_name);
    const auto graph = grb::io::read_graph(data_file(name));
    const auto& a = graph.matrix;
    SsGraph g;
    load(a, g);
    const Index source = a.csr().row_offsets[1] > 0 ? 0 : a.csr().col_indices[0];

    const auto bfs = grb::algorithms::bfs(grb::pattern(a), source, false);
    std::vector<std::int32_t> level(a.nrows(), -1);
    std::vector<Index> ids;
    std::vector<std::int32_t> levels;
    bfs.level.extract_tuples(ids, levels);
    for (std::size_t e = 0; e < ids.size(); ++e) level[ids[e]] = levels[e];
    CHECK(level == suitesparse_bfs_levels(g, source));

    // Matrix Market files may hold negative values (west0067, bcsstk13): SSSP where they do not.
    if (grb::reduce(grb::min_monoid<double>{}, a) >= 0) {
      const auto sssp = grb::algorithms::sssp(a, source);
      std::vector<double> distance(a.nrows(), INFINITY);
      std::vector<double> distances;
      sssp.distance.extract_tuples(ids, distances);
      for (std::size_t e = 0; e < ids.size(); ++e) distance[ids[e]] = distances[e];
      const auto expected = suitesparse_distances(g, source);
      for (Index v = 0; v < a.nrows(); ++v)
        CHECK((distance[v] == expected[v] ||
               std::abs(distance[v] - expected[v]) <= 1e-12 * std::abs(expected[v])));
    }

    const auto labels = grb::algorithms::connected_components(a, false);
    std::vector<Index> label(a.nrows());
    std::vector<Index> label_values;
    labels.extract_tuples(ids, label_values);
    REQUIRE(ids.size() == a.nrows());
    for (std::size_t e = 0; e < ids.size(); ++e) label[ids[e]] = label_values[e];
    CHECK(label == suitesparse_components(g));
  }
}

#else

TEST_CASE("SuiteSparse cross-check") {
  std::printf("SuiteSparse:GraphBLAS not found: cross-check SKIPPED\n");
}

#endif
