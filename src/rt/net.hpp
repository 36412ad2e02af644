//@ file reactor..
// rt::net: TCP on the runtime's I/O driver. Mirrors tokio::net.
// Needs a runtime built with enable_io() (or enable_all()).
#pragma once

//@ chapters blocking..
#include "rt/net/lookup_host.hpp"
//@ end
#include "rt/net/socket_addr.hpp"
#include "rt/net/tcp_listener.hpp"
#include "rt/net/tcp_stream.hpp"
