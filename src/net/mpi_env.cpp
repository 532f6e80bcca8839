#include "net/mpi_env.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <optional>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/launcher.hpp"
#include "core/output.hpp"

namespace movebench::net {
namespace {

// MPI is started once per process and finalized once, at exit, so the
// watchdog that covers both lives as long as the process: it is created
// before MPI_Init and never destroyed (its thread ends with the process).
Watchdog* g_dog = nullptr;

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // MPI_Finalize synchronizes with the other ranks: a rank stopped now
  // would hold this one there for ever.
  if (g_dog) g_dog->arm(-1, "MPI_Finalize");
  MPI_Finalize();
  if (g_dog) g_dog->disarm();
}

}  // namespace

Watchdog& start_mpi(const std::string& command, double step_timeout) {
  if (g_dog) {
    g_dog->configure(command, step_timeout);
    g_dog->rest();
    return *g_dog;
  }
  g_dog = new Watchdog(command, launcher_rank() < 0 ? 0 : launcher_rank(), step_timeout);
  g_dog->arm(step_timeout, "MPI start-up (MPI_Init)");
  // MPI_THREAD_SINGLE on purpose: asking Open MPI 4.1 for FUNNELED made a
  // small-message ping-pong about 50% slower here. So the watchdog thread
  // makes no MPI call at all (see Watchdog::end_job).
  MPI_Init(nullptr, nullptr);
  std::atexit(finalize_at_exit);
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  g_dog->mpi_started(world_rank(), level == MPI_THREAD_MULTIPLE);
  g_dog->rest();
  // An MPI that does not speak the launcher's process interface (srun
  // --mpi=pmix with MPICH, --mpi=pmi2 with Debian's Open MPI) starts every
  // process as a job of its own: each would measure nothing against itself
  // and call itself rank 0.
  const int started = launcher_size();
  if (started > 1 && world_size() == 1) {
    throw UsageError(fmt::format(
        "the launcher started {} processes but MPI sees a job of 1: this MPI ({}) does not speak the launcher's "
        "process interface (under srun: --mpi=pmix for Open MPI, --mpi=pmi2 for MPICH)",
        started,
        mpi_family() == MpiFamily::kOpenMpi ? "Open MPI"
        : mpi_family() == MpiFamily::kMpich ? "MPICH"
                                            : "other"));
  }
  return *g_dog;
}

MpiFamily mpi_family() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  const std::string lib(library, static_cast<std::size_t>(length));
  if (lib.find("Open MPI") != std::string::npos) return MpiFamily::kOpenMpi;
  if (lib.find("MPICH") != std::string::npos) return MpiFamily::kMpich;
  return MpiFamily::kOther;
}

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

namespace {

// One control variable's integer value; nullopt when it is not one integer.
std::optional<long long> cvar_integer(int index, MPI_Datatype type) {
  MPI_T_cvar_handle handle{};
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  std::optional<long long> value;
  alignas(8) unsigned char buffer[64] = {};
  if (count == 1 && MPI_T_cvar_read(handle, buffer) == MPI_SUCCESS) {
    if (type == MPI_INT) value = *reinterpret_cast<int*>(buffer);
    if (type == MPI_UNSIGNED) value = *reinterpret_cast<unsigned*>(buffer);
    if (type == MPI_LONG) value = *reinterpret_cast<long*>(buffer);
    if (type == MPI_UNSIGNED_LONG) value = static_cast<long long>(*reinterpret_cast<unsigned long*>(buffer));
    if (type == MPI_UNSIGNED_LONG_LONG) value = static_cast<long long>(*reinterpret_cast<unsigned long long*>(buffer));
    if (type == MPI_LONG_LONG) value = *reinterpret_cast<long long*>(buffer);
  }
  MPI_T_cvar_handle_free(&handle);
  return value;
}

// MPICH's device, as its library version names it ("MPICH Device:\tch4:ucx"),
// lower case; empty for another library.
std::string mpich_device() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  const std::string text(library, static_cast<std::size_t>(length));
  const auto at = text.find("MPICH Device:");
  if (at == std::string::npos) return "";
  std::string device;
  for (std::size_t i = at + 13; i < text.size() && text[i] != '\n'; ++i) {
    if (!std::isspace(static_cast<unsigned char>(text[i]))) device += static_cast<char>(std::tolower(text[i]));
  }
  return device;
}

// An MPICH control variable of a device or network module this library does
// not run: MPICH keeps every device's variables (ch4:ucx still holds
// MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE, and it follows its environment variable),
// but only its own device's limits move its messages' protocol.
bool other_devices_variable(const std::string& lower_name, const std::string& device) {
  if (device.empty()) return false;
  const auto has = [&](const char* part) { return lower_name.find(part) != std::string::npos; };
  const bool ch3 = device.starts_with("ch3"), ch4 = device.starts_with("ch4");
  if ((has("_ch3_") || has("nemesis")) && !ch3) return true;
  if (has("_ch4_") && !ch4) return true;
  const auto runs = [&](const char* part) { return device.find(part) != std::string::npos; };
  return (has("_ch4_ofi_") && !runs("ofi")) || (has("_ch4_ucx_") && !runs("ucx"));
}

// The MPI library's eager limits, as its own control variables (MPI_T) name
// and hold them: Open MPI's btl_<transport>_eager_limit, MPICH's
// MPIR_CVAR_..._EAGER_MAX_MSG_SIZE; [{"name", "bytes"}], empty where the
// library has none readable (judge/steps names a step after them); MPICH's
// variables of other devices left out (other_devices_variable), and Open
// MPI's btl_self_ ones (the loopback transport carries only a rank's messages
// to itself, never one between two ranks: its 1 KiB limit named p2p steps). Read
// once per process (eager_limits below): MPICH 4.0 crashes in
// MPI_T_cvar_get_num after a second MPI_T_init_thread that follows an
// MPI_T_finalize (seen under `movebench run`, whose coll and p2p steps each
// gathered the MPI facts in one process).
nlohmann::json read_eager_limits() {
  nlohmann::json out = nlohmann::json::array();
  int provided = 0, count = 0;
  const std::string device = mpich_device();
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return out;
  if (MPI_T_cvar_get_num(&count) != MPI_SUCCESS) count = 0;
  for (int i = 0; i < count && out.size() < 32; ++i) {
    char name[256] = {}, description[1024] = {};
    int name_len = sizeof name, description_len = sizeof description, verbosity = 0, bind = 0, scope = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype{};
    if (MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, description, &description_len, &bind,
                            &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT) {
      continue;
    }
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const bool eager = lower.find("eager") != std::string::npos &&
                       (lower.find("limit") != std::string::npos || lower.find("max_msg") != std::string::npos);
    if (!eager || other_devices_variable(lower, device) || lower.starts_with("btl_self_")) continue;
    if (const auto value = cvar_integer(i, type); value && *value > 0)
      out.push_back({{"name", name}, {"bytes", *value}});
  }
  MPI_T_finalize();
  return out;
}

nlohmann::json eager_limits() {
  static const nlohmann::json limits = read_eager_limits();
  return limits;
}

}  // namespace

nlohmann::json mpi_facts() {
  int version = 0, subversion = 0, length = 0, thread_level = 0;
  MPI_Get_version(&version, &subversion);
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  MPI_Get_library_version(library, &length);
  MPI_Query_thread(&thread_level);
  std::string lib(library, static_cast<std::size_t>(length));
  while (!lib.empty() && (lib.back() == '\n' || lib.back() == '\0' || lib.back() == ' ')) lib.pop_back();
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int host_len = 0;
  MPI_Get_processor_name(host, &host_len);
  std::vector<char> all(static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME) * world_size());
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  nlohmann::json hosts = nlohmann::json::array();
  if (world_rank() == 0) {
    for (int r = 0; r < world_size(); ++r)
      hosts.push_back(std::string(&all[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]));
  }
  return {{"version", version},
          {"subversion", subversion},
          {"library", lib},
          {"ranks", world_size()},
          {"hosts", hosts},
          {"thread_level", thread_level},
          {"launcher", under_launcher() ? "yes" : "singleton"},
          {"eager_limits", eager_limits()},
          {"family", mpi_family() == MpiFamily::kOpenMpi ? "openmpi"
                     : mpi_family() == MpiFamily::kMpich ? "mpich"
                                                         : "other"}};
}

Watchdog::Watchdog(std::string command, int rank, double bound)
    : command_(std::move(command)), rank_(rank), default_bound_(bound) {
  thread_ = std::thread([this] { watch(); });
}

void Watchdog::configure(std::string command, double bound) {
  std::lock_guard lock(mutex_);
  command_ = std::move(command);
  default_bound_ = bound;
}

void Watchdog::mpi_started(int rank, bool may_abort) {
  std::lock_guard lock(mutex_);
  rank_ = rank;
  may_abort_ = may_abort;
}

void Watchdog::rest() { arm(-1, "between steps (agreeing on verdicts, gathering results)"); }

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::arm(double seconds, std::string what) {
  {
    std::lock_guard lock(mutex_);
    armed_ = true;
    bound_ = seconds > 0 ? seconds : default_bound_;  // negative: the default bound
    seconds = bound_;
    deadline_ = now_seconds() + seconds;
    what_ = std::move(what);
  }
  wake_.notify_all();
}

void Watchdog::disarm() {
  std::lock_guard lock(mutex_);
  armed_ = false;
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  double last_tick = now_seconds();
  while (!stop_) {
    // This thread wakes at least once a second; a longer gap means this
    // process did not run (SIGSTOP, a suspended job, a starved machine):
    // that time is not the peers' fault, so the deadline moves by it. A
    // rank resumed after its peers gave up thus does not report them.
    const double now = now_seconds();
    if (now - last_tick > 2.0) deadline_ += now - last_tick - 1.0;
    last_tick = now;
    if (!armed_) {
      wake_.wait_for(lock, std::chrono::seconds(1));
      continue;
    }
    const double left = deadline_ - now;
    if (left > 0) {
      wake_.wait_for(lock, std::chrono::duration<double>(std::min(left, 1.0)));
      continue;
    }
    standard_output().problem(
        fmt::format("movebench {}: error: rank {}: '{}' did not finish within {:.0f} s (a rank "
                    "died or hangs, or the network is down); aborting the job",
                    command_, rank_, what_, bound_));
    end_job();
  }
}

// Without MPI_THREAD_MULTIPLE this thread may not call MPI_Abort while the
// main thread sits in an MPI call, so the process ends itself: launchers
// (mpirun, srun --kill-on-bad-exit) end the rest of the job when a rank
// exits non-zero without MPI_Finalize, and every other rank has its own
// watchdog with the same bound, so no rank waits for ever either way.
void Watchdog::end_job() {
  if (may_abort_) MPI_Abort(MPI_COMM_WORLD, kExitFailure);
  _exit(kExitFailure);
}

Agreement agree(bool failed_here) {
  int local[2] = {failed_here ? 1 : 0, interrupt_signal()};
  int global[2] = {0, 0};
  MPI_Allreduce(local, global, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (global[1] != 0) note_interrupt(global[1]);
  return {global[0] != 0, global[1] != 0};
}

void end_mpi_run(Watchdog& dog) {
  dog.rest();
  agree(false);
  settle_interrupts();  // every rank now ends as this agreement says
  dog.disarm();
}

bool settle_step(Report& report, const std::string& command, const std::string& what, const std::string& error,
                 bool checked) {
  const auto verdict = agree(!error.empty());
  if (!error.empty()) {
    standard_output().problem(
        fmt::format("movebench {}: error: validation failed: {}, rank {}: {}", command, what, world_rank(), error));
  }
  if (checked) report.validation(!verdict.any_failed, fmt::format("{}: {}: received data wrong", command, what));
  return !verdict.any_failed && !verdict.any_interrupted;
}

std::vector<double> gather_to_root(double value) {
  const bool root = world_rank() == 0;
  std::vector<double> all(root ? static_cast<std::size_t>(world_size()) : 0);
  MPI_Gather(&value, 1, MPI_DOUBLE, root ? all.data() : nullptr, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return all;
}

std::vector<std::vector<double>> vectors_to_root(const std::vector<double>& values) {
  const int n = world_size();
  int mine = static_cast<int>(values.size());
  std::vector<int> counts(static_cast<std::size_t>(world_rank() == 0 ? n : 0));
  MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs(counts.size());
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> all(counts.empty() ? 0 : static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Gatherv(values.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<std::vector<double>> out;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const auto first = all.begin() + displs[r];
    out.emplace_back(first, first + counts[r]);
  }
  return out;
}

std::vector<double> values_to_root(std::vector<double> values, int from) {
  const int rank = world_rank();
  if (from == 0) return rank == 0 ? values : std::vector<double>{};
  constexpr int kTag = 77;
  if (rank == from) {
    MPI_Send(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status status;
    MPI_Probe(from, kTag, MPI_COMM_WORLD, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    std::vector<double> got(static_cast<std::size_t>(count));
    MPI_Recv(got.data(), count, MPI_DOUBLE, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return got;
  }
  return {};
}

FailMode parse_fail_mode(const std::string& text) {
  if (text.empty() || text == "none") return FailMode::kNone;
  if (text == "hang") return FailMode::kHang;
  if (text == "die") return FailMode::kDie;
  if (text == "corrupt") return FailMode::kCorrupt;
  throw UsageError(fmt::format("invalid --fail-for-test '{}': none, hang, die or corrupt", text));
}

void maybe_fail(FailMode mode) {
  if (world_rank() != world_size() - 1 || world_size() < 2) return;
  if (mode == FailMode::kDie) std::raise(SIGKILL);
  if (mode == FailMode::kHang) {
    for (;;) pause();
  }
}

}  // namespace movebench::net
