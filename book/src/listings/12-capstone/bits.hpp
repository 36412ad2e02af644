inline constexpr std::size_t RUNNING = 1 << 0;
inline constexpr std::size_t COMPLETE = 1 << 1;
inline constexpr std::size_t NOTIFIED = 1 << 2;
inline constexpr std::size_t JOIN_INTEREST = 1 << 3;
inline constexpr std::size_t JOIN_WAKER = 1 << 4;
inline constexpr std::size_t CANCELLED = 1 << 5;

inline constexpr std::size_t REF_COUNT_SHIFT = 6;
inline constexpr std::size_t REF_ONE = std::size_t{1} << REF_COUNT_SHIFT;

// A new task has three references: the runtime's list of owned tasks, the
// Notified in the run queue, and the JoinHandle.
inline constexpr std::size_t INITIAL_STATE = 3 * REF_ONE | JOIN_INTEREST | NOTIFIED;
