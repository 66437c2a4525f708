/* libvmaf 3.2.0's model interface, as exactvq's libvmaf.so.3 provides it
 * (upstream's include/libvmaf/model.h; comments exactvq's). */
#ifndef EXACTVQ_LIBVMAF_MODEL_H
#define EXACTVQ_LIBVMAF_MODEL_H

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
  VMAF_MODEL_FLAGS_DEFAULT = 0,
  VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
  VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
  VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2),
};

/* name: the score's name (NULL: "vmaf"); flags: VmafModelFlags. */
typedef struct VmafModelConfig {
  const char* name;
  uint64_t flags;
} VmafModelConfig;

/* A built-in model by version ("vmaf_v0.6.1", ...). 0, or -EINVAL. */
int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version);

/* A model from a JSON file. 0, or -EINVAL. */
int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path);

/* Merges options into every input of the model made by extractor feature_name;
 * takes opts_dict. */
int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                VmafFeatureDictionary* opts_dict);

void vmaf_model_destroy(VmafModel* model);

/* Several models whose scores are bootstrapped into one (mean, spread, 95%
 * interval). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
  VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
  VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP,
};

typedef struct VmafModelCollectionScore {
  enum VmafModelCollectionScoreType type;
  struct {
    double bagging_score;
    double stddev;
    struct {
      struct {
        double lo, hi;
      } p95;
    } ci;
  } bootstrap;
} VmafModelCollectionScore;

int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection,
                               VmafModelConfig* cfg, const char* version);

int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                         VmafModelConfig* cfg, const char* path);

int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                           const char* feature_name,
                                           VmafFeatureDictionary* opts_dict);

void vmaf_model_collection_destroy(VmafModelCollection* model_collection);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_LIBVMAF_MODEL_H */
