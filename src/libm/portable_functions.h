// The pinned functions that host and CUDA device code call alike, as
// libm::portable::exp, pow, powf, sin, cos and atan2 (the same definitions as
// libm.h's out-of-line names; docs/spec/libm.md, "On devices").
#pragma once

#include "libm/atan2.h"
#include "libm/cos.h"
#include "libm/exp.h"
#include "libm/pow.h"
#include "libm/powf.h"
#include "libm/sin.h"
