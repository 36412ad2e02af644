//@ file capstone..
// rt::signal: the process's signals as leaves a task can await. Mirrors
// tokio::signal. Needs a runtime built with enable_io() (or enable_all()).
#pragma once

#include "rt/signal/signal.hpp"
