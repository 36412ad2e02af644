std::size_t IoDriver::turn(int timeout_ms) {
  // TODO: one turn of the driver:
  //  - first free the registrations released since the last turn
  //    (registrations_.needs_release(), registrations_.release()): no
  //    event of the last epoll_wait can name them any more;
  //  - wait for events (::epoll_wait on epoll_fd_, into events_, at most
  //    events_.size() of them, for timeout_ms); EINTR is not an error:
  //    just return 0;
  //  - hand each event to dispatch(), and return how many came.
  // Hint: why free the released registrations here, and not when they
  // are deregistered?
  (void)timeout_ms;
  throw Todo("6 of chapter 09 (turn, in rt/io/driver.cpp)");
}

void IoDriver::dispatch(const epoll_event& event) {
  // TODO: one event from epoll_wait:
  //  - event.data.u64 == wake_token: it is the eventfd that unpark()
  //    writes; read its counter (8 bytes from wake_fd_) so that writes
  //    never fill it up, and that is all;
  //  - otherwise event.data.ptr is the ScheduledIo of a socket: turn the
  //    epoll bits into io::Ready (io::from_epoll(event.events)), record
  //    them (set_readiness), then wake the tasks waiting for them (wake),
  //    and count it in ready_count_ (relaxed: a statistic).
  // Hint: in which order must recording and waking come, so that a woken
  // task always finds what woke it?
  (void)event;
  throw Todo("7 of chapter 09 (dispatch, in rt/io/driver.cpp)");
}
