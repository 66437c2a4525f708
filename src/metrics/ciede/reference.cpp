#include "metrics/ciede/reference.h"

#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "libm/libm.h"
#include "metrics/ciede/definition.h"

namespace exactvq::ciede {

namespace {

// libvmaf's chroma row in samples: the plane's width floor(W/2), rounded up to 32.
int64_t padded_half_width(int width) { return (int64_t{width / 2} + 31) / 32 * 32; }

uint16_t sample(const PlaneView& v, int row, int col) {
  return v.bytes_per_sample == 1 ? v.row<uint8_t>(row)[col] : v.row<uint16_t>(row)[col];
}

uint16_t chroma_sample(const PlaneView& v, const ChromaSite& s) {
  return s.zero ? 0 : sample(v, s.row, s.col);
}

}  // namespace

void check_ciede_format(const VideoFormat& f, const char* where) {
  const auto refuse = [&](const std::string& why) {
    throw PictureError(fmt::format("{}: ciede cannot score {}: {}", where, f.describe(), why));
  };
  if (f.chroma == ChromaFormat::kMono)
    refuse("it needs colour (Y, Cb and Cr planes; libvmaf's ciede refuses monochrome)");
  if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16)
    refuse("libvmaf's ciede takes 8, 10, 12 or 16 bits only");
  if (f.chroma == ChromaFormat::k422) {
    if (f.width % 2 != 0)
      refuse(
          "4:2:2 of odd width has no value (libvmaf's picture holds floor(W/2) chroma columns, "
          "the input ceil(W/2))");
    // The last pixel reads sample (H-1)/2 * S + W-1 of a plane of H * S.
    const int64_t s = padded_half_width(f.width);
    if (int64_t{(f.height - 1) / 2} * s + f.width - 1 >= int64_t{f.height} * s)
      refuse(
          "libvmaf's 4:2:2 chroma reading runs past the end of its picture at this size (it "
          "reads memory it never wrote)");
  }
}

ChromaReading chroma_reading(const VideoFormat& f) {
  ChromaReading r{CIEDE_CHROMA_444, f.width, 0};
  if (f.chroma == ChromaFormat::k420) r.kind = CIEDE_CHROMA_420;
  if (f.chroma == ChromaFormat::k422) {
    r.kind = CIEDE_CHROMA_422;
    r.padded_half = padded_half_width(f.width);
  }
  return r;
}

ChromaSite chroma_site(const VideoFormat& f, int x, int y) {
  return ciede_chroma_site(chroma_reading(f), x, y);
}

void row_samples(const Picture& pic, int y, PixelSamples* out) {
  const VideoFormat& f = pic.format;
  const PlaneView py = pic.plane(0), pu = pic.plane(1), pv = pic.plane(2);
  const ChromaReading reading = chroma_reading(f);
  for (int x = 0; x < f.width; ++x) {
    const ChromaSite c = ciede_chroma_site(reading, x, y);
    out[x] = PixelSamples{sample(py, y, x), chroma_sample(pu, c), chroma_sample(pv, c)};
  }
}

void delta_e_row(const Picture& ref, const Picture& dist, int y, float* out) {
  const VideoFormat& f = ref.format;
  std::vector<PixelSamples> r(size_t(f.width)), d(size_t(f.width));
  row_samples(ref, y, r.data());
  row_samples(dist, y, d.data());
  for (int x = 0; x < f.width; ++x) {
    const LabColor a =
        lab_color(float(r[size_t(x)].y), float(r[size_t(x)].u), float(r[size_t(x)].v), f.bitdepth);
    const LabColor b =
        lab_color(float(d[size_t(x)].y), float(d[size_t(x)].u), float(d[size_t(x)].v), f.bitdepth);
    out[x] = delta_e_2000(a, b);
  }
}

double delta_e_sum_reference(const Picture& ref, const Picture& dist) {
  const VideoFormat& f = ref.format;
  std::vector<float> row(size_t(f.width));
  double sum = 0.0;
  for (int y = 0; y < f.height; ++y) {
    delta_e_row(ref, dist, y, row.data());
    for (const float d : row) sum += double(d);
  }
  return sum;
}

double ciede_score(double delta_e_sum, int width, int height) {
  // libvmaf divides by the unsigned product W * H (below 2^28 here: exact).
  const unsigned pixels = unsigned(width) * unsigned(height);
  return 45.0 - 20.0 * libm::log10(delta_e_sum / double(pixels));
}

}  // namespace exactvq::ciede
