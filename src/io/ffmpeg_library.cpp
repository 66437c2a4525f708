#include "io/ffmpeg_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <string>
#include <type_traits>

#include "core/error.h"

namespace exactvq {

namespace {

#define EXACTVQ_STRING(x) #x
#define EXACTVQ_SONAME(lib, major) "lib" lib ".so." EXACTVQ_STRING(major)

// The libraries of the major versions the headers describe (their ABI), each
// with the libraries it needs; dlsym on libavformat's handle searches those too.
FfmpegLibrary load() {
  const char* names[] = {EXACTVQ_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
                         EXACTVQ_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
                         EXACTVQ_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR)};
  void* handle = nullptr;
  for (const char* name : names) {
    handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
    if (!handle)
      throw InputError(fmt::format("cannot load FFmpeg's libraries ({}): {}", name, dlerror()));
  }
  FfmpegLibrary lib;
  const auto find = [&](auto& pointer, const char* name) {
    pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(dlsym(handle, name));
    if (!pointer)
      throw InputError(
          fmt::format("cannot load FFmpeg's libraries ({}): no function {}", names[2], name));
  };
#define EXACTVQ_FFMPEG_FIND(name) find(lib.name, #name);
  EXACTVQ_FFMPEG_FUNCTIONS(EXACTVQ_FFMPEG_FIND)
#undef EXACTVQ_FFMPEG_FIND
  return lib;
}

}  // namespace

const FfmpegLibrary& ffmpeg() {
  static const FfmpegLibrary lib = load();  // a failed load throws, and is tried again next call
  return lib;
}

}  // namespace exactvq
