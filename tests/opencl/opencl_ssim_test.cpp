// The OpenCL backend against the CPU reference, bit for bit: every public vector
// and seeded random pairs, both sum modes, every depth, 420/422/444/mono, sizes
// down to 1x1, dB options and chroma; device and kernel-build failures are
// DeviceErrors. In CI it runs on PoCL; without any OpenCL device it skips with the
// reason. The program is built once for the whole binary (PoCL compiles slowly).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "features/device_backend.h"
#include "features/feature.h"
#include "io/video_source.h"
#include "opencl/opencl_device.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;

// The device, opened once; null (and the reason) when none can be used.
std::shared_ptr<opencl::OpenclDevice> device(std::string* why = nullptr) {
  static std::string reason;
  static std::shared_ptr<opencl::OpenclDevice> opened = [] {
    try {
      return std::make_shared<opencl::OpenclDevice>(0);
    } catch (const DeviceError& e) {
      reason = e.what();
      return std::shared_ptr<opencl::OpenclDevice>();
    }
  }();
  if (why) *why = reason;
  return opened;
}

class OpenclTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!device(&why)) GTEST_SKIP() << "no usable OpenCL device (" << why << "): OpenCL test skipped";
  }
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The feature on the CPU and on the device for one format and option string,
// compared frame after frame.
class Twins {
 public:
  Twins(const VideoFormat& f, const std::string& spec) : spec_(spec) {
    cpu_ = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
    gpu_ = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, device()});
  }

  // Returns the number of values compared.
  size_t compare(const Picture& ref, const Picture& dist, const std::string& where) {
    const size_t n = cpu_->outputs().size();
    std::vector<double> want(n), got(n);
    cpu_->extract(ref, dist, want);
    gpu_->extract(ref, dist, got);
    for (size_t i = 0; i < n; ++i)
      EXPECT_TRUE(same_bits(want[i], got[i]))
          << where << " " << spec_ << " " << cpu_->outputs()[i] << ": cpu "
          << fmt::format("{:a}", want[i]) << ", opencl " << fmt::format("{:a}", got[i]);
    return n;
  }

 private:
  std::string spec_;
  std::unique_ptr<Feature> cpu_, gpu_;
};

TEST_F(OpenclTest, PublicVectorsBothModes) {
  const fs::path dir = fs::path(EXACTVQ_SHARED_DIR) / "vectors";
  if (!fs::exists(dir / "libvmaf_scores.json"))
    GTEST_SKIP() << "no shared vectors at " << dir << ": public-vector check skipped";
  std::ifstream in(dir / "libvmaf_scores.json");
  const nlohmann::json all = nlohmann::json::parse(in);
  size_t compared = 0, frames = 0;
  for (const nlohmann::json& p : all.at("pairs")) {
    const std::string name = p.at("name").get<std::string>();
    const std::string ext = p.at("file_type").get<std::string>();
    RawOptions raw;
    if (ext == "yuv") {
      raw.width = p.at("width").get<int>();
      raw.height = p.at("height").get<int>();
      raw.bitdepth = p.at("bitdepth").get<int>();
      const std::string c = p.at("chroma").get<std::string>();
      raw.chroma = c == "420" ? ChromaFormat::k420 : c == "422" ? ChromaFormat::k422 : ChromaFormat::k444;
    }
    auto ref = open_video((dir / name / ("ref." + ext)).string(), raw);
    auto dist = open_video((dir / name / ("dist." + ext)).string(), raw);
    const VideoFormat f = ref->format();
    std::vector<std::unique_ptr<Twins>> twins;
    for (const char* spec : {"ssim=sum=exact:chroma=true", "ssim=sum=raster:chroma=true"})
      twins.push_back(std::make_unique<Twins>(f, spec));
    if (name == "p8_420_576x324_testsrc2_x264")  // dB is host arithmetic: one pair suffices
      for (const char* spec : {"ssim=enable_db=true:clip_db=true", "ssim=sum=raster:enable_db=true"})
        twins.push_back(std::make_unique<Twins>(f, spec));
    Picture a, b;
    for (int frame = 0; ref->read_frame(a) && dist->read_frame(b); ++frame, ++frames)
      for (auto& t : twins) compared += t->compare(a, b, fmt::format("{} frame {}", name, frame));
  }
  std::printf("[ opencl   ] public vectors: %zu frames, %zu scores bit for bit\n", frames, compared);
  EXPECT_GT(compared, 0u);
}

// Samples: independent noise, a noisy copy (scores near 1), or extremes 0 and M.
void fill(Picture& ref, Picture& dist, const VideoFormat& f, int content, std::mt19937_64& rng) {
  ref.allocate(f);
  dist.allocate(f);
  const uint64_t max = f.max_sample();
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t n = size_t(f.plane_width(p)) * size_t(f.plane_height(p));
    for (size_t i = 0; i < n; ++i) {
      uint64_t a = rng() % (max + 1), b = rng() % (max + 1);
      if (content == 1) b = std::min(max, a + rng() % 4);
      if (content == 2) {
        a = rng() % 2 ? max : 0;
        b = rng() % 3 ? max - a : a;
      }
      if (f.bitdepth == 8) {
        ref.plane_data(p)[i] = uint8_t(a);
        dist.plane_data(p)[i] = uint8_t(b);
      } else {
        reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(a);
        reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(b);
      }
    }
  }
}

TEST_F(OpenclTest, RandomPairsEveryDepthFormatAndSize) {
  std::mt19937_64 rng(20261130);
  const int sizes[][2] = {{1, 1}, {2, 3}, {5, 4}, {9, 9}, {17, 9}, {33, 20}, {70, 41}};
  size_t compared = 0, frames = 0;
  for (int depth = 8; depth <= 16; ++depth)
    for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::kMono})
      for (const auto& size : sizes) {
        const VideoFormat f{size[0], size[1], chroma, depth};
        const bool mono = chroma == ChromaFormat::kMono;
        Twins exact(f, mono ? "ssim" : "ssim=chroma=true");
        Twins raster(f, mono ? "ssim=sum=raster" : "ssim=sum=raster:chroma=true");
        Twins db(f, "ssim=enable_db=true:clip_db=true");
        for (int content = 0; content < 3; ++content, ++frames) {
          Picture a, b;
          fill(a, b, f, content, rng);
          const std::string where = fmt::format("{} content {}", f.describe(), content);
          compared += exact.compare(a, b, where) + raster.compare(a, b, where) + db.compare(a, b, where);
        }
      }
  std::printf("[ opencl   ] random pairs: %zu frames, %zu scores bit for bit\n", frames, compared);
}

TEST_F(OpenclTest, IdenticalFramesScoreOne) {
  const VideoFormat f{40, 24, ChromaFormat::k420, 10};
  std::mt19937_64 rng(7);
  Picture a, b;
  fill(a, b, f, 0, rng);
  Twins t(f, "ssim=enable_db=true");
  t.compare(a, a, "identical, dB without clip (+infinity)");
}

TEST_F(OpenclTest, BrokenKernelSourceIsDeviceError) {
  try {
    opencl::OpenclDevice broken(0, "__kernel void ssim_terms(__global int* p { p[0] = ; }");
    FAIL() << "a broken kernel source built";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("OpenCL build of the SSIM kernels failed"), std::string::npos)
        << e.what();
  }
}

TEST_F(OpenclTest, MissingKernelIsDeviceError) {
  // Builds, but lacks the kernels the feature asks for.
  auto empty = std::make_shared<opencl::OpenclDevice>(0, "__kernel void nothing(void) {}");
  const VideoFormat f{8, 8, ChromaFormat::k420, 8};
  try {
    make_feature(parse_feature_spec("ssim"), FeatureContext{f, nullptr, empty});
    FAIL() << "a feature without its kernels";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("ssim_horizontal"), std::string::npos) << e.what();
  }
}

TEST_F(OpenclTest, MissingDeviceIndexIsDeviceError) {
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  o.opencl_device = 999;
  try {
    open_device(o, VideoFormat{8, 8, ChromaFormat::k420, 8});
    FAIL() << "device 999 opened";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("--opencl-device 999"), std::string::npos) << e.what();
  }
  o.opencl_device = -1;
  EXPECT_THROW(open_device(o, VideoFormat{8, 8, ChromaFormat::k420, 8}), DeviceError);
}

TEST_F(OpenclTest, BadOptionsAreUsageErrors) {
  const FeatureContext mono{VideoFormat{8, 8, ChromaFormat::kMono, 8}, nullptr, device()};
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=chroma=true"), mono), UsageError);
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=bogus=1"), mono), UsageError);
}

TEST_F(OpenclTest, DescriptionNamesTheDevice) {
  EXPECT_NE(device()->description().find("opencl device 0: "), std::string::npos);
}

}  // namespace
}  // namespace exactvq
