struct RawWakerVTable;

// A waker with its type erased: what the data pointer means is known only
// to the functions in the table. Mirrors std::task::RawWaker.
struct RawWaker {
  const void* data = nullptr;
  const RawWakerVTable* vtable = nullptr;
};

// Mirrors std::task::RawWakerVTable. Each function gets the data pointer.
struct RawWakerVTable {
  RawWaker (*clone)(const void* data);     // a new reference
  void (*wake)(const void* data);          // wake, and give up this reference
  void (*wake_by_ref)(const void* data);   // wake, and keep it
  void (*drop)(const void* data);          // give up this reference
};
