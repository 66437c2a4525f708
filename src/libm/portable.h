// How a pinned function's one definition compiles for the host and, included in
// a .cu file, for a CUDA device as well (docs/spec/libm.md, "On devices"):
// functions are header-inline and, under nvcc, __host__ __device__; a table is
// one initializer that makes a host array and, under nvcc, a copy in device
// memory, read through an accessor that picks the copy of the side it runs on.
#pragma once

#if defined(__CUDACC__)
#define EXACTVQ_LIBM_FN __host__ __device__ inline
#else
#define EXACTVQ_LIBM_FN inline
#endif

#if defined(__CUDA_ARCH__)
#define EXACTVQ_LIBM_SIDE(host, device) device
#else
#define EXACTVQ_LIBM_SIDE(host, device) host
#endif

// EXACTVQ_LIBM_TABLE(Type, name, {values...}) defines name() -> const Type*,
// the table's first entry on the side that calls it.
#if defined(__CUDACC__)
#define EXACTVQ_LIBM_TABLE(Type, name, ...)                      \
  inline constexpr Type name##_on_host[] = __VA_ARGS__;          \
  static __device__ const Type name##_on_device[] = __VA_ARGS__; \
  EXACTVQ_LIBM_FN const Type* name() { return EXACTVQ_LIBM_SIDE(name##_on_host, name##_on_device); }
#else
#define EXACTVQ_LIBM_TABLE(Type, name, ...)             \
  inline constexpr Type name##_on_host[] = __VA_ARGS__; \
  inline const Type* name() { return name##_on_host; }
#endif
