#include "libm/sin.h"

#include "libm/libm.h"

namespace exactvq::libm {

double sin(double x) { return portable::sin(x); }

}  // namespace exactvq::libm
