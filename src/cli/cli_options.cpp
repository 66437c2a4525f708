#include "cli/cli_options.h"

#include <algorithm>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/ctc_presets.h"
#include "core/error.h"
#include "metrics/registry.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq {

namespace {

int parse_int(const std::string& option, const std::string& text, int lo, int hi) {
  int value = 0;
  size_t used = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || value < lo || value > hi)
    throw UsageError(fmt::format("{} {}: expected an integer in {}..{}", option, text, lo, hi));
  return value;
}

// The largest value of libvmaf's unsigned options.
constexpr int64_t kMaxUnsigned = 0xffffffffLL;

// libvmaf's parse_unsigned: strtoul in base 0 (so 0x10 and 010 too), the whole
// text a number; exactvq also refuses a sign and values beyond `hi`.
int64_t parse_unsigned(const std::string& option, const std::string& text, int64_t hi) {
  const auto bad = [&] {
    return UsageError(fmt::format("{} {}: expected an integer in 0..{}", option, text, hi));
  };
  if (text.empty() || text.find_first_of("+-") != std::string::npos) throw bad();
  unsigned long long value = 0;
  size_t used = 0;
  try {
    value = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value > static_cast<unsigned long long>(hi)) throw bad();
  return int64_t(value);
}

// The arguments without --batch, --batch-jobs, --batch-summary and their values.
std::vector<std::string> without_batch_options(int argc, const char* const* argv) {
  static const char* const kBatch[] = {"--batch", "--batch-jobs", "--batch-summary"};
  std::vector<std::string> kept;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool skip = false;
    for (const char* name : kBatch) {
      if (a == name) {
        skip = true;
        ++i;  // and its value
      } else if (a.rfind(std::string(name) + "=", 0) == 0) {
        skip = true;
      }
    }
    if (!skip) kept.push_back(a);
  }
  return kept;
}

}  // namespace

void parse_gpus(const std::string& text, DeviceOptions& device) {
  device.gpus.clear();
  device.gpu_count = 0;
  if (text == "all") {
    device.gpu_count = DeviceOptions::kAllDevices;
    return;
  }
  const auto bad = [&](const std::string& why) {
    return UsageError(
        fmt::format("--gpus '{}': {} (expected all, a count N, or a list of device "
                    "numbers such as 0,2)",
                    text, why));
  };
  if (text.empty()) throw bad("empty");
  if (text.find(',') == std::string::npos) {
    if (text.find_first_not_of("0123456789") != std::string::npos) throw bad("not a number");
    device.gpu_count = parse_int("--gpus", text, 1, 1024);
    return;
  }
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw bad("an empty item in the list");
    if (item.find_first_not_of("0123456789") != std::string::npos)
      throw bad(fmt::format("'{}' is not a device number", item));
    const int number = parse_int("--gpus", item, 0, 1023);
    for (int seen : device.gpus)
      if (seen == number) throw bad(fmt::format("device {} is listed twice", number));
    device.gpus.push_back(number);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

CliOptions parse_command_line(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"exactvq"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_command_line(int(argv.size()), argv.data());
}

CliOptions parse_command_line(int argc, const char* const* argv) {
  CliOptions c;
  CLI::App app{"exactvq: libvmaf's VMAF, SSIM and PSNR, the same bits on every machine"};
  app.name("exactvq");
  // -h is the height, as in libvmaf's vmaf; help is --help only.
  app.set_help_flag();
  // getopt's rule, as libvmaf's vmaf: an option given twice takes its last value
  // (--feature, --model and the presets add up instead: TakeAll below).
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  bool help = false;
  app.add_flag("--help", help, "Print this help and exit");

  std::string ref, dist, width, height, pix_fmt, bitdepth, precision, threads, frame_cnt, skip_ref,
      skip_dist, subsample, backend, gpu, opencl_device, output, plot, gpus, batch, batch_jobs,
      batch_summary, hwdec, cpumask, gpumask;
  std::vector<std::string> features, models, aom_ctc, nflx_ctc;
  bool xml = false, json = false, csv = false, sub = false, no_prediction = false;
  app.add_option("-r,--reference", ref,
                 "Reference video (Y4M, raw YUV, or a file FFmpeg decodes; - for standard input)")
      ->type_name("FILE");
  app.add_option("-d,--distorted", dist,
                 "Distorted video (Y4M, raw YUV, or a file FFmpeg decodes; - for standard input)")
      ->type_name("FILE");
  app.add_option("-w,--width", width, "Raw YUV: width")->type_name("W");
  app.add_option("-h,--height", height, "Raw YUV: height")->type_name("H");
  app.add_option("-p,--pixel_format", pix_fmt, "Raw YUV: 420, 422 or 444")
      ->type_name("420|422|444");
  app.add_option("-b,--bitdepth", bitdepth,
                 "Raw YUV: bits per sample, 8..16 (little-endian above 8)")
      ->type_name("BITS");
  app.add_option("--feature", features,
                 "Feature to score, with options: ssim[=sum=exact|raster:enable_db=true|false:"
                 "clip_db=true|false:chroma=true|false] or psnr[=enable_chroma=true|false:"
                 "enable_mse=true|false:enable_apsnr=true|false:reduced_hbd_peak=true|false:"
                 "min_sse=S], motion, vif, adm, float_ssim, float_ms_ssim, psnr_hvs, cambi, "
                 "speed_chroma, speed_temporal, ciede with libvmaf's options (repeatable)")
      ->type_name("NAME[=OPT=VAL:...]")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("-m,--model", models,
                 "VMAF model, as libvmaf takes it: version=NAME (vmaf_v0.6.1, vmaf_v0.6.1neg, "
                 "vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, the bootstrap collection vmaf_b_v0.6.3) "
                 "or path=FILE, with :name=LABEL (default vmaf), :disable_clip, "
                 ":enable_transform (repeatable; without --model, version=vmaf_v0.6.1 "
                 "unless -n)")
      ->type_name("KEY=VAL[:...]")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--aom_ctc", aom_ctc,
                 "libvmaf's AOM CTC preset v1.0 .. v7.0: models vmaf (v0.6.1) and vmaf_neg "
                 "(v0.6.1neg), psnr with reduced_hbd_peak, apsnr and min_sse=0.5, ciede, "
                 "float_ssim and float_ms_ssim in dB, psnr_hvs; v3.0 on: cambi; v6.0 on: "
                 "inputs of different bit depths; v7.0: float_ssim scale=1")
      ->type_name("VERSION")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--nflx_ctc", nflx_ctc,
                 "libvmaf's Netflix CTC preset v1.0: models vmaf (4k v0.6.1) and vmaf_neg "
                 "(4k v0.6.1neg), psnr with chroma and apsnr, float_ssim in dB, cambi")
      ->type_name("VERSION")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("-o,--output", output, "Write per-frame and pooled scores to this file")
      ->type_name("FILE");
  app.add_option("--plot", plot,
                 "Write an SVG chart of the per-frame scores: every feature, the pooled mean, "
                 "the worst frames")
      ->type_name("FILE.svg");
  app.add_flag(
      "--xml", xml,
      "Output file in XML (the default; of --xml, --json, --csv, --sub the last given wins)");
  app.add_flag("--json", json, "Output file in JSON");
  app.add_flag("--csv", csv, "Output file in CSV");
  app.add_flag("--sub", sub, "Output file as subtitles (MicroDVD), as libvmaf writes them");
  app.add_option("--cpumask", cpumask,
                 "libvmaf's mask of CPU instruction sets; accepted for compatibility, and "
                 "changes nothing (every instruction set gives libvmaf's plain C bits)")
      ->type_name("BITMASK");
  app.add_option("--gpumask", gpumask,
                 "libvmaf's mask of GPU operations; accepted for compatibility, and changes "
                 "nothing (use --backend, --gpu, --gpus to choose devices)")
      ->type_name("BITMASK");
  app.add_option("--precision", precision,
                 "Decimals printed (default 6, as libvmaf), or max: the shortest decimal that "
                 "reads back to the same binary64")
      ->type_name("N|max");
  app.add_option("--threads", threads, "Worker threads (default: all cores; 0: one)")
      ->type_name("N");
  app.add_option("--frame_cnt", frame_cnt,
                 "Score this many frames (0: all; an error if fewer exist)")
      ->type_name("N");
  app.add_option("--frame_skip_ref", skip_ref, "Skip this many reference frames first")
      ->type_name("N");
  app.add_option("--frame_skip_dist", skip_dist, "Skip this many distorted frames first")
      ->type_name("N");
  app.add_option("--subsample", subsample, "Score every Nth frame (0 as 1)")->type_name("N");
  app.add_option("--backend", backend,
                 "Where to compute: cpu, cuda, opencl, or auto (a CUDA GPU when one works, "
                 "else the CPU); every backend gives the same bits")
      ->type_name("cpu|cuda|opencl|auto");
  app.add_option("--gpu", gpu, "CUDA device number (default 0)")->type_name("N");
  app.add_option("--hwdec", hwdec,
                 "Decode encoded inputs on the GPU (NVDEC: H.264, HEVC, VP9, AV1) into its memory: "
                 "cuda (or an error), auto (the CPU where the GPU cannot; said with --verbose), "
                 "none (default: auto with --backend cuda, else none); the same bits either way")
      ->type_name("auto|cuda|none");
  app.add_option("--opencl-device", opencl_device,
                 "OpenCL device number, counted over all platforms (default 0)")
      ->type_name("N");
  app.add_option("--gpus", gpus,
                 "Several devices at once, frames shared out among them (same bits as one): "
                 "all, the first N, or a list such as 0,2 (CUDA unless --backend opencl)")
      ->type_name("all|N|LIST");
  app.add_option(
         "--batch", batch,
         "Score every pair listed in a CSV (header ref,dist,output[,options]) or JSON-lines "
         "file, one output file each; the other options apply to every pair")
      ->type_name("LIST");
  app.add_option("--batch-jobs", batch_jobs,
                 "Pairs scored at once with --batch (default: half the cores, 2..8)")
      ->type_name("N");
  app.add_option("--batch-summary", batch_summary,
                 "With --batch: a summary of every pair (status, pooled ssim, error) in CSV, or "
                 "JSON for a .json name; - for standard output")
      ->type_name("FILE");
  app.add_flag("--verbose", c.verbose,
               "Say on standard error which device scores, which input the CPU decodes where "
               "--hwdec auto could not use the GPU, and where the run's time went (start-up "
               "stages, scoring, the report)");
  app.add_flag("-n,--no_prediction", no_prediction,
               "Score the models' features but not the models (no vmaf column), and no "
               "default model");
  app.add_flag("-q,--quiet", c.quiet, "No summary, no warnings on standard error");
  app.add_flag("-v,--version", c.show_version, "Print the version and exit");
  // -c is in libvmaf's getopt string but no option of its: it takes a value and
  // ignores it, and so does exactvq (hidden from the help).
  std::string ignored_c;
  app.add_option("-c", ignored_c)->group("");

  app.footer(
      "Inputs: Y4M (8..16 bits; 420, 422, 444, mono), raw planar YUV (.yuv, .raw) with -w -h\n"
      "-p -b, or any other video file (MP4, MKV, WebM, IVF, ...) through FFmpeg's libraries,\n"
      "planar YUV or gray at 8..16 bits as decoded.\n"
      "The options of libvmaf's vmaf mean what they mean there: VMAF v0.6.1 is scored\n"
      "unless -n or --model says otherwise, also beside --feature; an option given\n"
      "twice takes its last value, except --feature, --model, --aom_ctc, --nflx_ctc.\n"
      "Examples:\n"
      "  exactvq -r ref.y4m -d dist.y4m -o out.xml                  (VMAF v0.6.1)\n"
      "  exactvq -r ref.y4m -d dist.y4m --feature float_ssim -o out.xml  (and VMAF)\n"
      "  exactvq -r ref.y4m -d dist.y4m --feature psnr -n --json -o out.json (psnr only)\n"
      "  exactvq -r ref.y4m -d dist.y4m --aom_ctc v1.0 --json -o out.json\n"
      "Many pairs: exactvq --batch pairs.csv, a list with the header ref,dist,output[,options]\n"
      "(or JSON lines); relative paths are from the list's folder.\n"
      "Exit status: 0 scored, 1 bad input or output failure, 2 bad usage.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  c.help_text = app.help();
  c.show_help = help;
  if (help || c.show_version) return c;

  if (!batch.empty() || app.count("--batch") > 0) {
    if (batch.empty()) throw UsageError("--batch '': expected a list file");
    if (!ref.empty() || !dist.empty() || !output.empty() || !plot.empty())
      throw UsageError(
          "--batch takes -r, -d, -o and --plot from each pair of its list, not from "
          "the command line");
    c.batch_path = batch;
    if (!batch_jobs.empty()) c.batch_jobs = parse_int("--batch-jobs", batch_jobs, 1, 1024);
    if (app.count("--batch-summary") > 0) {
      if (batch_summary.empty()) throw UsageError("--batch-summary '': expected a file name, or -");
      c.batch_summary = batch_summary;
    }
    c.batch_args = without_batch_options(argc, argv);
  } else if (!batch_jobs.empty() || !batch_summary.empty()) {
    throw UsageError("--batch-jobs and --batch-summary go with --batch LIST");
  }
  if (!c.batch_path) {
    if (ref.empty()) throw UsageError("missing -r REF (the reference video)");
    if (dist.empty()) throw UsageError("missing -d DIST (the distorted video)");
  }
  // As libvmaf's parser: any of -w -h -p -b asks for raw YUV, which needs all four.
  const bool any_raw = !width.empty() || !height.empty() || !pix_fmt.empty() || !bitdepth.empty();
  if (any_raw && (width.empty() || height.empty() || pix_fmt.empty() || bitdepth.empty())) {
    std::vector<std::string> missing;
    for (const auto& [flag, value] : {std::pair<const char*, const std::string&>{"-w", width},
                                      {"-h", height},
                                      {"-p", pix_fmt},
                                      {"-b", bitdepth}})
      if (value.empty()) missing.push_back(flag);
    throw UsageError(fmt::format("raw YUV input needs all of -w, -h, -p and -b: missing {}",
                                 fmt::join(missing, ", ")));
  }
  RunOptions& run = c.run;
  // libvmaf scores the frames two inputs share and exits 0; the command line refuses that.
  run.equal_lengths = true;
  run.ref_path = ref;
  run.dist_path = dist;
  if (!width.empty()) run.raw.width = parse_int("-w", width, 1, kMaxDimension);
  if (!height.empty()) run.raw.height = parse_int("-h", height, 1, kMaxDimension);
  if (!bitdepth.empty()) run.raw.bitdepth = parse_int("-b", bitdepth, 8, 16);
  if (!pix_fmt.empty()) {
    if (pix_fmt == "420")
      run.raw.chroma = ChromaFormat::k420;
    else if (pix_fmt == "422")
      run.raw.chroma = ChromaFormat::k422;
    else if (pix_fmt == "444")
      run.raw.chroma = ChromaFormat::k444;
    else
      throw UsageError(fmt::format("-p {}: expected 420, 422 or 444", pix_fmt));
  }
  // --feature, --model and the presets in the order given, as libvmaf appends them;
  // of --xml, --json, --csv and --sub, the last.
  CliScoreList list;
  size_t next_feature = 0, next_model = 0, next_aom = 0, next_nflx = 0;
  for (const CLI::Option* o : app.parse_order()) {
    const std::string& name = o->get_name();
    if (name == "--feature" && next_feature < features.size())
      list.features.push_back(features[next_feature++]);
    else if (name == "--model" && next_model < models.size())
      list.models.push_back(models[next_model++]);
    else if (name == "--aom_ctc" && next_aom < aom_ctc.size())
      apply_aom_ctc(aom_ctc[next_aom++], list);
    else if (name == "--nflx_ctc" && next_nflx < nflx_ctc.size())
      apply_nflx_ctc(nflx_ctc[next_nflx++], list);
    else if (name == "--xml")
      c.output_format = OutputFormat::kXml;
    else if (name == "--json")
      c.output_format = OutputFormat::kJson;
    else if (name == "--csv")
      c.output_format = OutputFormat::kCsv;
    else if (name == "--sub")
      c.output_format = OutputFormat::kSub;
  }
  // As libvmaf, a feature given again with the same options is scored once.
  std::vector<std::string> seen;
  for (const auto& f : list.features) {
    if (std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
    seen.push_back(f);
    run.features.push_back(parse_feature_spec(f));
  }
  // A feature this build lacks is refused here, before any input is read; a preset's
  // is named with the preset (libvmaf's names: once registered, the preset runs).
  const std::vector<std::string> known = known_features();
  for (const FeatureSpec& f : run.features) {
    if (std::find(known.begin(), known.end(), f.name) != known.end()) continue;
    const bool given = std::find_if(features.begin(), features.end(), [&](const std::string& t) {
                         return t.substr(0, t.find('=')) == f.name;
                       }) != features.end();
    std::string preset;
    if (!given && !aom_ctc.empty()) preset = " (--aom_ctc " + aom_ctc.back() + " scores it)";
    if (!given && aom_ctc.empty() && !nflx_ctc.empty())
      preset = " (--nflx_ctc " + nflx_ctc.back() + " scores it)";
    throw SetupError(
        fmt::format("unknown feature '{}'{} (known: {})", f.name, preset, fmt::join(known, ", ")));
  }
  c.model_specs = list.models;
  c.common_bitdepth = list.common_bitdepth;
  // libvmaf's default: VMAF v0.6.1 unless a model is named or -n is given.
  if (c.model_specs.empty() && !no_prediction) c.model_specs.push_back(vmaf::kDefaultModelSpec);
  if (c.model_specs.empty() && run.features.empty() && !c.batch_path)
    throw UsageError("-n with neither --feature nor --model: nothing to score");
  run.predict = !no_prediction;
  c.output_format_given = xml || json || csv || sub;
  // -o "" (say, an unset shell variable) would otherwise fall back to the summary.
  if (app.count("--output") > 0 && output.empty())
    throw UsageError("-o '': expected a file name, or - for standard output");
  if (!output.empty()) c.output_path = output;
  if (app.count("--plot") > 0 && plot.empty())
    throw UsageError("--plot '': expected a file name, or - for standard output");
  if (!plot.empty() && plot == output)
    throw UsageError(fmt::format("-o and --plot both name {}", plot));
  if (!plot.empty()) c.plot_path = plot;

  if (precision == "max")
    c.number_format.shortest = true;
  else if (!precision.empty())
    c.number_format.decimals = parse_int("--precision", precision, 0, 17);

  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  run.threads =
      threads.empty() ? cores : std::max(1, int(parse_unsigned("--threads", threads, 1024)));
  c.threads_given = !threads.empty();
  if (!frame_cnt.empty()) {
    // 0: every frame, as libvmaf
    const int64_t n = parse_unsigned("--frame_cnt", frame_cnt, kMaxUnsigned);
    if (n > 0) run.frame_count = n;
  }
  if (!skip_ref.empty()) run.skip_ref = parse_unsigned("--frame_skip_ref", skip_ref, kMaxUnsigned);
  if (!skip_dist.empty())
    run.skip_dist = parse_unsigned("--frame_skip_dist", skip_dist, kMaxUnsigned);
  if (!subsample.empty())
    run.subsample = std::max(1, int(parse_unsigned("--subsample", subsample, 1 << 30)));
  // Checked as libvmaf checks them, then unused: exactvq gives the same bits anyway.
  if (!cpumask.empty()) parse_unsigned("--cpumask", cpumask, kMaxUnsigned);
  if (!gpumask.empty()) parse_unsigned("--gpumask", gpumask, kMaxUnsigned);
  DeviceOptions& device = run.device;
  if (backend.empty() || backend == "cpu")
    device.backend = Backend::kCpu;
  else if (backend == "cuda")
    device.backend = Backend::kCuda;
  else if (backend == "opencl")
    device.backend = Backend::kOpenCL;
  else if (backend == "auto")
    device.backend = Backend::kAuto;
  else
    throw UsageError(fmt::format("--backend {}: expected cpu, cuda, opencl or auto", backend));
  if (!gpu.empty()) device.gpu = parse_int("--gpu", gpu, 0, 1023);
  if (app.count("--hwdec") > 0) {
    run.hwdec = parse_hwdec(hwdec);
    if (!run.hwdec)
      throw UsageError(fmt::format("--hwdec '{}': expected auto, cuda or none", hwdec));
  }
  if (!opencl_device.empty())
    device.opencl_device = parse_int("--opencl-device", opencl_device, 0, 1023);
  if (app.count("--gpus") > 0) {
    parse_gpus(gpus, device);
    if (!gpu.empty()) throw UsageError("--gpu and --gpus both choose devices: give one of them");
    if (!opencl_device.empty())
      throw UsageError("--opencl-device and --gpus both choose devices: give one of them");
    if (backend.empty())
      device.backend = Backend::kCuda;  // as libvmaf's --gpumask
    else if (device.backend == Backend::kCpu)
      throw UsageError(
          fmt::format("--gpus {} with --backend cpu: --gpus chooses GPUs (--backend "
                      "cuda, opencl or auto); the CPU uses --threads",
                      gpus));
  }
  device.verbose = c.verbose;
  return c;
}

void load_run_models(CliOptions& c) { c.run.models = vmaf::make_score_models(c.model_specs); }

}  // namespace exactvq
