// Publish and subscribe: channels, and the connections subscribed to them.
// Mirrors mini-redis's use of a broadcast channel per channel name (db.rs,
// cmd/subscribe.rs), and the replies of Redis's pubsub.c.
//
//   redis::Subscriber me([&] { notify.notify_one(); });   // how to wake my connection
//   pubsub.subscribe("news", me, out);        // out += the subscribe reply
//   pubsub.publish("news", "hello");          // 1: me.take(out) now gives the message
//
// A subscriber's messages wait in its mailbox, already encoded as the
// `message` replies Redis sends, until its connection takes them and writes
// them out; the publisher only appends and wakes. Replies to the
// subscriber's own SUBSCRIBE and UNSUBSCRIBE go into the same mailbox, under
// the lock that delivers messages, so that a client reads them in the order
// Redis would send them: no message for a channel before its subscribe
// reply, none after its unsubscribe reply.
//
// A subscriber that does not read its messages cannot make the server hold
// more and more of them: past 32 MiB (Redis's client-output-buffer-limit
// for pubsub clients) its mailbox overflows, and its connection is closed.
//
// Plain C++: `wake` is whatever wakes the connection on its runtime.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace redis {

class PubSub;

class Subscriber {
 public:
  static constexpr std::size_t mailbox_limit = 32 * 1024 * 1024;

  explicit Subscriber(std::function<void()> wake) : wake_(std::move(wake)) {}
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  // Appends what waits in the mailbox to `out`; false if it was empty.
  bool take(std::string& out);
  // Appends a reply of the subscriber's own (PING in subscribe mode).
  void post(std::string_view reply);
  // The mailbox overflowed: the connection must close.
  bool overflowed();
  // The channels subscribed to.
  std::size_t channels() const { return channels_.size(); }

 private:
  friend class PubSub;
  // A message from a publisher: posted, and the connection woken if it
  // may be waiting.
  void deliver(std::string_view channel, std::string_view message);
  bool append(std::string_view bytes);  // with mutex_ held; false once overflowed

  std::mutex mutex_;
  std::string mailbox_;
  bool overflowed_ = false;
  std::function<void()> wake_;
  // Written only by the connection's own thread of control, under the
  // PubSub's lock; read without it by that connection alone.
  std::vector<std::string> channels_;
};

class PubSub {
 public:
  // Delivers `message` to every subscriber of `channel`; how many.
  std::size_t publish(std::string_view channel, std::string_view message);
  // SUBSCRIBE and UNSUBSCRIBE for one channel: the reply (with the count
  // of channels the subscriber has now) goes to its mailbox.
  void subscribe(std::string_view channel, Subscriber& subscriber);
  void unsubscribe(std::string_view channel, Subscriber& subscriber);
  // UNSUBSCRIBE with no channel: from all of them (one reply each), or, if
  // there are none, Redis's reply with a null channel.
  void unsubscribe_all(Subscriber& subscriber);
  // The connection is going: forget it everywhere, with no reply.
  void forget(Subscriber& subscriber);

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  };
  void remove(std::string_view channel, Subscriber& subscriber);  // with mutex_ held

  std::mutex mutex_;
  std::unordered_map<std::string, std::vector<Subscriber*>, Hash, std::equal_to<>> channels_;
};

}  // namespace redis
