template <class T>
class Cell final : public Header {
 public:
  // spawn: builds the cell in the room in front of `future`'s frame. No
  // allocation: the room came with the frame.
  static Cell* create(std::shared_ptr<Schedule> scheduler, Task<T> future) {
    void* storage = FrameRoom<T>::claim_for_task(future.handle().address());
    return ::new (storage) Cell(std::move(scheduler), std::move(future));
  }

  // The JoinHandle's, once the task is complete.
  T take_output() { return output_.take(); }

 private:
  Cell(std::shared_ptr<Schedule> scheduler, Task<T> future)
      : Header(&kVTable, std::move(scheduler), Poller(future.handle())), future_(std::move(future)) {}

  static Cell* self(Header* task) { return static_cast<Cell*>(task); }

  static void store_output(Header* task) {
    Cell* cell = self(task);
    cell->output_.store_from(cell->future_);
    cell->future_ = Task<T>();  // destroys the finished frame; the block stays
  }
  static void cancel(Header* task) {
    Cell* cell = self(task);
    cell->future_ = Task<T>();  // runs the destructors of the suspended frame
    cell->output_.cancel();
  }
  static void drop_output(Header* task) {
    Cell* cell = self(task);
    std::destroy_at(&cell->output_);  // the value's destructor runs here, now
    std::construct_at(&cell->output_);
  }
  static void dealloc(Header* task) {
    Cell* cell = self(task);
    cell->~Cell();
    FrameRoom<T>::free_task(cell);  // the whole block: room and frame
  }

  static constexpr TaskVTable kVTable{&store_output, &cancel, &drop_output, &dealloc};

  Task<T> future_;   // empty once the coroutine is finished or cancelled
  Output<T> output_;
};
