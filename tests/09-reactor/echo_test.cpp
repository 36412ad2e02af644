// Chapter 09: TCP through the reactor, end to end, on either flavour: an
// echo server and its clients; a thousand connections at once, every
// message checked; a reader and a writer on one stream in both directions
// at once.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graded.hpp"
#include "io.hpp"
#include "rt/rt.hpp"

namespace {

// Sends back what `stream` sends until it ends its side, counting the bytes.
rt::Task<> echo(rt::net::TcpStream stream, std::atomic<std::size_t>* echoed = nullptr) {
  char buffer[4096];
  for (;;) {
    std::size_t n = co_await stream.read(buffer);
    if (n == 0) co_return;
    co_await stream.write_all(std::string_view(buffer, n));
    if (echoed) echoed->fetch_add(n);
  }
}

// `size` bytes that say where in the stream they are, and whose.
std::string pattern(std::size_t size, std::uint8_t seed, std::size_t offset = 0) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((offset + i) * 7 + seed);
  return bytes;
}

}  // namespace

TEST_CASE("an echo server sends every message back on either flavour" * POINTS(2)) {
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    const std::vector<std::string> messages = {"hello", std::string(1000, 'a'), pattern(16000, 3), "bye"};
    constexpr std::size_t clients = 3;
    std::vector<std::vector<std::string>> replies(clients);
    std::vector<char> peers_agree(clients, false);  // one per task: no bits shared
    runtime.block_on([&]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      auto server = rt::spawn([&listener]() -> rt::Task<> {
        std::vector<rt::JoinHandle<void>> echoes;
        for (std::size_t i = 0; i < clients; ++i) {
          auto [stream, peer] = co_await listener.accept();
          echoes.push_back(rt::spawn(echo(std::move(stream))));
        }
        for (auto& handle : echoes) co_await handle;
      });
      std::vector<rt::JoinHandle<void>> handles;
      for (std::size_t c = 0; c < clients; ++c) {
        handles.push_back(rt::spawn([&, c]() -> rt::Task<> {
          rt::net::TcpStream stream = co_await rt::net::TcpStream::connect(address);
          peers_agree[c] = stream.peer_addr() == address;
          for (const std::string& message : messages) {
            co_await stream.write_all(message);
            std::string reply(message.size(), '\0');
            co_await stream.read_exact(reply);
            replies[c].push_back(std::move(reply));
          }
          stream.shutdown();  // the echo task ends, and so does the server
        }));
      }
      for (auto& handle : handles) co_await handle;
      co_await server;
    }());
    for (std::size_t c = 0; c < clients; ++c) {
      INFO("client " << c);
      CHECK(peers_agree[c]);
      CHECK(replies[c] == messages);
    }
  });
}

namespace {

constexpr std::size_t connections = 1000;
constexpr std::size_t messages_each = 100;

// A message: which client, which message, and 8 bytes that depend on both.
struct Message {
  std::uint32_t client;
  std::uint32_t sequence;
  std::uint64_t check;
};
Message message(std::uint32_t client, std::uint32_t sequence) {
  return {client, sequence, (std::uint64_t(client) << 32 | sequence) * 0x9e3779b97f4a7c15ull};
}

struct Tally {
  std::atomic<std::size_t> right{0};      // messages that came back as sent
  std::atomic<std::size_t> wrong{0};      // messages that came back as another
  std::atomic<std::size_t> extra{0};      // clients that got more than they sent
  std::atomic<std::size_t> finished{0};   // clients that got to the end
  std::atomic<std::size_t> echoed{0};     // bytes the server sent back
};

// One client: a task writes the messages, one write each, while the
// client reads what comes back and compares each with what was sent, in
// order: one lost, duplicated or reordered is compared with the wrong
// message, and the stream's end comes too early or too late.
rt::Task<> send_messages(rt::net::OwnedWriteHalf half, std::uint32_t client) {
  for (std::uint32_t i = 0; i < messages_each; ++i) {
    Message sent = message(client, i);
    co_await half.write_all(std::string_view(reinterpret_cast<const char*>(&sent), sizeof sent));
  }
  // Destroying the half shuts the writing side: the echo ends, then the stream.
}

rt::Task<> exchange(rt::net::SocketAddr address, std::uint32_t client, Tally& tally) {
  rt::net::TcpStream stream = co_await rt::net::TcpStream::connect(address);
  auto [reader, writer] = std::move(stream).into_split();
  auto sending = rt::spawn(send_messages(std::move(writer), client));
  std::uint32_t next = 0;
  for (;;) {
    Message back{};
    char* into = reinterpret_cast<char*>(&back);
    std::size_t got = 0;
    while (got < sizeof back) {
      std::size_t n = co_await reader.read(std::span<char>(into + got, sizeof back - got));
      if (n == 0) break;
      got += n;
    }
    if (got == 0) break;  // the end of the stream, between two messages
    Message sent = message(client, next++);
    if (got == sizeof back && std::memcmp(&back, &sent, sizeof sent) == 0) {
      tally.right.fetch_add(1);
    } else {
      tally.wrong.fetch_add(1);
    }
    if (got < sizeof back) break;
  }
  if (next > messages_each) tally.extra.fetch_add(1);
  co_await sending;
  tally.finished.fetch_add(1);
}

}  // namespace

TEST_CASE("a thousand connections each exchange a hundred messages with nothing lost duplicated or reordered" *
          POINTS(3) * doctest::timeout(30)) {
  // Each connection has two ends in this process.
  REQUIRE(rt_test::allow_descriptors(2 * connections + 100));
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    Tally tally;
    runtime.block_on([&]() -> rt::Task<> {
      rt::net::TcpListener listener = rt::net::TcpListener::bind("127.0.0.1:0");
      rt::net::SocketAddr address = listener.local_addr();
      auto server = rt::spawn([&]() -> rt::Task<> {
        std::vector<rt::JoinHandle<void>> echoes;
        for (std::size_t i = 0; i < connections; ++i) {
          auto [stream, peer] = co_await listener.accept();
          echoes.push_back(rt::spawn(echo(std::move(stream), &tally.echoed)));
        }
        for (auto& handle : echoes) co_await handle;
      });
      std::vector<rt::JoinHandle<void>> clients;
      for (std::uint32_t c = 0; c < connections; ++c) clients.push_back(rt::spawn(exchange(address, c, tally)));
      for (auto& handle : clients) co_await handle;
      co_await server;
    }());
    CHECK(tally.finished.load() == connections);
    CHECK(tally.right.load() == connections * messages_each);
    CHECK(tally.wrong.load() == 0);
    CHECK(tally.extra.load() == 0);
    CHECK(tally.echoed.load() == connections * messages_each * sizeof(Message));
    // Every socket registered (the listener, and both ends of each
    // connection) was deregistered when it went.
    CHECK(runtime.metrics().io_driver_fd_registered_count() == 2 * connections + 1);
    CHECK(runtime.metrics().io_driver_fd_deregistered_count() == 2 * connections + 1);
  });
}

namespace {

// More than the socket buffers of both ends hold: each writer waits for
// room while the reader on the same socket waits for data.
constexpr std::size_t split_bytes = 8 << 20;

rt::Task<> write_pattern(rt::net::OwnedWriteHalf half, std::uint8_t seed) {
  constexpr std::size_t chunk = 64 << 10;
  for (std::size_t offset = 0; offset < split_bytes; offset += chunk) {
    co_await half.write_all(pattern(chunk, seed, offset));
  }
  // Destroying the half shuts the writing side down: the peer reads the end.
}

// How many bytes came before the end of the stream, and whether they were
// the pattern, in order.
struct Received {
  std::size_t bytes = 0;
  bool in_order = true;
};

rt::Task<Received> read_pattern(rt::net::OwnedReadHalf half, std::uint8_t seed) {
  Received received;
  std::vector<char> buffer(50000);  // not a divisor of the writer's chunks
  for (;;) {
    std::size_t n = co_await half.read(buffer);
    if (n == 0) co_return received;
    if (std::string_view(buffer.data(), n) != pattern(n, seed, received.bytes)) received.in_order = false;
    received.bytes += n;
  }
}

}  // namespace

TEST_CASE("a reader task and a writer task share one stream in both directions at once" * POINTS(2)) {
  rt_test::on_each_io_runtime([](rt::Runtime& runtime) {
    auto [a_got, b_got] = runtime.block_on([]() -> rt::Task<std::pair<Received, Received>> {
      auto [a, b] = co_await rt_test::connected_pair();
      auto a_halves = std::move(a).into_split();
      auto b_halves = std::move(b).into_split();
      // Each socket has a task waiting to write and one waiting to read:
      // an event must wake the one it concerns, or both, never neither.
      auto a_writes = rt::spawn(write_pattern(std::move(a_halves.second), 1));
      auto b_writes = rt::spawn(write_pattern(std::move(b_halves.second), 2));
      auto a_reads = rt::spawn(read_pattern(std::move(a_halves.first), 2));
      auto b_reads = rt::spawn(read_pattern(std::move(b_halves.first), 1));
      co_await a_writes;
      co_await b_writes;
      co_return std::pair<Received, Received>(co_await a_reads, co_await b_reads);
    }());
    CHECK(a_got.bytes == split_bytes);
    CHECK(a_got.in_order);
    CHECK(b_got.bytes == split_bytes);
    CHECK(b_got.in_order);
  });
}
