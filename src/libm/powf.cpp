#include "libm/powf.h"

#include "libm/libm.h"

namespace exactvq::libm {

float powf(float x, float y) { return portable::powf(x, y); }

}  // namespace exactvq::libm
