/* Scores a Y4M pair with VMAF v0.6.1 through libvmaf's C API and prints every
 * value at full precision. Written against upstream libvmaf 3.2.0's headers,
 * so the same binary runs with upstream's libvmaf.so.3 or exactvq's (chosen by
 * LD_LIBRARY_PATH); the test compares what each prints.
 *
 *   vmaf_api_score REF.y4m DIST.y4m N_THREADS CPUMASK [OUTPUT_PREFIX]
 *
 * CPUMASK is VmafConfiguration.cpumask (0xffffffff: upstream's plain C; exactvq
 * ignores it). With LIBVMAF_API_SCORE_CUDA=1 in the environment the context
 * scores on CUDA (vmaf_cuda_state_init + vmaf_cuda_import_state, looked up at run
 * time: a library without them, or without a device, exits 77).
 * Prints "frame I KEY VALUE" per frame and score, and "pooled KEY METHOD VALUE"
 * (KEY: libvmaf's output names, "vmaf" for the model); with OUTPUT_PREFIX also
 * writes OUTPUT_PREFIX.{xml,json,csv,sub} through vmaf_write_output. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>

struct Y4m {
  FILE* f;
  unsigned w, h, bpc;
  enum VmafPixelFormat pix_fmt;
};

static int open_y4m(struct Y4m* y, const char* path) {
  char header[512];
  y->f = fopen(path, "rb");
  if (!y->f || !fgets(header, sizeof header, y->f)) return -1;
  if (strncmp(header, "YUV4MPEG2 ", 10)) return -1;
  y->w = y->h = 0;
  y->bpc = 8;
  y->pix_fmt = VMAF_PIX_FMT_YUV420P;
  for (char* t = strtok(header + 10, " \n"); t; t = strtok(NULL, " \n")) {
    if (t[0] == 'W') y->w = (unsigned)atoi(t + 1);
    if (t[0] == 'H') y->h = (unsigned)atoi(t + 1);
    if (t[0] == 'C') {
      if (!strncmp(t + 1, "444", 3)) y->pix_fmt = VMAF_PIX_FMT_YUV444P;
      if (!strncmp(t + 1, "422", 3)) y->pix_fmt = VMAF_PIX_FMT_YUV422P;
      if (!strncmp(t + 1, "mono", 4)) y->pix_fmt = VMAF_PIX_FMT_YUV400P;
      const char* p = strchr(t, 'p');
      if (p && p[1] >= '0' && p[1] <= '9') y->bpc = (unsigned)atoi(p + 1);
    }
  }
  return y->w && y->h ? 0 : -1;
}

/* Reads the next frame into a new picture; 1 at the end of the file. Y4M's
 * chroma planes are rounded up, libvmaf's pictures' down: the last column and
 * row of an odd size are skipped. */
static int read_frame(struct Y4m* y, VmafPicture* pic) {
  char line[64];
  if (!fgets(line, sizeof line, y->f)) return 1;
  if (strncmp(line, "FRAME", 5)) return -1;
  if (vmaf_picture_alloc(pic, y->pix_fmt, y->bpc, y->w, y->h)) return -1;
  const size_t bytes = y->bpc > 8 ? 2 : 1;
  const int planes = y->pix_fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
  const unsigned cw = y->pix_fmt == VMAF_PIX_FMT_YUV444P ? y->w : (y->w + 1) / 2;
  const unsigned ch = y->pix_fmt == VMAF_PIX_FMT_YUV420P ? (y->h + 1) / 2 : y->h;
  unsigned char buf[2 * 8192];
  for (int p = 0; p < planes; ++p) {
    const unsigned fw = p ? cw : y->w, fh = p ? ch : y->h;
    unsigned char* row = pic->data[p];
    for (unsigned r = 0; r < fh; ++r) {
      if (fw > 8192 || fread(buf, bytes, fw, y->f) != fw) {
        vmaf_picture_unref(pic);
        return -1;
      }
      if (r < pic->h[p]) {
        memcpy(row, buf, bytes * pic->w[p]);
        row += pic->stride[p];
      }
    }
  }
  return 0;
}

static const char* const kFeatures[][2] = {
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"integer_adm_scale0", "integer_adm_scale0"},
    {"integer_adm_scale1", "integer_adm_scale1"},
    {"integer_adm_scale2", "integer_adm_scale2"},
    {"integer_adm_scale3", "integer_adm_scale3"},
    {"VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_sad_score"},
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
};
static const char* const kMethods[] = {"", "min", "max", "mean", "harmonic_mean"};

#define CHECK(call)                                                                \
  do {                                                                             \
    int err_ = (call);                                                             \
    if (err_) {                                                                    \
      fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, err_); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s REF.y4m DIST.y4m N_THREADS CPUMASK [OUTPUT_PREFIX]\n", argv[0]);
    return 2;
  }
  struct Y4m ref, dist;
  if (open_y4m(&ref, argv[1]) || open_y4m(&dist, argv[2])) {
    fprintf(stderr, "cannot read %s or %s as Y4M\n", argv[1], argv[2]);
    return 1;
  }
  VmafConfiguration cfg = {0};
  cfg.log_level = VMAF_LOG_LEVEL_ERROR;
  cfg.n_threads = (unsigned)atoi(argv[3]);
  cfg.cpumask = strtoull(argv[4], NULL, 0);
  VmafContext* vmaf;
  CHECK(vmaf_init(&vmaf, cfg));
  const char* cuda = getenv("LIBVMAF_API_SCORE_CUDA");
  if (cuda && !strcmp(cuda, "1")) {
    int (*state_init)(VmafCudaState**, VmafCudaConfiguration) = (int (*)(
        VmafCudaState**, VmafCudaConfiguration))dlsym(RTLD_DEFAULT, "vmaf_cuda_state_init");
    int (*import_state)(VmafContext*, VmafCudaState*) =
        (int (*)(VmafContext*, VmafCudaState*))dlsym(RTLD_DEFAULT, "vmaf_cuda_import_state");
    VmafCudaConfiguration cuda_cfg = {0};
    VmafCudaState* state = NULL;
    if (!state_init || !import_state || state_init(&state, cuda_cfg)) {
      fprintf(stderr, "no CUDA in this libvmaf.so.3 or on this machine\n");
      vmaf_close(vmaf);
      return 77;
    }
    CHECK(import_state(vmaf, state));
    free(state); /* the context keeps what it needs */
  }
  VmafModelConfig model_cfg = {0};
  VmafModel* model;
  CHECK(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1"));
  CHECK(vmaf_use_features_from_model(vmaf, model));

  unsigned n = 0;
  for (;; ++n) {
    VmafPicture r, d;
    const int er = read_frame(&ref, &r);
    if (er == 1) break;
    if (er || read_frame(&dist, &d)) {
      fprintf(stderr, "%s or %s: frame %u is not a Y4M frame of their format\n", argv[1], argv[2],
              n);
      return 1;
    }
    CHECK(vmaf_read_pictures(vmaf, &r, &d, n));
  }
  CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0));

  for (unsigned i = 0; i < n; ++i) {
    for (size_t f = 0; f < sizeof kFeatures / sizeof kFeatures[0]; ++f) {
      double s;
      /* Upstream knows each score by its own name only (the first column);
         integer_adm_scale* are written under their alias names. */
      CHECK(vmaf_feature_score_at_index(vmaf, kFeatures[f][0], &s, i));
      printf("frame %u %s %.17g\n", i, kFeatures[f][1], s);
    }
    double s;
    CHECK(vmaf_score_at_index(vmaf, model, &s, i));
    printf("frame %u vmaf %.17g\n", i, s);
  }
  for (int m = VMAF_POOL_METHOD_MIN; m < VMAF_POOL_METHOD_NB; ++m) {
    for (size_t f = 0; f < sizeof kFeatures / sizeof kFeatures[0]; ++f) {
      double s;
      CHECK(vmaf_feature_score_pooled(vmaf, kFeatures[f][0], (enum VmafPoolingMethod)m, &s, 0,
                                      n - 1));
      printf("pooled %s %s %.17g\n", kFeatures[f][1], kMethods[m], s);
    }
    double s;
    CHECK(vmaf_score_pooled(vmaf, model, (enum VmafPoolingMethod)m, &s, 0, n - 1));
    printf("pooled vmaf %s %.17g\n", kMethods[m], s);
  }
  if (argc > 5) {
    static const char* const ext[] = {"", "xml", "json", "csv", "sub"};
    char path[4096];
    for (int f = VMAF_OUTPUT_FORMAT_XML; f <= VMAF_OUTPUT_FORMAT_SUB; ++f) {
      snprintf(path, sizeof path, "%s.%s", argv[5], ext[f]);
      CHECK(vmaf_write_output(vmaf, path, (enum VmafOutputFormat)f));
    }
  }
  vmaf_model_destroy(model);
  CHECK(vmaf_close(vmaf));
  fclose(ref.f);
  fclose(dist.f);
  return 0;
}
