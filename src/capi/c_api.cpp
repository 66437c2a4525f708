// The C functions: each runs its C++ body inside one try block and turns any
// exception into a status and the context's last-error message; nothing throws
// across the C boundary.
#include <new>
#include <string>

#include "capi/api_context.h"
#include "capi/api_errors.h"
#include "core/error.h"
#include "exactvq/exactvq.h"

struct exactvq_context {
  explicit exactvq_context(const exactvq_options& options) : impl(options) {}
  exactvq::capi::ApiContext impl;
};

namespace exactvq::capi {
namespace {

// The message of the last exactvq_open that failed on this thread.
thread_local std::string open_error;

// Runs body(); on an exception stores its message in `error` and returns its status.
template <typename Body>
exactvq_status guarded(std::string& error, Body&& body) noexcept {
  try {
    try {
      body();
      error.clear();
      return EXACTVQ_OK;
    } catch (const ArgumentError& e) {
      error = e.what();
      return EXACTVQ_ERROR_ARGUMENT;
    } catch (const UsageError& e) {
      error = e.what();
      return EXACTVQ_ERROR_USAGE;
    } catch (const InputError& e) {
      error = e.what();
      return EXACTVQ_ERROR_INPUT;
    } catch (const OutputError& e) {
      error = e.what();
      return EXACTVQ_ERROR_INPUT;
    } catch (const DeviceError& e) {
      error = e.what();
      return EXACTVQ_ERROR_DEVICE;
    } catch (const StateError& e) {
      error = e.what();
      return EXACTVQ_ERROR_STATE;
    } catch (const RangeError& e) {
      error = e.what();
      return EXACTVQ_ERROR_RANGE;
    } catch (const std::bad_alloc&) {
      error = "out of memory";
      return EXACTVQ_ERROR_MEMORY;
    } catch (const std::exception& e) {
      error = std::string("internal error: ") + e.what();
      return EXACTVQ_ERROR_INTERNAL;
    } catch (...) {
      error = "internal error: an unknown exception";
      return EXACTVQ_ERROR_INTERNAL;
    }
  } catch (...) {  // storing the message itself ran out of memory
    return EXACTVQ_ERROR_MEMORY;
  }
}

// For calls on a context: a null context is refused without a place for the message.
template <typename Context, typename Body>
exactvq_status on_context(Context* ctx, Body&& body) noexcept {
  if (!ctx) return EXACTVQ_ERROR_ARGUMENT;
  return guarded(ctx->impl.last_error, [&] { body(ctx->impl); });
}

void require(const void* pointer, const char* what) {
  if (!pointer) throw ArgumentError(std::string(what) + " is a null pointer");
}

}  // namespace
}  // namespace exactvq::capi

using exactvq::capi::ApiContext;
using exactvq::capi::guarded;
using exactvq::capi::on_context;
using exactvq::capi::require;

extern "C" {

const char* exactvq_version(void) { return EXACTVQ_VERSION; }

const char* exactvq_status_name(exactvq_status status) {
  switch (status) {
    case EXACTVQ_OK:
      return "EXACTVQ_OK";
    case EXACTVQ_ERROR_ARGUMENT:
      return "EXACTVQ_ERROR_ARGUMENT";
    case EXACTVQ_ERROR_USAGE:
      return "EXACTVQ_ERROR_USAGE";
    case EXACTVQ_ERROR_INPUT:
      return "EXACTVQ_ERROR_INPUT";
    case EXACTVQ_ERROR_DEVICE:
      return "EXACTVQ_ERROR_DEVICE";
    case EXACTVQ_ERROR_STATE:
      return "EXACTVQ_ERROR_STATE";
    case EXACTVQ_ERROR_RANGE:
      return "EXACTVQ_ERROR_RANGE";
    case EXACTVQ_ERROR_MEMORY:
      return "EXACTVQ_ERROR_MEMORY";
    case EXACTVQ_ERROR_INTERNAL:
      return "EXACTVQ_ERROR_INTERNAL";
    case EXACTVQ_STATUS_MAX_ENUM:
      break;
  }
  return "EXACTVQ_UNKNOWN_STATUS";
}

const char* exactvq_last_error(const exactvq_context* ctx) {
  return ctx ? ctx->impl.last_error.c_str() : exactvq::capi::open_error.c_str();
}

void exactvq_default_options(exactvq_options* options) {
  if (!options) return;
  *options = exactvq_options{};
  options->mode = EXACTVQ_MODE_EXACT;
  options->backend = EXACTVQ_BACKEND_CPU;
}

void exactvq_default_file_options(exactvq_file_options* options) {
  if (!options) return;
  *options = exactvq_file_options{};
  options->chroma = -1;
  options->frame_count = -1;
  options->subsample = 1;
}

exactvq_status exactvq_open(exactvq_context** ctx, const exactvq_options* options) {
  return guarded(exactvq::capi::open_error, [&] {
    require(ctx, "exactvq_open: the context pointer");
    *ctx = nullptr;
    exactvq_options defaults;
    exactvq_default_options(&defaults);
    *ctx = new exactvq_context(options ? *options : defaults);
  });
}

void exactvq_close(exactvq_context* ctx) { delete ctx; }

exactvq_status exactvq_score_frame(exactvq_context* ctx, const exactvq_picture* ref,
                                   const exactvq_picture* dist) {
  return on_context(ctx, [&](ApiContext& c) {
    require(ref, "exactvq_score_frame: the reference picture");
    require(dist, "exactvq_score_frame: the distorted picture");
    c.score_frames(ref, dist, 1);
  });
}

exactvq_status exactvq_score_frames(exactvq_context* ctx, const exactvq_picture* refs,
                                    const exactvq_picture* dists, size_t count) {
  return on_context(ctx, [&](ApiContext& c) { c.score_frames(refs, dists, count); });
}

exactvq_status exactvq_score_cuda_frames(exactvq_context* ctx, const exactvq_picture* refs,
                                         const exactvq_picture* dists, size_t count,
                                         void* cuda_stream) {
  return on_context(ctx,
                    [&](ApiContext& c) { c.score_cuda_frames(refs, dists, count, cuda_stream); });
}

exactvq_status exactvq_flush(exactvq_context* ctx) {
  return on_context(ctx, [&](ApiContext& c) { c.flush(); });
}

exactvq_status exactvq_score_files(exactvq_context* ctx, const char* ref_path,
                                   const char* dist_path,
                                   const exactvq_file_options* file_options) {
  return on_context(ctx, [&](ApiContext& c) {
    require(ref_path, "exactvq_score_files: the reference path");
    require(dist_path, "exactvq_score_files: the distorted path");
    exactvq_file_options defaults;
    exactvq_default_file_options(&defaults);
    c.score_files(ref_path, dist_path, file_options ? *file_options : defaults);
  });
}

exactvq_status exactvq_score_count(const exactvq_context* ctx, size_t* count) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(count, "exactvq_score_count: the count pointer");
    *count = c.score_names().size();
  });
}

exactvq_status exactvq_score_name(const exactvq_context* ctx, size_t index, const char** name) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(name, "exactvq_score_name: the name pointer");
    if (index >= c.score_names().size())
      throw exactvq::capi::RangeError("score index " + std::to_string(index) + " is past the " +
                                      std::to_string(c.score_names().size()) + " scores");
    *name = c.score_names()[index].c_str();
  });
}

exactvq_status exactvq_frame_count(const exactvq_context* ctx, size_t* count) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(count, "exactvq_frame_count: the count pointer");
    *count = c.frame_count();
  });
}

exactvq_status exactvq_frame_number(const exactvq_context* ctx, size_t position,
                                    uint32_t* frame_number) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(frame_number, "exactvq_frame_number: the frame number pointer");
    *frame_number = c.frame_number(position);
  });
}

exactvq_status exactvq_read_score(const exactvq_context* ctx, const char* name, size_t position,
                                  double* score) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(name, "exactvq_read_score: the score name");
    require(score, "exactvq_read_score: the score pointer");
    *score = c.score(name, position);
  });
}

exactvq_status exactvq_read_scores(const exactvq_context* ctx, const char* name, double* scores,
                                   size_t count) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(name, "exactvq_read_scores: the score name");
    c.scores(name, scores, count);
  });
}

exactvq_status exactvq_read_pooled(const exactvq_context* ctx, const char* name,
                                   exactvq_pooled_scores* pooled) {
  return on_context(ctx, [&](const ApiContext& c) {
    require(name, "exactvq_read_pooled: the score name");
    require(pooled, "exactvq_read_pooled: the pooled scores pointer");
    const exactvq::Pooled p = c.pooled(name);
    *pooled = {p.min, p.max, p.mean, p.harmonic_mean};
  });
}

}  // extern "C"
