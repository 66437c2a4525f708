#include "io/avio_input.h"

#include <cerrno>
#include <exception>

#include "io/input_file.h"

namespace exactvq {

int read_input(void* opaque, uint8_t* buf, int size) {
  try {
    const size_t n = static_cast<InputFile*>(opaque)->read(buf, size_t(size));
    return n == 0 ? AVERROR_EOF : int(n);
  } catch (const std::exception&) {
    return AVERROR(EIO);
  }
}

}  // namespace exactvq
