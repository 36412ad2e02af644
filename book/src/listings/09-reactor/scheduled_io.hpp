// What a task saw when it found a socket ready: the tick says which
// events it has seen, so that clearing forgets those and no others.
struct ReadyEvent {
  std::uint32_t tick = 0;
  io::Ready ready = io::none;
  bool is_shutdown = false;
};

class ScheduledIo {
 public:
  // The word's fields.
  static constexpr std::uint32_t readiness_mask = 0xffffu;
  static constexpr unsigned tick_shift = 16;
  static constexpr std::uint32_t tick_mask = 0x7fffu;  // 15 bits, after the shift
  static constexpr std::uint32_t shutdown_bit = 1u << 31;

  // Driver side: an event brought `ready`: add it, with a new tick.
  void set_readiness(io::Ready ready);
  // Driver side: wake the tasks that wait for any of `ready`.
  void wake(io::Ready ready);
  // The driver shuts down: every wait, now and later, ends.
  void shutdown();

  // Task side: the readiness in `direction`, or, when there is none,
  // store cx's waker for that direction and return nothing (pending).
  std::optional<ReadyEvent> poll_readiness(Context& cx, io::Direction direction);
  // Task side: the system call would block after all: forget the
  // readiness `event` reported, unless a newer event came since.
  void clear_readiness(const ReadyEvent& event);
  // Task side: the readiness in `direction` as it is now, without waiting.
  ReadyEvent ready_event(io::Direction direction) const;

  // The whole word; for tests and the driver's metrics.
  std::uint32_t load() const { return readiness_.load(std::memory_order_acquire); }

 private:
  loom::atomic<std::uint32_t> readiness_{0};
  loom::mutex waiters_mutex_;
  Waker reader_;  // the task waiting to read, if any
  Waker writer_;  // the task waiting to write, if any
};
