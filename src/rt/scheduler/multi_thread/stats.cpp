//@ file local-queues..
// The poll-time average and the interval it asks for; see stats.hpp.
#include "rt/scheduler/multi_thread/stats.hpp"

#include <algorithm>
#include <cmath>

#include "rt/todo.hpp"

namespace rt::detail {

//@ listing tuned_interval
void Stats::end_batch(Clock::time_point now) {
  //@ exercise local-queues tune
  if (polls_in_batch_ == 0) return;  // nothing measured
  double elapsed_ns = std::chrono::duration<double, std::nano>(now - batch_started_).count();
  double polls = polls_in_batch_;
  double mean_ns = elapsed_ns / polls;
  // n polls weigh as n updates of weight alpha would: 1 - (1 - alpha)^n.
  //@ mutant local-queues tune_batch_weighs_one_poll: weighs a batch of n polls as one poll
  double weight = 1.0 - std::pow(1.0 - alpha, polls);
  //@ instead
  double weight = alpha;
  //@ end
  poll_time_ewma_ns_ = weight * mean_ns + (1.0 - weight) * poll_time_ewma_ns_;
  //@ starter
  // TODO: fold this batch into the average poll time, poll_time_ewma_ns_:
  //  - the batch ran polls_in_batch_ polls from batch_started_ to `now`;
  //    with no poll, there is nothing to learn;
  //  - its mean poll time weighs as polls_in_batch_ updates of weight
  //    alpha each would: what single weight is that?
  // Hint: average = weight * mean + (1 - weight) * average.
  (void)now;
  throw Todo("@NN@ tune (@FILE@)");
  //@ end
}

std::uint32_t Stats::tuned_global_queue_interval() const {
  //@ exercise local-queues tune
  double tasks = target_interval_ns / poll_time_ewma_ns_;
  // Saturate before converting: a tiny average would overflow the integer.
  //@ mutant local-queues tune_unclamped_low: lets the interval fall to 1 and 0
  tasks = std::clamp(tasks, double{min_interval}, double{max_interval});
  //@ instead
  tasks = std::min(tasks, double{max_interval});
  //@ end
  return static_cast<std::uint32_t>(tasks);
  //@ starter
  // TODO: the interval that makes a look at the global queue every
  // target_interval_ns, given the average poll time; never below
  // min_interval nor above max_interval.
  // Hint: the average may be tiny, or the division huge: clamp before
  // converting to an integer.
  throw Todo("@NN@ tune (@FILE@)");
  //@ end
}
//@ listing-end tuned_interval

}  // namespace rt::detail
