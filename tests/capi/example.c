/* Scores a pair of videos through the installed C API and prints each score's mean
 * over the frames as the command line does without -o ("ssim: 0.933136").
 * Usage: example REF DIST [FEATURE...], FEATURE as the command line's --feature. */
#include <stdio.h>

#include <exactvq/exactvq.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s REF DIST [FEATURE...]\n", argv[0]);
    return 2;
  }
  exactvq_options options;
  exactvq_default_options(&options);
  options.features = (const char* const*)(argv + 3);
  options.feature_count = (size_t)(argc - 3);

  exactvq_context* ctx = NULL;
  if (exactvq_open(&ctx, &options) != EXACTVQ_OK) {
    fprintf(stderr, "example: %s\n", exactvq_last_error(NULL));
    return 1;
  }
  int status = 0;
  if (exactvq_score_files(ctx, argv[1], argv[2], NULL) != EXACTVQ_OK) {
    fprintf(stderr, "example: %s\n", exactvq_last_error(ctx));
    status = 1;
  } else {
    size_t count = 0;
    exactvq_score_count(ctx, &count);
    for (size_t i = 0; i < count; ++i) {
      const char* name = NULL;
      exactvq_pooled_scores pooled;
      exactvq_score_name(ctx, i, &name);
      exactvq_read_pooled(ctx, name, &pooled);
      printf("%s: %.6f\n", name, pooled.mean);
    }
  }
  exactvq_close(ctx);
  return status;
}
