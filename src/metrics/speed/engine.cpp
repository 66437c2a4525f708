#include "metrics/speed/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::speed {

int chroma_width(const VideoFormat& f) {
  return f.chroma == ChromaFormat::k444 ? f.width : f.width / 2;
}

int chroma_height(const VideoFormat& f) {
  return f.chroma == ChromaFormat::k420 ? f.height / 2 : f.height;
}

namespace chroma {

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&opencl::make_engine)};
  return make_engine_on(device, setup, kFactories, "speed_chroma");
}

}  // namespace chroma

namespace temporal {

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&opencl::make_engine)};
  return make_engine_on(device, setup, kFactories, "speed_temporal");
}

}  // namespace temporal

}  // namespace exactvq::speed
