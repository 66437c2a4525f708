/* The subset that C++, CUDA C++ and OpenCL C share, for definitions written once
 * for every backend (src/metrics/<metric>/definition.h, src/softfp/): integer
 * types behind typedefs, a qualifier for functions, an address space for tables
 * in device memory, plain structs; no double, no namespaces, no std::, no
 * exceptions. A header written this way compiles
 * in C++ (host), in a .cu file (host and device) and, pasted into the OpenCL
 * source at build time (exactvq_embed_opencl), in OpenCL C.
 */
#ifndef EXACTVQ_CORE_PORTABLE_H
#define EXACTVQ_CORE_PORTABLE_H

#if defined(__OPENCL_VERSION__)
typedef ulong exactvq_u64;
typedef long exactvq_i64;
typedef uint exactvq_u32;
typedef int exactvq_i32;
typedef ushort exactvq_u16;
typedef short exactvq_i16;
#define EXACTVQ_FN static inline
#define EXACTVQ_CONSTEXPR_FN static inline
#define EXACTVQ_U64_C(x) x##UL
#define EXACTVQ_UNROLL
#define EXACTVQ_GLOBAL __global
#else
#include <stdint.h>
typedef uint64_t exactvq_u64;
typedef int64_t exactvq_i64;
typedef uint32_t exactvq_u32;
typedef int32_t exactvq_i32;
typedef uint16_t exactvq_u16;
typedef int16_t exactvq_i16;
#define EXACTVQ_U64_C(x) UINT64_C(x)
#if defined(__CUDACC__)
#define EXACTVQ_FN static __host__ __device__ inline
#define EXACTVQ_CONSTEXPR_FN static __host__ __device__ __forceinline__ constexpr
#if defined(__CUDA_ARCH__)
#define EXACTVQ_UNROLL _Pragma("unroll")
#else
#define EXACTVQ_UNROLL
#endif
#else
#define EXACTVQ_FN static inline
#define EXACTVQ_CONSTEXPR_FN static inline constexpr
#define EXACTVQ_UNROLL
#endif
#endif

/* The address space of a table in device memory (OpenCL's __global; empty in
 * C++ and CUDA). */
#ifndef EXACTVQ_GLOBAL
#define EXACTVQ_GLOBAL
#endif

/* A signed 128-bit integer in two's complement, as two words: hi * 2^64 + lo. */
typedef struct exactvq_i128 {
  exactvq_u64 lo;
  exactvq_u64 hi;
} exactvq_i128;

#endif /* EXACTVQ_CORE_PORTABLE_H */
