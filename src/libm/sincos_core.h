// The pieces glibc 2.36's sin and cos (IBM Accurate Mathematical Library,
// s_sin.c, FMA variant) share: the two kernels that evaluate sin and cos of
// a + da near a table node, and the reductions of x to a + da in
// [-pi/4, pi/4] with its quadrant.
#pragma once

namespace exactvq::libm::detail {

// sin(x + dx) for |x| < 0.8555 (|dx| tiny); its sign follows x.
double sin_kernel(double x, double dx);
// cos(x + dx) for |x| < 0.8555 (|dx| tiny).
double cos_kernel(double x, double dx);

// x = n pi/2 + (a + da), returning n mod 4, for |x| < 105414350: x/(pi/2)
// rounded, then pi/2 in four parts subtracted.
int reduce_by_half_pi(double x, double* a, double* da);
// The same for any finite x (glibc's __branred: 2/pi's digits in base 2^24,
// built without FMA, so plain binary64 operations).
int reduce_by_half_pi_large(double x, double* a, double* da);

// sin (n even) or cos (n odd) of a + da, negated for quadrants 2 and 3.
double sin_cos_in_quadrant(double a, double da, int n);

}  // namespace exactvq::libm::detail
