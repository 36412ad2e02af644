//@ file capstone..
// The runtime's instruments, compiled once per runtime; see instruments.hpp.
#include "rt/runtime/metrics/instruments.hpp"

#include <cstdio>
#include <exception>

#include "rt/runtime/context.hpp"
#include "rt/scheduler/handle.hpp"
#include "rt/todo.hpp"

namespace rt::detail {

Instruments::Instruments(InstrumentsConfig config, std::size_t workers)
    : config_(std::move(config)),
      times_polls_(config_.poll_time_histogram.has_value() || !config_.trace_path.empty()),
      workers_(workers) {
  if (config_.poll_time_histogram) {
    for (PerWorker& worker : workers_) worker.histogram = std::make_unique<Histogram>(*config_.poll_time_histogram);
  }
}

//@ listing record_poll
void Instruments::record_poll(std::size_t worker, const void* task, Clock::time_point start, Clock::time_point end) {
  //@ exercise capstone record_poll
  // Only worker `worker`'s thread writes its histogram and its trace.
  PerWorker& mine = workers_[worker];
  if (mine.histogram) {
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    mine.histogram->record(static_cast<std::uint64_t>(nanos));
  }
  //@ mutant capstone record_poll_no_trace: counts the poll in the histogram but leaves it out of the trace
  if (tracing()) mine.trace.poll(start, end - start, task);
  //@ instead
  //@ end
  //@ starter
  // TODO: worker `worker` polled `task` from `start` to `end` (the runtime
  // times polls only when it keeps a histogram or a trace):
  //  - into the worker's histogram (workers_[worker].histogram, if it is
  //    kept): the poll's duration in nanoseconds;
  //  - into the worker's trace (workers_[worker].trace.poll), if the
  //    runtime traces (tracing()).
  // Hint: which thread may write workers_[worker]? Why can that be done
  // without a lock?
  (void)worker;
  (void)task;
  (void)start;
  (void)end;
  throw Todo("@NN@ record_poll (@FILE@)");
  //@ end
}
//@ listing-end record_poll

void Instruments::finish() {
  if (!tracing()) return;
  std::vector<const TraceBuffer*> buffers;
  for (const PerWorker& worker : workers_) buffers.push_back(&worker.trace);
  try {
    TraceWriter::write(config_.trace_path, {config_.runtime, config_.flavour}, epoch_, buffers);
  } catch (const std::exception& e) {
    // Shutdown goes on: a trace is not worth a crash at exit.
    std::fprintf(stderr, "rt: %s\n", e.what());
  }
}

void count_forced_yield() {
  if (const std::shared_ptr<SchedulerHandle>& handle = runtime_context.handle) handle->instruments().count_forced_yield();
}

}  // namespace rt::detail
