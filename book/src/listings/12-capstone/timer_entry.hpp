struct TimerEntry {
  enum class State { idle, registered, fired };

  std::uint64_t deadline = 0;  // in ticks (milliseconds since the driver started)
  loom::UnsafeCell<State> state{State::idle};
  Waker waker;                 // the task to wake when it fires
  // Where the wheel keeps it while registered: a level and a slot, or the
  // pending list of entries that are due.
  unsigned level = 0;
  unsigned slot = 0;
  bool pending = false;
  TimerEntry* prev = nullptr;
  TimerEntry* next = nullptr;
};
