// Times one poll, when the runtime times polls: made before the poll,
// destroyed after it, even when the poll throws.
class PollTimer {
 public:
  PollTimer(Instruments& instruments, std::size_t worker, const void* task)
      : instruments_(instruments.times_polls() ? &instruments : nullptr), worker_(worker), task_(task) {
    if (instruments_) start_ = Instruments::Clock::now();
  }
  ~PollTimer() {
    if (instruments_) instruments_->record_poll(worker_, task_, start_, Instruments::Clock::now());
  }
  PollTimer(const PollTimer&) = delete;
  PollTimer& operator=(const PollTimer&) = delete;

 private:
  Instruments* instruments_;
  std::size_t worker_;
  const void* task_;
  Instruments::Clock::time_point start_;
};
