// make_sample OUT_DIR: writes OUT_DIR/ref.y4m and OUT_DIR/dist.y4m, the demo pair in
// samples/. Everything is integer arithmetic and a fixed-seed xorshift, so every
// machine and compiler writes the same bytes.
//
// Reference: a synthetic moving scene, 176x144 4:2:0 8-bit, 10 frames: a panning
// diagonal gradient with a band of fine texture, a bright disc moving right, a striped
// rectangle moving down-left, a dark ring moving up and a small checkerboard that stays.
// Distorted: the reference degraded by 8x8 block quantisation (left half), a 3x3 box
// blur (right half, above the texture band), pseudo-random noise of +-2 everywhere and
// coarser, blurred chroma. Luma SSIM of the pair is about 0.93 per frame.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

namespace {

constexpr int kWidth = 176;
constexpr int kHeight = 144;
constexpr int kFrames = 10;

struct Plane {
  int width = 0, height = 0;
  std::vector<int> v;  // samples, 0..255 once clamped
  Plane(int w, int h) : width(w), height(h), v(size_t(w) * size_t(h), 0) {}
  int& at(int x, int y) { return v[size_t(y) * size_t(width) + size_t(x)]; }
  int at(int x, int y) const { return v[size_t(y) * size_t(width) + size_t(x)]; }
};

struct Frame {
  Plane y{kWidth, kHeight}, cb{kWidth / 2, kHeight / 2}, cr{kWidth / 2, kHeight / 2};
};

int clamp255(int v) { return v < 0 ? 0 : (v > 255 ? 255 : v); }

// A fixed hash of a position, for texture that moves with the scene.
uint32_t hash2(int x, int y) {
  uint32_t h = uint32_t(x) * 0x9E3779B1u ^ uint32_t(y) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}

// The scene at luma position (x, y) of frame f: luma and the two chroma values
// (chroma is sampled from this at even positions).
struct Sample {
  int y, cb, cr;
};

Sample scene(int x, int y, int f) {
  const int pan = 2 * f;  // the background pans left 2 pixels per frame
  const int bx = x + pan;
  // Diagonal gradient with a slow ripple built from a triangle wave.
  const int tri = std::abs(((bx + y) % 64) - 32);  // 0..32
  int luma = 30 + bx * 90 / (kWidth + 2 * kFrames) + y * 70 / kHeight + tri;
  int cb = 128 + (bx - kWidth / 2) / 4;
  int cr = 128 + (y - kHeight / 2) / 4;

  // A band of fine texture (grass-like): hashed per pixel, moving with the background.
  if (y >= 96 && y < 132) {
    const int t = int(hash2(bx, y) % 49) - 24;
    const int blades = ((bx * 3 + (y / 2)) % 7 < 2) ? 18 : 0;
    luma = 70 + (y - 96) + t + blades;
    cb = 110 + t / 6;
    cr = 100 + t / 8;
  }

  // A small checkerboard that stays put (fine detail that blurring destroys).
  if (x >= 132 && x < 164 && y >= 12 && y < 44) {
    const bool on = (((x - 132) / 4) + ((y - 12) / 4)) % 2 == 0;
    luma = on ? 220 : 35;
    cb = 128;
    cr = 128;
  }

  // A striped rectangle moving down-left (3 px left, 2 px down per frame).
  {
    const int rx = 100 - 3 * f, ry = 20 + 2 * f;
    if (x >= rx && x < rx + 40 && y >= ry && y < ry + 26) {
      const bool stripe = ((x - rx) + (y - ry)) % 8 < 4;
      luma = stripe ? 60 : 150;
      cb = 170;
      cr = 90;
    }
  }

  // A dark ring moving up (2 px per frame).
  {
    const int cx = 40, cy = 100 - 2 * f;
    const int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
    if (d2 >= 14 * 14 && d2 < 19 * 19) {
      luma = 25;
      cb = 140;
      cr = 150;
    }
  }

  // A bright disc with a soft edge and a highlight, moving right 3 px per frame.
  {
    const int cx = 30 + 3 * f, cy = 40;
    const int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
    if (d2 < 18 * 18) {
      const int edge = d2 > 15 * 15 ? (d2 - 15 * 15) * 60 / (18 * 18 - 15 * 15) : 0;
      const int hx = x - (cx - 5), hy = y - (cy - 5);
      const int highlight = hx * hx + hy * hy < 25 ? 25 : 0;
      luma = 215 - edge + highlight;
      cb = 90;
      cr = 180;
    }
  }
  return {clamp255(luma), clamp255(cb), clamp255(cr)};
}

Frame make_reference(int f) {
  Frame fr;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) fr.y.at(x, y) = scene(x, y, f).y;
  for (int y = 0; y < kHeight / 2; ++y) {
    for (int x = 0; x < kWidth / 2; ++x) {
      // Average the four luma positions' chroma (4:2:0, centred siting).
      int cb = 0, cr = 0;
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
          const Sample s = scene(2 * x + dx, 2 * y + dy, f);
          cb += s.cb;
          cr += s.cr;
        }
      fr.cb.at(x, y) = (cb + 2) / 4;
      fr.cr.at(x, y) = (cr + 2) / 4;
    }
  }
  return fr;
}

// xorshift32 with a fixed seed: the noise of the distorted video.
struct XorShift32 {
  uint32_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  // Uniform in [-r, r] (the tiny modulo bias does not matter here).
  int symmetric(int r) { return int(next() % uint32_t(2 * r + 1)) - r; }
};

// 3x3 box blur of the pixels in [x0, x1) x [y0, y1), borders clamped.
void box_blur(Plane& p, int x0, int y0, int x1, int y1) {
  const Plane src = p;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      int sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int sx = std::clamp(x + dx, 0, p.width - 1);
          const int sy = std::clamp(y + dy, 0, p.height - 1);
          sum += src.at(sx, sy);
        }
      p.at(x, y) = (sum + 4) / 9;
    }
  }
}

// Per 8x8 block inside [x0, x1): keep the block mean, keep 3/4 of the detail around it and
// quantise it in steps of `step` (the look of a coarse DCT quantiser: flat blocks, edges).
void block_quantise(Plane& p, int x0, int x1, int step) {
  for (int by = 0; by < p.height; by += 8) {
    for (int bx = x0; bx < x1; bx += 8) {
      const int ex = std::min(bx + 8, x1), ey = std::min(by + 8, p.height);
      int sum = 0, n = 0;
      for (int y = by; y < ey; ++y)
        for (int x = bx; x < ex; ++x) {
          sum += p.at(x, y);
          ++n;
        }
      const int mean = (sum + n / 2) / n;
      for (int y = by; y < ey; ++y)
        for (int x = bx; x < ex; ++x) {
          const int detail = (p.at(x, y) - mean) * 3 / 4;
          const int q = (detail >= 0 ? detail + step / 2 : detail - step / 2) / step * step;
          p.at(x, y) = clamp255(mean + q);
        }
    }
  }
}

Frame degrade(const Frame& ref, XorShift32& rng) {
  Frame d = ref;
  block_quantise(d.y, 0, kWidth / 2, 4);
  box_blur(d.y, kWidth / 2, 0, kWidth, 96);  // above the texture band
  for (int& v : d.y.v) v = clamp255(v + rng.symmetric(2));
  for (Plane* c : {&d.cb, &d.cr}) {
    box_blur(*c, 0, 0, c->width, c->height);
    for (int& v : c->v) v = clamp255((v + 2) / 4 * 4 + rng.symmetric(1));
  }
  return d;
}

void write_frame(std::ostream& out, const Frame& f) {
  out << "FRAME\n";
  for (const Plane* p : {&f.y, &f.cb, &f.cr}) {
    std::string bytes(p->v.size(), '\0');
    for (size_t i = 0; i < p->v.size(); ++i) bytes[i] = char(uint8_t(p->v[i]));
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }
}

// Writes through "<dir>/.<name>.tmp" and renames it into place.
bool write_y4m(const std::filesystem::path& dir, const std::string& name,
               const std::vector<Frame>& frames) {
  const std::filesystem::path final_path = dir / name;
  const std::filesystem::path tmp = dir / ("." + name + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      std::cerr << "make_sample: cannot create " << tmp.string() << "\n";
      return false;
    }
    out << "YUV4MPEG2 W" << kWidth << " H" << kHeight << " F25:1 Ip A1:1 C420jpeg\n";
    for (const Frame& f : frames) write_frame(out, f);
    out.close();
    if (!out) {
      std::cerr << "make_sample: cannot write " << tmp.string() << "\n";
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, final_path, ec);
  if (ec) {
    std::cerr << "make_sample: cannot rename " << tmp.string() << " to " << final_path.string()
              << ": " << ec.message() << "\n";
    std::filesystem::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]).empty() || std::string(argv[1]) == "--help") {
    std::cerr << "usage: make_sample OUT_DIR\n"
                 "Writes OUT_DIR/ref.y4m and OUT_DIR/dist.y4m (176x144 4:2:0 8-bit, "
              << kFrames << " frames).\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    std::cerr << "make_sample: " << dir.string() << " is not a directory\n";
    return 1;
  }
  std::vector<Frame> ref, dist;
  XorShift32 rng{0x2545F491u};
  for (int f = 0; f < kFrames; ++f) {
    ref.push_back(make_reference(f));
    dist.push_back(degrade(ref.back(), rng));
  }
  if (!write_y4m(dir, "ref.y4m", ref) || !write_y4m(dir, "dist.y4m", dist)) return 1;
  return 0;
}
