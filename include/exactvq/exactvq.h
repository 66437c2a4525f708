/* exactvq C API: score a distorted video against its reference with libvmaf's
 * fixed-point SSIM, bit-identical on every backend.
 *
 * One context is one scoring run, in the shape of libvmaf's:
 *
 *   exactvq_options o;
 *   exactvq_default_options(&o);            // ssim, exact sum, CPU, all cores
 *   exactvq_context* ctx;
 *   if (exactvq_open(&ctx, &o) != EXACTVQ_OK) puts(exactvq_last_error(NULL));
 *   exactvq_score_frame(ctx, &ref, &dist);  // once per frame pair, scored at once
 *   exactvq_flush(ctx);                     // no more frames
 *   exactvq_pooled_scores p;
 *   exactvq_read_pooled(ctx, "ssim", &p);
 *   exactvq_close(ctx);
 *
 * or, instead of feeding frames, exactvq_score_files(ctx, "ref.y4m", "dist.y4m", NULL).
 *
 * Every function returns a status; on failure the context keeps a message that names
 * what went wrong and where (exactvq_last_error). No function throws or aborts on bad
 * input. A context may be used from one thread at a time; distinct contexts are
 * independent.
 */
#ifndef EXACTVQ_EXACTVQ_H
#define EXACTVQ_EXACTVQ_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define EXACTVQ_API
#else
#define EXACTVQ_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum exactvq_status {
  EXACTVQ_OK = 0,
  EXACTVQ_ERROR_ARGUMENT = 1, /* a null pointer, an unknown enum value, a bad count */
  EXACTVQ_ERROR_USAGE = 2,    /* an unknown feature or option, a bad option value */
  EXACTVQ_ERROR_INPUT = 3,    /* unreadable or malformed input, samples out of range,
                                 frames whose formats differ */
  EXACTVQ_ERROR_DEVICE = 4,   /* the requested backend is missing or failed */
  EXACTVQ_ERROR_STATE = 5,    /* a call out of order: a frame after flush, files after
                                 frames, scores of a feature that was not requested */
  EXACTVQ_ERROR_RANGE = 6,    /* a frame position past the frames scored */
  EXACTVQ_ERROR_MEMORY = 7,   /* out of memory */
  EXACTVQ_ERROR_INTERNAL = 8, /* a bug in exactvq; the message says what */
  /* Not a value: makes the type as wide as int, so a caller's out-of-range value
     is an argument error, not undefined behaviour (likewise below). */
  EXACTVQ_STATUS_MAX_ENUM = 0x7fffffff
} exactvq_status;

typedef enum exactvq_mode {
  EXACTVQ_MODE_EXACT = 0,  /* fixed-point sum: any split, any device, same bits */
  EXACTVQ_MODE_RASTER = 1, /* libvmaf's sequential binary64 sum: libvmaf's bits */
  EXACTVQ_MODE_MAX_ENUM = 0x7fffffff
} exactvq_mode;

typedef enum exactvq_backend {
  EXACTVQ_BACKEND_CPU = 0,
  EXACTVQ_BACKEND_CUDA = 1,
  EXACTVQ_BACKEND_OPENCL = 2,
  EXACTVQ_BACKEND_AUTO = 3, /* a CUDA device when one works, else the CPU */
  EXACTVQ_BACKEND_MAX_ENUM = 0x7fffffff
} exactvq_backend;

typedef enum exactvq_chroma {
  EXACTVQ_CHROMA_420 = 0,
  EXACTVQ_CHROMA_422 = 1,
  EXACTVQ_CHROMA_444 = 2,
  EXACTVQ_CHROMA_MONO = 3, /* luma only: data[1] and data[2] are ignored */
  EXACTVQ_CHROMA_MAX_ENUM = 0x7fffffff
} exactvq_chroma;

/* Called with one complete line (no newline): a notice about the device chosen, or a
 * warning such as one input ending before the other. */
typedef void (*exactvq_message_fn)(void* user, const char* message);

typedef struct exactvq_options {
  /* Features as the command line's --feature takes them, e.g. "ssim",
   * "ssim=chroma=true:enable_db=true". NULL (or count 0): "ssim". */
  const char* const* features;
  size_t feature_count;
  /* The sum of features named "ssim" that give no sum= option of their own. */
  exactvq_mode mode;
  exactvq_backend backend;
  int threads;                   /* worker threads; 0: all cores */
  int gpu;                       /* the CUDA device, as --gpu */
  int opencl_device;             /* the OpenCL device, as --opencl-device */
  exactvq_message_fn on_message; /* NULL: messages are discarded */
  void* message_user;
  /* VMAF models as the command line's --model takes them, e.g. "version=vmaf_v0.6.1",
   * "path=model.json:name=mine"; the features they read are scored before `features`,
   * and each model's score (named "vmaf" or name=) after every feature. NULL (or count
   * 0): none. Scores that look ahead (integer_motion2, vmaf) are known after
   * exactvq_flush. */
  const char* const* models;
  size_t model_count;
  int no_prediction; /* non-zero: the models' features only, not their scores */
} exactvq_options;

/* One frame. Samples are uint8_t when bitdepth is 8, else host-endian uint16_t holding
 * values up to 2^bitdepth - 1. Chroma planes of 4:2:0 are ceil(W/2) x ceil(H/2), of
 * 4:2:2 ceil(W/2) x H. Strides are in bytes, at least a row's bytes. */
typedef struct exactvq_picture {
  const void* data[3]; /* Y, Cb, Cr */
  ptrdiff_t stride[3];
  int width, height; /* of luma */
  exactvq_chroma chroma;
  int bitdepth; /* 8..16 */
} exactvq_picture;

/* Inputs of exactvq_score_files. Y4M files carry their format; raw YUV needs all of
 * width, height, chroma and bitdepth (0 or -1 where unused, as exactvq_default_file_options
 * sets them). */
typedef struct exactvq_file_options {
  int width, height;           /* raw YUV only; 0: not given */
  int chroma;                  /* an exactvq_chroma, raw YUV only; -1: not given */
  int bitdepth;                /* raw YUV only; 0: not given */
  int64_t frame_count;         /* score this many frames (more than exist is an error); -1: all */
  int64_t skip_ref, skip_dist; /* frames skipped at the start of each input */
  int subsample;               /* score frames 0, N, 2N, ...; 1: every frame */
} exactvq_file_options;

/* libvmaf's pooling over the frames scored, in frame order. */
typedef struct exactvq_pooled_scores {
  double min, max, mean, harmonic_mean;
} exactvq_pooled_scores;

typedef struct exactvq_context exactvq_context;

/* "0.1.0". */
EXACTVQ_API const char* exactvq_version(void);

/* A short name for a status: "EXACTVQ_ERROR_INPUT". */
EXACTVQ_API const char* exactvq_status_name(exactvq_status status);

/* The message of the last failed call on `ctx`, or "" when none failed. With NULL: the
 * message of the last exactvq_open that failed on this thread. Valid until the next
 * call on the same context (or thread). */
EXACTVQ_API const char* exactvq_last_error(const exactvq_context* ctx);

EXACTVQ_API void exactvq_default_options(exactvq_options* options);
EXACTVQ_API void exactvq_default_file_options(exactvq_file_options* options);

/* Checks the features and their options now; the device is opened with the first
 * frame (or file pair), when the video format is known. On failure *ctx is NULL. */
EXACTVQ_API exactvq_status exactvq_open(exactvq_context** ctx, const exactvq_options* options);

/* Frees the context; NULL is allowed. */
EXACTVQ_API void exactvq_close(exactvq_context* ctx);

/* Scores one frame pair before returning; its scores can be read at once. The first
 * frame fixes the format; every later picture must have the same. The pictures'
 * memory is not kept. */
EXACTVQ_API exactvq_status exactvq_score_frame(exactvq_context* ctx, const exactvq_picture* ref,
                                               const exactvq_picture* dist);

/* Scores `count` frame pairs, as a batch where the device prefers batches; the same
 * scores as `count` calls of exactvq_score_frame. */
EXACTVQ_API exactvq_status exactvq_score_frames(exactvq_context* ctx, const exactvq_picture* refs,
                                                const exactvq_picture* dists, size_t count);

/* As exactvq_score_frames, for pictures whose planes lie in CUDA device memory
 * (a torch or CuPy array on the GPU, a decoder's output): they are read once the work
 * queued on `cuda_stream` (a cudaStream_t; NULL: none) is done, and never copied to
 * the host when the context scores on that CUDA device (backend CUDA or AUTO, `gpu`
 * the device that holds them) and every feature computes there (all do, but vif on
 * pictures under 16x16); other runs copy them to the host first, said once through
 * on_message. Every picture of a
 * run is on the host or every one on the device. EXACTVQ_ERROR_DEVICE when exactvq was
 * built without CUDA. */
EXACTVQ_API exactvq_status exactvq_score_cuda_frames(exactvq_context* ctx,
                                                     const exactvq_picture* refs,
                                                     const exactvq_picture* dists, size_t count,
                                                     void* cuda_stream);
/* Ends the input: later frames are refused. Call it before reading pooled scores, as
 * libvmaf's vmaf_read_pictures(ctx, NULL, NULL, 0). */
EXACTVQ_API exactvq_status exactvq_flush(exactvq_context* ctx);

/* Scores two video files (Y4M, raw YUV; "-" reads standard input), as the command line
 * does, on a context that has been fed no frames; the context is flushed afterwards.
 * `file_options` may be NULL (Y4M inputs, every frame). */
EXACTVQ_API exactvq_status exactvq_score_files(exactvq_context* ctx, const char* ref_path,
                                               const char* dist_path,
                                               const exactvq_file_options* file_options);

/* The names of the scores, in order ("ssim", "ssim_cb", "ssim_cr", ...); known from
 * exactvq_open on, but for monochrome frames, which drop the chroma scores once the
 * first frame is scored. The name stays valid as long as the context. */
EXACTVQ_API exactvq_status exactvq_score_count(const exactvq_context* ctx, size_t* count);
EXACTVQ_API exactvq_status exactvq_score_name(const exactvq_context* ctx, size_t index,
                                              const char** name);

/* Frames scored so far, and the frame number of the one at `position` (its index in
 * the inputs: with skips or subsampling it differs from the position). */
EXACTVQ_API exactvq_status exactvq_frame_count(const exactvq_context* ctx, size_t* count);
EXACTVQ_API exactvq_status exactvq_frame_number(const exactvq_context* ctx, size_t position,
                                                uint32_t* frame_number);

/* The score `name` of the frame at `position`. */
EXACTVQ_API exactvq_status exactvq_read_score(const exactvq_context* ctx, const char* name,
                                              size_t position, double* score);

/* Copies the scores `name` of the first `count` frames (at most exactvq_frame_count)
 * into `scores`. */
EXACTVQ_API exactvq_status exactvq_read_scores(const exactvq_context* ctx, const char* name,
                                               double* scores, size_t count);

/* Pools the scores `name` over every frame scored; needs a flushed context with at
 * least one frame. */
EXACTVQ_API exactvq_status exactvq_read_pooled(const exactvq_context* ctx, const char* name,
                                               exactvq_pooled_scores* pooled);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_EXACTVQ_H */
