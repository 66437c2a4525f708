/* A Y4M clip of moving synthetic content for the NVDEC streams: a drifting
 * gradient, textured blocks moving at different speeds and some noise, so an
 * encoder has motion, detail and flat areas to code.
 * Usage: synth_y4m W H FRAMES BITDEPTH CHROMA(420|444) [NOISE] > clip.y4m
 * NOISE: 1 (default) adds +-4 of noise per sample, 0 none (compact 4K streams). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    fprintf(stderr, "usage: synth_y4m W H FRAMES BITDEPTH 420|444 [NOISE]\n");
    return 2;
  }
  const int w = atoi(argv[1]), h = atoi(argv[2]), frames = atoi(argv[3]), depth = atoi(argv[4]);
  const int is444 = strcmp(argv[5], "444") == 0, noise = argc == 7 ? atoi(argv[6]) : 1;
  const int cw = is444 ? w : (w + 1) / 2, ch = is444 ? h : (h + 1) / 2;
  const int max = (1 << depth) - 1, bytes = depth > 8 ? 2 : 1;
  if (depth > 8)
    printf("YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%sp%d XYSCSS=%sP%d\n", w, h, is444 ? "444" : "420",
           depth, is444 ? "444" : "420", depth);
  else
    printf("YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s\n", w, h, is444 ? "444" : "420jpeg");
  uint8_t* row = malloc((size_t)w * 2);
  uint32_t state = 12345;
  for (int f = 0; f < frames; ++f) {
    fputs("FRAME\n", stdout);
    for (int p = 0; p < 3; ++p) {
      const int pw = p ? cw : w, ph = p ? ch : h, sx = p && !is444 ? 2 : 1;
      for (int y = 0; y < ph; ++y) {
        for (int x = 0; x < pw; ++x) {
          const int X = x * sx, Y = y * sx;
          int v =
              ((X + 2 * f) * 3 + (Y + f) * 2) % 1024 / 8 + 32 + p * 20; /* gradient, 8-bit scale */
          /* blocks of texture moving right and down at two speeds */
          const int bx = (X + 7 * f) / 96, by = (Y + 3 * f) / 80;
          if ((bx + by) % 3 == 0)
            v += noise ? ((X + 7 * f) * (Y + 3 * f) / 7) % 48 - 24              /* fine texture */
                       : ((((X + 7 * f) >> 3) ^ ((Y + 3 * f) >> 3)) & 31) - 16; /* 8x8 tiles */
          const int cx = (X - 11 * f) & 511, cy = (Y + 5 * f) & 511;
          if (cx < 140 && cy < 100) v = 200 - ((cx ^ cy) & 63);
          state = state * 1664525u + 1013904223u;
          if (noise) v += (int)(state >> 29) - 4;
          if (v < 0) v = 0;
          if (v > 255) v = 255;
          int s = v << (depth - 8);
          if (depth > 8 && noise) s |= (int)((state >> 8) & ((1u << (depth - 8)) - 1));
          if (s > max) s = max;
          if (bytes == 1)
            row[x] = (uint8_t)s;
          else {
            row[2 * x] = (uint8_t)(s & 255);
            row[2 * x + 1] = (uint8_t)(s >> 8);
          }
        }
        fwrite(row, (size_t)bytes, (size_t)pw, stdout);
      }
    }
  }
  free(row);
  return 0;
}
