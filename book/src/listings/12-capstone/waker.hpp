class Waker {
 public:
  Waker() = default;  // a waker that wakes nothing

  // Adopts the reference that `raw` stands for (Rust's Waker::from_raw).
  static Waker from_raw(RawWaker raw) { return Waker(raw); }

  Waker(const Waker& other) : raw_(other.raw_.vtable ? other.raw_.vtable->clone(other.raw_.data) : RawWaker{}) {}
  Waker(Waker&& other) noexcept : raw_(std::exchange(other.raw_, {})) {}
  Waker& operator=(Waker other) noexcept {  // copy-and-swap: clone, then drop the old one
    std::swap(raw_, other.raw_);
    return *this;
  }
  ~Waker() {
    if (raw_.vtable) raw_.vtable->drop(raw_.data);
  }

  // Wakes the task and gives up this waker (Rust's `wake(self)`).
  void wake() {
    RawWaker raw = std::exchange(raw_, {});
    if (raw.vtable) raw.vtable->wake(raw.data);
  }
  // Wakes the task and keeps this waker.
  void wake_by_ref() const {
    if (raw_.vtable) raw_.vtable->wake_by_ref(raw_.data);
  }
  // True when both wake the same thing the same way: lets a leaf skip
  // replacing the waker it keeps.
  bool will_wake(const Waker& other) const {
    return raw_.data == other.raw_.data && raw_.vtable == other.raw_.vtable;
  }
  explicit operator bool() const { return raw_.vtable != nullptr; }

  const RawWaker& as_raw() const { return raw_; }

 private:
  explicit Waker(RawWaker raw) : raw_(raw) {}

  RawWaker raw_;
};
