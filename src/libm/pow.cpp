#include "libm/pow.h"

#include "libm/libm.h"

namespace exactvq::libm {

double pow(double x, double y) { return portable::pow(x, y); }

}  // namespace exactvq::libm
