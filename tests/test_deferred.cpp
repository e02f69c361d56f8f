// Deferred work (grb/deferred.hpp): what completes it, what a hold keeps, where errors surface.
// The cuda side (fused and queued-behind assigns, element writes, chained pushes) is tested in
// test_cuda_fusion.cpp and test_cuda_deferred_writes.cpp.
#include <doctest/doctest.h>

#include <grb/grb.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace {

using grb::Backend;
using grb::Index;
using grb::Offset;

/// Deferred work that counts its launches and finishes (and can fail), for the rules that hold
/// on every backend. It writes `target`, or (null) every object.
class Probe final : public grb::detail::Deferred {
 public:
  Probe(int& runs, bool fails, const void* target = nullptr, std::vector<int>* order = nullptr,
        int id = 0, bool results = true)
      : runs_(runs), fails_(fails), target_(target), order_(order), id_(id), results_(results) {}
  void launch() override {
    launched = true;
    if (!results_ && order_) order_->push_back(id_);  // nothing to finish: launching is all
  }
  void finish() override {
    CHECK(launched);
    ++runs_;
    if (order_) order_->push_back(id_);
    if (fails_) throw std::runtime_error("probe failed");
  }
  bool writes(const void* object) const override { return !target_ || object == target_; }
  bool has_results() const override { return results_; }
  bool launched = false;

 private:
  int& runs_;
  bool fails_;
  const void* target_;
  std::vector<int>* order_;
  int id_;
  bool results_;
};

void queue_probe(int& runs, bool fails = false) {
  grb::detail::defer(std::make_unique<Probe>(runs, fails));
  REQUIRE(grb::detail::pending_work() != nullptr);
}

}  // namespace

TEST_CASE("deferred work completes before any reader, move or destruction") {
  int runs = 0;
  grb::Vector<int> v(10, Backend::cpu);
  v.set_element(3, 1);
  SUBCASE("nvals") {
    queue_probe(runs);
    CHECK(v.nvals() == 1);
    CHECK(runs == 1);
  }
  SUBCASE("format, values, the unsorted views") {
    queue_probe(runs);
    (void)v.format();
    queue_probe(runs);
    (void)v.values();
    queue_probe(runs);
    (void)v.unsorted_indices();
    CHECK(runs == 3);
  }
  SUBCASE("a move, a copy and a destruction") {
    queue_probe(runs);
    grb::Vector<int> moved = std::move(v);
    queue_probe(runs);
    grb::Vector<int> copy = moved;
    queue_probe(runs);
    { grb::Vector<int> gone(4, Backend::cpu); }
    CHECK(runs == 3);
  }
  SUBCASE("a matrix replaced or destroyed") {
    queue_probe(runs);
    { grb::Matrix<int> gone(3, 3, Backend::cpu); }
    queue_probe(runs);
    grb::Matrix<int> a(2, 2, Backend::cpu);
    a = grb::Matrix<int>(3, 3, Backend::cpu);
    CHECK(runs == 2);
  }
  SUBCASE("grb::wait and a change of mode") {
    queue_probe(runs);
    grb::wait();
    queue_probe(runs);
    grb::set_mode(grb::Mode::blocking);
    CHECK(grb::mode() == grb::Mode::blocking);
    grb::set_mode(grb::Mode::nonblocking);
    CHECK(runs == 2);
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work: a hold keeps it pending; an error in a destructor surfaces later") {
  int runs = 0;
  grb::Vector<int> v(10, Backend::cpu);
  queue_probe(runs);
  {
    const grb::detail::DeferredHold hold;
    CHECK(v.nvals() == 0);
    CHECK(runs == 0);
  }
  CHECK(v.nvals() == 0);
  CHECK(runs == 1);
  queue_probe(runs, /*fails=*/true);
  { grb::Vector<int> gone(4, Backend::cpu); }  // runs the probe, which throws: kept
  CHECK(runs == 2);
  CHECK_THROWS_WITH_AS(v.nvals(), "probe failed", std::runtime_error);
  CHECK(v.nvals() == 0);  // thrown once
  queue_probe(runs, /*fails=*/true);
  CHECK_THROWS_AS(grb::wait(), std::runtime_error);
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work: nvals waits only for the work that writes its vector") {
  int runs = 0;
  std::vector<int> order;
  grb::Vector<int> v(10, Backend::cpu), w(10, Backend::cpu), x(10, Backend::cpu);
  SUBCASE("pending work that leaves the vector alone is launched, not waited for") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &w));
    CHECK(v.nvals() == 0);
    CHECK(runs == 0);
    CHECK(grb::detail::pending_work() == nullptr);  // launched
    REQUIRE(grb::detail::has_deferred_work());
    CHECK(w.nvals() == 0);
    CHECK(runs == 1);
  }
  SUBCASE("pending work that writes it completes everything") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v));
    CHECK(v.nvals() == 0);
    CHECK(runs == 1);
  }
  SUBCASE("work queued behind other work finishes in order, as far as the vector needs") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2));
    CHECK(grb::detail::pending_work() != nullptr);  // the second; the first is launched
    CHECK(v.nvals() == 0);                          // launches the second, finishes the first
    CHECK(order == std::vector<int>{1});
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &x, &order, 3));
    CHECK(x.nvals() == 0);  // written by the newest: everything, oldest first
    CHECK(order == std::vector<int>{1, 2, 3});
  }
  SUBCASE("any other reader finishes everything, oldest first") {
    grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
    grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2));
    (void)x.format();
    CHECK(order == std::vector<int>{1, 2});
  }
  SUBCASE("an error in launched work surfaces where it is waited for") {
    grb::detail::defer(std::make_unique<Probe>(runs, true, &w));
    CHECK(v.nvals() == 0);
    CHECK_THROWS_WITH_AS(w.nvals(), "probe failed", std::runtime_error);
  }
  CHECK_FALSE(grb::detail::has_deferred_work());
}

TEST_CASE("deferred work without results: skipped by newest_work, dropped once launched") {
  int runs = 0;
  std::vector<int> order;
  grb::Vector<int> v(10, Backend::cpu), w(10, Backend::cpu);
  grb::detail::defer(std::make_unique<Probe>(runs, false, &v, &order, 1));
  grb::detail::Deferred* first = grb::detail::pending_work();
  grb::detail::defer_behind(std::make_unique<Probe>(runs, false, &w, &order, 2, false));
  // The newest work with results is the first, launched; the second waits, pending.
  CHECK(grb::detail::newest_work() == first);
  CHECK(grb::detail::pending_work() != first);
  SUBCASE("a reader of another vector launches it, and it is gone") {
    CHECK(v.nvals() == 0);  // launches the second, finishes the first
    CHECK(order == std::vector<int>{2, 1});
    CHECK_FALSE(grb::detail::has_deferred_work());
  }
  SUBCASE("a reader of its target launches everything") {
    CHECK(w.nvals() == 0);
    CHECK(order == std::vector<int>{2, 1});
    CHECK(runs == 1);  // only the first had anything to finish
    CHECK_FALSE(grb::detail::has_deferred_work());
  }
}
