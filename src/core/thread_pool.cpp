#include "core/thread_pool.h"

#include <algorithm>
#include <utility>

#include "core/run_trace.h"

namespace exactvq {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  for (auto& t : workers_) t.join();
  // Without workers, tasks posted and never helped with run here.
  std::unique_lock lock(mutex_);
  Loop* loop = nullptr;
  int i = 0;
  while (take(loop, i)) run(*loop, i, lock);
}

bool ThreadPool::take(Loop*& loop, int& i) {
  if (ready_.empty()) return false;
  loop = ready_.front();
  i = loop->next++;
  if (loop->next >= loop->count) ready_.pop_front();
  return true;
}

void ThreadPool::run(Loop& loop, int i, std::unique_lock<std::mutex>& lock) noexcept {
  lock.unlock();
  if (loop.posted) {
    {
      const run_trace::Span span("task");
      (*loop.posted)();  // noexcept: an escaping exception ends the program
    }
    delete &loop;
    lock.lock();
    changed_.notify_all();
    return;
  }
  std::exception_ptr error;
  try {
    const run_trace::Span span(loop.name ? loop.name : "loop", i);
    (*loop.body)(i);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  if (error && !loop.error) {
    loop.error = error;
    if (loop.next < loop.count) {  // hand out no more of this loop
      loop.unfinished -= loop.count - loop.next;
      loop.next = loop.count;
      ready_.erase(std::find(ready_.begin(), ready_.end(), &loop));
    }
  }
  // The loop's caller may be waiting for this one (or sleeping while others run).
  if (--loop.unfinished == 0) changed_.notify_all();
}

void ThreadPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    Loop* loop = nullptr;
    int i = 0;
    if (take(loop, i)) {
      run(*loop, i, lock);
      continue;
    }
    if (stop_) return;
    changed_.wait(lock);
  }
}

void ThreadPool::parallel_for(int count, const std::function<void(int)>& body) {
  loop_over(count, body, false);
}

void ThreadPool::parallel_for_own(int count, const std::function<void(int)>& body) {
  loop_over(count, body, true);
}

void ThreadPool::loop_over(int count, const std::function<void(int)>& body, bool own_tasks_only) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int i = 0; i < count; ++i) body(i);
    return;
  }
  Loop loop;
  loop.name = run_trace::current_name();
  loop.body = &body;
  loop.count = count;
  loop.unfinished = count;
  std::unique_lock lock(mutex_);
  ready_.push_back(&loop);
  changed_.notify_all();
  if (own_tasks_only) {
    while (loop.next < loop.count) {  // an error stops the handing out (run())
      const int i = loop.next++;
      if (loop.next >= loop.count) ready_.erase(std::find(ready_.begin(), ready_.end(), &loop));
      run(loop, i, lock);
    }
    changed_.wait(lock, [&] { return loop.unfinished == 0; });
  } else {
    // While ours are unfinished, the oldest ready task of any loop: the batch's
    // tasks are taken in the order they were made, whichever thread made them,
    // which spreads each loop's tasks over the threads.
    help(lock, [&] { return loop.unfinished == 0; });
  }
  if (loop.error) std::rethrow_exception(loop.error);
}

void ThreadPool::post(std::function<void()> task) {
  auto loop = std::make_unique<Loop>();
  loop->posted = std::make_unique<std::function<void()>>(std::move(task));
  loop->count = 1;
  loop->unfinished = 1;
  {
    std::lock_guard lock(mutex_);
    ready_.push_back(loop.release());
  }
  changed_.notify_all();
}

void ThreadPool::help_until(const std::function<bool()>& done) {
  std::unique_lock lock(mutex_);
  help(lock, done);
}

void ThreadPool::wait_until(const std::function<bool()>& done) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, done);
}

void ThreadPool::help(std::unique_lock<std::mutex>& lock, const std::function<bool()>& done) {
  while (!done()) {
    Loop* oldest = nullptr;
    int i = 0;
    if (take(oldest, i))
      run(*oldest, i, lock);
    else
      changed_.wait(lock);
  }
}

void ThreadPool::notify() {
  { std::lock_guard lock(mutex_); }
  changed_.notify_all();
}

}  // namespace exactvq
