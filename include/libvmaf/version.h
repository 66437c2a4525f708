/* The libvmaf API version exactvq's libvmaf.so.3 implements. */
#ifndef EXACTVQ_LIBVMAF_VERSION_H
#define EXACTVQ_LIBVMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif /* EXACTVQ_LIBVMAF_VERSION_H */
