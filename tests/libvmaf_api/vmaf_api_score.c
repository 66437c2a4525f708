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
 * writes OUTPUT_PREFIX.{xml,json,csv,sub} through vmaf_write_output.
 *
 * With LIBVMAF_API_SCORE_COLLECTION=VERSION (or a path, holding '/') the model is
 * a model collection (vmaf_model_collection_load*), registered by
 * vmaf_use_features_from_model_collection and scored as libvmaf's vmaf tool
 * does: the main model pooled, then vmaf_score_pooled_model_collection (mean);
 * with LIBVMAF_API_SCORE_COLLECTION_AT_INDEX=1, vmaf_score_at_index_model_collection
 * at every index instead. Then every member's and statistic's score by name.
 * Also prints "bootstrap FIELD I VALUE" / "bootstrap FIELD pooled VALUE" (the
 * VmafModelCollectionScore) and "status CALL ARG RC" for calls that libvmaf
 * refuses (scoring an index twice). With LIBVMAF_API_SCORE_COLLECTION_MAIN_ONLY=1
 * the collection's main model alone is registered and scored, as one model. */
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

/* The collection's scores by name (vmaf_0001..., vmaf_bagging, ...), found
 * by score_collection. */
static char collection_keys[10000 + 4][32];
static unsigned collection_key_cnt = 0;

static void print_collection_score(const char* at, const VmafModelCollectionScore* s) {
  printf("bootstrap type %s %d\n", at, (int)s->type);
  printf("bootstrap bagging %s %.17g\n", at, s->bootstrap.bagging_score);
  printf("bootstrap stddev %s %.17g\n", at, s->bootstrap.stddev);
  printf("bootstrap ci_p95_lo %s %.17g\n", at, s->bootstrap.ci.p95.lo);
  printf("bootstrap ci_p95_hi %s %.17g\n", at, s->bootstrap.ci.p95.hi);
}

/* libvmaf's vmaf tool's order: the main model pooled (writing "vmaf"), then the
 * collection (writing its members and statistics). */
static int score_collection(VmafContext* vmaf, VmafModel* model, VmafModelCollection* collection,
                            unsigned n, int at_index) {
  double s;
  CHECK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, n - 1));
  VmafModelCollectionScore score;
  char at[32];
  if (at_index) {
    for (unsigned i = 0; i < n; ++i) {
      memset(&score, 0, sizeof score);
      CHECK(vmaf_score_at_index_model_collection(vmaf, collection, &score, i));
      snprintf(at, sizeof at, "%u", i);
      print_collection_score(at, &score);
    }
    /* libvmaf writes each index's scores once: a second time is refused. */
    printf("status at_index_again 0 %d\n",
           vmaf_score_at_index_model_collection(vmaf, collection, &score, 0));
    printf("status pooled_after_at_index mean %d\n",
           vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &score, 0,
                                              n - 1));
  } else {
    memset(&score, 0, sizeof score);
    CHECK(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &score, 0,
                                             n - 1));
    print_collection_score("pooled", &score);
    printf("status pooled_again mean %d\n",
           vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &score, 0,
                                              n - 1));
  }
  /* The members, as many as index 0 has, then the statistics. */
  for (unsigned m = 1; m <= 9999; ++m) {
    snprintf(collection_keys[collection_key_cnt], sizeof collection_keys[0], "vmaf_%04u", m);
    if (vmaf_feature_score_at_index(vmaf, collection_keys[collection_key_cnt], &s, 0)) break;
    ++collection_key_cnt;
  }
  printf("status members 0 %u\n", collection_key_cnt);
  static const char* const stats[] = {"vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo",
                                      "vmaf_ci_p95_hi"};
  for (size_t k = 0; k < 4; ++k) strcpy(collection_keys[collection_key_cnt++], stats[k]);
  return 0;
}

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
  VmafModelCollection* collection = NULL;
  int print_features = 1;
  const char* collection_source = getenv("LIBVMAF_API_SCORE_COLLECTION");
  if (collection_source && *collection_source) {
    if (strchr(collection_source, '/'))
      CHECK(
          vmaf_model_collection_load_from_path(&model, &collection, &model_cfg, collection_source));
    else
      CHECK(vmaf_model_collection_load(&model, &collection, &model_cfg, collection_source));
    /* LIBVMAF_API_SCORE_COLLECTION_OVERLOAD=EXTRACTOR,OPTION,VALUE: an option
       for the collection's models (its features' names change: not printed). */
    const char* overload = getenv("LIBVMAF_API_SCORE_COLLECTION_OVERLOAD");
    if (overload && *overload) {
      char extractor[64], option[64], value[64];
      if (sscanf(overload, "%63[^,],%63[^,],%63s", extractor, option, value) != 3) {
        fprintf(stderr, "LIBVMAF_API_SCORE_COLLECTION_OVERLOAD: EXTRACTOR,OPTION,VALUE\n");
        return 2;
      }
      VmafFeatureDictionary* d = NULL;
      CHECK(vmaf_feature_dictionary_set(&d, option, value));
      CHECK(vmaf_model_collection_feature_overload(model, &collection, extractor, d));
      print_features = 0;
    }
    /* LIBVMAF_API_SCORE_COLLECTION_MAIN_ONLY=1: the main model alone. */
    const char* main_only = getenv("LIBVMAF_API_SCORE_COLLECTION_MAIN_ONLY");
    if (main_only && !strcmp(main_only, "1")) {
      vmaf_model_collection_destroy(collection);
      collection = NULL;
      CHECK(vmaf_use_features_from_model(vmaf, model));
    } else {
      CHECK(vmaf_use_features_from_model_collection(vmaf, collection));
    }
  } else {
    CHECK(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1"));
    CHECK(vmaf_use_features_from_model(vmaf, model));
  }

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

  if (collection) {
    const char* at_index = getenv("LIBVMAF_API_SCORE_COLLECTION_AT_INDEX");
    if (score_collection(vmaf, model, collection, n, at_index && !strcmp(at_index, "1"))) return 1;
  }
  for (unsigned i = 0; i < n; ++i) {
    for (size_t f = 0; print_features && f < sizeof kFeatures / sizeof kFeatures[0]; ++f) {
      double s;
      /* Upstream knows each score by its own name only (the first column);
         integer_adm_scale* are written under their alias names. */
      CHECK(vmaf_feature_score_at_index(vmaf, kFeatures[f][0], &s, i));
      printf("frame %u %s %.17g\n", i, kFeatures[f][1], s);
    }
    double s;
    CHECK(vmaf_score_at_index(vmaf, model, &s, i));
    printf("frame %u vmaf %.17g\n", i, s);
    for (unsigned c = 0; collection && c < collection_key_cnt; ++c) {
      CHECK(vmaf_feature_score_at_index(vmaf, collection_keys[c], &s, i));
      printf("frame %u %s %.17g\n", i, collection_keys[c], s);
    }
  }
  for (int m = VMAF_POOL_METHOD_MIN; m < VMAF_POOL_METHOD_NB; ++m) {
    for (size_t f = 0; print_features && f < sizeof kFeatures / sizeof kFeatures[0]; ++f) {
      double s;
      CHECK(vmaf_feature_score_pooled(vmaf, kFeatures[f][0], (enum VmafPoolingMethod)m, &s, 0,
                                      n - 1));
      printf("pooled %s %s %.17g\n", kFeatures[f][1], kMethods[m], s);
    }
    double s;
    CHECK(vmaf_score_pooled(vmaf, model, (enum VmafPoolingMethod)m, &s, 0, n - 1));
    printf("pooled vmaf %s %.17g\n", kMethods[m], s);
    for (unsigned c = 0; collection && c < collection_key_cnt; ++c) {
      CHECK(vmaf_feature_score_pooled(vmaf, collection_keys[c], (enum VmafPoolingMethod)m, &s, 0,
                                      n - 1));
      printf("pooled %s %s %.17g\n", collection_keys[c], kMethods[m], s);
    }
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
  vmaf_model_collection_destroy(collection);
  CHECK(vmaf_close(vmaf));
  fclose(ref.f);
  fclose(dist.f);
  return 0;
}
