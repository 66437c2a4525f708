// speed_chroma and speed_temporal on every device backend against the CPU, bit
// for bit, values and aggregates (CUDA in both binary64 modes: fp64=native and
// fp64=emulate), and the public catalogue vectors' values against libvmaf's
// stored ones (libvmaf_catalogue_scores.json, where perturb_stable) through
// the device: the option sets the CPU's oracle test runs (weight_var_mode 0..6,
// kernel scales, sigma_nn, nn_floor, use_ref_diff, every prescale method up and
// down), speed_chroma also as loose pairs. Without a device a backend's cases
// skip with a message.
#include <cstdio>
#include <random>

#include "core/error.h"
#include "device_fixture.h"
#include "libvmaf_catalogue_vectors.h"
#include "metrics/speed/options.h"
#include "metrics/speed/reference.h"

namespace exactvq::device_testing {
namespace {

class SpeedOnDevice : public DeviceTest {};

// Every catalogue pair SpEED scores: the device equals the CPU, and the
// device's values (the first device spec's) equal libvmaf's stored bits.
TEST_P(SpeedOnDevice, CatalogueVectorsEqualLibvmaf) {
  if (!std::filesystem::exists(testing_vectors::kCatalogueVectors))
    GTEST_SKIP() << "no catalogue vectors at " << testing_vectors::kCatalogueVectors
                 << ": catalogue check skipped";
  int compared = 0, stored = 0, runs = 0;
  for (const testing_vectors::VmafPair& pair : testing_vectors::load_catalogue_pairs()) {
    for (const char* feature : {"speed_chroma", "speed_temporal"}) {
      const nlohmann::json* frames = testing_vectors::stable_frames(pair, feature);
      if (!frames) continue;
      const PictureFrames pictures(read_pictures(pair.ref, pair.raw),
                                   read_pictures(pair.dist, pair.raw));
      const std::string what = pair.name + " " + feature;
      const DeviceComparison r = compare(pictures.format(), feature, pictures.pairs, what);
      compared += r.compared;
      ++runs;
      const auto cpu = make_feature(parse_feature_spec(feature),
                                    FeatureContext{pictures.format(), nullptr, nullptr});
      const std::vector<std::string>& keys = cpu->outputs();
      for (const nlohmann::json& frame : *frames) {
        const size_t i = frame.at("frameNum").get<size_t>();
        const nlohmann::json& metrics = frame.contains("metrics") ? frame.at("metrics") : frame;
        for (size_t k = 0; k < keys.size(); ++k) {
          if (!metrics.contains(keys[k])) continue;
          const double want = testing_vectors::stored_value(metrics.at(keys[k]));
          EXPECT_TRUE(same_bits(r.got.at(i * keys.size() + k), want))
              << what << " frame " << i << " " << keys[k] << ": device "
              << r.got.at(i * keys.size() + k) << ", libvmaf " << want;
          ++stored;
        }
      }
    }
  }
  std::printf("%s speed catalogue: %d runs, %d values equal to the CPU, %d to libvmaf's stored\n",
              tag().c_str(), runs, compared, stored);
  EXPECT_GT(runs, 0);
  EXPECT_GT(stored, 0);
}

// Seeded random clips of every depth and chroma format under every option set, in one batch
// (speed_chroma also as loose pairs).
TEST_P(SpeedOnDevice, OptionsEqualCpu) {
  const std::vector<std::string> specs{
      "speed_chroma",
      "speed_chroma=speed_weight_var_mode=1:speed_kernelscale=0.5",
      "speed_chroma=speed_weight_var_mode=2:speed_sigma_nn=1.2",
      "speed_chroma=speed_weight_var_mode=3:speed_kernelscale=2",
      "speed_chroma=speed_weight_var_mode=4:speed_kernelscale=1.5:speed_nn_floor=0.3",
      "speed_chroma=speed_weight_var_mode=5:speed_sigma_nn=0.19:speed_nn_floor=0.1:"
      "speed_max_val=45",
      "speed_chroma=speed_weight_var_mode=6:speed_kernelscale=3.7113402",
      "speed_chroma=speed_prescale=1.0004",
      "speed_chroma=speed_prescale=2",
      "speed_chroma=speed_prescale=1.5:speed_prescale_method=bilinear",
      "speed_chroma=speed_prescale=0.8:speed_prescale_method=bicubic",
      "speed_chroma=speed_prescale=1.3:speed_prescale_method=lanczos4",
      "speed_chroma=speed_prescale=0.75",
      "speed_chroma=speed_kernelscale=3:speed_prescale=2.5:speed_prescale_method=bilinear",
      "speed_temporal",
      "speed_temporal=speed_use_ref_diff=true",
      "speed_temporal=speed_kernelscale=3.7113402:speed_nn_floor=0.3",
      "speed_temporal=speed_kernelscale=0.6666667:speed_sigma_nn=0.5",
      "speed_temporal=speed_prescale=0.7:speed_prescale_method=bicubic:speed_sigma_nn=0.5",
      "speed_temporal=speed_prescale=0.6:speed_prescale_method=lanczos4",
      "speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_max_val=1",
      "speed_temporal=speed_kernelscale=0.6666667:speed_prescale=0.9",
  };
  struct Clip {
    int w, h;
    ChromaFormat chroma;
    int bitdepth;
  };
  const Clip clips[] = {{176, 160, ChromaFormat::k420, 8},
                        {334, 250, ChromaFormat::k420, 10},
                        {201, 123, ChromaFormat::k444, 12},
                        {250, 190, ChromaFormat::k422, 16}};
  std::mt19937_64 rng(20261206);
  int compared = 0, left_out = 0;
  for (const Clip& c : clips) {
    const VideoFormat f{c.w, c.h, c.chroma, c.bitdepth};
    const PictureFrames pictures = seeded_frames(f, 4, rng);
    for (const std::string& spec : specs) {
      const std::string what = f.describe() + " " + spec;
      try {  // only the specs SpEED scores at this size
        make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
        if (spec.rfind("speed_temporal", 0) == 0) {
          const FeatureSpec parsed = parse_feature_spec(spec);
          speed::check_scoreable(speed::parse_speed_options(speed::Feature::kTemporal, parsed),
                                 f.width, f.height);
        }
      } catch (const InputError&) {
        ++left_out;
        continue;
      }
      compared += compare(f, spec, pictures.pairs, what).compared;
      if (spec.rfind("speed_chroma", 0) == 0)  // speed_temporal takes numbered frames only
        compared += compare_on_device(device(), f, spec, device_specs(spec), pictures.pairs,
                                      what + " (loose pairs)", Pace::kLoosePairs)
                        .compared;
    }
  }
  std::printf("%s speed options: %d values bit for bit, %d specs left out where too small\n",
              tag().c_str(), compared, left_out);
}

// Every kernel scale libvmaf takes, both features, on one clip.
TEST_P(SpeedOnDevice, EveryKernelScaleEqualsCpu) {
  const char* const kernelscales[] = {
      "0.5",       "1.5",  "2",         "0.6666667", "2.4",     "3.7113402", "1.3333333",
      "1.1666667", "1.25", "1.4166667", "1.6666667", "3",       "0.4444444", "1.4746",
      "1.54",      "1.6",  "1.06667",   "0.711111",  "0.74074", "1.111111"};
  const VideoFormat f{170, 170, ChromaFormat::k444, 10};
  std::mt19937_64 rng(170);
  const PictureFrames pictures = seeded_frames(f, 3, rng);
  int compared = 0;
  for (const char* ks : kernelscales)
    for (const char* feature : {"speed_chroma", "speed_temporal"}) {
      const std::string spec = fmt::format("{}=speed_kernelscale={}", feature, ks);
      compared += compare(f, spec, pictures.pairs, spec).compared;
    }
  std::printf("%s speed kernel scales: %d values bit for bit\n", tag().c_str(), compared);
}

// speed_temporal fed in batches of 1, 2 and 3 frames (the engine keeps the
// previous frame across calls) and started inside the video (start_at, as an
// MPI rank): the values of one pass on the CPU.
TEST_P(SpeedOnDevice, TemporalAcrossBatchesAndStartsIsOnePass) {
  const VideoFormat f{176, 144, ChromaFormat::k420, 8};
  std::mt19937_64 rng(176);
  const PictureFrames pictures = seeded_frames(f, 7, rng);
  const std::span<const FramePair> all(pictures.pairs);
  for (const char* spec : {"speed_temporal", "speed_temporal=speed_use_ref_diff=true"}) {
    auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
    std::vector<double> want(all.size());
    cpu->extract_batch(all, want);
    for (const std::string& device_spec : device_specs(spec)) {
      for (size_t step : {size_t{1}, size_t{2}, size_t{3}}) {
        auto dev =
            make_feature(parse_feature_spec(device_spec), FeatureContext{f, nullptr, device()});
        std::vector<double> got(all.size(), -1.0);
        for (size_t i = 0; i < all.size(); i += step) {
          const size_t n = std::min(step, all.size() - i);
          dev->extract_batch(all.subspan(i, n), std::span<double>(got).subspan(i, n));
        }
        for (size_t i = 0; i < all.size(); ++i)
          EXPECT_TRUE(same_bits(got[i], want[i]))
              << device_spec << " batches of " << step << " frame " << i << ": " << got[i]
              << " vs cpu " << want[i];
      }
      // Started at frame 3, handed frame 2: frames 3.. as in the whole pass.
      auto resumed =
          make_feature(parse_feature_spec(device_spec), FeatureContext{f, nullptr, device()});
      resumed->start_at(all.subspan(2, 1), 3);
      std::vector<double> got(all.size() - 3, -1.0);
      resumed->extract_batch(all.subspan(3), got);
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(same_bits(got[i], want[i + 3]))
            << device_spec << " started at 3, frame " << i + 3 << ": " << got[i] << " vs cpu "
            << want[i + 3];
    }
  }
}

// Runs the CUDA engines split into many chunks on several lanes (1080p: four
// frames a chunk, the last ones one a chunk) and into two batches (70 small
// frames: batches of at most 64), where speed_temporal hands its kept pair from
// chunk to chunk and each batch's pairs are solved together: the CPU's bits.
TEST_P(SpeedOnDevice, ManyChunksAndBatchesEqualCpu) {
  std::mt19937_64 rng(1080);
  int compared = 0;
  const std::pair<VideoFormat, size_t> clips[] = {
      {VideoFormat{1920, 1080, ChromaFormat::k420, 8}, 12},
      // 4K luma: a side's windows take more than 48 KiB of shared memory on CUDA.
      {VideoFormat{3840, 2160, ChromaFormat::k420, 8}, 3},
      {VideoFormat{160, 160, ChromaFormat::k420, 10}, 70}};
  for (const auto& [f, frames] : clips) {
    const PictureFrames pictures = seeded_frames(f, frames, rng);
    for (const char* spec : {"speed_chroma", "speed_temporal"})
      compared += compare(f, spec, pictures.pairs, f.describe() + " " + spec).compared;
  }
  std::printf("%s speed many chunks and batches: %d values bit for bit\n", tag().c_str(), compared);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(SpeedOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
