"""Comments that state a fact the code decides (issue 20): each is checked
against the code, so that the next change to the code cannot leave it stale.
They were: the MPI option "builds beff and coll" (p2p too), the loaded-latency
chase "64 MiB to 1 GiB" (the code clamps to 512 MiB), the device choice
"shared by link and stream" (mem --backend too)."""

import re

from conftest import REPO


def read(path):
    return (REPO / path).read_text()


def test_mpi_option_names_every_mpi_command():
    # The MPI commands are those the no-MPI build stands in for.
    stand_ins = re.findall(r'make_unique<NoMpiCommand>\("(\w+)"', read("src/net/no_mpi_commands.cpp"))
    assert sorted(stand_ins) == ["beff", "coll", "fleet", "p2p"]
    option = re.search(r'option\(MOVEBENCH_WITH_MPI "([^"]*)"', read("CMakeLists.txt"))[1]
    for name in stand_ins:
        assert re.search(rf"\b{name}\b", option), f"CMakeLists.txt's MPI option does not name {name}: {option!r}"


def test_chase_bytes_comment_says_the_clamp():
    clamp = re.search(
        r"chase_bytes = .*?std::clamp<[^>]*>\(4 \* llc, (\d+)ull << 20, (\d+)ull << 20\)",
        read("src/mem/mem_resolve.cpp"),
        re.S,
    )
    assert clamp, "mem_resolve.cpp no longer clamps the default chase: update this test and the comment"
    least, most = (int(x) for x in clamp.groups())
    comment = next(l for l in read("src/mem/mem_options.hpp").splitlines() if "chase_bytes = 0;" in l)
    assert f"{least} MiB" in comment and f"{most} MiB" in comment, comment
    assert f"{least} MiB .. {most} MiB" in read("docs/mem.md")


def test_device_choice_comment_names_its_users():
    comment = next(l for l in read("src/device/device.hpp").splitlines() if "How the user picks a device" in l)
    users = {
        "link": "src/link/link_bench.hpp",
        "stream": "src/stream/stream_options.hpp",
        "mem --backend": "src/mem/mem_options.hpp",
    }
    for user, where in users.items():
        assert re.search(r"CommonOptions|DeviceChoice", read(where)), f"{where} no longer picks a device"
        assert user in comment, f"device.hpp's DeviceChoice comment leaves out {user}: {comment!r}"
