// The OpenCL kernels, kept few and small: PoCL compiles them at run time and
// CI pays for that once per run (one program, one build, one context).
#pragma once

namespace movebench::device::opencl {

inline constexpr const char* kSource = R"CLC(
// dst[i] = src[i] * mul + add: the copy kernel of link (mul 1, add 0) and
// every stage of stream.
__kernel void transform(__global uint* dst, ulong doff, __global const uint* src, ulong soff, ulong n,
                        uint mul, uint add) {
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) dst[doff + i] = src[soff + i] * mul + add;
}

// One work-item, that of work-group `target` (the others return at once):
// mode 0 follows `n` links of the ring from word 0 (volatile loads: host
// memory); mode 2 follows them from word `value` with plain loads (device
// memory, through its caches); mode 1 stores value + i to words 0..n-1 (the
// kernel ends once they are performed). out[0]: the word the chase ended on,
// or the last value stored.
__kernel void probe(__global volatile uint* buf, ulong n, uint mode, uint value, __global uint* out, uint target) {
  if (get_group_id(0) != target) return;
  uint last = 0;
  if (mode == 0) {
    for (ulong i = 0; i < n; ++i) last = buf[last];
  } else if (mode == 2) {
    __global const uint* ring = (__global const uint*)buf;
    last = value;
    for (ulong i = 0; i < n; ++i) last = ring[last];
  } else {
    for (ulong i = 0; i < n; ++i) buf[i] = value + (uint)i;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    last = n ? value + (uint)(n - 1) : 0u;
  }
  out[0] = last;
}

// The persistent kernel of stream: one work-item serves every chunk; chunk c
// starts when the host sets flags[c] and ends with flags[chunks + c] = 1.
// It gives up after spin_limit polls of one flag, so it never hangs.
__kernel void serve(__global const uint* in, __global uint* out, __global volatile uint* flags, ulong words,
                    ulong chunks, ulong spin_limit) {
  atomic_xchg(&flags[2 * chunks], 1u);  // running
  for (ulong c = 0; c < chunks; ++c) {
    ulong spins = 0;
    while (atomic_add(&flags[c], 0u) == 0u) {
      if (++spins > spin_limit) return;
    }
    for (ulong i = c * words; i < (c + 1) * words; ++i) out[i] = in[i] * 3u + 1u;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[chunks + c], 1u);
  }
}
)CLC";

}  // namespace movebench::device::opencl
