// adm's options (libvmaf's names, aliases, defaults and ranges), output
// names, bad input, and the feature against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/adm/adm_feature.h"
#include "metrics/adm/decouple.h"
#include "metrics/adm/definition.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"

namespace exactvq::adm {
namespace {

AdmOptions parse(const std::string& text) { return parse_adm_options(parse_feature_spec(text)); }

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(AdmOptions, DefaultsAreLibvmafs) {
  const AdmOptions o = parse("adm");
  EXPECT_FALSE(o.debug);
  EXPECT_EQ(o.enhn_gain_limit, 100.0);
  EXPECT_EQ(o.norm_view_dist, 3.0);
  EXPECT_EQ(o.ref_display_height, 1080);
  EXPECT_EQ(o.csf_mode, CsfMode::kWatson97);
  EXPECT_EQ(o.noise_weight, 0.03125);
  EXPECT_EQ(o.dlm_weight, 0.5);
  EXPECT_EQ(o.min_val, 0.0);
  EXPECT_EQ(o.csf_scale, 1.0);
  EXPECT_EQ(o.csf_diag_scale, 1.0);
  EXPECT_FALSE(o.skip_aim);
  EXPECT_FALSE(o.skip_scale0);
  EXPECT_EQ(key_suffix(o), "");
}

TEST(AdmOptions, NamesAndAliases) {
  EXPECT_EQ(parse("adm=egl=1").enhn_gain_limit, 1.0);
  EXPECT_EQ(parse("adm=adm_enhn_gain_limit=2.5").enhn_gain_limit, 2.5);
  EXPECT_EQ(parse("adm=nvd=4").norm_view_dist, 4.0);
  EXPECT_EQ(parse("adm=adm_norm_view_dist=5").norm_view_dist, 5.0);
  EXPECT_EQ(parse("adm=rdh=2160").ref_display_height, 2160);
  EXPECT_EQ(parse("adm=adm_ref_display_height=4320").ref_display_height, 4320);
  EXPECT_EQ(parse("adm=scf=2").csf_scale, 2.0);
  EXPECT_EQ(parse("adm=adm_csf_diag_scale=0.5").csf_diag_scale, 0.5);
  EXPECT_EQ(parse("adm=scfd=7").csf_diag_scale, 7.0);
  EXPECT_EQ(parse("adm=dlmw=0.8").dlm_weight, 0.8);
  EXPECT_EQ(parse("adm=adm_dlm_weight=1").dlm_weight, 1.0);
  EXPECT_EQ(parse("adm=nw=0").noise_weight, 0.0);
  EXPECT_EQ(parse("adm=adm_noise_weight=1500").noise_weight, 1500.0);
  EXPECT_EQ(parse("adm=min=0.25").min_val, 0.25);
  EXPECT_EQ(parse("adm=adm_min_val=1").min_val, 1.0);
  EXPECT_TRUE(parse("adm=ssz=true").skip_scale0);
  EXPECT_TRUE(parse("adm=adm_skip_scale0=true").skip_scale0);
  EXPECT_TRUE(parse("adm=adm_skip_aim=true").skip_aim);
  EXPECT_TRUE(parse("adm=debug=true").debug);
  EXPECT_EQ(parse("adm=csf=0").csf_mode, CsfMode::kWatson97);
  EXPECT_EQ(parse("adm=adm_csf_mode=0").csf_mode, CsfMode::kWatson97);
}

TEST(AdmOptions, RangesAreLibvmafs) {
  EXPECT_NE(error_of("adm=egl=0.99"), "");
  EXPECT_NE(error_of("adm=egl=100.5"), "");
  EXPECT_NE(error_of("adm=nvd=0.5"), "");
  EXPECT_NE(error_of("adm=nvd=24.5"), "");
  EXPECT_NE(error_of("adm=rdh=0"), "");
  EXPECT_NE(error_of("adm=rdh=4321"), "");
  EXPECT_NE(error_of("adm=rdh=1080.5"), "");
  EXPECT_NE(error_of("adm=scf=-1"), "");
  EXPECT_NE(error_of("adm=scf=51"), "");
  EXPECT_NE(error_of("adm=dlmw=1.1"), "");
  EXPECT_NE(error_of("adm=nw=1501"), "");
  EXPECT_NE(error_of("adm=min=2"), "");
  EXPECT_NE(error_of("adm=csf=4"), "");
  EXPECT_NE(error_of("adm=egl=abc"), "");
  EXPECT_NE(error_of("adm=egl="), "");
  EXPECT_NE(error_of("adm=egl=nan"), "");
  EXPECT_NE(error_of("adm=ssz=maybe"), "");
  const std::string e = error_of("adm=egl=0.5");
  EXPECT_NE(e.find("adm"), std::string::npos) << e;
  EXPECT_NE(e.find("egl=0.5"), std::string::npos) << e;
  EXPECT_NE(e.find("[1, 100]"), std::string::npos) << e;
}

TEST(AdmOptions, UnknownKeyListsTheKnownOnes) {
  const std::string e = error_of("adm=enhn_gain_limit=1");
  EXPECT_NE(e.find("unknown option 'enhn_gain_limit'"), std::string::npos) << e;
  EXPECT_NE(e.find("adm_enhn_gain_limit (egl)"), std::string::npos) << e;
  EXPECT_NE(e.find("adm_skip_aim"), std::string::npos) << e;
}

// fp64 is exactvq's own (how a CUDA device runs the decoupling's binary64
// steps): no suffix, no name changes; bad values are refused.
TEST(AdmOptions, Fp64ModeChangesNoName) {
  EXPECT_EQ(parse("adm").fp64, Fp64Mode::kAuto);
  EXPECT_EQ(parse("adm=fp64=auto").fp64, Fp64Mode::kAuto);
  EXPECT_EQ(parse("adm=fp64=native").fp64, Fp64Mode::kNative);
  EXPECT_EQ(parse("adm=egl=1:fp64=emulate").fp64, Fp64Mode::kEmulate);
  EXPECT_EQ(key_suffix(parse("adm=egl=1:fp64=emulate")), "_egl_1");
  EXPECT_EQ(adm_output_names(parse("adm=debug=true:fp64=native")),
            adm_output_names(parse("adm=debug=true")));
  for (const char* bad : {"adm=fp64=soft", "adm=fp64=", "adm=fp64=1"}) {
    const std::string e = error_of(bad);
    EXPECT_NE(e.find("feature adm: fp64="), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("auto, native or emulate"), std::string::npos) << e;
  }
  EXPECT_NE(error_of("adm=fp65=native").find("fp64"),
            std::string::npos);  // listed among the known keys
}

TEST(AdmOptions, CsfModesAndUnsupportedGeometries) {
  EXPECT_EQ(parse("adm=csf=1").csf_mode, CsfMode::kBarten);
  EXPECT_EQ(parse("adm=adm_csf_mode=2").csf_mode, CsfMode::kBartenWatsonBlend);
  EXPECT_EQ(parse("adm=adm_csf_mode=3:nvd=1.5:rdh=2160").csf_mode, CsfMode::kBartenWatsonBlendMae);
  EXPECT_EQ(parse("adm=csf=1:nvd=3.7").csf_mode, CsfMode::kBarten);
  // The blended modes have tables for nine geometries only (of which 480 rows,
  // and 720 at 3 H, fall below the resolution libvmaf scores).
  for (const char* bad : {"adm=csf=2:nvd=4", "adm=csf=3:rdh=1440", "adm=csf=2:nvd=6:rdh=540"}) {
    const std::string e = error_of(bad);
    EXPECT_NE(e.find("has CSF tables only for"), std::string::npos) << bad << ": " << e;
  }
  for (const char* good : {"adm=csf=2:nvd=5", "adm=csf=3:nvd=3:rdh=2160", "adm=csf=2:nvd=5:rdh=720",
                           "adm=csf=3:nvd=5:rdh=2160", "adm=csf=2:nvd=1.5:rdh=2160"})
    EXPECT_EQ(error_of(good), "") << good;
  // libvmaf's extract() fails below nvd * rdh = 3240.
  EXPECT_NE(error_of("adm=nvd=2.9").find("below 3 * 1080"), std::string::npos);
  EXPECT_NE(error_of("adm=rdh=720"), "");
  EXPECT_EQ(error_of("adm=nvd=1.5:rdh=2160"), "");
}

TEST(AdmOptions, SuffixFollowsLibvmafsNaming) {
  EXPECT_EQ(key_suffix(parse("adm=egl=1")), "_egl_1");
  EXPECT_EQ(key_suffix(parse("adm=egl=100")), "");  // the default: no suffix
  // Sorted by option name; %g values; booleans bare (libvmaf's own output).
  EXPECT_EQ(key_suffix(parse("adm=ssz=true:min=0.25:egl=1.5:debug=true")), "_egl_1.5_min_0.25_ssz");
  EXPECT_EQ(key_suffix(parse("adm=nw=0:nvd=4:rdh=2160:dlmw=0.8")), "_dlmw_0.8_nw_0_nvd_4_rdh_2160");
  EXPECT_EQ(key_suffix(parse("adm=scf=2:scfd=0.5")), "_scfd_0.5_scf_2");
  // VMAF v1.0.16's adm (libvmaf's own key).
  EXPECT_EQ(key_suffix(parse("adm=adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
                             "adm_norm_view_dist=5:adm_ref_display_height=1080:adm_min_val=0.5:"
                             "adm_csf_mode=2")),
            "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_5");
  EXPECT_EQ(key_suffix(parse("adm=adm_skip_aim=true:nw=1e-05")), "_nw_1e-05");
}

TEST(AdmOptions, OutputNamesInLibvmafsOrder) {
  const std::vector<std::string> plain = adm_output_names(parse("adm=egl=1"));
  const std::vector<std::string> want = {"integer_adm2_egl_1",       "integer_aim_egl_1",
                                         "integer_adm3_egl_1",       "integer_adm_scale0_egl_1",
                                         "integer_adm_scale1_egl_1", "integer_adm_scale2_egl_1",
                                         "integer_adm_scale3_egl_1"};
  EXPECT_EQ(plain, want);
  const std::vector<std::string> debug = adm_output_names(parse("adm=debug=true"));
  ASSERT_EQ(debug.size(), 18u);
  EXPECT_EQ(debug[7], "integer_adm");
  EXPECT_EQ(debug[8], "integer_adm_num");
  EXPECT_EQ(debug[9], "integer_adm_den");
  EXPECT_EQ(debug[10], "integer_adm_num_scale0");
  EXPECT_EQ(debug[17], "integer_adm_den_scale3");
}

Picture random_picture(const VideoFormat& f, std::mt19937& rng) {
  Picture p;
  p.allocate(f);
  const uint32_t peak = f.max_sample();
  for (int plane = 0; plane < 3; ++plane) {
    const size_t n = size_t(f.plane_width(plane)) * size_t(f.plane_height(plane));
    for (size_t i = 0; i < n; ++i) {
      if (f.bitdepth > 8)
        reinterpret_cast<uint16_t*>(p.plane_data(plane))[i] = uint16_t(rng() % (peak + 1));
      else
        p.plane_data(plane)[i] = uint8_t(rng() % (peak + 1));
    }
  }
  return p;
}

TEST(AdmSizes, BelowThirtyThreeIsAClearError) {
  for (const auto& [w, h] : {std::pair{32, 33}, {33, 32}, {18, 10}, {1, 1}, {16, 200}}) {
    try {
      check_adm_size(w, h, "clip.y4m");
      ADD_FAILURE() << w << "x" << h << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fmt::format("{}x{}", w, h)), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("clip.y4m"), std::string::npos) << e.what();
    }
    const VideoFormat f{w, h, ChromaFormat::k444, 8};
    FeatureContext ctx;
    ctx.format = f;
    EXPECT_THROW(make_adm_feature(AdmOptions{}, ctx), PictureError);
    std::mt19937 rng(1);
    const Picture a = random_picture(f, rng), b = random_picture(f, rng);
    EXPECT_THROW(adm_reference(a.plane(0), b.plane(0), 8, AdmOptions{}), PictureError);
  }
  EXPECT_NO_THROW(check_adm_size(33, 33, "clip"));
}

TEST(AdmFeature, BatchesInParallelEqualTheReference) {
  const uint32_t seed = 77;
  std::mt19937 rng(seed);
  const VideoFormat f{65, 41, ChromaFormat::k420, 10};
  std::vector<Picture> ref, dist;
  for (int i = 0; i < 5; ++i) {
    ref.push_back(random_picture(f, rng));
    dist.push_back(random_picture(f, rng));
  }
  const AdmOptions o = parse("adm=debug=true:egl=1");
  ThreadPool pool(3);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    FeatureContext ctx;
    ctx.format = f;
    ctx.pool = p;
    auto feature = make_adm_feature(o, ctx);
    EXPECT_EQ(feature->batch_frames(), p ? 3 : 1);
    const size_t n = feature->outputs().size();
    ASSERT_EQ(n, 18u);
    std::vector<FramePair> pairs;
    for (int i = 0; i < 5; ++i) pairs.push_back({&ref[size_t(i)], &dist[size_t(i)], i});
    std::vector<double> out(5 * n);
    feature->extract_batch(pairs, out);
    for (int i = 0; i < 5; ++i) {
      const AdmScores s = adm_reference(ref[size_t(i)].plane(0), dist[size_t(i)].plane(0), 10, o);
      EXPECT_EQ(out[size_t(i) * n + 0], s.adm2) << "seed " << seed << " frame " << i;
      EXPECT_EQ(out[size_t(i) * n + 1], s.aim) << "seed " << seed << " frame " << i;
      EXPECT_EQ(out[size_t(i) * n + 2], s.adm3) << "seed " << seed << " frame " << i;
      EXPECT_EQ(out[size_t(i) * n + 6], s.scale[3]) << "seed " << seed << " frame " << i;
      EXPECT_EQ(out[size_t(i) * n + 17], s.den_scale[3]) << "seed " << seed << " frame " << i;
    }
  }
}

// The CPU takes fp64= and ignores it: the same values.
TEST(AdmFeature, Fp64ModeChangesNoValueOnTheCpu) {
  std::mt19937 rng(78);
  const VideoFormat f{48, 40, ChromaFormat::k420, 8};
  const Picture a = random_picture(f, rng), b = random_picture(f, rng);
  const std::vector<FramePair> pairs = {{&a, &b, 0}};
  std::vector<double> values[2];
  for (int k = 0; k < 2; ++k) {
    FeatureContext ctx;
    ctx.format = f;
    auto feature =
        make_adm_feature(parse(k == 0 ? "adm=debug=true" : "adm=debug=true:fp64=emulate"), ctx);
    values[k].resize(feature->outputs().size());
    feature->extract_batch(pairs, values[k]);
  }
  EXPECT_EQ(std::memcmp(values[0].data(), values[1].data(), values[0].size() * sizeof(double)), 0);
}

TEST(AdmReference, NoReferenceDetailGivesOneAndZeroAim) {
  // A flat reference with adm_noise_weight=0: every denominator is 0. libvmaf
  // gives adm2 = 1 and leaves integer_aim unset (stack garbage); exactvq 0.
  const VideoFormat f{40, 40, ChromaFormat::k444, 8};
  Picture ref;
  ref.allocate(f);
  std::fill(ref.plane_data(0), ref.plane_data(0) + 1600, uint8_t(100));
  std::mt19937 rng(3);
  const Picture dist = random_picture(f, rng);
  const AdmScores s = adm_reference(ref.plane(0), dist.plane(0), 8, parse("adm=nw=0"));
  EXPECT_EQ(s.adm2, 1.0);
  EXPECT_EQ(s.aim, 0.0);
  EXPECT_EQ(s.adm3, 1.0);
  EXPECT_EQ(s.den, 0.0);
  EXPECT_TRUE(std::isnan(s.scale[0]));
  EXPECT_TRUE(std::signbit(s.scale[0]));  // x86-64's default NaN, on every machine
}

TEST(AdmReference, MismatchedInputIsAClearError) {
  const VideoFormat f{40, 40, ChromaFormat::k444, 8}, g{41, 40, ChromaFormat::k444, 8};
  std::mt19937 rng(5);
  const Picture a = random_picture(f, rng), b = random_picture(g, rng);
  EXPECT_THROW(adm_reference(a.plane(0), b.plane(0), 8, AdmOptions{}), InputError);
  EXPECT_THROW(adm_reference(a.plane(0), a.plane(0), 10, AdmOptions{}), PictureError);
}

// The SIMD twins' Q30 table is the reciprocal the reference and CUDA compute.
TEST(AdmReference, ReciprocalTableIsTheSharedReciprocal) {
  const int32_t* table = reciprocal_table();
  for (int32_t o = -32768; o <= 32768; ++o)
    if (o != 0) {
      ASSERT_EQ(table[o + 32768], adm_reciprocal(o)) << o;
    }
}

// The host half from the per-sample half is the reference, and the sums of a
// skipped AIM or scale 0 are zeros.
TEST(AdmReference, SumsThenScoresAreTheReference) {
  std::mt19937 rng(11);
  for (const char* spec :
       {"adm", "adm=debug=true:adm_skip_aim=true", "adm=ssz=true:debug=true", "adm=egl=1"}) {
    const AdmOptions o = parse(spec);
    for (const VideoFormat f : {VideoFormat{33, 33, ChromaFormat::k444, 8},
                                VideoFormat{77, 45, ChromaFormat::k444, 10}}) {
      const Picture a = random_picture(f, rng), b = random_picture(f, rng);
      const AdmSums sums =
          adm_integer_sums(a.plane(0), b.plane(0), f.bitdepth, o, reference_row_kernels());
      const AdmScores want = adm_reference(a.plane(0), b.plane(0), f.bitdepth, o);
      const AdmScores got = adm_scores_from_sums(sums, f.width, f.height, o);
      EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0) << spec;
      for (int k = 0; k < 3; ++k) {
        if (o.skip_aim) {
          for (const ScaleSums& s : sums) EXPECT_EQ(s.aim_num[k], 0);
        }
        if (o.skip_scale0) {
          EXPECT_EQ(sums[0].den[k], 0u);
          EXPECT_EQ(sums[0].num[k], 0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace exactvq::adm
