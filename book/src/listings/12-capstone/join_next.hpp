// The future of join_next: a leaf, so that rt::select can wait on it.
class [[nodiscard]] JoinNext : public Leaf<JoinNext> {
 public:
  explicit JoinNext(detail::JoinSetList& list) : list_(list) {}
  JoinNext(const JoinNext&) = delete;
  JoinNext& operator=(const JoinNext&) = delete;
  ~JoinNext() {
    if (done_) detail::JoinSetEntry::leave(done_);  // a value nobody took
  }

  bool poll(Context& cx) override {
    if (done_ || empty_) return true;
    done_ = list_.poll_next(cx, empty_);
    return done_ || empty_;
  }
  bool cooperative() const override { return true; }  // spends the task's budget, as Tokio's does

  // The finished task's value (a JoinError if it threw or was aborted),
  // or the empty answer.
  Next await_resume() {
    if (!done_) return Next{};
    detail::JoinSetEntry* entry = std::exchange(done_, nullptr);
    struct Leave {  // the entry goes, whatever take() does
      detail::JoinSetEntry* entry;
      ~Leave() { detail::JoinSetEntry::leave(entry); }
    } leave{entry};
    auto& task = static_cast<detail::JoinSetTask<T>&>(*entry);
    if constexpr (std::is_void_v<T>) {
      task.take();
      return true;
    } else {
      return Next(task.take());
    }
  }

 private:
  detail::JoinSetList& list_;
  detail::JoinSetEntry* done_ = nullptr;  // taken out of the set, with the set's reference
  bool empty_ = false;
};
