// The command line of `movebench stream`: its options as CLI11 takes them
// and their resolution into StreamOptions (stream_cli.cpp): every text
// parsed to its type once, and what cannot run refused before a device is
// opened. The measuring code (stream_run.cpp, stream_measure.cpp) reads
// StreamOptions only.
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/repetitions.hpp"
#include "device/options.hpp"

namespace movebench::stream {

// Every pass keeps its latency and every chunk of it its round trip: bounded
// as kept samples are; recorded under simple-host-streaming's name.
inline constexpr Repetitions kPasses{"--repetitions (--iterations)", "iterations"};
// Chunk round trips kept per design for their median (8 bytes each: 800 MB).
inline constexpr std::uint64_t kMaxKeptChunkLatencies = 100'000'000;

struct Shape {
  std::size_t chunks = 64, chunk_count = 32768;  // chunk_count: 32-bit elements per chunk
  int inflight = 2, repetitions = 4;
};

struct StreamOptions {
  device::CommonOptions common;
  Shape shape;
  std::vector<std::string> designs;  // --designs; empty: all the backend has
  std::vector<std::uint64_t> sweep;  // --sizes-bytes: chunk sizes, each dividing the total
  // The bytes of one pass: --chunks x --chunk-elements x 4 (overflow-checked).
  std::uint64_t total_bytes() const;
};

class StreamCli {
 public:
  // Declares every option on app; those that need no parsing are bound to o.
  void add_options(CLI::App& app, StreamOptions& o);
  // Parses the text options into o and refuses what cannot run; --designs
  // takes the names of `cases` ("stream.<name>": the command's --list).
  void resolve(StreamOptions& o, const std::vector<std::string>& cases) const;

 private:
  void resolve_sweep(StreamOptions& o) const;
  void resolve_designs(StreamOptions& o, const std::vector<std::string>& cases) const;

  std::string designs_text_, sweep_text_;
  CLI::Option* inflight_option_ = nullptr;
};

}  // namespace movebench::stream
