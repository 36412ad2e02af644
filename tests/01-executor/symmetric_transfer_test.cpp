// Chapter 01: awaiting a coroutine is a symmetric transfer, so a chain of
// awaits as deep as you like runs in the stack of one call.
//
// The chain runs on a thread with a small stack. Resuming the child with a
// call and returning noop_coroutine() (asymmetric transfer) takes tens of
// bytes of stack per level: 50,000 levels are megabytes, and the thread's
// stack overflows (a crash, on every run). Returning the child's handle
// from await_suspend lets the compiler jump to it instead, in constant
// stack.
#include <pthread.h>

#include <cstddef>

#include "flavours.hpp"
#include "graded.hpp"
#include "rt/rt.hpp"
#include "small_tasks.hpp"

namespace {

// g++ 12 does not turn symmetric transfer into a jump in code built with
// -fsanitize=address or -fsanitize=thread (clang does): there, even the
// reference runtime takes about 100 to 600 bytes per level (and
// ThreadSanitizer's own record of the calls overflows past some 60,000),
// so the chain is shorter, its stack big enough for that, and only the
// result is checked. Every other build, the mutation check's included,
// runs 50,000 levels in 512 KiB.
#if !defined(__clang__) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
constexpr int kDepth = 5000;
constexpr std::size_t kStackBytes = std::size_t{64} << 20;
#else
constexpr int kDepth = 50000;
constexpr std::size_t kStackBytes = std::size_t{512} << 10;
#endif

struct Run {
  rt::Runtime* runtime;
  int result = -1;
};

void* drive_chain(void* argument) {
  auto* run = static_cast<Run*>(argument);
  run->result = run->runtime->block_on(rt_test::depth(kDepth));
  return nullptr;
}

// Runs block_on(rt_test::depth(kDepth)) on a thread whose stack is kStackBytes.
int run_on_small_stack(rt::Runtime& runtime) {
  Run run{&runtime};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kStackBytes);
  pthread_t thread;
  int created = pthread_create(&thread, &attributes, drive_chain, &run);
  pthread_attr_destroy(&attributes);
  REQUIRE(created == 0);
  pthread_join(thread, nullptr);
  return run.result;
}

}  // namespace

TEST_CASE("a deep chain of awaited coroutines runs in a small stack" * POINTS(2)) {
  rt_test::on_each_runtime([](rt::Runtime& runtime) {
    CHECK(run_on_small_stack(runtime) == kDepth);
  });
}
