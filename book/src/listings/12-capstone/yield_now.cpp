bool YieldNow::poll(Context& cx) {
  if (yielded_) return true;
  yielded_ = true;
  cx.waker().wake_by_ref();  // queue this task again, behind the others
  return false;
}

