bool Sleep::poll(Context& cx) {
  // TODO: is the deadline reached? The first poll registers the timer
  // (registered_ says whether it was): set entry_.deadline to the
  // deadline's tick (driver_->deadline_to_tick(deadline_)), then
  // driver_->register_entry(entry_, cx.waker()) (true: due already).
  // Later polls ask driver_->poll_entry(entry_, cx.waker()), which also
  // keeps the newest waker. Once registered, entry_ is the driver's, and
  // its thread fires it under its lock: read or write it only through
  // the driver's calls.
  // Hint: why not register in the constructor? Think of
  // timeout(1s, task) around a task that is ready at once.
  (void)cx;
  throw Todo("6 of chapter 10 (sleep, in rt/time/sleep.cpp)");
}

Sleep::~Sleep() {
  // TODO: a Sleep that goes away must leave the wheel: the wheel points
  // into entry_. If it was registered, deregister it
  // (driver_->deregister_entry(entry_)).
}
