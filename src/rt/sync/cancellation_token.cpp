//@ file capstone..
// CancellationToken, compiled once per runtime; see cancellation_token.hpp.
#include "rt/sync/cancellation_token.hpp"

#include "rt/todo.hpp"

namespace rt {

//@ listing token_cancel
void CancellationToken::cancel() const {
  //@ exercise capstone cancel
  std::vector<std::weak_ptr<detail::CancellationState>> children;
  {
    std::lock_guard lock(state_->mutex);
    // release: a waiter that sees the flag sees what came before the cancel
    //@ mutant capstone cancel_notifies_first: wakes the waiters before setting the flag, so a waiter that looked in between sleeps for ever
    //@ mutant capstone cancel_relaxed: sets the flag with a relaxed exchange, so a waiter that sees it may not see what came before the cancel
    if (state_->cancelled.exchange(true, std::memory_order_acq_rel)) return;  // cancelled already
    //@ instead
    if (state_->cancelled.exchange(true, std::memory_order_relaxed)) return;
    //@ end
    //@ mutant capstone cancel_wakes_one: wakes one waiter (notify_one) instead of every waiter
    state_->notify.notify_waiters();
    //@ instead
    state_->notify.notify_one();
    //@ end
    //@ instead
    state_->notify.notify_waiters();
    if (state_->cancelled.exchange(true, std::memory_order_acq_rel)) return;
    //@ end
    // Under the lock, so that a child made from now on is born cancelled.
    children.swap(state_->children);
  }
  //@ mutant capstone cancel_forgets_children: cancels the token but not its children
  for (const std::weak_ptr<detail::CancellationState>& weak : children) {
    if (std::shared_ptr<detail::CancellationState> child = weak.lock()) CancellationToken(child).cancel();
  }
  //@ instead
  //@ end
  //@ starter
  // TODO: cancel this token, once, and every child of it.
  //  - under state_->mutex: set state_->cancelled (an exchange, so that a
  //    second cancel() does nothing more: acq_rel), then wake every waiter
  //    (state_->notify.notify_waiters()), and take the children list;
  //  - after unlocking, cancel each child that still exists
  //    (weak_ptr::lock, then CancellationToken(child).cancel()).
  // Hint: a waiter makes its Notified, then reads the flag. Which order of
  // "set the flag" and "notify" can it miss?
  throw Todo("@NN@ cancel (@FILE@)");
  //@ end
}
//@ listing-end token_cancel

//@ listing child_token
CancellationToken CancellationToken::child_token() const {
  auto child = std::make_shared<detail::CancellationState>();
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->cancelled.load(std::memory_order_relaxed)) {  // relaxed: the mutex orders it with cancel()
      // Forget children that are gone, so that a long-lived parent of
      // short-lived children does not grow.
      //@ mutant capstone child_token_keeps_dead_children: never forgets children that are gone, so a long-lived parent grows with every child
      std::erase_if(state_->children, [](const auto& weak) { return weak.expired(); });
      //@ instead
      //@ end
      state_->children.push_back(child);
      return CancellationToken(child);
    }
  }
  child->cancelled.store(true, std::memory_order_release);  // born cancelled
  return CancellationToken(child);
}
//@ listing-end child_token

//@ listing wait_for_cancellation
bool CancellationToken::WaitForCancellation::poll(Context& cx) {
  //@ exercise capstone wait_for_cancellation
  for (;;) {
    //@ mutant capstone wait_checks_first: looks at the flag before making its Notified, so a cancel in between is missed
    // The Notified first: from now on a notify_waiters() reaches it,
    // whether or not it has been polled yet. Then the flag, which answers
    // a cancel() that came before.
    if (!notified_) notified_.emplace(state_->notify);
    if (auto hook = detail::after_notified_made.load(std::memory_order_acquire)) hook();
    //@ mutant capstone wait_reads_flag_relaxed: reads the flag relaxed, so a waiter that sees it may not see what came before the cancel
    if (state_->cancelled.load(std::memory_order_acquire)) return true;  // acquire: pairs with cancel()'s exchange
    //@ instead
    if (state_->cancelled.load(std::memory_order_relaxed)) return true;
    //@ end
    //@ instead
    if (state_->cancelled.load(std::memory_order_acquire)) return true;
    if (auto hook = detail::after_notified_made.load(std::memory_order_acquire)) hook();
    if (!notified_) notified_.emplace(state_->notify);
    //@ end
    if (!notified_->poll(cx)) return false;
    // Notified: by this token's cancel() (the flag says so next time
    // round), or by nothing else, since only cancel() notifies.
    notified_.reset();
  }
  //@ starter
  // TODO: ready once the token is cancelled; else wait for cancel()'s
  // notify_waiters().
  //  - make the Notified of this wait (notified_.emplace(state_->notify)),
  //    unless one is in progress; then call the test hook
  //    `if (auto hook = detail::after_notified_made.load(std::memory_order_acquire)) hook();`;
  //  - then the flag (state_->cancelled, acquire): set means ready;
  //  - else poll the Notified with cx: pending means pending; notified
  //    means look again (reset notified_ and go round).
  // Hint: why make the Notified before reading the flag, and not after?
  (void)cx;
  throw Todo("@NN@ wait_for_cancellation (@FILE@)");
  //@ end
}
//@ listing-end wait_for_cancellation

}  // namespace rt
