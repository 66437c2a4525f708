// The core's clock where no counters can be read, for `twin_tests --bench`: a
// chain of dependent one-cycle register additions, so GHz is additions a
// nanosecond; a row's cycles a pixel are then 1000 x GHz / its Mpixel/s.
#pragma once

namespace exactvq::twins {

// GHz, from about `seconds` of additions (the median of five rounds); 0 where
// the chain is not written for this architecture (x86-64 only).
double core_clock_ghz(double seconds);

}  // namespace exactvq::twins
