// vmaf_init, the registration of features and models, vmaf_read_pictures, the
// score readers and pooling, vmaf_close, vmaf_version.
#include "libvmaf_api/context.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "backends/cpu/simd_targets.h"
#include "capi/api_errors.h"
#include "core/error.h"
#include "libvmaf_api/dictionary.h"
#include "libvmaf_api/log.h"
#include "libvmaf_api/model_handle.h"
#include "metrics/vmaf/model_features.h"

namespace exactvq::libvmaf_api {

namespace {

// Runs body() (which returns a status); a thrown error is logged and becomes
// -EINVAL (-ENOMEM when out of memory), as libvmaf reports its failures.
template <typename Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (const std::exception& e) {
    try {
      log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("{}: {}", function, e.what()));
    } catch (...) {}
    return -EINVAL;
  } catch (...) {
    return -EINVAL;
  }
}

int refuse(const std::string& message) {
  log_line(VMAF_LOG_LEVEL_ERROR, message);
  return -EINVAL;
}

exactvq_chroma chroma_of(VmafPixelFormat f) {
  switch (f) {
    case VMAF_PIX_FMT_YUV420P:
      return EXACTVQ_CHROMA_420;
    case VMAF_PIX_FMT_YUV422P:
      return EXACTVQ_CHROMA_422;
    case VMAF_PIX_FMT_YUV444P:
      return EXACTVQ_CHROMA_444;
    case VMAF_PIX_FMT_YUV400P:
      return EXACTVQ_CHROMA_MONO;
    case VMAF_PIX_FMT_UNKNOWN:
      break;
  }
  throw UsageError(fmt::format("pixel format {} is not one libvmaf scores", int(f)));
}

// The ApiContext options of the context's features and models; `texts` keeps
// the strings the options point to.
struct RunOptions {
  exactvq_options options{};
  std::vector<const char*> features, models;
};

RunOptions run_options(const VmafContext& v) {
  RunOptions r;
  exactvq_default_options(&r.options);
  for (const auto& s : v.feature_specs) r.features.push_back(s.c_str());
  for (const auto& s : v.model_specs) r.models.push_back(s.c_str());
  r.options.features = r.features.data();
  r.options.feature_count = r.features.size();
  r.options.models = r.models.data();
  r.options.model_count = r.models.size();
  // libvmaf's n_threads 0 runs on the calling thread alone.
  r.options.threads = v.cfg.n_threads > 0 ? int(std::min(v.cfg.n_threads, 1024u)) : 1;
  if (v.backend_choice) {
    // EXACTVQ_LIBVMAF_BACKEND: the user's choice, over gpumask and a CUDA state.
    r.options.backend = v.backend_choice->backend;
    const int state_device = v.cuda_device >= 0 ? v.cuda_device : 0;
    if (r.options.backend == EXACTVQ_BACKEND_CUDA)
      r.options.gpu = v.backend_choice->device.value_or(state_device);
    if (r.options.backend == EXACTVQ_BACKEND_OPENCL)
      r.options.opencl_device = v.backend_choice->device.value_or(0);
  } else if (v.cuda_device >= 0 && v.cfg.gpumask == 0) {
    // CUDA when a CUDA state was imported and gpumask leaves it on, as libvmaf.
    r.options.backend = EXACTVQ_BACKEND_CUDA;
    r.options.gpu = v.cuda_device;
  } else {
    r.options.backend = EXACTVQ_BACKEND_CPU;
  }
  r.options.on_message = [](void*, const char* line) { log_line(VMAF_LOG_LEVEL_INFO, line); };
  return r;
}

// Throws the ApiContext's error for the features and models registered so far.
void check_registration(const VmafContext& v) {
  if (v.feature_specs.empty() && v.model_specs.empty()) return;
  RunOptions r = run_options(v);
  r.options.backend = EXACTVQ_BACKEND_CPU;  // the device is opened with the first picture
  capi::ApiContext probe(r.options);
}

void check_picture(const VmafPicture& pic, const char* which) {
  if (!pic.ref || !pic.priv)
    throw UsageError(fmt::format(
        "the {} picture was not made by vmaf_picture_alloc or a picture pool (no ref/priv)",
        which));
  if (!pic.data[0]) throw UsageError(fmt::format("the {} picture has no luma plane", which));
}

exactvq_picture to_exactvq(const VmafPicture& pic) {
  exactvq_picture p{};
  for (int i = 0; i < 3; ++i) {
    p.data[i] = pic.data[i];
    p.stride[i] = pic.stride[i];
  }
  p.width = int(pic.w[0]);
  p.height = int(pic.h[0]);
  p.chroma = chroma_of(pic.pix_fmt);
  p.bitdepth = int(pic.bpc);
  return p;
}

// The run and its queue go (the queue's thread first, its buffers last).
void drop_run(VmafContext& v) {
  if (v.queue) v.queue->stop();
  v.run.reset();
  v.queue.reset();
}

int read_pictures(VmafContext& v, VmafPicture& ref, VmafPicture& dist, unsigned index) {
  check_picture(ref, "reference");
  check_picture(dist, "distorted");
  if (ref.w[0] != dist.w[0] || ref.h[0] != dist.h[0] || ref.pix_fmt != dist.pix_fmt ||
      ref.bpc != dist.bpc)
    return refuse(fmt::format(
        "vmaf_read_pictures: index {}: the reference picture ({}x{}, format {}, {} bits) and "
        "the distorted picture ({}x{}, format {}, {} bits) differ",
        index, ref.w[0], ref.h[0], int(ref.pix_fmt), ref.bpc, dist.w[0], dist.h[0],
        int(dist.pix_fmt), dist.bpc));
  if (v.started &&
      (ref.w[0] != v.w || ref.h[0] != v.h || ref.pix_fmt != v.pix_fmt || ref.bpc != v.bpc))
    return refuse(fmt::format(
        "vmaf_read_pictures: index {}: the pictures are {}x{}, format {}, {} bits, but the "
        "first were {}x{}, format {}, {} bits",
        index, ref.w[0], ref.h[0], int(ref.pix_fmt), ref.bpc, v.w, v.h, int(v.pix_fmt), v.bpc));
  if (index != v.pic_cnt)
    return refuse(fmt::format(
        "vmaf_read_pictures: index {}: exactvq scores pictures in order, and the next index is "
        "{}",
        index, v.pic_cnt));
  // libvmaf's chroma planes of odd-sized 4:2:0 / 4:2:2 pictures are rounded down,
  // exactvq's engines read them rounded up: such pictures are scored as luma alone,
  // which is exact for every score that reads luma only (VMAF's features) and
  // refused for a run with chroma scores.
  const bool subsampled =
      ref.pix_fmt == VMAF_PIX_FMT_YUV420P || ref.pix_fmt == VMAF_PIX_FMT_YUV422P;
  const bool odd = (ref.w[0] & 1) || (ref.pix_fmt == VMAF_PIX_FMT_YUV420P && (ref.h[0] & 1));
  exactvq_picture r = to_exactvq(ref), d = to_exactvq(dist);
  const bool luma_alone = subsampled && odd;
  if (luma_alone) r.chroma = d.chroma = EXACTVQ_CHROMA_MONO;
  const bool has_scores = !v.feature_specs.empty() || !v.model_specs.empty();
  const bool first = has_scores && !v.run;
  if (first) {
    const RunOptions options = run_options(v);
    // libvmaf's n_threads 0 scores on the calling thread; otherwise batches are
    // scored beside it, as libvmaf's worker threads score its pictures. A device
    // always scores beside the caller (n_threads counts CPU threads; FFmpeg's
    // default is 0), so that reading and the device's work overlap.
    const bool on_cpu = options.options.backend == EXACTVQ_BACKEND_CPU;
    const bool beside = v.cfg.n_threads > 0 || !on_cpu;
    // On the CPU, the queue's thread only feeds n_threads threads of the run's
    // (as libvmaf's n_threads workers): free of the scoring, it hands each
    // batch over as soon as it comes.
    v.run = std::make_unique<capi::ApiContext>(options.options, !(beside && on_cpu));
    v.queue = std::make_unique<FrameQueue>(*v.run, beside);
  }
  // Pictures of METHOD_DEVICE lie in CUDA device memory: scored there.
  const bool on_device = memory_of(ref)->place.on_device();
  // After the first pair, pictures of the caller's own (not a pool's, which it
  // may need back at once) are lent to the queue rather than copied here (their
  // samples' range is checked here, where they are).
  const bool lent =
      !first && v.run && !on_device && !memory_of(ref)->pool && !memory_of(dist)->pool;
  if (on_device != memory_of(dist)->place.on_device())
    return refuse(fmt::format(
        "vmaf_read_pictures: index {}: one picture is in CUDA device memory, the other on the "
        "host",
        index));
  if (v.run) {
    try {
      // The first pair's check below needs the names before it.
      const std::vector<std::string> names =
          first && luma_alone ? v.run->score_names() : std::vector<std::string>{};
      if (on_device) {
        v.queue->settle();
        v.run->score_cuda_frames(&r, &d, 1, nullptr);
      } else if (lent) {
        // The pictures stay the queue's until their batch copies them (off this
        // thread when it scores on its own); the caller's structs are zeroed below.
        v.queue->lend(r, d, index, [held_ref = ref, held_dist = dist]() mutable {
          vmaf_picture_unref(&held_ref);
          vmaf_picture_unref(&held_dist);
        });
      } else {
        v.queue->add(r, d, index);
      }
      if (first && luma_alone && v.run->score_names() != names)
        throw UsageError(fmt::format(
            "vmaf_read_pictures: {}x{} pictures with subsampled chroma: libvmaf rounds their "
            "chroma planes down, which exactvq does not score yet; scores that read luma only "
            "(VMAF's) are scored",
            ref.w[0], ref.h[0]));
    } catch (...) {
      if (first) drop_run(v);  // the next picture starts over
      throw;
    }
  }
  if (!v.started) {
    v.started = true;
    v.w = ref.w[0];
    v.h = ref.h[0];
    v.pix_fmt = ref.pix_fmt;
    v.bpc = ref.bpc;
    v.begin = std::chrono::steady_clock::now();
  }
  ++v.pic_cnt;
  if (lent) {
    std::memset(&ref, 0, sizeof ref);
    std::memset(&dist, 0, sizeof dist);
  } else {
    vmaf_picture_unref(&ref);
    vmaf_picture_unref(&dist);
  }
  return 0;
}

}  // namespace

void settle(VmafContext& v) {
  if (v.queue) v.queue->settle();
}

bool index_scored(const VmafContext& v, unsigned index) {
  return v.cfg.n_subsample <= 1 || index % v.cfg.n_subsample == 0;
}

namespace {

// Whether `name` is a score of a collection registered through its main model
// alone, which libvmaf would not have computed.
bool hidden(const VmafContext& v, const std::string& name) {
  for (const auto& c : v.collections)
    if (!c.shown && std::find(c.outputs.begin(), c.outputs.end(), name) != c.outputs.end())
      return true;
  return false;
}

// A score the run computed, shown or not.
std::optional<double> computed_score(const VmafContext& v, const std::string& name,
                                     unsigned index) {
  if (!index_scored(v, index) || !v.run || index >= v.pic_cnt) return std::nullopt;
  const auto& names = v.run->score_names();
  // libvmaf's own names ("VMAF_integer_feature_adm2_score") and the aliases its
  // outputs print (exactvq's column names) both find a score.
  std::string column = name;
  if (std::find(names.begin(), names.end(), column) == names.end())
    column = std::string(vmaf::feature_alias(name));
  if (std::find(names.begin(), names.end(), column) == names.end()) return std::nullopt;
  try {
    return v.run->score(column, index);
  } catch (const capi::RangeError&) {
    return std::nullopt;  // not known yet (a look-ahead score before the flush)
  }
}

}  // namespace

std::vector<std::string> score_names(const VmafContext& v) {
  std::vector<std::string> names;
  if (v.run)
    for (const auto& name : v.run->score_names())
      if (!hidden(v, name)) names.push_back(name);
  for (const auto& i : v.imported) names.push_back(i.name);
  return names;
}

std::optional<double> score_of(const VmafContext& v, const std::string& name, unsigned index) {
  // Imported scores are read at any index, as libvmaf reads its collector.
  for (const auto& i : v.imported)
    if (i.name == name) {
      if (index < i.values.size()) return i.values[index];
      return std::nullopt;
    }
  if (hidden(v, name)) return std::nullopt;
  return computed_score(v, name, index);
}

// libvmaf's pooling: one pass over the indices in order, skipping those
// n_subsample leaves out; min and max start from index_low's value (so from
// none, as in libvmaf, when index_low is skipped).
int pool_scores(const VmafContext& v, const std::string& name, VmafPoolingMethod method,
                double* score, unsigned index_low, unsigned index_high) {
  if (!score || index_low > index_high || method <= VMAF_POOL_METHOD_UNKNOWN ||
      method >= VMAF_POOL_METHOD_NB)
    return -EINVAL;
  unsigned count = 0;
  double min = 0., max = 0., sum = 0., inverse_sum = 0.;
  // The scored indices alone (multiples of n_subsample), in 64 bits: no wrap at
  // the top of the range and no walk over the indices skipped.
  const uint64_t step = v.cfg.n_subsample > 1 ? v.cfg.n_subsample : 1;
  for (uint64_t i = (uint64_t(index_low) + step - 1) / step * step; i <= index_high; i += step) {
    ++count;
    const std::optional<double> s = score_of(v, name, unsigned(i));
    if (!s) return -EINVAL;
    sum += *s;
    inverse_sum += 1. / (*s + 1.);
    if (i == index_low || *s < min) min = *s;
    if (i == index_low || *s > max) max = *s;
  }
  switch (method) {
    case VMAF_POOL_METHOD_MEAN:
      *score = sum / count;
      return 0;
    case VMAF_POOL_METHOD_MIN:
      *score = min;
      return 0;
    case VMAF_POOL_METHOD_MAX:
      *score = max;
      return 0;
    case VMAF_POOL_METHOD_HARMONIC_MEAN:
      *score = count / inverse_sum - 1.0;
      return 0;
    default:
      return -EINVAL;
  }
}

}  // namespace exactvq::libvmaf_api

using namespace exactvq::libvmaf_api;
using exactvq::UsageError;

VmafContext::~VmafContext() { drop_run(*this); }

extern "C" int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
  if (!vmaf) return -EINVAL;
  *vmaf = nullptr;
  set_process_log_level(cfg.log_level);
  return guarded("vmaf_init", [&] {
    std::string fallback;
    std::optional<BackendChoice> choice = backend_from_environment(&fallback);
    if (!fallback.empty()) log_line(VMAF_LOG_LEVEL_WARNING, "vmaf_init: " + fallback);
    exactvq::cpu::apply_simd_environment();
    auto context = std::make_unique<VmafContext>();
    context->cfg = cfg;
    context->backend_choice = choice;
    if (choice && choice->backend == EXACTVQ_BACKEND_CUDA) {
      // The CUDA context is made while the program opens its inputs.
      exactvq::DeviceOptions device;
      device.backend = exactvq::Backend::kCuda;
      device.gpu = choice->device.value_or(0);
      context->warmup = std::make_unique<exactvq::DeviceWarmup>(device);
    }
    *vmaf = context.release();
    return 0;
  });
}

extern "C" int vmaf_close(VmafContext* vmaf) {
  if (!vmaf) return -EINVAL;
  delete vmaf;
  return 0;
}

extern "C" int vmaf_use_feature(VmafContext* vmaf, const char* feature_name,
                                VmafFeatureDictionary* opts_dict) {
  if (!vmaf || !feature_name) return -EINVAL;
  return guarded("vmaf_use_feature", [&] {
    if (vmaf->started || vmaf->flushed)
      return refuse(fmt::format(
          "vmaf_use_feature {}: features are registered before the first picture", feature_name));
    vmaf->feature_specs.push_back(feature_spec_text(feature_name, opts_dict));
    try {
      check_registration(*vmaf);
    } catch (...) {
      vmaf->feature_specs.pop_back();
      throw;
    }
    delete opts_dict;  // taken on success, as libvmaf takes it
    return 0;
  });
}

namespace {

// Registers a model's --model text (once: again, even after the first picture,
// is a no-op, as libvmaf's extractors are already there); `outputs`: a
// collection's scores, shown at once or only when scored.
int register_model(VmafContext& v, const char* function, const std::string& spec,
                   const std::string& name, const std::vector<std::string>& outputs, bool shown) {
  const bool known =
      std::find(v.model_specs.begin(), v.model_specs.end(), spec) != v.model_specs.end();
  if (!known && (v.started || v.flushed))
    return refuse(
        fmt::format("{} {}: models are registered before the first picture", function, name));
  if (!known) {
    v.model_specs.push_back(spec);
    v.model_names.push_back(name);
    try {
      check_registration(v);
    } catch (...) {
      v.model_specs.pop_back();
      v.model_names.pop_back();
      throw;
    }
  }
  if (outputs.empty()) return 0;
  const auto c = std::find_if(v.collections.begin(), v.collections.end(),
                              [&](const VmafContext::Collection& e) { return e.spec == spec; });
  if (c == v.collections.end())
    v.collections.push_back({spec, name, outputs, shown, {}});
  else
    c->shown = c->shown || shown;
  return 0;
}

}  // namespace

extern "C" int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
  if (!vmaf || !model) return -EINVAL;
  return guarded("vmaf_use_features_from_model", [&] {
    return register_model(*vmaf, "vmaf_use_features_from_model", model->spec, model->name,
                          model->collection_outputs, false);
  });
}

extern "C" int vmaf_use_features_from_model_collection(VmafContext* vmaf,
                                                       VmafModelCollection* collection) {
  if (!vmaf || !collection) return -EINVAL;
  return guarded("vmaf_use_features_from_model_collection", [&] {
    return register_model(*vmaf, "vmaf_use_features_from_model_collection", collection->spec,
                          collection->name, collection->outputs, true);
  });
}

extern "C" int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value,
                                         unsigned index) {
  if (!vmaf || !feature_name) return -EINVAL;
  return guarded("vmaf_import_feature_score", [&] {
    const std::string name = feature_name;
    if (vmaf->run) {
      const auto& names = vmaf->run->score_names();
      if (std::find(names.begin(), names.end(), name) != names.end())
        return refuse(
            fmt::format("vmaf_import_feature_score: '{}' is a score this context computes", name));
    }
    auto it = std::find_if(vmaf->imported.begin(), vmaf->imported.end(),
                           [&](const VmafContext::Imported& i) { return i.name == name; });
    if (it == vmaf->imported.end()) {
      vmaf->imported.push_back({name, {}});
      it = vmaf->imported.end() - 1;
    }
    if (index >= it->values.size()) it->values.resize(size_t(index) + 1);
    if (it->values[index])
      return refuse(fmt::format("feature \"{}\" cannot be overwritten at index {}", name, index));
    it->values[index] = value;
    return 0;
  });
}

extern "C" int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist,
                                  unsigned index) {
  if (!vmaf) return -EINVAL;
  if (vmaf->flushed) return refuse("vmaf_read_pictures: the context was flushed");
  if (!ref != !dist) return refuse("vmaf_read_pictures: one picture is NULL");
  return guarded("vmaf_read_pictures", [&] {
    if (!ref) {
      settle(*vmaf);
      if (vmaf->run) vmaf->run->flush();
      vmaf->flushed = true;
      vmaf->end = std::chrono::steady_clock::now();
      return 0;
    }
    return read_pictures(*vmaf, *ref, *dist, index);
  });
}

extern "C" int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name,
                                           double* score, unsigned index) {
  if (!vmaf || !feature_name || !score) return -EINVAL;
  return guarded("vmaf_feature_score_at_index", [&] {
    settle(*vmaf);
    const std::optional<double> s = score_of(*vmaf, feature_name, index);
    if (!s) return -EINVAL;
    *score = *s;
    return 0;
  });
}

namespace {

// The model's score column: only models registered on the context are scored.
int model_column(const VmafContext& v, const VmafModel& model) {
  for (size_t i = 0; i < v.model_specs.size(); ++i)
    if (v.model_specs[i] == model.spec) return 0;
  return refuse(fmt::format(
      "model '{}' was not registered on this context (vmaf_use_features_from_model)", model.name));
}

}  // namespace

extern "C" int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score,
                                   unsigned index) {
  if (!vmaf || !model || !score) return -EINVAL;
  return guarded("vmaf_score_at_index", [&] {
    settle(*vmaf);
    if (const int err = model_column(*vmaf, *model)) return err;
    const std::optional<double> s = score_of(*vmaf, model->name, index);
    if (!s) return -EINVAL;
    *score = *s;
    return 0;
  });
}

namespace {

// libvmaf's vmaf_score_at_index_model_collection: the collection's statistics at
// `index` (computed with the run), each index once.
int collection_score_at(VmafContext& v, const VmafModelCollection& collection,
                        VmafModelCollectionScore& score, unsigned index) {
  const auto c =
      std::find_if(v.collections.begin(), v.collections.end(),
                   [&](const VmafContext::Collection& e) { return e.spec == collection.spec; });
  if (c == v.collections.end())
    return refuse(
        fmt::format("model collection '{}' was not registered on this context "
                    "(vmaf_use_features_from_model_collection)",
                    collection.name));
  const std::optional<double> bagging = computed_score(v, bagging_name(c->name), index),
                              stddev = computed_score(v, stddev_name(c->name), index),
                              lo = computed_score(v, ci_p95_lo_name(c->name), index),
                              hi = computed_score(v, ci_p95_hi_name(c->name), index);
  if (!bagging || !stddev || !lo || !hi)
    return refuse(fmt::format("model collection '{}': no scores at index {}", c->name, index));
  if (index < c->scored.size() && c->scored[index]) {
    // libvmaf's collector refuses to write the members' scores again.
    log_line(VMAF_LOG_LEVEL_WARNING, fmt::format("feature \"{}\" cannot be overwritten at index {}",
                                                 c->outputs.front(), index));
    return -EINVAL;
  }
  if (index >= c->scored.size()) c->scored.resize(size_t(index) + 1);
  c->scored[index] = true;
  c->shown = true;
  score.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
  score.bootstrap.bagging_score = *bagging;
  score.bootstrap.stddev = *stddev;
  score.bootstrap.ci.p95.lo = *lo;
  score.bootstrap.ci.p95.hi = *hi;
  return 0;
}

}  // namespace

extern "C" int vmaf_score_at_index_model_collection(VmafContext* vmaf,
                                                    VmafModelCollection* collection,
                                                    VmafModelCollectionScore* score,
                                                    unsigned index) {
  if (!vmaf || !collection || !score) return -EINVAL;
  return guarded("vmaf_score_at_index_model_collection", [&] {
    settle(*vmaf);
    return collection_score_at(*vmaf, *collection, *score, index);
  });
}

extern "C" int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                                         VmafPoolingMethod pool_method, double* score,
                                         unsigned index_low, unsigned index_high) {
  if (!vmaf || !feature_name) return -EINVAL;
  return guarded("vmaf_feature_score_pooled", [&] {
    settle(*vmaf);
    return pool_scores(*vmaf, feature_name, pool_method, score, index_low, index_high);
  });
}

extern "C" int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, VmafPoolingMethod pool_method,
                                 double* score, unsigned index_low, unsigned index_high) {
  if (!vmaf || !model || !score) return -EINVAL;
  return guarded("vmaf_score_pooled", [&] {
    settle(*vmaf);
    if (const int err = model_column(*vmaf, *model)) return err;
    return pool_scores(*vmaf, model->name, pool_method, score, index_low, index_high);
  });
}

// As libvmaf: every scored index of the range through
// vmaf_score_at_index_model_collection (so an index scored before is -EINVAL),
// then the four statistics pooled.
extern "C" int vmaf_score_pooled_model_collection(VmafContext* vmaf,
                                                  VmafModelCollection* collection,
                                                  VmafPoolingMethod pool_method,
                                                  VmafModelCollectionScore* score,
                                                  unsigned index_low, unsigned index_high) {
  if (!vmaf || !collection || !score || index_low > index_high || !pool_method) return -EINVAL;
  return guarded("vmaf_score_pooled_model_collection", [&] {
    settle(*vmaf);
    const uint64_t step = vmaf->cfg.n_subsample > 1 ? vmaf->cfg.n_subsample : 1;
    for (uint64_t i = (uint64_t(index_low) + step - 1) / step * step; i <= index_high; i += step) {
      VmafModelCollectionScore s{};
      if (const int err = collection_score_at(*vmaf, *collection, s, unsigned(i))) return err;
    }
    score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    const std::string& name = collection->name;
    int err = pool_scores(*vmaf, bagging_name(name), pool_method, &score->bootstrap.bagging_score,
                          index_low, index_high);
    err |= pool_scores(*vmaf, stddev_name(name), pool_method, &score->bootstrap.stddev, index_low,
                       index_high);
    err |= pool_scores(*vmaf, ci_p95_lo_name(name), pool_method, &score->bootstrap.ci.p95.lo,
                       index_low, index_high);
    err |= pool_scores(*vmaf, ci_p95_hi_name(name), pool_method, &score->bootstrap.ci.p95.hi,
                       index_low, index_high);
    return err;
  });
}

extern "C" int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
  if (!vmaf) return -EINVAL;
  if (!cfg.pic_params.w || !cfg.pic_params.h || !cfg.pic_cnt) return -EINVAL;
  return guarded("vmaf_preallocate_pictures", [&] {
    // The format is checked by making the first picture now.
    auto pool = std::make_shared<PicturePool>(cfg.pic_params.pix_fmt, cfg.pic_params.bpc,
                                              cfg.pic_params.w, cfg.pic_params.h, cfg.pic_cnt);
    VmafPicture probe;
    if (const int err = pool->fetch(probe)) return err;
    vmaf_picture_unref(&probe);
    vmaf->pool = std::move(pool);
    return 0;
  });
}

extern "C" int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
  return guarded("vmaf_fetch_preallocated_picture", [&] { return vmaf->pool->fetch(*pic); });
}

extern "C" const char* vmaf_version(void) { return "3.2.0"; }
