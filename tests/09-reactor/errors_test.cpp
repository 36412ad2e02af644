// Chapter 09: how a connection ends and how sockets fail, seen as such: the
// end of the stream, a reset, a write to a closed peer (an error, never a
// SIGPIPE), a refused connection; sockets outside a runtime with I/O; and
// socket addresses, parsed (only parsed: the tests bind 127.0.0.1 port 0);
// and a signal that interrupts the driver's wait, which is no error.
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "flavours.hpp"
#include "graded.hpp"
#include "io.hpp"
#include "interrupter.hpp"
#include "rt/rt.hpp"

namespace {

// The error a task's awaited operation ended with: its errno (0: none).
template <class Operation>
rt::Task<int> error_of(Operation operation) {
  try {
    co_await operation();
  } catch (const std::system_error& error) {
    co_return error.code().value();
  }
  co_return 0;
}

}  // namespace

TEST_CASE("a read after the peer shut down its side returns the end of the stream" * POINTS(1)) {
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    std::vector<std::size_t> reads;
    bool early_end = false;
    bool still_writes = false;
    runtime.block_on([&]() -> rt::Task<> {
      auto [client, server] = co_await rt_test::connected_pair();
      co_await server.write_all("last words");
      server.shutdown();
      char buffer[64];
      std::size_t got = 0;
      // The data first, then 0, and 0 again: the end stays the end.
      while (got < 10) {
        std::size_t n = co_await client.read(std::span<char>(buffer + got, sizeof buffer - got));
        if (n == 0) break;
        got += n;
      }
      reads.push_back(got);
      reads.push_back(co_await client.read(buffer));
      reads.push_back(co_await client.read(buffer));
      try {
        co_await client.read_exact(std::span<char>(buffer, 1));
      } catch (const rt::net::UnexpectedEof&) {
        early_end = true;
      }
      // Half closed: the other direction still works.
      co_await client.write_all("reply");
      char reply[5];
      co_await server.read_exact(reply);
      still_writes = std::string(reply, 5) == "reply";
    }());
    CHECK(reads == std::vector<std::size_t>{10, 0, 0});
    CHECK(early_end);
    CHECK(still_writes);
  });
}

TEST_CASE("a connection reset by the peer fails the read with ECONNRESET" * POINTS(1)) {
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    int error = runtime.block_on([]() -> rt::Task<int> {
      auto streams = co_await rt_test::connected_pair();
      rt::net::TcpStream& client = streams.first;
      rt::net::TcpStream& server = streams.second;
      // Closed with a zero linger: a reset (RST), not an orderly end.
      linger abort_on_close{1, 0};
      if (::setsockopt(server.fd(), SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close) != 0) {
        throw std::system_error(errno, std::system_category(), "setsockopt(SO_LINGER)");
      }
      { rt::net::TcpStream closing = std::move(server); }
      co_return co_await error_of([&]() -> rt::Task<> {
        char buffer[16];
        co_await client.read(buffer);
      });
    }());
    CHECK(error == ECONNRESET);
  });
}

namespace {

std::atomic<int> sigpipes{0};
void count_sigpipe(int) { sigpipes.fetch_add(1); }

// Counts SIGPIPEs for a scope instead of dying of one.
class CountSigpipe {
 public:
  CountSigpipe() {
    struct sigaction action = {};
    action.sa_handler = &count_sigpipe;
    sigemptyset(&action.sa_mask);
    sigaction(SIGPIPE, &action, &previous_);
  }
  ~CountSigpipe() { sigaction(SIGPIPE, &previous_, nullptr); }
  CountSigpipe(const CountSigpipe&) = delete;
  CountSigpipe& operator=(const CountSigpipe&) = delete;

 private:
  struct sigaction previous_ = {};
};

}  // namespace

TEST_CASE("writing to a closed peer fails with EPIPE or ECONNRESET and raises no SIGPIPE" * POINTS(1)) {
  CountSigpipe counting;
  sigpipes = 0;
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    int error = runtime.block_on([]() -> rt::Task<int> {
      auto streams = co_await rt_test::connected_pair();
      rt::net::TcpStream& client = streams.first;
      { rt::net::TcpStream closing = std::move(streams.second); }
      // The first write may be accepted (the peer answers it with a reset);
      // a later one fails. Bounded, so that a write that never fails ends.
      co_return co_await error_of([&]() -> rt::Task<> {
        for (int i = 0; i < 100000; ++i) co_await client.write_all("are you there?");
      });
    }());
    CHECK((error == EPIPE || error == ECONNRESET));
  });
  CHECK(sigpipes.load() == 0);
}

TEST_CASE("connecting to a port nobody listens on fails with ECONNREFUSED" * POINTS(1)) {
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    int error = runtime.block_on([]() -> rt::Task<int> {
      rt::net::SocketAddr address;
      {
        rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
        address = listener.local_addr();
      }  // closed: the port has nobody listening any more
      co_return co_await error_of([&]() -> rt::Task<> { co_await rt::net::TcpStream::connect(address); });
    }());
    CHECK(error == ECONNREFUSED);
  });
}

namespace {

// The message of the std::logic_error `operation` throws, or "" if none.
template <class Operation>
std::string logic_error_of(Operation operation) {
  try {
    operation();
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sockets need a runtime with enable_io and say so" * POINTS(1)) {
  std::size_t descriptors = rt_test::open_descriptors();
  std::string outside = logic_error_of([] { rt::net::TcpListener::bind("127.0.0.1:0"); });
  CHECK(outside.find("no reactor running") != std::string::npos);
  CHECK(rt_test::open_descriptors() == descriptors);  // the socket it made was closed

  // With enable_all (every driver, I/O included), the same calls work.
  {
    rt::Runtime runtime = rt::Builder::new_current_thread().enable_all().build();
    std::string reply = runtime.block_on([]() -> rt::Task<std::string> {
      auto [client, server] = co_await rt_test::connected_pair();
      co_await client.write_all("ok");
      std::string got(2, '\0');
      co_await server.read_exact(got);
      co_return got;
    }());
    CHECK(reply == "ok");
  }

  for (bool multi : {false, true}) {
    INFO((multi ? "a multi-thread runtime" : "a current-thread runtime") << " without I/O");
    rt::Runtime runtime = multi ? rt::Builder::new_multi_thread().worker_threads(2).build()
                                : rt::Builder::new_current_thread().build();
    std::string bind_error;
    std::string connect_error;
    runtime.block_on([&]() -> rt::Task<> {
      bind_error = logic_error_of([] { rt::net::TcpListener::bind("127.0.0.1:0"); });
      try {
        co_await rt::net::TcpStream::connect("127.0.0.1:9");
      } catch (const std::logic_error& error) {
        connect_error = error.what();
      }
    }());
    CHECK(bind_error.find("enable_io") != std::string::npos);
    CHECK(connect_error.find("enable_io") != std::string::npos);
    CHECK(runtime.metrics().io_driver_fd_registered_count() == 0);
  }
  CHECK(rt_test::open_descriptors() == descriptors);
}

TEST_CASE("socket addresses parse numeric IPv4 and IPv6 and reject the rest" * POINTS(1)) {
  rt::net::SocketAddr v4("127.0.0.1:80");
  CHECK_FALSE(v4.is_ipv6());
  CHECK(v4.ip() == "127.0.0.1");
  CHECK(v4.port() == 80);
  CHECK(v4.to_string() == "127.0.0.1:80");
  rt::net::SocketAddr v6("[::1]:80");
  CHECK(v6.is_ipv6());
  CHECK(v6.ip() == "::1");
  CHECK(v6.port() == 80);
  CHECK(v6.to_string() == "[::1]:80");
  CHECK(rt::net::SocketAddr("0.0.0.0:0").port() == 0);
  CHECK(rt::net::SocketAddr("10.1.2.3:65535").port() == 65535);
  CHECK(rt::net::SocketAddr(v6.to_string()) == v6);
  CHECK_FALSE(rt::net::SocketAddr("127.0.0.1:81") == v4);

  for (const char* garbage : {"", "127.0.0.1", "127.0.0.1:", ":80", "127.0.0.1:65536", "127.0.0.1:-1",
                              "127.0.0.1:8o", "127.0.0.1: 80", "256.0.0.1:80", "1.2.3:80", "localhost:80",
                              "::1:80", "[::1]", "[::1:80", "::1]:80", "[127.0.0.1]:80", "[]:80"}) {
    INFO("\"" << garbage << "\"");
    CHECK_THROWS_AS(rt::net::SocketAddr{std::string_view(garbage)}, std::invalid_argument);
  }

  // The addresses of a real connection, on 127.0.0.1, read back.
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    runtime.block_on([]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      rt::net::TcpStream client = co_await rt::net::TcpStream::connect(address);
      auto [server, peer] = co_await listener.accept();
      CHECK(address.ip() == "127.0.0.1");
      CHECK(address.port() != 0);
      CHECK(client.peer_addr() == address);
      CHECK(server.local_addr() == address);
      CHECK(peer == client.local_addr());
      CHECK(server.peer_addr() == client.local_addr());
      CHECK(rt::net::SocketAddr(address.to_string()) == address);
      client.set_nodelay(true);
      CHECK(client.nodelay());
    }());
  });
}

namespace {

std::atomic<int> signals_handled{0};
void count_signal(int) { signals_handled.fetch_add(1); }

}  // namespace

TEST_CASE("a signal that interrupts the driver's epoll_wait is no error: the runtime waits on" * POINTS(2)) {
#ifdef RT_TEST_NO_INTERRUPTS
  // ThreadSanitizer holds signals back to its own safe points: the moment
  // this test needs cannot be made there. It runs in the plain grade.
  MESSAGE("not run under ThreadSanitizer");
#else
  struct sigaction action = {};
  action.sa_handler = &count_signal;
  sigemptyset(&action.sa_mask);
  struct sigaction previous = {};
  REQUIRE(sigaction(SIGUSR2, &action, &previous) == 0);
  rt_test::on_current_thread_io([](rt::Runtime& runtime) {
    pid_t waiter = static_cast<pid_t>(::syscall(SYS_gettid));
    std::atomic<bool> stop{false};
    std::atomic<int> interrupted{0};
    std::thread interrupter;
    char byte = 0;
    std::string error;
    try {
      runtime.block_on([&]() -> rt::Task<> {
        auto [stream, peer] = co_await rt_test::stream_with_raw_peer();
        int peer_fd = peer.fd();
        // Three times: wait until this thread sleeps in epoll_wait, signal
        // it, see the handler run. Then send the byte it waits for.
        interrupter = std::thread([&, peer_fd] {
          for (int i = 0; i < 3; ++i) {
            while (!stop.load() && !rt_test::in_epoll_wait(waiter)) std::this_thread::yield();
            if (stop.load()) return;
            int before = signals_handled.load();
            ::syscall(SYS_tgkill, ::getpid(), waiter, SIGUSR2);
            while (!stop.load() && signals_handled.load() == before) std::this_thread::yield();
            interrupted.fetch_add(1);
          }
          rt_test::send_raw(peer_fd, "s");
        });
        co_await stream.read(std::span<char>(&byte, 1));
        stop = true;
        interrupter.join();
      }());
    } catch (const std::exception& e) {
      error = e.what();
    }
    stop = true;
    if (interrupter.joinable()) interrupter.join();
    INFO("a signal makes epoll_wait fail with EINTR: that is no error, the driver just waits again");
    CHECK(error == "");
    CHECK(interrupted.load() == 3);
    CHECK(byte == 's');
  });
  sigaction(SIGUSR2, &previous, nullptr);
#endif
}
