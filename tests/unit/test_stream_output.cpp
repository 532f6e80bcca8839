// stream's writer (stream_output.hpp) on results made by hand, through a
// CapturedOutput: simple-host-streaming's lines and the sweep's table, byte
// for byte, the failed check on stderr.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/distribution.hpp"
#include "core/output.hpp"
#include "stream/stream_output.hpp"

using namespace movebench;
using namespace movebench::stream;

TEST(StreamOutput, HeaderAndADesignsAverages) {
  CapturedOutput out;
  write_shape(out, 64, 32768, 4);
  EXPECT_EQ(out.out,
            "# Chunks:             64\nChunk count:          32768\nTotal count:          2097152\n"
            "Iterations:           4\n");
  out.out.clear();
  write_design_begun(out, "the pipelined design");
  Distribution chunks("chunk");
  for (int i = 1; i <= 100; ++i) chunks.add(i * 1e-6);        // 1 .. 100 us: P99 needs 299, n/a
  write_design_done(out, "pipeline", 1.5e-3, 2.5e9, chunks);  // the name's first letter capitalised
  EXPECT_EQ(out.out,
            "\nRunning the pipelined design\n"
            "Pipeline average latency:          1.5000 ms\n"
            "Pipeline average throughput:       2500.0000 MB/s\n"
            "Pipeline chunk latency (us):       " +
                percentile_text(chunks, 1e6) + "\n");
  EXPECT_NE(out.out.find("P50 50 "), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("P99 n/a"), std::string::npos) << out.out;
  EXPECT_TRUE(out.err.empty());
}

TEST(StreamOutput, LaunchBoundAndVerdict) {
  CapturedOutput out;
  Summary s;
  s.median = 7.125e-6;
  s.min = 5e-6;
  s.count = 100;
  write_launch_bound(out, s);
  write_passed(out, true);
  write_passed(out, false);
  EXPECT_EQ(out.out,
            "\nEmpty kernel, queued to completion seen (t_launch + t_finish): median 7.12 us, min 5.00 us over 100\n"
            "\nPASSED\n\nFAILED\n");
}

TEST(StreamOutput, SweepTableAndTheChunkItPicked) {
  CapturedOutput out;
  write_sweep_heading(out, "chunked", 8u << 20, 2);
  Distribution chunks("chunk");
  for (int i = 0; i < 400; ++i) chunks.add(i < 396 ? 10e-6 : 50e-6);  // P50 10 us, P99 (rank 396) 10 us
  write_sweep_row(out, {4096, 20e-6, 1.25e9}, 2048, chunks);
  chunks.add(std::vector<double>(10, 50e-6));  // 410 samples: rank 406 is one of the 50s
  write_sweep_row(out, {8192, 30e-6, 1.5e9}, 1024, chunks);
  write_chunk90(out, {65536, 80.5e-6, 3.5e9});
  SampleCounts counts;
  counts.add(chunks);
  write_chunks_note(out, "chunk", counts);
  EXPECT_EQ(out.out,
            "\n== chunk-size sweep: chunked, 8.00 MiB in all, 2 in flight ==\n"
            " chunk bytes   chunks     latency us           MB/s   chunk P50 us   chunk P99 us\n"
            "        4096     2048          20.00         1250.0             10             10\n"
            "        8192     1024          30.00         1500.0             10             50\n"
            "smallest chunk keeping 90% of the best throughput: 65536 bytes (latency 80.50 us, 3500.0 MB/s)\n"
            "\n" +
                distribution_note("chunk", counts, 1e6, "us") + "\n");
  EXPECT_NE(out.out.find("410 samples a row"), std::string::npos);
}

TEST(StreamOutput, FailedCheckGoesToTheProblemStream) {
  CapturedOutput out;
  write_check_failed(out, "offload", 2097151);
  EXPECT_EQ(out.out, "");
  EXPECT_EQ(out.err, "movebench stream: validation FAILED: offload output element 2097151 is wrong\n");
}
