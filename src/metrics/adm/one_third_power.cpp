#include "metrics/adm/one_third_power.h"

#include "libm/libm.h"

namespace exactvq::adm {

float one_third_power(float x) { return libm::powf(x, kOneThirdF); }

}  // namespace exactvq::adm
