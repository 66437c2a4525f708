// How encoded inputs are decoded: on the CPU by libavcodec, or by the GPU's
// decoder (NVDEC, through libavcodec's CUDA hardware decoding) into device
// memory, where a CUDA run scores the frames without a host copy.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace exactvq {

enum class HwDecode {
  kNone,  // the CPU decodes
  kAuto,  // the GPU where it can (codec, profile, size), else the CPU
  kCuda,  // the GPU, or an error naming why it cannot
};

const char* hwdec_name(HwDecode h);  // "none", "auto", "cuda"
// Parses --hwdec's value; nullopt for anything else.
std::optional<HwDecode> parse_hwdec(const std::string& text);

struct DecodeOptions {
  HwDecode hw = HwDecode::kNone;
  int cuda_device = 0;  // the device that decodes (the run's --gpu)
  // Told why kAuto decodes `input` on the CPU (once per input); may be null.
  std::function<void(const std::string& input, const std::string& why)> fallback;
  // Decoder sessions for one H.264 or HEVC input, each decoding its own pieces
  // of the stream (segment-parallel decoding): 0 is the default, on the GPU
  // EXACTVQ_HWDEC_SESSIONS, else 4 for H.264 and 3 for HEVC (a session keeps
  // about one NVDEC engine busy), on the CPU 1 (libavcodec's threads already
  // use every core).
  int sessions = 0;
};

}  // namespace exactvq
