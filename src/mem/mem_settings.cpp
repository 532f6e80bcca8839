// settings.mem of the result file: what a run of `movebench mem` was told
// (after its defaults were filled in) and the traffic of every kernel.
#include "core/vocabulary.hpp"
#include "mem/mem_cli.hpp"

namespace movebench::mem {
namespace {

// What only some modes have.
void record_mode_settings(const MemOptions& opt, nlohmann::json& s) {
  if (opt.mode == Mode::kSeq || opt.mode == Mode::kTp) {
    s["sizes"] = opt.sweep_sizes;
    s["outdir"] = opt.outdir;
  }
  if (opt.mode == Mode::kLatency || opt.mode == Mode::kLoadedLatency) {
    s["stride"] = opt.stride;
    s["seed"] = opt.seed;
    s["tlb_window"] = opt.tlb_window;
  }
  if (opt.mode == Mode::kLatency) s["sizes"] = opt.latency_sizes;
  if (opt.mode == Mode::kLoadedLatency) {
    s["chase_bytes"] = opt.chase_bytes;
    s["delays"] = opt.load_delays;
    s["chunk_bytes"] = opt.load_chunk_bytes;
    s["load_kernel"] = info(opt.load_kernel()).name;
  }
  if (opt.mode != Mode::kBandwidth) {
    s["point_time"] = opt.point_time;
    kSamples.record(s, opt.samples);
  }
}

// Every kernel row's accounting, as the figures count it.
nlohmann::json traffic_json() {
  nlohmann::json traffic = nlohmann::json::object();
  for (const auto& k : kernel_table()) {
    traffic[std::string(k.name)] = {{"formula", k.formula}, {"loads", k.loads},
                                    {"stores", k.stores},   {"write_allocate", k.write_allocate},
                                    {"flops", k.flops},     {"arrays", k.arrays}};
  }
  return traffic;
}

}  // namespace

void record_settings(const MemOptions& opt, Report& report) {
  auto& s = report.settings("mem");
  // `movebench run` runs mem twice into one report: the settings are the
  // first run's (the bandwidth table's); every record carries its own
  // parameters.
  if (s.contains("mode") && s["mode"] != opt.mode_name()) return;
  s["mode"] = opt.mode_name();
  s["backend"] = opt.on_device() ? opt.choice.backend : std::string(vocabulary::kHostBackend);
  s["elements"] = opt.elements;
  s["type"] = opt.type_name();
  kRounds.record(s, opt.repetitions);
  s["threads"] = opt.threads;
  s["bind"] = opt.placement.describe();
  s["alignment"] = opt.alignment;
  s["nt_stores"] = opt.nt_stores_name();
  s["shape"] = opt.shape_text();
  s["nt_stores_available"] = has_nontemporal_stores();  // false: --nt-stores on stores plainly
  s["huge_pages"] = opt.huge_pages;
  s["unit"] = opt.unit_name();
  record_mode_settings(opt, s);
  s["traffic"] = traffic_json();
  if (opt.on_device()) {
    for (const char* key :
         {"threads", "bind", "alignment", "nt_stores", "shape", "nt_stores_available", "huge_pages"}) {
      s.erase(key);
    }
  }
}

}  // namespace movebench::mem
