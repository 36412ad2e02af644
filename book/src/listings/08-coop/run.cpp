void MultiThread::run(std::size_t index) {
  // This thread spawns onto this runtime, and may not block_on.
  SetCurrentGuard current(shared_from_this());
  EnterRuntimeGuard entered;
  current_worker_here_ = {this, index};
  Worker& worker = workers_[index];
  started_.count_down();
  worker.stats.start_batch(Stats::Clock::now());
  for (;;) {
    ++worker.tick;
    if (worker.tick % config_.event_interval == 0 && !maintenance(worker)) break;
    if (Header* task = next_task(index)) {
      run_task(worker, task);
      continue;
    }
    worker.stats.end_batch(Stats::Clock::now());
    if (Header* task = steal_work(index)) {
      worker.stats.start_batch(Stats::Clock::now());
      run_task(worker, task);
      continue;
    }
    if (inject_.is_closed()) break;  // shut down
    if (!worker.deferred.empty()) {  // only the tasks that yielded are left
      wake_deferred(worker);
      worker.stats.start_batch(Stats::Clock::now());
      continue;
    }
    park(index);
    worker.stats.start_batch(Stats::Clock::now());
  }
  current_worker_here_ = {};
}
