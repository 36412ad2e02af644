//@ file capstone..
// The builder's options for metrics and the trace, compiled once per
// runtime; see builder.hpp. Tokio's Builder::enable_metrics_poll_time_histogram
// and metrics_poll_time_histogram_configuration.
#include <cstdlib>
#include <utility>

#include "rt/runtime/builder.hpp"
#include "rt/runtime/metrics/instruments.hpp"

namespace rt {

Builder& Builder::enable_metrics_poll_time_histogram() {
  poll_time_histogram_ = true;
  return *this;
}

Builder& Builder::metrics_poll_time_histogram_configuration(HistogramConfig config) {
  detail::Histogram check(config);  // throws now, not at build(), for a bad one
  histogram_config_ = config;
  return *this;
}

Builder& Builder::trace_path(std::string path) {
  trace_path_ = std::move(path);
  return *this;
}

detail::InstrumentsConfig Builder::instruments_config(bool current_thread) const {
  detail::InstrumentsConfig config;
  if (poll_time_histogram_) config.poll_time_histogram = histogram_config_;
  config.trace_path = trace_path_;
  if (const char* path = std::getenv("RT_TRACE"); config.trace_path.empty() && path) config.trace_path = path;
  config.runtime = thread_name_;
  config.flavour = current_thread ? "current_thread" : "multi_thread";
  return config;
}

}  // namespace rt
