/* libvmaf 3.2.0's API, as exactvq's libvmaf.so.3 provides it: the same
 * functions, enums and struct layouts as upstream's include/libvmaf/libvmaf.h
 * (a program built against either runs with either library); the scores are
 * exactvq's, which equal libvmaf's plain C bit for bit. Comments are exactvq's;
 * docs/libvmaf_api.md lists where the behaviour differs.
 *
 * Every int function returns 0 on success or a negative errno value (-EINVAL,
 * -ENOMEM); the reason is logged on stderr as configured by log_level. */
#ifndef EXACTVQ_LIBVMAF_LIBVMAF_H
#define EXACTVQ_LIBVMAF_LIBVMAF_H

#include <stdint.h>
#include <stdio.h>

#include "feature.h"
#include "model.h"
#include "picture.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
  VMAF_LOG_LEVEL_NONE = 0,
  VMAF_LOG_LEVEL_ERROR,
  VMAF_LOG_LEVEL_WARNING,
  VMAF_LOG_LEVEL_INFO,
  VMAF_LOG_LEVEL_DEBUG,
};

enum VmafOutputFormat {
  VMAF_OUTPUT_FORMAT_NONE = 0,
  VMAF_OUTPUT_FORMAT_XML,
  VMAF_OUTPUT_FORMAT_JSON,
  VMAF_OUTPUT_FORMAT_CSV,
  VMAF_OUTPUT_FORMAT_SUB,
};

enum VmafPoolingMethod {
  VMAF_POOL_METHOD_UNKNOWN = 0,
  VMAF_POOL_METHOD_MIN,
  VMAF_POOL_METHOD_MAX,
  VMAF_POOL_METHOD_MEAN,
  VMAF_POOL_METHOD_HARMONIC_MEAN,
  VMAF_POOL_METHOD_NB
};

/* log_level: what is logged on stderr. n_threads: worker threads (0: one).
 * n_subsample: scores only every Nth picture index (0, 1: every one).
 * cpumask: libvmaf's SIMD switches; exactvq's SIMD gives the same bits as its
 * scalar code, so it is accepted and ignored. gpumask: non-zero keeps the run
 * off CUDA. */
typedef struct VmafConfiguration {
  enum VmafLogLevel log_level;
  unsigned n_threads;
  unsigned n_subsample;
  uint64_t cpumask;
  uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

/* Opens a scoring run; close it with vmaf_close. */
int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg);

/* Scores the features `model` reads, and the model's score. Call before the
 * first picture; may be called for several models. */
int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model);

/* As vmaf_use_features_from_model, for every model of a collection. */
int vmaf_use_features_from_model_collection(VmafContext* vmaf,
                                            VmafModelCollection* model_collection);

/* Scores the extractor `feature_name` with the options of opts_dict (NULL:
 * defaults). The context takes opts_dict on success; on failure the caller still
 * owns it. Call before the first picture. */
int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict);

/* Stores a score computed elsewhere under feature_name at picture `index`. */
int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value,
                              unsigned index);

/* Scores one pair of pictures at `index` and takes both (they are unreferenced
 * on success; on failure the caller still owns them). Every pair must have the
 * first pair's size, pixel format and bit depth. NULL, NULL ends the input
 * (flush); after that every call is refused. */
int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index);

/* The score of `model` at picture `index`. */
int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index);

int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                         VmafModelCollectionScore* score, unsigned index);

/* The score `feature_name` (libvmaf's name, e.g. "VMAF_integer_feature_adm2_score")
 * at picture `index`. */
int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score,
                                unsigned index);

/* The score of `model` pooled over pictures index_low..index_high. */
int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, enum VmafPoolingMethod pool_method,
                      double* score, unsigned index_low, unsigned index_high);

int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore* score, unsigned index_low,
                                       unsigned index_high);

/* The score `feature_name` pooled over pictures index_low..index_high. */
int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                              enum VmafPoolingMethod pool_method, double* score, unsigned index_low,
                              unsigned index_high);

/* A pool of pic_cnt pictures of one format. */
typedef struct VmafPictureConfiguration {
  struct {
    unsigned w, h;
    unsigned bpc;
    enum VmafPixelFormat pix_fmt;
  } pic_params;
  unsigned pic_cnt;
} VmafPictureConfiguration;

/* Allocates the pool's pictures now; a picture fetched from it returns to it
 * when its last reference is dropped. */
int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg);

/* A free picture of the pool; -EINVAL when there is no pool, -ENOMEM (after a
 * log line) when every picture of it is in use. */
int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic);

/* Frees the context and everything it holds. */
int vmaf_close(VmafContext* vmaf);

/* Writes the scores as XML, JSON, CSV or SUB (exactvq's command line's files). */
int vmaf_write_output(VmafContext* vmaf, const char* output_path, enum VmafOutputFormat fmt);

/* The libvmaf version implemented: "3.2.0". */
const char* vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_LIBVMAF_LIBVMAF_H */
