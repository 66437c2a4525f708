#include "libm/exp.h"

#include "libm/libm.h"

namespace exactvq::libm {

double exp(double x) { return portable::exp(x); }

}  // namespace exactvq::libm
