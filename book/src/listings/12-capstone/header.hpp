struct Header {
  Header(const TaskVTable* vtable, std::shared_ptr<Schedule> scheduler, Poller poller)
      : vtable(vtable), scheduler(std::move(scheduler)), poller(poller) {}

  // Hot: read or written on every wake and every poll.
  State state;
  Header* queue_next = nullptr;  // the run queue's link (intrusive)
  const TaskVTable* vtable;

  // Tokio's Core: the scheduler and the future's progress. Tokio keeps
  // the scheduler handle in the typed Core; it is the same for every task
  // here, so it lives in the header.
  std::shared_ptr<Schedule> scheduler;
  Poller poller;

  // Tokio's Trailer (cold): the owned-tasks links and the join waker.
  Header* owned_prev = nullptr;
  Header* owned_next = nullptr;
  // Written by the JoinHandle or read by the runtime, never both at once:
  // the JOIN_WAKER bit of `state` says whose it is (see harness.hpp).
  Waker join_waker;
};
