#include "libm/atan2.h"

#include "libm/libm.h"

namespace exactvq::libm {

double atan2(double y, double x) { return portable::atan2(y, x); }

}  // namespace exactvq::libm
