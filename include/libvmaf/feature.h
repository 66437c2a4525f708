/* libvmaf 3.2.0's feature option dictionaries, as exactvq's libvmaf.so.3
 * provides them (upstream's include/libvmaf/feature.h; comments exactvq's). */
#ifndef EXACTVQ_LIBVMAF_FEATURE_H
#define EXACTVQ_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Options of one feature extractor, key=value in the order set. */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Sets key to val (replacing an earlier value of key), creating the dictionary
 * when *dict is NULL. 0, or -EINVAL for a NULL argument, -ENOMEM. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val);

/* Frees *dict and sets it to NULL. -EINVAL when dict or *dict is NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_LIBVMAF_FEATURE_H */
