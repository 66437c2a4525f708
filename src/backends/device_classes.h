// The device classes by name only, for the engine factories each metric's
// engine.h declares (one per backend) without pulling in a backend's headers.
#pragma once

namespace exactvq {
class MultiDevice;
namespace cuda {
class CudaDevice;
}
namespace opencl {
class OpenclDevice;
}
}  // namespace exactvq
