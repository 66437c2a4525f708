// exactvq's include/libvmaf/ against upstream libvmaf 3.2.0's headers: every
// enum value, and the size, alignment and field offsets of every struct passed
// by value or filled by the caller, are equal. Compile-time checks; the binary
// only reports that it was built. Upstream's declarations live in namespace
// `upstream`, exactvq's in the global one.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include EXACTVQ_LIBVMAF_HEADER  // exactvq's include/libvmaf/libvmaf_cuda.h, by path

// Upstream's functions are renamed up_*: two C functions of one name may not
// be declared with different (namespaced) types.
#define vmaf_close up_vmaf_close
#define vmaf_cuda_fetch_preallocated_picture up_vmaf_cuda_fetch_preallocated_picture
#define vmaf_cuda_import_state up_vmaf_cuda_import_state
#define vmaf_cuda_preallocate_pictures up_vmaf_cuda_preallocate_pictures
#define vmaf_cuda_state_init up_vmaf_cuda_state_init
#define vmaf_feature_dictionary_free up_vmaf_feature_dictionary_free
#define vmaf_feature_dictionary_set up_vmaf_feature_dictionary_set
#define vmaf_feature_score_at_index up_vmaf_feature_score_at_index
#define vmaf_feature_score_pooled up_vmaf_feature_score_pooled
#define vmaf_fetch_preallocated_picture up_vmaf_fetch_preallocated_picture
#define vmaf_import_feature_score up_vmaf_import_feature_score
#define vmaf_init up_vmaf_init
#define vmaf_model_collection_destroy up_vmaf_model_collection_destroy
#define vmaf_model_collection_feature_overload up_vmaf_model_collection_feature_overload
#define vmaf_model_collection_load up_vmaf_model_collection_load
#define vmaf_model_collection_load_from_path up_vmaf_model_collection_load_from_path
#define vmaf_model_destroy up_vmaf_model_destroy
#define vmaf_model_feature_overload up_vmaf_model_feature_overload
#define vmaf_model_load up_vmaf_model_load
#define vmaf_model_load_from_path up_vmaf_model_load_from_path
#define vmaf_picture_alloc up_vmaf_picture_alloc
#define vmaf_picture_unref up_vmaf_picture_unref
#define vmaf_preallocate_pictures up_vmaf_preallocate_pictures
#define vmaf_read_pictures up_vmaf_read_pictures
#define vmaf_score_at_index up_vmaf_score_at_index
#define vmaf_score_at_index_model_collection up_vmaf_score_at_index_model_collection
#define vmaf_score_pooled up_vmaf_score_pooled
#define vmaf_score_pooled_model_collection up_vmaf_score_pooled_model_collection
#define vmaf_use_feature up_vmaf_use_feature
#define vmaf_use_features_from_model up_vmaf_use_features_from_model
#define vmaf_use_features_from_model_collection up_vmaf_use_features_from_model_collection
#define vmaf_version up_vmaf_version
#define vmaf_write_output up_vmaf_write_output
namespace upstream {
#include <libvmaf/libvmaf_cuda.h>  // upstream's, found through the include path
}
#undef vmaf_close
#undef vmaf_cuda_fetch_preallocated_picture
#undef vmaf_cuda_import_state
#undef vmaf_cuda_preallocate_pictures
#undef vmaf_cuda_state_init
#undef vmaf_feature_dictionary_free
#undef vmaf_feature_dictionary_set
#undef vmaf_feature_score_at_index
#undef vmaf_feature_score_pooled
#undef vmaf_fetch_preallocated_picture
#undef vmaf_import_feature_score
#undef vmaf_init
#undef vmaf_model_collection_destroy
#undef vmaf_model_collection_feature_overload
#undef vmaf_model_collection_load
#undef vmaf_model_collection_load_from_path
#undef vmaf_model_destroy
#undef vmaf_model_feature_overload
#undef vmaf_model_load
#undef vmaf_model_load_from_path
#undef vmaf_picture_alloc
#undef vmaf_picture_unref
#undef vmaf_preallocate_pictures
#undef vmaf_read_pictures
#undef vmaf_score_at_index
#undef vmaf_score_at_index_model_collection
#undef vmaf_score_pooled
#undef vmaf_score_pooled_model_collection
#undef vmaf_use_feature
#undef vmaf_use_features_from_model
#undef vmaf_use_features_from_model_collection
#undef vmaf_version
#undef vmaf_write_output

#define SAME_VALUE(name) static_assert(int(name) == int(upstream::name), #name)
#define SAME_LAYOUT(type)                                               \
  static_assert(sizeof(type) == sizeof(upstream::type), #type " size"); \
  static_assert(alignof(type) == alignof(upstream::type), #type " alignment")
#define SAME_OFFSET(type, field) \
  static_assert(offsetof(type, field) == offsetof(upstream::type, field), #type "." #field)

SAME_VALUE(VMAF_LOG_LEVEL_NONE);
SAME_VALUE(VMAF_LOG_LEVEL_ERROR);
SAME_VALUE(VMAF_LOG_LEVEL_WARNING);
SAME_VALUE(VMAF_LOG_LEVEL_INFO);
SAME_VALUE(VMAF_LOG_LEVEL_DEBUG);
SAME_VALUE(VMAF_OUTPUT_FORMAT_NONE);
SAME_VALUE(VMAF_OUTPUT_FORMAT_XML);
SAME_VALUE(VMAF_OUTPUT_FORMAT_JSON);
SAME_VALUE(VMAF_OUTPUT_FORMAT_CSV);
SAME_VALUE(VMAF_OUTPUT_FORMAT_SUB);
SAME_VALUE(VMAF_POOL_METHOD_UNKNOWN);
SAME_VALUE(VMAF_POOL_METHOD_MIN);
SAME_VALUE(VMAF_POOL_METHOD_MAX);
SAME_VALUE(VMAF_POOL_METHOD_MEAN);
SAME_VALUE(VMAF_POOL_METHOD_HARMONIC_MEAN);
SAME_VALUE(VMAF_POOL_METHOD_NB);
SAME_VALUE(VMAF_PIX_FMT_UNKNOWN);
SAME_VALUE(VMAF_PIX_FMT_YUV420P);
SAME_VALUE(VMAF_PIX_FMT_YUV422P);
SAME_VALUE(VMAF_PIX_FMT_YUV444P);
SAME_VALUE(VMAF_PIX_FMT_YUV400P);
SAME_VALUE(VMAF_MODEL_FLAGS_DEFAULT);
SAME_VALUE(VMAF_MODEL_FLAG_DISABLE_CLIP);
SAME_VALUE(VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
SAME_VALUE(VMAF_MODEL_FLAG_DISABLE_TRANSFORM);
SAME_VALUE(VMAF_MODEL_COLLECTION_SCORE_UNKNOWN);
SAME_VALUE(VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
SAME_VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE);
SAME_VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
SAME_VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST);
SAME_VALUE(VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED);

static_assert(sizeof(VmafLogLevel) == sizeof(upstream::VmafLogLevel));
static_assert(sizeof(VmafPixelFormat) == sizeof(upstream::VmafPixelFormat));
static_assert(sizeof(VmafPoolingMethod) == sizeof(upstream::VmafPoolingMethod));
static_assert(sizeof(VmafOutputFormat) == sizeof(upstream::VmafOutputFormat));

SAME_LAYOUT(VmafConfiguration);
SAME_OFFSET(VmafConfiguration, log_level);
SAME_OFFSET(VmafConfiguration, n_threads);
SAME_OFFSET(VmafConfiguration, n_subsample);
SAME_OFFSET(VmafConfiguration, cpumask);
SAME_OFFSET(VmafConfiguration, gpumask);

SAME_LAYOUT(VmafPicture);
SAME_OFFSET(VmafPicture, pix_fmt);
SAME_OFFSET(VmafPicture, bpc);
SAME_OFFSET(VmafPicture, w);
SAME_OFFSET(VmafPicture, h);
SAME_OFFSET(VmafPicture, stride);
SAME_OFFSET(VmafPicture, data);
SAME_OFFSET(VmafPicture, ref);
SAME_OFFSET(VmafPicture, priv);

SAME_LAYOUT(VmafModelConfig);
SAME_OFFSET(VmafModelConfig, name);
SAME_OFFSET(VmafModelConfig, flags);

SAME_LAYOUT(VmafModelCollectionScore);
SAME_OFFSET(VmafModelCollectionScore, type);
SAME_OFFSET(VmafModelCollectionScore, bootstrap.bagging_score);
SAME_OFFSET(VmafModelCollectionScore, bootstrap.stddev);
SAME_OFFSET(VmafModelCollectionScore, bootstrap.ci.p95.lo);
SAME_OFFSET(VmafModelCollectionScore, bootstrap.ci.p95.hi);

SAME_LAYOUT(VmafPictureConfiguration);
SAME_OFFSET(VmafPictureConfiguration, pic_params.w);
SAME_OFFSET(VmafPictureConfiguration, pic_params.h);
SAME_OFFSET(VmafPictureConfiguration, pic_params.bpc);
SAME_OFFSET(VmafPictureConfiguration, pic_params.pix_fmt);
SAME_OFFSET(VmafPictureConfiguration, pic_cnt);

SAME_LAYOUT(VmafCudaConfiguration);
SAME_OFFSET(VmafCudaConfiguration, cu_ctx);

SAME_LAYOUT(VmafCudaPictureConfiguration);
SAME_OFFSET(VmafCudaPictureConfiguration, pic_params.w);
SAME_OFFSET(VmafCudaPictureConfiguration, pic_params.h);
SAME_OFFSET(VmafCudaPictureConfiguration, pic_params.bpc);
SAME_OFFSET(VmafCudaPictureConfiguration, pic_params.pix_fmt);
SAME_OFFSET(VmafCudaPictureConfiguration, pic_prealloc_method);

// The functions: each exactvq declaration has upstream's parameter and return
// types, compared through the layouts above (the same types by name in each
// namespace). A function pointer of each header's type per function, spelled
// once: FUNCTIONS(X) lists them.
#define FUNCTIONS(X)                                                                               \
  X(vmaf_init)                                                                                     \
  X(vmaf_use_features_from_model)                                                                  \
  X(vmaf_use_features_from_model_collection)                                                       \
  X(vmaf_use_feature)                                                                              \
  X(vmaf_import_feature_score) X(vmaf_read_pictures) X(vmaf_score_at_index)                        \
      X(vmaf_score_at_index_model_collection) X(vmaf_feature_score_at_index) X(vmaf_score_pooled)  \
          X(vmaf_score_pooled_model_collection) X(vmaf_feature_score_pooled)                       \
              X(vmaf_preallocate_pictures) X(vmaf_fetch_preallocated_picture) X(vmaf_close)        \
                  X(vmaf_write_output) X(vmaf_version) X(vmaf_picture_alloc) X(vmaf_picture_unref) \
                      X(vmaf_feature_dictionary_set) X(vmaf_feature_dictionary_free)               \
                          X(vmaf_model_load) X(vmaf_model_load_from_path)                          \
                              X(vmaf_model_feature_overload) X(vmaf_model_destroy)                 \
                                  X(vmaf_model_collection_load)                                    \
                                      X(vmaf_model_collection_load_from_path) X(                   \
                                          vmaf_model_collection_feature_overload)                  \
                                          X(vmaf_model_collection_destroy) X(vmaf_cuda_state_init) \
                                              X(vmaf_cuda_import_state)                            \
                                                  X(vmaf_cuda_preallocate_pictures)                \
                                                      X(vmaf_cuda_fetch_preallocated_picture)

// Maps a type of exactvq's header to upstream's of the same name, so that the
// two function types can be compared with std::is_same.
template <typename T>
struct Upstream {
  using type = T;
};
template <typename T>
struct Upstream<T*> {
  using type = typename Upstream<T>::type*;
};
template <typename T>
struct Upstream<const T> {
  using type = const typename Upstream<T>::type;
};
template <typename R, typename... A>
struct Upstream<R(A...)> {
  using type = typename Upstream<R>::type(typename Upstream<A>::type...);
};
#define MAP(T)                \
  template <>                 \
  struct Upstream<T> {        \
    using type = upstream::T; \
  };
MAP(VmafContext)
MAP(VmafConfiguration)
MAP(VmafModel)
MAP(VmafModelCollection)
MAP(VmafModelCollectionScore)
MAP(VmafModelConfig)
MAP(VmafFeatureDictionary)
MAP(VmafPicture)
MAP(VmafPictureConfiguration)
MAP(VmafPixelFormat)
MAP(VmafPoolingMethod)
MAP(VmafOutputFormat)
MAP(VmafCudaState)
MAP(VmafCudaConfiguration)
MAP(VmafCudaPictureConfiguration)

#include <type_traits>
#define SAME_FUNCTION(f)                                                                        \
  static_assert(std::is_same_v<Upstream<decltype(::f)>::type, decltype(upstream::up_##f)>, #f); \
  static_assert(int(sizeof(#f)) > 0);
FUNCTIONS(SAME_FUNCTION)

int main() {
  std::puts("libvmaf ABI: enums, struct layouts and 33 function types equal upstream 3.2.0's");
  return 0;
}
