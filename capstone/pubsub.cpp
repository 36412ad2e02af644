// Channels and mailboxes; see pubsub.hpp. Locks are taken in one order,
// the PubSub's before a Subscriber's, and `wake` runs under the PubSub's
// lock only: a Subscriber is not destroyed while a publisher may still
// reach it, because its connection calls forget() first, under that lock.
#include "capstone/pubsub.hpp"

#include <algorithm>

#include "capstone/resp.hpp"

namespace redis {

namespace {

// `*3 $kind $channel :count`: the reply to SUBSCRIBE and UNSUBSCRIBE.
void confirmation(std::string& out, std::string_view kind, const std::string_view* channel, std::size_t count) {
  resp::array(out, 3);
  resp::bulk(out, kind);
  if (channel) {
    resp::bulk(out, *channel);
  } else {
    resp::null_bulk(out);
  }
  resp::integer(out, static_cast<std::int64_t>(count));
}

}  // namespace

bool Subscriber::append(std::string_view bytes) {
  if (overflowed_) return false;
  if (mailbox_.size() + bytes.size() > mailbox_limit) {
    overflowed_ = true;
    mailbox_.clear();
    mailbox_.shrink_to_fit();
    return false;
  }
  mailbox_ += bytes;
  return true;
}

bool Subscriber::take(std::string& out) {
  std::lock_guard lock(mutex_);
  if (mailbox_.empty()) return false;
  out += mailbox_;
  mailbox_.clear();  // keeps its capacity for the next messages
  return true;
}

void Subscriber::post(std::string_view reply) {
  std::lock_guard lock(mutex_);
  append(reply);
}

bool Subscriber::overflowed() {
  std::lock_guard lock(mutex_);
  return overflowed_;
}

void Subscriber::deliver(std::string_view channel, std::string_view message) {
  bool was_empty;
  {
    std::lock_guard lock(mutex_);
    if (overflowed_) return;
    was_empty = mailbox_.empty();
    // `*3 $7 message $channel $message`, encoded in place.
    mailbox_ += "*3\r\n$7\r\nmessage\r\n";
    resp::bulk(mailbox_, channel);
    resp::bulk(mailbox_, message);
    if (mailbox_.size() > mailbox_limit) {
      overflowed_ = true;
      mailbox_.clear();
      mailbox_.shrink_to_fit();
      was_empty = true;  // wake the connection, so that it sees the overflow and closes
    }
  }
  // A mailbox that held something was not drained yet: its connection has
  // been woken, or will look before it waits.
  if (was_empty) wake_();
}

std::size_t PubSub::publish(std::string_view channel, std::string_view message) {
  std::lock_guard lock(mutex_);
  auto at = channels_.find(channel);
  if (at == channels_.end()) return 0;
  for (Subscriber* subscriber : at->second) subscriber->deliver(channel, message);
  return at->second.size();
}

void PubSub::subscribe(std::string_view channel, Subscriber& subscriber) {
  std::lock_guard lock(mutex_);
  auto& mine = subscriber.channels_;
  if (std::find(mine.begin(), mine.end(), channel) == mine.end()) {
    mine.emplace_back(channel);
    auto at = channels_.find(channel);
    if (at == channels_.end()) at = channels_.emplace(std::string(channel), std::vector<Subscriber*>{}).first;
    at->second.push_back(&subscriber);
  }
  std::string reply;
  confirmation(reply, "subscribe", &channel, mine.size());
  subscriber.post(reply);
}

void PubSub::unsubscribe(std::string_view channel, Subscriber& subscriber) {
  std::lock_guard lock(mutex_);
  remove(channel, subscriber);
  std::string reply;
  confirmation(reply, "unsubscribe", &channel, subscriber.channels_.size());
  subscriber.post(reply);
}

void PubSub::unsubscribe_all(Subscriber& subscriber) {
  std::lock_guard lock(mutex_);
  std::string reply;
  if (subscriber.channels_.empty()) confirmation(reply, "unsubscribe", nullptr, 0);
  while (!subscriber.channels_.empty()) {
    std::string channel = subscriber.channels_.front();
    remove(channel, subscriber);
    std::string_view name = channel;
    confirmation(reply, "unsubscribe", &name, subscriber.channels_.size());
  }
  subscriber.post(reply);
}

void PubSub::forget(Subscriber& subscriber) {
  std::lock_guard lock(mutex_);
  while (!subscriber.channels_.empty()) remove(std::string(subscriber.channels_.front()), subscriber);
}

void PubSub::remove(std::string_view channel, Subscriber& subscriber) {
  auto& mine = subscriber.channels_;
  auto it = std::find(mine.begin(), mine.end(), channel);
  if (it == mine.end()) return;
  mine.erase(it);  // keeps the others in the order they were subscribed, as Redis replies
  auto at = channels_.find(channel);
  if (at == channels_.end()) return;
  auto& subscribers = at->second;
  subscribers.erase(std::find(subscribers.begin(), subscribers.end(), &subscriber));
  if (subscribers.empty()) channels_.erase(at);
}

}  // namespace redis
