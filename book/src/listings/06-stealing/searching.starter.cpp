bool Idle::transition_worker_to_searching() {
  // TODO: let this worker search if fewer than half the workers search:
  // 2 * searching < workers. Then count it (state_ holds num_searching in
  // its low 16 bits) and return true; else return false.
  // Hint: why limit the searchers at all? Think of 64 idle workers all
  // trying to steal from the one busy ring.
  throw Todo("2 of chapter 06 (searching, in rt/scheduler/multi_thread/idle.cpp)");
}

bool Idle::transition_worker_from_searching() {
  // TODO: this searcher found work: count it out of the searchers, and
  // return true if it was the last one.
  // Hint: read the count and change it in one operation; a load then a
  // store would let two searchers both think they were last, or neither.
  throw Todo("2 of chapter 06 (searching, in rt/scheduler/multi_thread/idle.cpp)");
}
