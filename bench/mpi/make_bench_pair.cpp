// make_bench_pair W H FRAMES OUT_DIR: writes OUT_DIR/ref.y4m and OUT_DIR/dist.y4m,
// 8-bit 4:2:0, for the MPI overhead benchmark: a moving gradient with texture, and
// the same with pseudo-random noise of +-6 (integer arithmetic, fixed seed).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: make_bench_pair W H FRAMES OUT_DIR\n");
    return 2;
  }
  const int w = std::atoi(argv[1]), h = std::atoi(argv[2]), frames = std::atoi(argv[3]);
  const std::string dir = argv[4];
  if (w < 2 || h < 2 || frames < 1) {
    std::fprintf(stderr, "make_bench_pair: bad size or frame count\n");
    return 2;
  }
  const std::string header =
      "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1 C420jpeg\n";
  std::ofstream ref(dir + "/ref.y4m", std::ios::binary), dist(dir + "/dist.y4m", std::ios::binary);
  ref << header;
  dist << header;
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  std::vector<uint8_t> r(size_t(w) * size_t(h) + 2 * size_t(cw) * size_t(ch));
  std::vector<uint8_t> d(r.size());
  uint32_t state = 0x12345678u;
  for (int f = 0; f < frames; ++f) {
    size_t i = 0;
    for (int p = 0; p < 3; ++p) {
      const int pw = p == 0 ? w : cw, ph = p == 0 ? h : ch;
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x, ++i) {
          const int v = (x * 3 + y * 2 + f * 5 + p * 40 + ((x ^ y) & 15) * 3) & 0xff;
          state ^= state << 13;
          state ^= state >> 17;
          state ^= state << 5;
          const int n = int(state % 13) - 6;
          r[i] = uint8_t(v);
          d[i] = uint8_t(v + n < 0 ? 0 : (v + n > 255 ? 255 : v + n));
        }
    }
    ref << "FRAME\n";
    ref.write(reinterpret_cast<const char*>(r.data()), std::streamsize(r.size()));
    dist << "FRAME\n";
    dist.write(reinterpret_cast<const char*>(d.data()), std::streamsize(d.size()));
  }
  ref.close();
  dist.close();
  if (!ref || !dist) {
    std::fprintf(stderr, "make_bench_pair: cannot write to %s\n", dir.c_str());
    return 1;
  }
  return 0;
}
