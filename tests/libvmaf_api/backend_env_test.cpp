// EXACTVQ_LIBVMAF_BACKEND / EXACTVQ_LIBVMAF_GPU: the backend a libvmaf program
// scores on without calling anything of exactvq's (FFmpeg 5.1's filter imports no
// CUDA state). vmaf_init reads them: bad values and missing devices fail it with
// -EINVAL and a log line naming the variable; auto falls back to the CPU with a
// log line; OpenCL (PoCL here) and CUDA (on a GPU host) give libvmaf's plain-C
// bits on the public vectors. Also the batches vmaf_read_pictures gathers:
// scores read between reads equal those of a whole run.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "api_runs.h"
#include "libvmaf/libvmaf.h"
#include "stored_scores.h"
#include "y4m_pictures.h"

namespace exactvq::libvmaf_test {
namespace {

// Sets (or, with nullptr, unsets) a variable for the scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_.c_str(), old_->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

struct InitResult {
  int status = 0;
  std::string log;  // what the library wrote on stderr
};

// vmaf_init under the two variables (nullptr: unset); the context is closed.
InitResult init_with(const char* backend, const char* gpu,
                     VmafLogLevel level = VMAF_LOG_LEVEL_INFO) {
  ScopedEnv b("EXACTVQ_LIBVMAF_BACKEND", backend), g("EXACTVQ_LIBVMAF_GPU", gpu);
  VmafConfiguration cfg{};
  cfg.log_level = level;
  VmafContext* vmaf = reinterpret_cast<VmafContext*>(&cfg);  // must be reset to NULL on failure
  testing::internal::CaptureStderr();
  InitResult r;
  r.status = vmaf_init(&vmaf, cfg);
  r.log = testing::internal::GetCapturedStderr();
  if (r.status == 0)
    vmaf_close(vmaf);
  else
    EXPECT_EQ(vmaf, nullptr) << "a failed vmaf_init leaves *vmaf NULL";
  return r;
}

// Why the backend cannot be used here ("" when it can).
std::string unavailable(const char* backend) {
  const InitResult r = init_with(backend, nullptr);
  return r.status == 0 ? "" : r.log;
}

TEST(LibvmafApiBackendEnv, BadValuesFailVmafInitNamingTheVariable) {
  for (const char* value : {"gpu", "CUDA", "cpu ", "opencl1", "0"}) {
    const InitResult r = init_with(value, nullptr);
    EXPECT_EQ(r.status, -EINVAL) << value;
    EXPECT_NE(r.log.find(std::string("EXACTVQ_LIBVMAF_BACKEND='") + value + "'"), std::string::npos)
        << r.log;
    EXPECT_NE(r.log.find("expected cpu, cuda, opencl or auto"), std::string::npos) << r.log;
  }
  for (const char* gpu : {"-1", "x", "1x", " 1", "99999999999"}) {
    const InitResult r = init_with("opencl", gpu);
    EXPECT_EQ(r.status, -EINVAL) << gpu;
    EXPECT_NE(r.log.find(std::string("EXACTVQ_LIBVMAF_GPU='") + gpu + "'"), std::string::npos)
        << r.log;
  }
  // A device with no backend, or with the CPU, is a mistake, not ignored.
  InitResult r = init_with(nullptr, "1");
  EXPECT_EQ(r.status, -EINVAL);
  EXPECT_NE(r.log.find("EXACTVQ_LIBVMAF_GPU=1 names a device, but EXACTVQ_LIBVMAF_BACKEND is not"),
            std::string::npos)
      << r.log;
  r = init_with("cpu", "0");
  EXPECT_EQ(r.status, -EINVAL);
  EXPECT_NE(r.log.find("EXACTVQ_LIBVMAF_BACKEND is cpu"), std::string::npos) << r.log;
  // The message is logged at libvmaf's ERROR level: none at VMAF_LOG_LEVEL_NONE.
  r = init_with("bogus", nullptr, VMAF_LOG_LEVEL_NONE);
  EXPECT_EQ(r.status, -EINVAL);
  EXPECT_EQ(r.log, "");
}

// EXACTVQ_SIMD (the CPU kernels' SIMD level) is read by vmaf_init too: a name this
// CPU does not run fails it, naming the variable.
TEST(LibvmafApiBackendEnv, ABadSimdLevelFailsVmafInit) {
  ScopedEnv simd("EXACTVQ_SIMD", "avx9");
  const InitResult r = init_with(nullptr, nullptr);
  EXPECT_EQ(r.status, -EINVAL);
  EXPECT_NE(r.log.find("EXACTVQ_SIMD='avx9'"), std::string::npos) << r.log;
}

TEST(LibvmafApiBackendEnv, UnsetEmptyAndCpuOpenTheCpu) {
  for (const char* value : {static_cast<const char*>(nullptr), "", "cpu"}) {
    const InitResult r = init_with(value, nullptr);
    EXPECT_EQ(r.status, 0) << (value ? value : "(unset)");
    EXPECT_EQ(r.log, "");
  }
}

TEST(LibvmafApiBackendEnv, MissingDevicesFailVmafInit) {
  for (const char* backend : {"cuda", "opencl"}) {
    const std::string why = unavailable(backend);
    if (!why.empty()) {
      // Not compiled in, or no device here: the log says which, naming the variable.
      EXPECT_NE(why.find(std::string("EXACTVQ_LIBVMAF_BACKEND=") + backend), std::string::npos)
          << why;
      std::printf("EXACTVQ_LIBVMAF_BACKEND=%s here: %s", backend, why.c_str());
      continue;
    }
    const InitResult r = init_with(backend, "999");
    EXPECT_EQ(r.status, -EINVAL) << backend;
    EXPECT_NE(r.log.find("EXACTVQ_LIBVMAF_GPU=999: there"), std::string::npos) << r.log;
    EXPECT_EQ(init_with(backend, "0").status, 0) << backend;
  }
}

TEST(LibvmafApiBackendEnv, AutoFallsBackToTheCpuWithALogLine) {
  const bool has_cuda = unavailable("cuda").empty();
  InitResult r = init_with("auto", nullptr);
  EXPECT_EQ(r.status, 0);
  if (has_cuda) {
    EXPECT_EQ(r.log, "");
  } else {
    EXPECT_NE(r.log.find("libvmaf WARNING vmaf_init: EXACTVQ_LIBVMAF_BACKEND=auto"),
              std::string::npos)
        << r.log;
    EXPECT_NE(r.log.find("scoring on the CPU"), std::string::npos) << r.log;
  }
  // A device number auto cannot find falls back too (on a GPU host: past the last).
  r = init_with("auto", "999");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.log.find("scoring on the CPU"), std::string::npos) << r.log;
  // At ERROR level the fallback is not logged.
  EXPECT_EQ(init_with("auto", "999", VMAF_LOG_LEVEL_ERROR).log, "");
}

// The vectors through the program with the variable set: libvmaf's plain-C bits.
size_t vectors_on(const char* backend, const std::vector<int>& threads) {
  const auto runs = expected_runs();
  size_t total = 0;
  for (const int t : threads)
    for (const auto& run : runs) {
      const fs::path dir = shared_dir() / "vectors" / run.pair;
      const Values got =
          run_scores(EXACTVQ_LIBVMAF_DIR, dir / "ref.y4m", dir / "dist.y4m", t, kDefaultDispatch,
                     "", std::string("EXACTVQ_LIBVMAF_BACKEND=") + backend);
      EXPECT_FALSE(got.empty()) << run.pair << " on " << backend;
      for (const auto& [key, value] : got)
        EXPECT_TRUE(run.values.count(key)) << run.pair << " " << key;
      std::string differences;
      const size_t equal = compare(run.values, got, differences);
      EXPECT_EQ(equal, got.size()) << run.pair << " on " << backend << " (n_threads " << t << ")\n"
                                   << differences;
      total += equal;
    }
  return total;
}

TEST(LibvmafApiBackendEnv, OpenclGivesLibvmafsPlainCBits) {
  if (expected_runs().empty()) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  if (const std::string why = unavailable("opencl"); !why.empty()) GTEST_SKIP() << why;
  const size_t total = vectors_on("opencl", {0, 3});
  std::printf("EXACTVQ_LIBVMAF_BACKEND=opencl: %zu values equal libvmaf's plain C\n", total);
  RecordProperty("values_equal", int(total));
}

TEST(LibvmafApiBackendEnv, CudaGivesLibvmafsPlainCBits) {
  if (expected_runs().empty()) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  if (const std::string why = unavailable("cuda"); !why.empty())
    GTEST_SKIP() << "no CUDA device here: " << why;
  const size_t total = vectors_on("cuda", {0, 3});
  std::printf("EXACTVQ_LIBVMAF_BACKEND=cuda: %zu values equal libvmaf's plain C\n", total);
  RecordProperty("values_equal", int(total));
}

// Per-frame scores of the repository's sample pair (10 frames, 176x144): read
// after each pair (`per_frame`), or once after the flush.
std::vector<double> sample_scores(unsigned threads, bool per_frame, const char* feature) {
  const fs::path samples = fs::path(EXACTVQ_MODELS_DIR).parent_path() / "samples";
  Y4mPictures refs(samples / "ref.y4m"), dists(samples / "dist.y4m");
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_ERROR;
  cfg.n_threads = threads;
  VmafContext* vmaf = nullptr;
  EXPECT_EQ(vmaf_init(&vmaf, cfg), 0);
  VmafModel* model = nullptr;
  VmafModelConfig mcfg{};
  mcfg.name = "vmaf";
  EXPECT_EQ(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
  EXPECT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
  std::vector<double> scores;
  VmafPicture ref, dist;
  unsigned index = 0;
  for (; refs.next(ref) && dists.next(dist); ++index) {
    EXPECT_EQ(vmaf_read_pictures(vmaf, &ref, &dist, index), 0);
    if (per_frame) {
      double s = -1;
      EXPECT_EQ(vmaf_feature_score_at_index(vmaf, feature, &s, index), 0) << index;
      scores.push_back(s);
    }
  }
  EXPECT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
  for (unsigned i = 0; !per_frame && i < index; ++i) {
    double s = -1;
    EXPECT_EQ(vmaf_feature_score_at_index(vmaf, feature, &s, i), 0) << i;
    scores.push_back(s);
  }
  vmaf_model_destroy(model);
  vmaf_close(vmaf);
  return scores;
}

TEST(LibvmafApiBatches, ScoresReadBetweenReadsEqualAWholeRuns) {
  for (const char* backend : {"cpu", "opencl"}) {
    if (!unavailable(backend).empty()) continue;
    ScopedEnv env("EXACTVQ_LIBVMAF_BACKEND", backend);
    for (const unsigned threads : {0u, 1u, 3u})
      for (const char* feature : {"integer_adm2", "VMAF_integer_feature_vif_scale0_score"}) {
        const std::vector<double> whole = sample_scores(threads, false, feature);
        EXPECT_EQ(whole.size(), 10u);
        EXPECT_EQ(sample_scores(threads, true, feature), whole)
            << backend << ", n_threads " << threads << ", " << feature;
      }
  }
}

}  // namespace
}  // namespace exactvq::libvmaf_test
