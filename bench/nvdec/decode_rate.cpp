// The rate at which a pair of encoded files decodes, with no scoring: each
// input on its own thread, as a scoring run reads them. `skip` only decodes
// (libavcodec hands each frame out and it is dropped: NVDEC alone with
// --hwdec cuda); `read` also converts each frame into a picture (in device
// memory for cuda). Prints frames of the pair per second of wall time.
// Decoder sessions per input: EXACTVQ_HWDEC_SESSIONS (segment-parallel decoding;
// sessions decode ahead from the opening on, so the rate with the opening is
// the one to compare with a whole run's wall time).
// Then the start-up trace (core/startup_trace.h): where the opening's time goes.
// Usage: nvdec_decode_rate REF DIST none|auto|cuda skip|read [GPU]
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "core/picture.h"
#include "core/startup_trace.h"
#include "io/video_source.h"

using namespace exactvq;

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: nvdec_decode_rate REF DIST none|auto|cuda skip|read [GPU]\n");
    return 2;
  }
  const auto hw = parse_hwdec(argv[3]);
  const bool read = std::strcmp(argv[4], "read") == 0;
  if (!hw) return 2;
  DecodeOptions decode{*hw, argc > 5 ? std::atoi(argv[5]) : 0,
                       [](const std::string& in, const std::string& why) {
                         fmt::print(stderr, "{}: decoded on the CPU: {}\n", in, why);
                       }};
  try {
    const auto t0 = std::chrono::steady_clock::now();
    // Both opened at once, as a scoring run opens them (app/score_run.cpp).
    std::unique_ptr<VideoSource> ref, dist;
    std::exception_ptr dist_error;
    std::thread dist_opening([&] {
      try {
        const startup::InputName name("dist");
        dist = open_video(argv[2], {}, decode);
      } catch (...) {
        dist_error = std::current_exception();
      }
    });
    try {
      const startup::InputName name("ref");
      ref = open_video(argv[1], {}, decode);
    } catch (...) {
      dist_opening.join();
      throw;
    }
    dist_opening.join();
    if (dist_error) std::rethrow_exception(dist_error);
    startup::mark("inputs opened");
    ref->set_device_pictures(true);
    dist->set_device_pictures(true);
    const auto t1 = std::chrono::steady_clock::now();
    int64_t counts[2] = {};
    std::exception_ptr errors[2];
    auto drain = [&](VideoSource& src, int side) {
      try {
        Picture slots[16];
        for (int64_t i = 0;; ++i)
          if (!(read ? src.read_frame(slots[i % 16]) : src.skip_frame()))
            break;
          else
            ++counts[side];
      } catch (...) {
        errors[side] = std::current_exception();
      }
    };
    std::thread other([&] { drain(*dist, 1); });
    drain(*ref, 0);
    other.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    const auto t2 = std::chrono::steady_clock::now();
    startup::mark("all frames decoded");
    const double s = std::chrono::duration<double>(t2 - t1).count();
    const double all = std::chrono::duration<double>(t2 - t0).count();
    const double pairs = double(std::min(counts[0], counts[1]));
    fmt::print(
        "{} {} hwdec={} (ref on gpu {}, dist on gpu {}; pieces decoded apart {} + {}): {} + {} "
        "frames in "
        "{:.3f} s after {:.3f} s opening: {:.1f} pairs/s, {:.1f} with the opening\n",
        argv[1], argv[2], argv[3], ref->cuda_decoder_device(), dist->cuda_decoder_device(),
        ref->decoding_segments(), dist->decoding_segments(), counts[0], counts[1], s,
        std::chrono::duration<double>(t1 - t0).count(), pairs / s, pairs / all);
    const std::string spent = startup::tallies();
    if (!spent.empty()) fmt::print("time spent on: {}\n", spent);
    fmt::print("time: {}\n", startup::summary());
  } catch (const std::exception& e) {
    fmt::print(stderr, "nvdec_decode_rate: {}\n", e.what());
    return 1;
  }
  return 0;
}
