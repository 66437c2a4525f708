// What an H.264 or HEVC access unit (one packet) starts, read from its NAL unit
// headers: where a stream can be cut into pieces that decode apart
// (segment-parallel decoding), without decoding anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace exactvq {

enum class NalCodec { kH264, kHevc };

// How a stream's packets frame their NAL units: Annex B start codes, or the
// length prefixes of MP4/MKV (avcC / hvcC extradata) of 1 to 4 bytes.
struct NalFraming {
  int length_bytes = 0;  // 0: Annex B
};

// The framing that `extradata` (the stream's codec parameters) announces.
NalFraming nal_framing_of(NalCodec codec, std::span<const uint8_t> extradata);

struct AccessUnitKind {
  // A picture no later picture reaches behind: an H.264 IDR, an HEVC IDR
  // (its leading pictures, RADL, need only it).
  bool instant_refresh = false;
  // An HEVC CRA: later pictures start afresh, but the leading pictures after
  // it may reach behind it (RASL).
  bool clean_random_access = false;
  // An HEVC leading picture (RADL or RASL): shown before the CRA or IDR it
  // follows.
  bool leading = false;
  // The unit carries sequence or picture parameter sets (H.264 SPS, PPS;
  // HEVC VPS, SPS, PPS).
  bool parameter_sets = false;
  // The bytes did not parse as NAL units of this framing.
  bool malformed = false;
};

AccessUnitKind classify_access_unit(NalCodec codec, NalFraming framing,
                                    std::span<const uint8_t> packet);

// The parameter-set NAL units of an Annex B packet, each with its start code
// (of three or four bytes), in order: what a decoder that starts at a later picture of
// the stream needs first.
std::vector<std::span<const uint8_t>> annexb_parameter_sets(NalCodec codec,
                                                            std::span<const uint8_t> packet);

}  // namespace exactvq
