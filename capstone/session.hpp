// Session: one connection's protocol, without its I/O. Bytes read go in;
// every complete request in them is parsed and run, and the replies come
// out, all in one buffer. Mirrors mini-redis's connection.rs (a read buffer
// and a parse loop over it) and the input path of Redis's networking.c.
//
//   redis::Session session(shared, wake);
//   std::size_t n = read(fd, session.read_buffer());   // whatever I/O the caller has
//   session.received(n, now);
//   write(fd, session.output());  session.written();
//   if (session.closing()) close(fd);
//
// This is what makes pipelining fast: a client that sends sixteen requests
// at once gets sixteen replies in one write, not sixteen writes. The read
// buffer and the output buffer belong to the connection and are reused, so
// a request costs no allocation once they are warm.
//
// The course's server (connection.cpp) and the Asio twin drive the same
// Session; only the waiting differs.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "capstone/commands.hpp"
#include "capstone/resp.hpp"

namespace redis {

class Session {
 public:
  // Redis's PROTO_IOBUF_LEN: a read asks for at least this much.
  static constexpr std::size_t read_size = 16 * 1024;

  // `wake` wakes the connection when a published message waits for it.
  Session(Shared& shared, std::function<void()> wake);

  // Where the next read goes: room after the bytes not parsed yet.
  std::span<char> read_buffer();
  // `n` bytes were read into read_buffer(): runs every complete request
  // among what is unparsed, appending the replies to output().
  void received(std::size_t n, Instant now);
  // Takes the messages that wait in the mailbox into output(); false if
  // there were none.
  bool take_messages();

  // The replies not yet written.
  const std::string& output() const { return output_; }
  // output() has been written out.
  void written();

  // Write output(), then close: after QUIT, a protocol error (as Redis
  // closes a connection it cannot parse), or a mailbox that overflowed.
  bool closing() const { return closing_; }
  // In subscribe mode: published messages may arrive at any time.
  bool subscribed() const { return client_.subscribed(); }
  // Bytes of a request not received in full.
  bool partial() const { return end_ > start_; }

 private:
  Client client_;
  resp::Parser parser_;
  std::vector<char> input_;
  std::size_t start_ = 0;  // input_[start_, end_): received, not parsed
  std::size_t end_ = 0;
  std::string output_;
  bool closing_ = false;
};

}  // namespace redis
