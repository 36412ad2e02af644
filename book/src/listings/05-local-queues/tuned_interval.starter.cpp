void Stats::end_batch(Clock::time_point now) {
  // TODO: fold this batch into the average poll time, poll_time_ewma_ns_:
  //  - the batch ran polls_in_batch_ polls from batch_started_ to `now`;
  //    with no poll, there is nothing to learn;
  //  - its mean poll time weighs as polls_in_batch_ updates of weight
  //    alpha each would: what single weight is that?
  // Hint: average = weight * mean + (1 - weight) * average.
  (void)now;
  throw Todo("4 of chapter 05 (tune, in rt/scheduler/multi_thread/stats.cpp)");
}

std::uint32_t Stats::tuned_global_queue_interval() const {
  // TODO: the interval that makes a look at the global queue every
  // target_interval_ns, given the average poll time; never below
  // min_interval nor above max_interval.
  // Hint: the average may be tiny, or the division huge: clamp before
  // converting to an integer.
  throw Todo("4 of chapter 05 (tune, in rt/scheduler/multi_thread/stats.cpp)");
}
