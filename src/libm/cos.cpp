#include "libm/cos.h"

#include "libm/libm.h"

namespace exactvq::libm {

double cos(double x) { return portable::cos(x); }

}  // namespace exactvq::libm
