// spawn's typed half: build the task's cell in the room in front of its
// frame (no allocation); the untyped half, on the scheduler handle, binds
// it to the runtime and queues it.
template <class T>
JoinHandle<T> spawn_on(const std::shared_ptr<SchedulerHandle>& scheduler, Task<T> future) {
  Cell<T>* cell = Cell<T>::create(scheduler, std::move(future));
  scheduler->bind_and_schedule(cell);
  return JoinHandle<T>(cell);
}
