// The examples of the book's C++ coroutine primer (book/src/coroutines.md
// includes them by anchor). `meson test` builds and runs this program, so
// what the primer shows compiles and does what the page says: each example
// records what happened in `trace`, and main() checks it.
#include <coroutine>
#include <cstdio>
#include <string>
#include <utility>

namespace {

std::string trace;  // what happened, in order

// ANCHOR: resumable
// A coroutine type driven by hand. The promise decides how the coroutine
// starts and ends; the handle resumes it, asks whether it is done, and
// destroys it.
struct Resumable {
  struct promise_type {
    Resumable get_return_object() {
      return Resumable{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }  // lazy: nothing runs yet
    std::suspend_always final_suspend() noexcept { return {}; }    // keep the frame after the end
    void return_void() noexcept {}
    void unhandled_exception() noexcept { trace += "[exception]"; }
  };

  explicit Resumable(std::coroutine_handle<promise_type> h) : handle(h) {}
  Resumable(Resumable&& other) noexcept : handle(std::exchange(other.handle, {})) {}
  Resumable& operator=(Resumable&&) = delete;
  ~Resumable() {
    if (handle) handle.destroy();  // frees the frame; the locals' destructors run
  }

  std::coroutine_handle<promise_type> handle;
};

Resumable count_to(int n) {
  for (int i = 1; i <= n; ++i) {
    trace += std::to_string(i);
    co_await std::suspend_always{};  // stop here; the next resume() continues
  }
}
// ANCHOR_END: resumable

void drive_by_hand() {
  // ANCHOR: drive
  Resumable counter = count_to(2);  // allocates the frame; the body has not run
  trace += "created;";
  counter.handle.resume();          // runs to the first co_await: "1"
  counter.handle.resume();          // "2"
  counter.handle.resume();          // leaves the loop, stops at final_suspend
  trace += counter.handle.done() ? ";done" : ";not done";
  // ANCHOR_END: drive
}

// ANCHOR: awaiters
// A one-slot mailbox: whoever holds a suspended coroutine's handle must
// resume it some day. Here main() does.
std::coroutine_handle<> mailbox;

// await_suspend returning void: always suspend. The handle now belongs to
// whoever await_suspend gave it to.
struct PostToMailbox {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> self) noexcept { mailbox = self; }
  void await_resume() const noexcept {}
};

// await_suspend returning bool: decide at the last moment. false means "do
// not suspend after all": the coroutine goes on at once.
struct SuspendIf {
  bool suspend;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> self) noexcept {
    if (suspend) mailbox = self;
    return suspend;
  }
  void await_resume() const noexcept {}
};

// await_suspend returning a handle: suspend, then resume that handle at
// once, as a tail call (symmetric transfer). Returning
// std::noop_coroutine() resumes nobody: control goes back to whoever
// called resume().
struct TransferTo {
  std::coroutine_handle<> next;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> self) noexcept {
    mailbox = self;
    return next;
  }
  void await_resume() const noexcept {}
};
// ANCHOR_END: awaiters

// ANCHOR: using_awaiters
Resumable uses_awaiters(std::coroutine_handle<> partner) {
  trace += "a";
  co_await PostToMailbox{};      // suspends; main() resumes it from the mailbox
  trace += "b";
  co_await SuspendIf{false};     // does not suspend: "c" follows at once
  trace += "c";
  co_await TransferTo{partner};  // suspends, and the partner runs right now
  trace += "e";
}

Resumable partner() {
  trace += "d";
  co_return;  // stops at final_suspend: control returns to main's resume()
}
// ANCHOR_END: using_awaiters

void run_awaiters() {
  // ANCHOR: run_awaiters
  Resumable other = partner();
  Resumable first = uses_awaiters(other.handle);
  first.handle.resume();                 // "a", then it waits in the mailbox
  trace += "|";
  std::exchange(mailbox, {}).resume();   // "b", "c", then the partner's "d"
  trace += "|";
  std::exchange(mailbox, {}).resume();   // "e": first is done
  // ANCHOR_END: run_awaiters
  trace += first.handle.done() && other.handle.done() ? ";both done" : ";not done";
}

int check(const char* what, const std::string& expected) {
  bool ok = trace == expected;
  std::printf("%s %s: %s%s%s\n", ok ? "ok  " : "FAIL", what, trace.c_str(),
              ok ? "" : ", expected ", ok ? "" : expected.c_str());
  trace.clear();
  return ok ? 0 : 1;
}

}  // namespace

int main() {
  int failures = 0;
  drive_by_hand();
  failures += check("a coroutine driven by hand", "created;12;done");
  run_awaiters();
  failures += check("void, bool and handle from await_suspend", "a|bcd|e;both done");
  return failures == 0 ? 0 : 1;
}
