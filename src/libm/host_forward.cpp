// Functions of libm.h not yet pinned: they forward to the host's C library, so
// their bits equal libvmaf's only where the host's libm is glibc 2.36's. Each
// moves to its own pinned file as it is written (see libm.h).
#include <cmath>

#include "libm/libm.h"

namespace exactvq::libm {

double atan2(double y, double x) { return std::atan2(y, x); }

}  // namespace exactvq::libm
