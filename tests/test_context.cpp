// grb::Context (grb/context.hpp): the current context per thread and its scopes, the context
// objects record, copies between contexts, each context's own queue and mode; on a GPU, the
// ContextMismatch error, objects that outlive their context, a caller's stream, a second device
// where there is one, and two host threads running BFS, SSSP and CC at once, each in its own
// context, with the results of one thread. The cuda cases are skipped, visibly, without a GPU.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <grb/generate.hpp>
#include <grb/grb.hpp>

#include "bfs/engine.hpp"
#include "cc/engine.hpp"
#include "sssp/engine.hpp"
#include "validate/validate.hpp"

#if GRB_WITH_CUDA && defined(__CUDACC__)
#include <cuda_runtime.h>
#define GRB_TEST_STREAMS 1
#else
#define GRB_TEST_STREAMS 0
#endif

namespace {

using grb::Index;

bool have_gpu(const char* test) {
  if (grb::cuda_available()) return true;
  std::printf("test_context: %s: SKIPPED (no GPU on this machine)\n", test);
  return false;
}

/// A small vector on `backend`, made in the current context.
grb::Vector<int> numbers(Index size, grb::Backend backend) {
  grb::Vector<int> v(size, grb::Backend::cpu);
  std::vector<Index> indices;
  std::vector<int> values;
  for (Index i = 0; i < size; i += 3) indices.push_back(i), values.push_back(int(i) + 1);
  v.build(indices, values);
  return backend == grb::Backend::cpu ? v : v.to(backend);
}

std::vector<int> dense(const grb::Vector<int>& v) {
  std::vector<int> values;
  v.extract_dense(values, 0);
  return values;
}

}  // namespace

TEST_CASE("the current context: one per thread; scopes nest and restore it") {
  const grb::Context outer = grb::Context::current();
  CHECK(grb::Context::current() == outer);
  grb::Context other_thread = outer;
  std::thread([&] { other_thread = grb::Context::current(); }).join();
  CHECK_FALSE(other_thread == outer);

  grb::Context first(outer.device());
  grb::Context second(outer.device());
  CHECK_FALSE(first == second);
  CHECK(first.device() == outer.device());
  {
    const grb::ContextScope scope(first);
    CHECK(grb::Context::current() == first);
    {
      const grb::ContextScope inner(second);
      CHECK(grb::Context::current() == second);
    }
    CHECK(grb::Context::current() == first);
  }
  CHECK(grb::Context::current() == outer);
}

TEST_CASE("objects record their context; a copy is made in the current one") {
  grb::Context context;
  grb::Vector<int> made_inside;
  {
    const grb::ContextScope scope(context);
    made_inside = numbers(10, grb::Backend::cpu);
    CHECK(made_inside.context() == context);
  }
  // Read outside its scope: the object's own context serves it.
  CHECK(made_inside.nvals() == 4);
  const grb::Vector<int> copy = made_inside;
  CHECK(copy.context() == grb::Context::current());
  CHECK(dense(copy) == dense(made_inside));
  grb::Matrix<int> matrix(3, 3, grb::Backend::cpu);
  CHECK(matrix.context() == grb::Context::current());
}

TEST_CASE("each context has its own mode") {
  grb::Context context;
  const grb::Mode before = grb::mode();
  {
    const grb::ContextScope scope(context);
    grb::set_mode(grb::Mode::blocking);
    CHECK(grb::mode() == grb::Mode::blocking);
  }
  CHECK(grb::mode() == before);
}

TEST_CASE("a context on a device that does not exist is refused") {
  CHECK_THROWS_AS(grb::Context(1000), grb::InvalidValue);
  CHECK_THROWS_AS(grb::Context(-1), grb::InvalidValue);
}

TEST_CASE("cuda: an operation on objects of another context is a ContextMismatch") {
  if (!have_gpu("ContextMismatch")) return;
  const Index n = 100;
  const grb::Vector<int> here = numbers(n, grb::Backend::cuda);
  grb::Context context;
  const grb::ContextScope scope(context);
  grb::Vector<int> out(n, grb::Backend::cuda);
  CHECK_THROWS_AS(grb::ewise_add(out, grb::no_mask, grb::no_accum, grb::plus<int>{}, here, here),
                  grb::ContextMismatch);
  // Copied into this context, it serves.
  const grb::Vector<int> copy = here;
  grb::ewise_add(out, grb::no_mask, grb::no_accum, grb::plus<int>{}, copy, copy);
  std::vector<int> expected = dense(here);
  for (int& value : expected) value *= 2;
  CHECK(dense(out) == expected);
}

TEST_CASE("cuda: objects outlive their context and are read outside its scope") {
  if (!have_gpu("objects outliving their context")) return;
  const Index n = 1000;
  grb::Vector<int> sum;
  {
    grb::Context context;
    const grb::ContextScope scope(context);
    const grb::Vector<int> v = numbers(n, grb::Backend::cuda);
    sum = grb::Vector<int>(n, grb::Backend::cuda);
    // Left queued (the non-blocking mode): the scope and the last handle end first.
    grb::ewise_add(sum, grb::no_mask, grb::no_accum, grb::plus<int>{}, v, v);
  }
  std::vector<int> expected = dense(numbers(n, grb::Backend::cpu));
  for (int& value : expected) value *= 2;
  CHECK(dense(sum) == expected);
}

#if GRB_TEST_STREAMS
TEST_CASE("cuda: a context on the caller's stream") {
  if (!have_gpu("a caller's stream")) return;
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  {
    const grb::Context context = grb::Context::on_stream(grb::Context::current().device(), stream);
    CHECK(context.stream() == stream);
    const grb::ContextScope scope(context);
    const grb::Vector<int> v = numbers(5000, grb::Backend::cuda);
    grb::Vector<int> sum(5000, grb::Backend::cuda);
    grb::ewise_add(sum, grb::no_mask, grb::no_accum, grb::plus<int>{}, v, v);
    context.wait();
    CHECK(cudaStreamQuery(stream) == cudaSuccess);
    CHECK(sum.nvals() == v.nvals());
  }
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("cuda: a context on a second device") {
  int devices = 0;
  if (!have_gpu("a second device") || cudaGetDeviceCount(&devices) != cudaSuccess) return;
  if (devices < 2) {
    std::printf("test_context: a second device: SKIPPED (one GPU on this machine)\n");
    return;
  }
  const int before = grb::Context::current().device();
  grb::Context context(1);
  grb::Vector<int> v;
  {
    const grb::ContextScope scope(context);
    int device = -1;
    cudaGetDevice(&device);
    CHECK(device == 1);
    v = numbers(3000, grb::Backend::cuda);
  }
  int device = -1;
  cudaGetDevice(&device);
  CHECK(device == before);
  cudaPointerAttributes attributes{};
  REQUIRE(cudaPointerGetAttributes(&attributes, v.unsorted_values().data()) == cudaSuccess);
  CHECK(attributes.device == 1);
  CHECK(dense(v) == dense(numbers(3000, grb::Backend::cpu)));
}
#endif

namespace {

/// What one thread computes on a graph: BFS levels, SSSP distances and CC labels, each with the
/// linear-algebra engine and a hand-written one, from a few sources (results validated).
struct Answers {
  std::vector<std::vector<std::int32_t>> levels;
  std::vector<std::vector<double>> distances;
  std::vector<std::vector<Index>> labels;
  std::vector<std::string> failures;
};

Answers compute(const grb::Matrix<double>& weighted, const std::vector<Index>& sources) {
  Answers answers;
  const grb::Matrix<double> graph = weighted;  // this thread's own copy, in its context
  const grb::Matrix<bool> pattern = grb::pattern(graph);
  const auto note = [&](const std::string& what, const grb::validate::Result& valid) {
    if (!valid.ok) answers.failures.push_back(what + ": " + valid.message);
  };
  for (const char* name : {"linalg", "direction-optimized"}) {
    auto engine = grb::bfs::find_engine(name, grb::Backend::cuda).make();
    engine->prepare(pattern);
    for (Index source : sources) {
      engine->run(source, {});
      grb::bfs::Result result = engine->result();
      note(std::string("bfs ") + name,
           grb::validate::bfs(pattern, source, std::span<const std::int32_t>(result.level),
                              std::span<const Index>(result.parent)));
      answers.levels.push_back(std::move(result.level));
    }
  }
  for (const char* name : {"bellman-ford", "near-far-persistent"}) {
    auto engine = grb::sssp::find_engine(name, grb::Backend::cuda).make();
    engine->prepare(graph);
    for (Index source : sources) {
      engine->run(source, {});
      grb::sssp::Result result = engine->result();
      note(std::string("sssp ") + name,
           grb::validate::sssp(graph, source, std::span<const double>(result.distance),
                               std::span<const Index>(result.parent)));
      answers.distances.push_back(std::move(result.distance));
    }
  }
  for (const char* name : {"fastsv", "hook-jump"}) {
    auto engine = grb::cc::find_engine(name, grb::Backend::cuda).make();
    engine->prepare(pattern);
    engine->run();
    grb::cc::Result result = engine->result();
    note(std::string("cc ") + name,
         grb::validate::components(pattern, std::span<const Index>(result.label)));
    answers.labels.push_back(std::move(result.label));
  }
  return answers;
}

}  // namespace

TEST_CASE("cuda: two threads, each in its own context, run BFS, SSSP and CC at once") {
  if (!have_gpu("two threads with their own contexts")) return;
  grb::generate::Options options;
  options.seed = 7;
  grb::Matrix<double> graph = grb::generate::kronecker(14, 8, options);
  const std::vector<Index> sources{0, 1, graph.nrows() / 2};
  const Answers alone = compute(graph, sources);
  for (const std::string& failure : alone.failures) FAIL_CHECK(failure);

  constexpr int threads = 2;
  std::vector<Answers> answers(threads);
  std::vector<std::string> errors(threads);
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      try {
        const grb::Context context;
        const grb::ContextScope scope(context);
        answers[t] = compute(graph, sources);
        context.wait();
      } catch (const std::exception& error) {
        errors[t] = error.what();
      }
    });
  }
  for (std::thread& thread : running) thread.join();
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(errors[t].empty());
    for (const std::string& failure : answers[t].failures) FAIL_CHECK(failure);
    CHECK(answers[t].levels == alone.levels);
    CHECK(answers[t].distances == alone.distances);
    CHECK(answers[t].labels == alone.labels);
  }
}
