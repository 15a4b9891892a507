// GPU failures become spmesh errors that name the call or the sizes (GPU only: the CPU suite's
// errors.cpp covers the backend-neutral messages).
#include <array>
#include <string>

#include "../common.hpp"

namespace spmesh::test::cuda_errors {

TEST_CASE("a device allocation that does not fit names the bytes asked for and the bytes free") {
  using Block = std::array<double, 8>;  // 64 bytes: 2^31 - 1 of them exceed any GPU's memory
  const std::string message =
      thrown_message<CapacityError>([] { la::DeviceArray<Block> a(max_index); });
  const std::string asked = std::to_string(std::int64_t{max_index} * 64);
  CHECK(message.find("GPU allocation of " + asked + " bytes failed") != std::string::npos);
  CHECK(message.find("bytes free on the device") != std::string::npos);
  // The failure leaves the device usable.
  la::DeviceArray<double> fine(1000);
  CHECK(fine.size() == 1000);
}

TEST_CASE("a failing CUDA call throws CudaError naming the call and CUDA's reason") {
  const std::string message =
      thrown_message<la::cuda::CudaError>([] { la::cuda::Executor exec(9999); });
  CHECK(message.find("cudaSetDevice") != std::string::npos);
  CHECK(message.find("cudaErrorInvalidDevice") != std::string::npos);
}

}  // namespace spmesh::test::cuda_errors
