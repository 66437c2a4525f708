// libvmaf's integer psnr on an OpenCL device: only the sum of squared errors of
// a plane, in 64-bit integers (order-free, so any reduction gives the CPU's sum);
// the host turns it into decibels (metrics/psnr/psnr_math.h). Embedded at build time.

static inline ulong squared_error(__global const uchar* ref, __global const uchar* dist, size_t i,
                                  int wide) {
  const long a = wide ? (long)((__global const ushort*)ref)[i] : (long)ref[i];
  const long b = wide ? (long)((__global const ushort*)dist)[i] : (long)dist[i];
  return (ulong)((a - b) * (a - b));
}

// Each work item sums a strided share of the `count` samples; each work-group
// (a power of two, at most PSNR_GROUP items) writes its sum to partial[group].
#define PSNR_GROUP 256
__kernel void psnr_sse(__global const uchar* ref, __global const uchar* dist, ulong count, int wide,
                       __global ulong* partial) {
  __local ulong sums[PSNR_GROUP];
  ulong sum = 0;
  for (size_t i = get_global_id(0); i < count; i += get_global_size(0))
    sum += squared_error(ref, dist, i, wide);
  const size_t lid = get_local_id(0);
  sums[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t half_size = get_local_size(0) / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size) sums[lid] += sums[lid + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = sums[0];
}
