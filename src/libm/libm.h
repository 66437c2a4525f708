// The C library's functions that libvmaf's metrics call on data, pinned: the
// definition is libvmaf as built on Debian 12 (glibc 2.36, x86-64, whose ifunc
// picks the FMA variants on the machines the references were made on). Each
// function here must return glibc's bits for every operand on every compiler,
// SIMD target and GPU, so that a score never depends on the host's libm.
//
// Each function lives in its own file (libm/<function>.cpp), shared tables
// and kernels in theirs; docs/spec/libm.md says which glibc algorithm and
// variant each is and how it was checked. None depends on the host's libm.
#pragma once

namespace exactvq::libm {

double log(double x);  // not called by the metrics: log10 calls it
double log2(double x);
double log10(double x);
double exp(double x);
double pow(double x, double y);
double sin(double x);
double cos(double x);
double atan2(double y, double x);
float powf(float x, float y);

}  // namespace exactvq::libm
