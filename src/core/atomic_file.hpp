// Output files that a reader sees whole or not at all, and that cannot be
// hijacked: the new content goes to a temporary file created in the
// target's own folder (unnamed with O_TMPFILE where the file system has it,
// else a fresh hidden name opened with O_EXCL|O_NOFOLLOW, so a planted
// symlink is never followed), is flushed to disk, then renamed over the
// target. Every failure removes the temporary file and leaves the target as
// it was.
#pragma once
#include <string>
#include <string_view>

namespace movebench {

// Replaces the file at `path` with `content`. Returns "" on success, else
// the reason (strerror text, e.g. "No space left on device").
std::string replace_file(const std::string& path, std::string_view content);

// Throws UsageError ("cannot write the {what} '{path}': {reason}") unless a
// file can be created at `path` now: its folder exists and takes a new file,
// and `path` is not a folder or a device. Leaves nothing behind.
void check_output_file(const std::string& path, std::string_view what);

// Creates the folder (and its parents) and checks that a file can be created
// in it; throws UsageError with the reason otherwise.
void check_output_folder(const std::string& folder, std::string_view what);

}  // namespace movebench
