// exactvq C++ wrapper: the C API (exactvq.h) with ownership and exceptions.
//
//   exactvq::api::Options options;
//   options.features = {"ssim=chroma=true"};
//   exactvq::api::Context ctx(options);
//   ctx.score_files("ref.y4m", "dist.y4m");
//   double mean = ctx.pooled("ssim").mean;
//   std::vector<double> per_frame = ctx.scores("ssim_cb");
//
// Header-only over the C functions, so it needs nothing but libexactvq. C++17.
#ifndef EXACTVQ_EXACTVQ_HPP
#define EXACTVQ_EXACTVQ_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exactvq/exactvq.h"

namespace exactvq::api {

// A failed call: the C status and the context's message.
class Error : public std::runtime_error {
 public:
  Error(exactvq_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  exactvq_status status() const noexcept { return status_; }

 private:
  exactvq_status status_;
};

struct Options {
  std::vector<std::string> features;  // --feature syntax; empty (and no models): "ssim"
  std::vector<std::string> models;    // --model syntax ("version=vmaf_v0.6.1")
  bool no_prediction = false;         // the models' features only
  exactvq_mode mode = EXACTVQ_MODE_EXACT;
  exactvq_backend backend = EXACTVQ_BACKEND_CPU;
  int threads = 0;  // 0: all cores
  int gpu = 0;
  int opencl_device = 0;
  std::function<void(const std::string&)> on_message;  // notices and warnings
};

inline exactvq_file_options default_file_options() {
  exactvq_file_options o;
  exactvq_default_file_options(&o);
  return o;
}

inline std::string version() { return exactvq_version(); }

class Context {
 public:
  explicit Context(const Options& options = {})
      : on_message_(std::make_unique<std::function<void(const std::string&)>>(options.on_message)) {
    std::vector<const char*> features;
    for (const auto& f : options.features) features.push_back(f.c_str());
    std::vector<const char*> models;
    for (const auto& m : options.models) models.push_back(m.c_str());
    exactvq_options o;
    exactvq_default_options(&o);
    o.features = features.data();
    o.feature_count = features.size();
    o.models = models.data();
    o.model_count = models.size();
    o.no_prediction = options.no_prediction ? 1 : 0;
    o.mode = options.mode;
    o.backend = options.backend;
    o.threads = options.threads;
    o.gpu = options.gpu;
    o.opencl_device = options.opencl_device;
    if (*on_message_) {
      o.on_message = &Context::forward_message;
      o.message_user = on_message_.get();
    }
    exactvq_context* ctx = nullptr;
    const exactvq_status status = exactvq_open(&ctx, &o);
    if (status != EXACTVQ_OK) throw Error(status, exactvq_last_error(nullptr));
    ctx_.reset(ctx);
  }

  // Scores one frame pair at once.
  void score_frame(const exactvq_picture& ref, const exactvq_picture& dist) {
    check(exactvq_score_frame(ctx_.get(), &ref, &dist));
  }
  void score_frames(const exactvq_picture* refs, const exactvq_picture* dists, size_t count) {
    check(exactvq_score_frames(ctx_.get(), refs, dists, count));
  }
  // Pictures in CUDA device memory, read after the work queued on `cuda_stream`.
  void score_cuda_frames(const exactvq_picture* refs, const exactvq_picture* dists, size_t count,
                         void* cuda_stream = nullptr) {
    check(exactvq_score_cuda_frames(ctx_.get(), refs, dists, count, cuda_stream));
  }
  void flush() { check(exactvq_flush(ctx_.get())); }
  void score_files(const std::string& ref_path, const std::string& dist_path,
                   const exactvq_file_options& options = default_file_options()) {
    check(exactvq_score_files(ctx_.get(), ref_path.c_str(), dist_path.c_str(), &options));
  }

  std::vector<std::string> score_names() const {
    size_t count = 0;
    check(exactvq_score_count(ctx_.get(), &count));
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      check(exactvq_score_name(ctx_.get(), i, &name));
      names.emplace_back(name);
    }
    return names;
  }
  size_t frame_count() const {
    size_t count = 0;
    check(exactvq_frame_count(ctx_.get(), &count));
    return count;
  }
  std::vector<uint32_t> frame_numbers() const {
    std::vector<uint32_t> numbers(frame_count());
    for (size_t i = 0; i < numbers.size(); ++i)
      check(exactvq_frame_number(ctx_.get(), i, &numbers[i]));
    return numbers;
  }
  double score(const std::string& name, size_t position) const {
    double v = 0;
    check(exactvq_read_score(ctx_.get(), name.c_str(), position, &v));
    return v;
  }
  std::vector<double> scores(const std::string& name) const {
    std::vector<double> values(frame_count());
    check(exactvq_read_scores(ctx_.get(), name.c_str(), values.data(), values.size()));
    return values;
  }
  exactvq_pooled_scores pooled(const std::string& name) const {
    exactvq_pooled_scores p{};
    check(exactvq_read_pooled(ctx_.get(), name.c_str(), &p));
    return p;
  }

  exactvq_context* get() const noexcept { return ctx_.get(); }

 private:
  struct Close {
    void operator()(exactvq_context* ctx) const noexcept { exactvq_close(ctx); }
  };

  // C callbacks must not throw; a failing handler loses its message, not the run.
  static void forward_message(void* user, const char* message) noexcept {
    try {
      (*static_cast<std::function<void(const std::string&)>*>(user))(message);
    } catch (...) {
    }
  }

  void check(exactvq_status status) const {
    if (status != EXACTVQ_OK) throw Error(status, exactvq_last_error(ctx_.get()));
  }

  // On the heap, so that its address given to the C API survives moves of the Context.
  std::unique_ptr<std::function<void(const std::string&)>> on_message_;
  std::unique_ptr<exactvq_context, Close> ctx_;
};

}  // namespace exactvq::api

#endif  // EXACTVQ_EXACTVQ_HPP
