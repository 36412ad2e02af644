std::size_t Builder::default_worker_threads() {
  if (const char* value = std::getenv("RT_WORKER_THREADS")) {
    std::string_view text(value);
    std::size_t count = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error != std::errc() || end != text.data() + text.size() || count == 0) {
      throw std::invalid_argument("RT_WORKER_THREADS must be a positive integer, not \"" +
                                  std::string(text) + "\"");
    }
    return count;
  }
  unsigned cores = std::thread::hardware_concurrency();  // 0 when unknown
  return cores == 0 ? 1 : cores;
}
