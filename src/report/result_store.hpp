// `--store URL` on every command (docs/history.md): the result document goes
// into a result store as well as to --json. One code path into the database:
// the document is written as a file first, then handed to movebench-report's
// `store add` (report_tool.hpp); movebench itself speaks no SQL. A store that
// fails never loses the document: the file stays, and one line says where.
#pragma once
#include <string>
#include <vector>

#include "core/report.hpp"

namespace movebench {

// The most seconds `store add` may take (its own waits are bounded well
// below: docs/history.md); then it is killed and the store has failed.
inline constexpr int kStoreSeconds = 300;

// Before anything is measured, on the rank that writes the file, when
// --store was given: movebench-report must be found (else UsageError), and
// without --json the document gets a file of its own,
// $XDG_DATA_HOME/movebench/pending/<command>-<UTC time>-<pid>.json (its
// folder made), removed once the store has the document. Returns true when
// it chose that file.
bool prepare_store(OutputOptions& output, const std::string& command);

// After Report::finish(): hands the written file to `movebench-report store
// add` (the URL in its environment, $MOVEBENCH_STORE, not on a command line
// that `ps` shows). Returns kExitOk, or kExitFailure with one line on stderr:
// the store's reason and the file that keeps the document. An interrupted
// run, or one whose file could not be written, is not stored (one line).
int store_result(const OutputOptions& output, bool own_file, const Report& report);

// The command line as the document records it: the password of --store's
// URL (scheme://user:password@host) as "***".
std::vector<std::string> without_store_password(std::vector<std::string> command_line);

}  // namespace movebench
