// FramePool: the blocks of coroutine frames, kept per thread for the next
// frame of the same size. Tokio has no need of one: a Rust future is a
// value, nested in its caller's, and only a spawn allocates (its task's
// Box). A C++ coroutine's frame is allocated each time the coroutine is
// called, so a helper coroutine on a hot path (write_all, read_exact, a
// timeout) costs a malloc and a free per call. This cache turns them into
// a pop and a push on a list of this thread's.
//
// Blocks come in sizes of 64 bytes up to 2 KiB; larger ones go to
// operator new and delete. A thread keeps at most 64 free blocks of each
// size: a block freed on a thread whose list is full (one that frees what
// another allocates, say) goes back to operator delete, so memory never
// piles up where it is not used again. What a thread keeps is freed when
// it exits. A block never moves between threads while free, so the lists
// need no atomics.
//
// Under AddressSanitizer there is no cache: a frame used after it was
// freed must be reported, not quietly recycled. The model checker's build
// has none either: nothing in it is about speed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

namespace rt::detail {

#if defined(__SANITIZE_ADDRESS__) || defined(RT_MODEL)
inline constexpr bool kFramePool = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kFramePool = false;
#else
inline constexpr bool kFramePool = true;
#endif
#else
inline constexpr bool kFramePool = true;
#endif

class FramePool {
 public:
  static constexpr std::size_t granule = 64;
  static constexpr std::size_t sizes = 32;  // 64 bytes to 2 KiB
  static constexpr std::uint32_t kept = 64;  // free blocks of one size, per thread

  // Off: every block is operator new's and goes back to operator delete,
  // as before the pool (the tests that count allocations turn it off).
  static void set_enabled(bool on) { enabled_.store(on, std::memory_order_relaxed); }

  static void* allocate(std::size_t bytes) {
    std::size_t size = size_of(bytes);
    if (!used(size)) return ::operator new(bytes);
    Lists& lists = lists_;
    if (Free* block = lists.head[size]) {
      lists.head[size] = block->next;
      --lists.count[size];
      return block;
    }
    return ::operator new((size + 1) * granule);  // the size's full block, to be reused
  }

  // `bytes`: what allocate was asked for.
  static void release(void* block, std::size_t bytes) noexcept {
    std::size_t size = size_of(bytes);
    Lists& lists = lists_;
    if (!used(size) || lists.gone || lists.count[size] >= kept) return ::operator delete(block);
    if (!lists.reaped) keep_until_exit(lists);
    lists.head[size] = ::new (block) Free{lists.head[size]};
    ++lists.count[size];
  }

 private:
  struct Free {
    Free* next;
  };
  // Plain data, zero before the thread's first frame: reaching it is one
  // load from the thread's own segment, with no check that it was made.
  struct Lists {
    Free* head[sizes];
    std::uint32_t count[sizes];
    bool reaped;  // a Reaper frees these when the thread ends
    bool gone;    // it has: a frame freed after that is simply freed
  };
  static constinit inline thread_local Lists lists_{};

  // What a thread keeps is freed as it ends, by a thread_local with a
  // destructor, made the first time the thread keeps a block.
  struct Reaper {
    ~Reaper() {
      lists_.gone = true;
      for (Free*& first : lists_.head)
        while (Free* block = first) {
          first = block->next;
          ::operator delete(block);
        }
    }
  };
  static void keep_until_exit(Lists& lists) {
    static thread_local Reaper reaper;
    (void)reaper;
    lists.reaped = true;
  }

  // relaxed: a switch thrown before the threads that read it start.
  static bool used(std::size_t size) {
    return kFramePool && size < sizes && enabled_.load(std::memory_order_relaxed);
  }
  static inline std::atomic<bool> enabled_{true};

  // Size k holds blocks of (k + 1) * 64 bytes.
  static std::size_t size_of(std::size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / granule; }
};

}  // namespace rt::detail
