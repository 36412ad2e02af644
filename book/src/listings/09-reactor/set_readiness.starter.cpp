void ScheduledIo::set_readiness(io::Ready ready) {
  // TODO: an event brought `ready`: add its bits to the word's readiness
  // and advance the tick by one (it wraps within tick_mask), in one
  // atomic step (a compare-and-swap loop), without touching the shutdown
  // bit; once shut down, change nothing.
  // Hint: clear_readiness forgets bits only if the tick is still the one
  // a task saw. What must an event do, so that a clear that comes after
  // it (with an older tick) forgets nothing?
  (void)ready;
  throw Todo("3 of chapter 09 (readiness, in rt/io/readiness_word.cpp)");
}

void ScheduledIo::clear_readiness(const ReadyEvent& event) {
  // TODO: the task's system call would block after all: clear the bits
  // `event` reported (event.ready), in one atomic step, but
  //  - only if the word's tick is still event.tick: otherwise a newer
  //    event came in between, and its readiness must stay;
  //  - never the closed bits (io::closed): a closed direction stays closed.
  // Hint: the driver can set bits between the task's failed read and this
  // clear. Which of the two wins the compare-and-swap, and what must each
  // outcome leave in the word?
  (void)event;
  throw Todo("4 of chapter 09 (clear, in rt/io/readiness_word.cpp)");
}
