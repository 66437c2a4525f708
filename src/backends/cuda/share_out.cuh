// Deferred work shared out among a block's threads. A kernel's threads each
// keep a few items (border windows that take softfp's general path) until the
// end of their tile; when only some threads hold any (a tile's edge columns),
// the others would wait at the block's next barrier. share_out hands the items
// to every thread in rounds: each thread moves its items into `slots` (shared
// memory the kernel no longer needs) while they last, then each thread
// processes slots tid, tid + kThreads, ... Call from every thread of the block,
// with `count` zeroed before (any thread may read it after the first barrier).
#pragma once

namespace exactvq::cuda {

template <int kThreads, typename Item, typename Form>
__device__ __forceinline__ void share_out(const Item* mine, int mine_count, Item* slots,
                                          int capacity, int& count, Form&& form) {
  const int tid = int(threadIdx.x);
  int handed = 0;
  while (__syncthreads_or(handed < mine_count)) {
    while (handed < mine_count) {
      const int slot = atomicAdd(&count, 1);
      if (slot >= capacity) break;
      slots[slot] = mine[handed++];
    }
    __syncthreads();
    const int n = min(count, capacity);
#pragma unroll 1
    for (int i = tid; i < n; i += kThreads) form(slots[i]);
    __syncthreads();  // every thread has read `count` and its slots
    if (tid == 0) count = 0;
  }
}

}  // namespace exactvq::cuda
