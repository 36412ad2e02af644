void MultiThread::take_back_core(std::size_t index) {
  if (!take_core(index)) return;  // the new thread runs the loop now
  set_current_worker(index);
}
