// libvmaf's C API (libvmaf.so.3) driven by arbitrary call sequences: each byte
// picks a call (init, close, models, features and their dictionaries, picture
// allocation, pools, reads in and out of order, the flush, score readers,
// pooling, imports, output), the next bytes its arguments. Oracles:
// - every int call returns 0 or a negative errno (-EINVAL, -ENOMEM);
// - a picture vmaf_read_pictures accepted is handed back (zeroed), one it
//   refused is still the caller's and whole;
// - after the flush, reading pictures is refused;
// - a score read back is the value the context read (repeatable), and imported
//   scores read back as imported;
// and no crash, leak or undefined behaviour (the sanitizers of the fuzz build).
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"

namespace {

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

// LIBVMAF_API_FUZZ_TRACE=1 prints every checked call and its status (to see what
// a seed exercises).
void check_status(int err, const char* call) {
  static const bool trace = std::getenv("LIBVMAF_API_FUZZ_TRACE") != nullptr;
  if (trace) std::fprintf(stderr, "%s: %d\n", call, err);
  FUZZ_CHECK(err == 0 || err == -EINVAL || err == -ENOMEM, "%s returned %d", call, err);
}

constexpr const char* kVersions[] = {"vmaf_v0.6.1",   "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1",
                                     "no_such_model", "vmaf_b_v0.6.3",  ""};
constexpr const char* kFeatures[] = {"psnr",  "float_ssim", "motion", "vif", "adm",
                                     "cambi", "ciede",      "bogus",  "",    "psnr=x"};
constexpr const char* kKeys[] = {"enable_chroma", "motion_force_zero", "scale", "bogus", "a:b"};
constexpr const char* kValues[] = {"true", "false", "1", "2", "-1", "x", "1:2"};
constexpr const char* kNames[] = {
    "psnr_y", "psnr_cb",    "integer_adm2", "VMAF_integer_feature_adm2_score",
    "vmaf",   "float_ssim", "imported",     ""};
constexpr VmafPixelFormat kFormats[] = {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV422P,
                                        VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P,
                                        VMAF_PIX_FMT_UNKNOWN};

template <typename T, size_t N>
const T& pick(const T (&list)[N], Bytes& in) {
  return list[in.next() % N];
}

struct State {
  VmafContext* vmaf = nullptr;
  VmafModel* model = nullptr;
  VmafFeatureDictionary* dict = nullptr;
  VmafPicture pics[4] = {};
  unsigned next_index = 0;
  bool flushed = false;
  bool has_imported = false;
  double imported_value = 0;
  unsigned imported_index = 0;
};

bool holds(const VmafPicture& p) { return p.ref != nullptr; }

void fill(VmafPicture& p, Bytes& in) {
  const uint8_t seed = in.next();
  const unsigned max = (1u << p.bpc) - 1;
  for (int plane = 0; plane < 3; ++plane) {
    auto* row = static_cast<unsigned char*>(p.data[plane]);
    if (!row) continue;
    for (unsigned y = 0; y < p.h[plane]; ++y, row += p.stride[plane])
      for (unsigned x = 0; x < p.w[plane]; ++x) {
        const unsigned v = (seed * 31u + x * 7u + y * 13u + unsigned(plane)) & max;
        if (p.bpc > 8)
          reinterpret_cast<uint16_t*>(row)[x] = uint16_t(v);
        else
          row[x] = uint8_t(v);
      }
  }
}

void step(State& s, Bytes& in) {
  double score = 0;
  switch (in.next() % 16) {
    case 0: {
      if (s.vmaf) return;
      VmafConfiguration cfg{};
      cfg.log_level = VMAF_LOG_LEVEL_NONE;
      cfg.n_threads = in.next() % 3;
      cfg.n_subsample = in.next() % 3;
      check_status(vmaf_init(&s.vmaf, cfg), "vmaf_init");
      s.next_index = 0;
      s.flushed = false;
      s.has_imported = false;
      return;
    }
    case 1:
      if (s.vmaf) FUZZ_CHECK(vmaf_close(s.vmaf) == 0);
      s.vmaf = nullptr;
      return;
    case 2: {
      vmaf_model_destroy(s.model);
      s.model = nullptr;
      VmafModelConfig cfg{};
      cfg.flags = in.next() % 8;
      const int err = vmaf_model_load(&s.model, &cfg, pick(kVersions, in));
      check_status(err, "vmaf_model_load");
      FUZZ_CHECK(err == 0 || s.model == nullptr);
      return;
    }
    case 3:
      if (s.vmaf && s.model)
        check_status(vmaf_use_features_from_model(s.vmaf, s.model), "use_features_from_model");
      return;
    case 4: {
      const char* key = pick(kKeys, in);  // in order: arguments are evaluated in any order
      const char* value = pick(kValues, in);
      check_status(vmaf_feature_dictionary_set(&s.dict, key, value), "vmaf_feature_dictionary_set");
      return;
    }
    case 5: {
      if (!s.vmaf) return;
      const int err = vmaf_use_feature(s.vmaf, pick(kFeatures, in), s.dict);
      check_status(err, "vmaf_use_feature");
      if (err == 0) s.dict = nullptr;  // taken
      return;
    }
    case 6: {
      VmafPicture& p = s.pics[in.next() % 4];
      if (holds(p)) FUZZ_CHECK(vmaf_picture_unref(&p) == 0);
      const VmafPixelFormat fmt = pick(kFormats, in);
      const unsigned bpc = 7 + in.next() % 11;
      const unsigned w = 1 + in.next() % 72, h = 1 + in.next() % 72;
      const int err = vmaf_picture_alloc(&p, fmt, bpc, w, h);
      check_status(err, "vmaf_picture_alloc");
      if (err == 0) fill(p, in);
      return;
    }
    case 7: {
      VmafPicture& p = s.pics[in.next() % 4];
      check_status(vmaf_picture_unref(&p), "vmaf_picture_unref");
      return;
    }
    case 8: {
      if (!s.vmaf) return;
      VmafPicture& r = s.pics[in.next() % 4];
      VmafPicture& d = s.pics[in.next() % 4];
      if (&r == &d || !holds(r) || !holds(d)) return;
      const unsigned index = in.next() % 4 == 0 ? in.next() : s.next_index;
      const VmafPicture r_before = r;
      const int err = vmaf_read_pictures(s.vmaf, &r, &d, index);
      check_status(err, "vmaf_read_pictures");
      if (s.flushed) FUZZ_CHECK(err != 0, "a picture read after the flush");
      if (err == 0) {
        FUZZ_CHECK(!holds(r) && !holds(d), "taken pictures not handed back");
        ++s.next_index;
      } else {
        FUZZ_CHECK(std::memcmp(&r, &r_before, sizeof r) == 0, "a refused picture changed");
      }
      return;
    }
    case 9:
      if (!s.vmaf) return;
      if (vmaf_read_pictures(s.vmaf, nullptr, nullptr, 0) == 0) {
        FUZZ_CHECK(!s.flushed, "flushed twice");
        s.flushed = true;
      }
      return;
    case 10: {
      if (!s.vmaf) return;
      const char* name = pick(kNames, in);
      const unsigned index = in.next() % 5;
      const int err = vmaf_feature_score_at_index(s.vmaf, name, &score, index);
      check_status(err, "vmaf_feature_score_at_index");
      double again = -1;
      if (err == 0) {
        FUZZ_CHECK(vmaf_feature_score_at_index(s.vmaf, name, &again, index) == 0);
        FUZZ_CHECK(std::memcmp(&score, &again, sizeof score) == 0, "%s changed", name);
      }
      if (s.model) check_status(vmaf_score_at_index(s.vmaf, s.model, &score, index), "score_at");
      return;
    }
    case 11: {
      if (!s.vmaf) return;
      const auto method = VmafPoolingMethod(in.next() % 6);
      const unsigned lo = in.next() % 4, hi = in.next() % 4;
      check_status(vmaf_feature_score_pooled(s.vmaf, pick(kNames, in), method, &score, lo, hi),
                   "vmaf_feature_score_pooled");
      if (s.model)
        check_status(vmaf_score_pooled(s.vmaf, s.model, method, &score, lo, hi), "pooled");
      return;
    }
    case 12: {
      if (!s.vmaf) return;
      const double value = double(int8_t(in.next())) / 4;
      const unsigned index = in.next() % 4;
      const int err = vmaf_import_feature_score(s.vmaf, "imported", value, index);
      check_status(err, "vmaf_import_feature_score");
      if (err == 0 && !s.has_imported) {
        s.has_imported = true;
        s.imported_value = value;
        s.imported_index = index;
      }
      if (s.has_imported) {
        FUZZ_CHECK(vmaf_feature_score_at_index(s.vmaf, "imported", &score, s.imported_index) == 0);
        FUZZ_CHECK(score == s.imported_value);
      }
      return;
    }
    case 13: {
      if (!s.vmaf) return;
      char path[64];
      std::snprintf(path, sizeof path, "/tmp/libvmaf_api_fuzz_%d.out", int(in.next() % 2));
      check_status(vmaf_write_output(s.vmaf, path, VmafOutputFormat(in.next() % 6)),
                   "vmaf_write_output");
      std::remove(path);
      return;
    }
    case 14: {
      if (!s.vmaf) return;
      if (in.next() % 2) {
        VmafPictureConfiguration cfg{};
        cfg.pic_params.w = in.next() % 48;
        cfg.pic_params.h = in.next() % 48;
        cfg.pic_params.bpc = 8 + in.next() % 3;
        cfg.pic_params.pix_fmt = pick(kFormats, in);
        cfg.pic_cnt = in.next() % 3;
        check_status(vmaf_preallocate_pictures(s.vmaf, cfg), "vmaf_preallocate_pictures");
      } else {
        VmafPicture& p = s.pics[in.next() % 4];
        if (holds(p)) return;
        const int err = vmaf_fetch_preallocated_picture(s.vmaf, &p);
        check_status(err, "vmaf_fetch_preallocated_picture");
        if (err == 0) fill(p, in);
      }
      return;
    }
    default: {
      VmafCudaState* state = nullptr;
      check_status(vmaf_cuda_state_init(&state, VmafCudaConfiguration{}), "cuda_state_init");
      if (state && s.vmaf) check_status(vmaf_cuda_import_state(s.vmaf, state), "import_state");
      // libvmaf's API has no function to free a state: the caller free()s it.
      std::free(state);
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  State s;
  for (int steps = 0; steps < 64 && !in.empty(); ++steps) step(s, in);
  for (VmafPicture& p : s.pics)
    if (holds(p)) vmaf_picture_unref(&p);
  if (s.dict) vmaf_feature_dictionary_free(&s.dict);
  vmaf_model_destroy(s.model);
  if (s.vmaf) vmaf_close(s.vmaf);
  return 0;
}
