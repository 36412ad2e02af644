template <std::uint32_t Capacity = 256>
class LocalQueue {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0,
                "the capacity must be a power of two, so that the indices can wrap");

 public:
  static constexpr std::uint32_t capacity = Capacity;

  // `start` is where the indices begin: the tests start near 2^32 to see
  // them wrap.
  explicit LocalQueue(std::uint32_t start = 0) : head_(pack(start, start)), tail_(start) {}

  LocalQueue(const LocalQueue&) = delete;
  LocalQueue& operator=(const LocalQueue&) = delete;
