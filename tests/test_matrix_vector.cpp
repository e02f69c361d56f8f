// Matrix and Vector objects: build, tuples, elements, formats, backends.
#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include "support.hpp"

TEST_CASE("matrix build combines duplicates and sorts rows") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<double> a(3, 4, backend);
    a.build(std::vector<grb::Index>{2, 0, 2, 0}, std::vector<grb::Index>{1, 3, 1, 0},
            std::vector<double>{1.5, 2.0, 4.0, -1.0}, grb::plus<double>{});
    CHECK(a.nvals() == 3);
    std::vector<grb::Index> rows, cols;
    std::vector<double> values;
    a.extract_tuples(rows, cols, values);
    CHECK(rows == std::vector<grb::Index>{0, 0, 2});
    CHECK(cols == std::vector<grb::Index>{0, 3, 1});
    CHECK(values == std::vector<double>{-1.0, 2.0, 5.5});
    CHECK(a.extract_element(2, 1) == 5.5);
    CHECK_FALSE(a.extract_element(1, 1).has_value());
    CHECK_THROWS_AS(a.extract_element(3, 0), grb::IndexOutOfBounds);
  }
}

TEST_CASE("matrix build rejects duplicates without an operator, and out-of-range ids") {
  grb::Matrix<int> a(2, 2, grb::Backend::cpu);
  CHECK_THROWS_AS(a.build(std::vector<grb::Index>{0, 0}, std::vector<grb::Index>{1, 1},
                          std::vector<int>{1, 2}),
                  grb::InvalidValue);
  grb::Matrix<int> b(2, 2, grb::Backend::cpu);
  CHECK_THROWS_AS(b.build(std::vector<grb::Index>{0}, std::vector<grb::Index>{2},
                          std::vector<int>{1}),
                  grb::IndexOutOfBounds);
}

TEST_CASE("matrix transpose view, set and remove element, resize") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<bool> a(2, 3, backend);
    a.build(std::vector<grb::Index>{0, 1, 1}, std::vector<grb::Index>{2, 0, 2},
            std::vector<bool>{true, true, false});
    const auto& t = a.csc();
    CHECK(t.nrows == 3);
    auto host = t.to(grb::Backend::cpu);
    CHECK(std::vector<grb::Offset>(host.row_offsets.begin(), host.row_offsets.end()) ==
          std::vector<grb::Offset>{0, 1, 1, 3});
    a.set_element(0, 0, true);
    CHECK(a.nvals() == 4);
    CHECK(a.csc().nvals() == 4);
    a.remove_element(1, 2);
    CHECK(a.nvals() == 3);
    a.resize(1, 3);
    CHECK(a.nvals() == 2);
    a.clear();
    CHECK(a.nvals() == 0);
    CHECK(a.nrows() == 1);
  }
}

TEST_CASE("a matrix marked symmetric is its own transpose until its entries change") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Matrix<double> a(3, 3, backend);
    a.build(std::vector<grb::Index>{0, 1, 1, 2}, std::vector<grb::Index>{1, 0, 2, 1},
            std::vector<double>{5, 5, 7, 7});
    CHECK_FALSE(a.symmetric());
    CHECK(&a.csc() != &a.csr());
    a.mark_symmetric();
    CHECK(&a.csc() == &a.csr());
    // Copies, moves between backends and the pattern keep the promise.
    CHECK(grb::Matrix<double>(a).symmetric());
    CHECK(a.to(grb::Backend::cpu).symmetric());
    CHECK(grb::pattern(a).symmetric());
    // Any change of the entries withdraws it (an edit may break the symmetry).
    grb::Matrix<double> changed = a;
    changed.set_element(0, 1, 6.0);
    CHECK_FALSE(changed.symmetric());
    CHECK(changed.csc().to(grb::Backend::cpu).nvals() == 4);
    grb::Matrix<double> grown = a;
    grown.set_element(0, 2, 1.0);
    CHECK_FALSE(grown.symmetric());
    CHECK(grown.csc().nrows == 3);
    grb::Matrix<double> cleared = a;
    cleared.clear();
    CHECK_FALSE(cleared.symmetric());
    CHECK_THROWS_AS(grb::Matrix<double>(2, 3, backend).mark_symmetric(), grb::DimensionMismatch);
  }
}

TEST_CASE("vector set_element: a first entry, a new one and an overwrite, counted once") {
  // On cuda a dense vector's element is written by a kernel, the count changing on the device;
  // a sparse vector's entries are copied on the device with the element overwritten or
  // inserted in order.
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<std::int64_t> big(1000, backend);
    big.set_element(999, -5);
    CHECK(big.format() == grb::VectorFormat::sparse);
    CHECK(big.nvals() == 1);
    big.set_element(3, 7);  // a sparse vector's second entry, in order
    big.set_element(998, 8);  // between two
    big.set_element(3, 9);    // an overwrite of the first
    CHECK(big.format() == grb::VectorFormat::sparse);
    CHECK(big.nvals() == 3);
    std::vector<grb::Index> big_indices;
    std::vector<std::int64_t> big_values;
    big.extract_tuples(big_indices, big_values);
    CHECK(big_indices == std::vector<grb::Index>{3, 998, 999});
    CHECK(big_values == std::vector<std::int64_t>{9, 8, -5});
    big.set_element(3, 7);
    big.make_dense();
    big.set_element(999, 11);  // an overwrite: no new entry
    big.set_element(500, 12);
    big.set_element(500, 13);
    CHECK(big.nvals() == 4);
    CHECK(big.extract_element(998) == 8);
    CHECK(big.extract_element(999) == 11);
    CHECK(big.extract_element(500) == 13);
    CHECK(big.extract_element(3) == 7);
    // A size below dense_ratio is stored dense from its first entry.
    grb::Vector<double> tiny(4, backend);
    tiny.set_element(2, 0.5);
    CHECK(tiny.format() == grb::VectorFormat::dense);
    tiny.set_element(0, 1.5);
    CHECK(tiny.nvals() == 2);
    std::vector<grb::Index> indices;
    std::vector<double> values;
    tiny.extract_tuples(indices, values);
    CHECK(indices == std::vector<grb::Index>{0, 2});
    CHECK(values == std::vector<double>{1.5, 0.5});
    CHECK_THROWS_AS(tiny.set_element(4, 1.0), grb::IndexOutOfBounds);
  }
}

TEST_CASE("vector clear_dense empties a vector and stores it dense, keeping dense storage") {
  GRB_FOR_EACH_BACKEND(backend) {
    // A dense vector with entries and a pending in-place count: emptied, its arrays kept.
    grb::Vector<std::int32_t> v(1000, backend);
    v.make_dense();
    v.set_element(3, 30);
    v.set_element(999, 9);
    CHECK(v.nvals() == 2);
    const void* kept = v.values().data();
    v.set_element(500, 5);  // its count changes on the device, not yet read back
    v.clear_dense();
    CHECK(v.nvals() == 0);
    CHECK(v.format() == grb::VectorFormat::dense);
    CHECK(v.values().data() == kept);
    CHECK_FALSE(v.extract_element(3).has_value());
    CHECK_FALSE(v.extract_element(500).has_value());
    v.set_element(999, 1);  // absent again, so counted again
    v.set_element(0, 2);
    CHECK(v.nvals() == 2);
    std::vector<grb::Index> indices;
    std::vector<std::int32_t> values;
    v.extract_tuples(indices, values);
    CHECK(indices == std::vector<grb::Index>{0, 999});
    CHECK(values == std::vector<std::int32_t>{2, 1});
    // A sparse vector becomes an empty dense one.
    grb::Vector<double> sparse(1000, backend);
    sparse.set_element(7, 1.0);
    REQUIRE(sparse.format() == grb::VectorFormat::sparse);
    sparse.clear_dense();
    CHECK(sparse.nvals() == 0);
    CHECK(sparse.format() == grb::VectorFormat::dense);
    CHECK_FALSE(sparse.extract_element(7).has_value());
  }
}

TEST_CASE("vector extract_dense gives every position, absent ones filled") {
  GRB_FOR_EACH_BACKEND(backend) {
    // Dense, with writes still queued (set_element on a dense vector: an in-place change).
    grb::Vector<std::int32_t> dense(1000, backend);
    dense.clear_dense();
    dense.set_element(0, 5);
    dense.set_element(999, 7);
    std::vector<std::int32_t> levels{1, 2, 3};  // replaced whole
    dense.extract_dense(levels, -1);
    std::vector<std::int32_t> expected(1000, -1);
    expected[0] = 5;
    expected[999] = 7;
    CHECK(levels == expected);
    // Sparse, its entries out of index order (as a product leaves them).
    grb::Vector<grb::Index> sparse(50, backend);
    const std::vector<grb::Index> at{40, 2, 17}, from{4, 0, 1};
    using IndexArray = grb::detail::Array<grb::Index>;
    grb::detail::Storage::adopt_unsorted(sparse, IndexArray::from(at, backend),
                                         IndexArray::from(from, backend));
    std::vector<grb::Index> parents;
    sparse.extract_dense(parents, grb::no_index);
    std::vector<grb::Index> expected_parents(50, grb::no_index);
    expected_parents[40] = 4;
    expected_parents[2] = 0;
    expected_parents[17] = 1;
    CHECK(parents == expected_parents);
    // Booleans (std::vector<bool> has no contiguous storage), and an empty vector.
    grb::Vector<bool> flags(5, backend);
    flags.set_element(3, true);
    std::vector<bool> got;
    flags.extract_dense(got, false);
    CHECK(got == std::vector<bool>{false, false, false, true, false});
    grb::Vector<double> empty(0, backend);
    std::vector<double> none{1.0};
    empty.extract_dense(none, 0.0);
    CHECK(none.empty());
  }
}

TEST_CASE("vector formats convert by density and keep their entries") {
  GRB_FOR_EACH_BACKEND(backend) {
    grb::Vector<float> v(100, backend);
    v.build(std::vector<grb::Index>{7, 3}, std::vector<float>{1.f, 2.f});
    CHECK(v.format() == grb::VectorFormat::sparse);
    for (grb::Index i = 10; i < 30; ++i) v.set_element(i, float(i));
    CHECK(v.nvals() == 22);
    CHECK(v.format() == grb::VectorFormat::dense);
    v.make_sparse();
    CHECK(v.extract_element(3) == 2.f);
    v.make_dense();
    CHECK(v.extract_element(29) == 29.f);
    CHECK_FALSE(v.extract_element(99).has_value());
    v.remove_element(3);
    CHECK(v.nvals() == 21);
    std::vector<grb::Index> idx;
    std::vector<float> val;
    v.extract_tuples(idx, val);
    CHECK(idx.front() == 7);
    v.resize(8);
    CHECK(v.nvals() == 1);
  }
}
