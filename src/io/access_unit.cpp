#include "io/access_unit.h"

namespace exactvq {

NalFraming nal_framing_of(NalCodec codec, std::span<const uint8_t> extradata) {
  // avcC and hvcC both start with configurationVersion 1; Annex B extradata
  // starts with a start code (a zero byte).
  if (extradata.empty() || extradata[0] != 1) return {};
  const size_t at = codec == NalCodec::kH264 ? 4 : 21;  // lengthSizeMinusOne's byte
  if (extradata.size() <= at) return {};
  return {int(extradata[at] & 3) + 1};
}

namespace {

int nal_type(NalCodec codec, uint8_t header) {
  return codec == NalCodec::kH264 ? header & 0x1f : (header >> 1) & 0x3f;
}

bool is_parameter_set(NalCodec codec, int type) {
  return codec == NalCodec::kH264 ? type == 7 || type == 8 : type >= 32 && type <= 34;
}

void note_nal(NalCodec codec, uint8_t header, AccessUnitKind& kind) {
  const int type = nal_type(codec, header);
  if (is_parameter_set(codec, type)) kind.parameter_sets = true;
  if (codec == NalCodec::kH264) {
    if (type == 5) kind.instant_refresh = true;
    return;
  }
  if (type == 19 || type == 20) kind.instant_refresh = true;
  if (type == 21) kind.clean_random_access = true;
  if (type >= 6 && type <= 9) kind.leading = true;
}

// Where each NAL unit of an Annex B packet starts: the byte after its 00 00 01
// (a four-byte start code ends so too).
std::vector<size_t> annexb_unit_starts(std::span<const uint8_t> packet) {
  std::vector<size_t> starts;
  for (size_t i = 0; i + 3 < packet.size(); ++i)
    if (packet[i] == 0 && packet[i + 1] == 0 && packet[i + 2] == 1) {
      starts.push_back(i + 3);
      i += 2;
    }
  return starts;
}

}  // namespace

AccessUnitKind classify_access_unit(NalCodec codec, NalFraming framing,
                                    std::span<const uint8_t> packet) {
  AccessUnitKind kind;
  const size_t n = packet.size();
  if (framing.length_bytes > 0) {
    size_t at = 0;
    while (at < n) {
      if (n - at < size_t(framing.length_bytes)) {
        kind.malformed = true;
        break;
      }
      size_t length = 0;
      for (int i = 0; i < framing.length_bytes; ++i) length = length << 8 | packet[at + i];
      at += size_t(framing.length_bytes);
      if (length == 0 || length > n - at) {
        kind.malformed = true;
        break;
      }
      note_nal(codec, packet[at], kind);
      at += length;
    }
    return kind;
  }
  const std::vector<size_t> starts = annexb_unit_starts(packet);
  for (size_t at : starts) note_nal(codec, packet[at], kind);
  if (starts.empty()) kind.malformed = true;
  return kind;
}

std::vector<std::span<const uint8_t>> annexb_parameter_sets(NalCodec codec,
                                                            std::span<const uint8_t> packet) {
  const std::vector<size_t> starts = annexb_unit_starts(packet);
  std::vector<std::span<const uint8_t>> units;
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t at = starts[k];
    if (!is_parameter_set(codec, nal_type(codec, packet[at]))) continue;
    size_t end = k + 1 < starts.size() ? starts[k + 1] - 3 : packet.size();
    // a four-byte start code and trailing zeros belong to no unit
    while (end > at && packet[end - 1] == 0) --end;
    // with its start code: a four-byte one where there is room for it
    const size_t from = at >= 4 && packet[at - 4] == 0 ? at - 4 : at - 3;
    units.push_back(packet.subspan(from, end - from));
  }
  return units;
}

}  // namespace exactvq
