// bench/chase_walks.cu: a one-off diagnostic for docs/performance.md ("CUDA on an
// H200", the chase). Build and run on a GPU node:
//   nvcc -O3 -arch=sm_90 -o chase_walks bench/chase_walks.cu && ./chase_walks
// Which difference of the two host-memory chases makes movebench's 9% lower
// than nvbandwidth's host_device_latency_sm? One thread chases N dependent
// loads through a 2 MiB pinned, mapped host ring; ns per load from
// %globaltimer (N loads minus 0 loads), median of 9.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <random>
#include <numeric>
#include <algorithm>
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess) {                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                      \
    }                                                \
  } while (0)
__device__ uint64_t gt() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void chase64(uint64_t* const* start, int n, uint64_t* out) {
  const uint64_t* p = (const uint64_t*)start;
  uint64_t t0 = gt();
  for (int i = 0; i < n; ++i) p = (const uint64_t*)*(volatile const uint64_t*)p;
  uint64_t t1 = gt();
  out[0] = t1 - t0;
  out[1] = (uint64_t)p;
}
__global__ void chase32(const uint32_t* ring, int n, uint64_t* out) {
  uint32_t w = 0;
  uint64_t t0 = gt();
  for (int i = 0; i < n; ++i) w = *(volatile const uint32_t*)(ring + w);
  uint64_t t1 = gt();
  out[0] = t1 - t0;
  out[1] = w;
}
// The walks compared, each a variant of the chase's layout.
struct V {
  const char* name;
  int line;
  bool random, ptr64, rewrite;
};
const V vs[] = {{"nvbandwidth: in order, 128 B, 64-bit pointers, written once", 128, false, true, false},
                {"in order, 128 B, 64-bit, rewritten before each chase", 128, false, true, true},
                {"random, 128 B, 64-bit, written once", 128, true, true, false},
                {"random, 64 B, 64-bit, written once", 64, true, true, false},
                {"in order, 64 B, 32-bit index, written once", 64, false, false, false},
                {"movebench: random, 64 B, 32-bit index, rewritten before each chase", 64, true, false, true},
                {"random, 64 B, 32-bit index, written once", 64, true, false, false}};

int main() {
  const size_t bytes = 2 << 20;
  void* h;
  uint64_t* out;
  CK(cudaHostAlloc(&h, bytes, cudaHostAllocMapped));
  CK(cudaHostAlloc((void**)&out, 64, cudaHostAllocMapped));
  void* d;
  CK(cudaHostGetDevicePointer(&d, h, 0));
  uint64_t* dout;
  CK(cudaHostGetDevicePointer((void**)&dout, out, 0));
  for (auto& v : vs) {
    size_t nodes = bytes / v.line;
    std::vector<uint32_t> order(nodes);
    std::iota(order.begin(), order.end(), 0u);
    if (v.random) {
      std::mt19937 rng(42);
      std::shuffle(order.begin() + 1, order.end(), rng);
    }
    auto write = [&] {
      memset(h, 0, bytes);
      for (size_t i = 0; i < nodes; ++i) {
        size_t a = order[i], b = order[(i + 1) % nodes];
        if (v.ptr64)
          ((uint64_t*)h)[a * v.line / 8] = (uint64_t)((char*)d + b * v.line);
        else
          ((uint32_t*)h)[a * v.line / 4] = (uint32_t)(b * v.line / 4);
      }
    };
    write();
    std::vector<double> per;
    for (int rep = 0; rep < 9; ++rep) {
      double t[2];
      for (int k = 0; k < 2; ++k) {
        int n = k ? 4096 : 0;
        if (v.rewrite) write();
        if (v.ptr64)
          chase64<<<1, 1>>>((uint64_t* const*)d, n, dout);
        else
          chase32<<<1, 1>>>((const uint32_t*)d, n, dout);
        CK(cudaDeviceSynchronize());
        t[k] = (double)out[0];
      }
      per.push_back((t[1] - t[0]) / 4096);
    }
    std::sort(per.begin(), per.end());
    printf("%-70s %8.1f ns per load (min %.1f, max %.1f)\n", v.name, per[4], per[0], per[8]);
  }
  return 0;
}
