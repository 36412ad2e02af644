void CurrentThread::block_on(Poller& root) {
  // The parker lives as long as the shared state it is part of.
  auto signal = std::make_shared<BlockOnSignal>(std::shared_ptr<Parker>(shared_, &shared_->parker));
  Waker waker(signal);
  Context cx(waker);
  for (;;) {
    // TODO: one turn of the scheduler loop:
    //  - if the root future was woken (signal->take()), poll it with `cx`,
    //    and return once the poll says it has finished;
    //  - else run the next task from shared_->queue, if there is one;
    //  - else sleep with shared_->parker.park() until there is work.
    // Hint: a wake-up that arrives just before park() is not lost: the
    // parker keeps it as a token.
    (void)root;
    (void)cx;
    throw Todo("6 of chapter 01 (block_on, in rt/scheduler/current_thread.cpp)");
  }
}
