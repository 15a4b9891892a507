// GPU failures become spmesh errors that name the call or the sizes (GPU only: the CPU suite's
// errors.cpp covers the backend-neutral messages).
#include <array>
#include <string>

#include "../common.hpp"

namespace spmesh::test::cuda_errors {

TEST_CASE("a device allocation that does not fit names the bytes asked for and the bytes free") {
  // 256 bytes: 2^31 - 1 of them (550 GB) exceed any GPU's memory (64-byte blocks, 137 GB, fit
  // on an H200).
  using Block = std::array<double, 32>;
  const std::string message =
      thrown_message<CapacityError>([] { la::DeviceArray<Block> a(max_index); });
  const std::string asked = std::to_string(std::int64_t{max_index} * 256);
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
