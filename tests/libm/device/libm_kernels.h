// The pinned functions of libm/portable_functions.h evaluated on a CUDA device,
// for the twin rows that compare them with the host's (tests/twins/libm_device_rows.cpp).
#pragma once

#include <cstddef>

namespace exactvq::libm::device_testing {

enum class Function { kExp, kPow, kPowf, kSin, kCos, kAtan2 };

// Launches out[i] = f(x[i]) or f(x[i], y[i]) (atan2: atan2(y[i], x[i])) on the
// current CUDA device's default stream, for n operands in device memory (powf: x
// and y hold floats, out the float result widened). Throws DeviceError on a
// failed launch.
void launch_evaluate(Function f, const double* x, const double* y, double* out, size_t n);

}  // namespace exactvq::libm::device_testing
