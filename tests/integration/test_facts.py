"""movebench facts: the machine's facts as a table and in the result
document (schema 3), from this machine or from another's saved dmidecode
text (tests/data/dmi, real servers: README there); bad files are one line
and exit 2; every command's document records the facts."""

import ctypes.util
import os
import pathlib
import re

import pytest

from conftest import REPO, binary_path, load_result, run_movebench

DUMPS = sorted((REPO / "tests" / "data" / "dmi").glob("*.txt"))


@pytest.mark.parametrize("dump", DUMPS, ids=[d.stem for d in DUMPS])
def test_a_real_dump_gives_a_valid_document_with_its_peak(dump, tmp_path):
    out = tmp_path / "facts.json"
    proc = run_movebench("facts", "--dmidecode", dump, "--json", out, check=0)
    doc = load_result(out)
    assert doc["schema_version"] == 3 and doc["benchmark"] == "facts"
    dram = doc["facts"]["dram"]
    assert dram["status"] == "known" and dram["peak_bytes_per_second"] > 0
    assert dram["source"].startswith(f"dmidecode output {dump}")
    assert doc["facts"]["cpu"]["model"] != "unknown"
    assert doc["facts"]["cpu"]["model_source"] == "smbios"  # type 4's Version
    assert "; model from SMBIOS type 4 Version" in proc.stdout
    # the table says the peak (4 significant digits: core/figure's significant_text) and the limit
    shown = re.search(r"^DRAM      peak ([0-9.]+) GB/s", proc.stdout, re.M).group(1)
    assert float(shown) == pytest.approx(dram["peak_bytes_per_second"] / 1e9, rel=5e-4), shown
    assert f"limit: {dram['limit']['kind']}" in proc.stdout


def test_on_this_machine_it_names_the_cpu_and_says_why_dram_is_unknown(tmp_path):
    out = tmp_path / "facts.json"
    proc = run_movebench("facts", "--json", out, check=0)
    facts = load_result(out)["facts"]
    model = facts["cpu"]["model"]
    cpuinfo = pathlib.Path("/proc/cpuinfo").read_text()
    assert model != "unknown"
    assert proc.stdout.startswith(f"CPU       {model}")
    if "model name" in cpuinfo:  # x86: the model as every result's host names it
        assert model in cpuinfo and facts["cpu"]["model_source"] == "cpuinfo"
        assert "source: hwloc and /proc/cpuinfo; model from /proc/cpuinfo model name" in proc.stdout
    else:  # arm64: SMBIOS type 4 where the table can be read, else the core the MIDR names
        assert facts["cpu"]["model_source"] in ("smbios", "midr", "none")
    if not pathlib.Path("/sys/firmware/dmi/tables/DMI").exists():  # the development VM
        assert facts["dram"]["status"] == "unknown"
        assert "/sys/firmware/dmi/tables/DMI absent" in facts["dram"]["why"]
        assert "DRAM      unknown: no SMBIOS table" in proc.stdout
    for name, setting in facts["settings"].items():
        assert setting["source"], name
    # no file given: every part is this machine's, and no line says otherwise
    assert facts["origin"] == {part: {"machine": "this"} for part in PARTS}
    assert "not in the file" not in proc.stdout and "machine: the one" not in proc.stdout
    # the warnings are said once each, on stderr, and recorded
    for warning in facts["warnings"]:
        assert proc.stderr.count(f"movebench facts: warning: {warning}") == 1


def test_every_commands_document_records_the_facts(tmp_path):
    out = tmp_path / "mem.json"
    run_movebench("mem", "latency", "--sizes-bytes", "64K", "--time-budget", "0.05", "--json", out, check=0)
    doc = load_result(out)
    assert doc["schema_version"] == 3
    assert doc["facts"]["cpu"]["model"] == doc["host"]["cpu_model"]
    assert {"cpu", "dram", "pcie", "nics", "memory_tiers", "settings", "warnings"} <= doc["facts"].keys()


def test_accelerators_come_from_the_real_opencl_backend(tmp_path):
    """PoCL's CPU device is listed by the OpenCL lister, apart from the
    accelerators (it is this machine's cores and DRAM); the document that
    opened it names the same device, and the table says why it is not one."""
    out = tmp_path / "mem.json"
    run_movebench("mem", "--backend", "opencl", "-n", "4K", "-r", "1", "--json", out, check=0)
    doc = load_result(out)  # schema-checked, the accelerators section with it
    acc = doc["facts"]["accelerators"]
    assert acc["status"] == "known"
    assert {"backend": "opencl", "devices": len([d for d in acc["devices"] if d["backend"] == "opencl"])} in acc[
        "backends"
    ]
    assert all(d["type"] != "cpu" for d in acc["devices"])
    cpu = [d for d in acc["cpu_devices"] if d["backend"] == "opencl"]
    assert doc["mem_device"]["device_type"] == "cpu" and doc["device"] in [d["name"] for d in cpu]
    meminfo = pathlib.Path("/proc/meminfo").read_text().split()
    mem_total = int(meminfo[meminfo.index("MemTotal:") + 1]) * 1024
    for d in cpu:
        assert d["type"] == "cpu" and 0 < d["memory_bytes"] <= mem_total
        assert d["memory_peak"] == {
            "status": "unknown",
            "why": "OpenCL does not report the memory's clock or bus width",
        }
        assert d["bus_id"] is None and "cl_khr_pci_bus_info" in d["bus_id_why"]
    # indexed as --device counts every platform's devices
    indices = sorted(d["index"] for d in acc["devices"] + acc["cpu_devices"] if d["backend"] == "opencl")
    assert indices == list(range(len(indices)))
    proc = run_movebench("facts", check=0)
    assert f"not listed: opencl {cpu[0]['index']} {cpu[0]['name']} (a CPU device" in proc.stdout
    assert "Accelerators " in proc.stdout and "opencl " in proc.stdout


def test_another_machines_lspci_gets_no_accelerators_of_this_one(tmp_path):
    out = tmp_path / "facts.json"
    lspci = REPO / "tests" / "data" / "lspci" / "supermicro-as4124gs-tnr-excerpt.txt"
    run_movebench("facts", "--lspci", lspci, "--json", out, check=0)
    acc = load_result(out)["facts"]["accelerators"]
    assert acc["status"] == "unknown" and acc["why"].startswith(f"not in the file (--lspci {lspci}): ")
    assert "the device backends see only the machine movebench runs on" in acc["why"]


PARTS = ("cpu", "dram", "pcie", "accelerators", "nics", "memory_tiers", "settings")
LABELS = {
    "cpu": "CPU",
    "dram": "DRAM",
    "pcie": "PCIe",
    "accelerators": "Accelerators",
    "nics": "NICs",
    "memory_tiers": "memory_tiers",
    "settings": "Settings",
}
# A real Supermicro C9X299-PG300F (tests/data/README.md): its Intel I210 at
# 05:00.0 trained at Gen1 x1, 2.5 GT/s x 1 lane x 8/10 / 8 = 0.25 GB/s.
C9X299 = REPO / "tests" / "data" / "lspci" / "supermicro-c9x299-pg300f-excerpt.txt"
EPYC = REPO / "tests" / "data" / "dmi" / "epyc9454p_genoad12_9of12.txt"


@pytest.mark.parametrize(
    "given",
    [{"--lspci": C9X299}, {"--dmidecode": EPYC}, {"--dmidecode": EPYC, "--lspci": C9X299}],
    ids=["lspci", "dmidecode", "both"],
)
def test_facts_from_files_say_whose_each_part_is_and_never_fill_in_this_machines(given, tmp_path):
    """CPU and DRAM from --dmidecode, PCIe from --lspci, each part said to be
    the file's machine's; every other part "not in the file", in the
    document and the text: none of this machine's NICs, accelerators,
    memory tiers or settings beside another machine's devices."""
    out = tmp_path / "facts.json"
    args = [a for option, path in given.items() for a in (option, path)]
    proc = run_movebench("facts", *args, "--json", out)
    facts = load_result(out)["facts"]  # schema-checked, origin with it
    described_by = {"cpu": "--dmidecode", "dram": "--dmidecode", "pcie": "--lspci"}
    files = ", ".join(f"{option} {path}" for option, path in given.items())
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"Facts of the machine {files} describe"), lines[0]
    for part in PARTS:
        origin = facts["origin"][part]
        option = described_by.get(part)
        if option in given:
            assert origin == {"machine": "file", "option": option, "file": str(given[option])}, part
            head = next(i for i, l in enumerate(lines) if l.startswith(LABELS[part]))
            assert lines[head + 1] == f"          machine: the one {option} {given[option]} describes", part
        else:
            assert origin["machine"] == "none" and origin["why"].startswith(f"not in the file ({files}): "), part
            assert f"{LABELS[part]:<9} {origin['why']}" in lines, part
            if part == "settings":
                assert facts["settings"] == {} and facts["warnings"] == []
            else:
                assert facts[part]["status"] == "unknown" and facts[part]["why"] == origin["why"], part
    assert "warning:" not in proc.stderr  # this machine's settings are not the file's machine's
    for nic in os.listdir("/sys/class/net"):  # no port of this machine among the file's facts
        assert not any(l.startswith(f"  {nic} ") for l in lines), nic
    if "--lspci" in given:
        i210 = next(l for l in lines if l.startswith("  0000:05:00.0 "))
        assert "I210" in i210 and "Gen1 x1 of Gen1 x1, peak 0.25 GB/s per direction" in i210, i210
    else:
        assert facts["cpu"]["model"] == "AMD EPYC 9454P 48-Core Processor"
        assert "DRAM      peak 345.6 GB/s (exact)" in proc.stdout  # 9 x 4800 MT/s x 8 B


def bad_files(tmp_path):
    truncated = tmp_path / "truncated.txt"
    truncated.write_text("# dmidecode 3.3\nGetting SMBIOS data from sysfs.\nSMBIOS 3.3.0 present.\n\nHand")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(DUMPS[0].read_bytes()[:500] + b"\0\0\x01\x02")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes(b"Handle 0x0001, DMI type 17, 40 bytes\n\tLocator: \xe9\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    escapes = tmp_path / "escapes.txt"
    escapes.write_text("Handle 0x0001, DMI type 17, 40 bytes\n\tLocator: \x1b]0;pwned\x07\n")
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(65 << 20)  # sparse: 65 MiB of NULs, over the 64 MiB cap
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return [truncated, binary, latin1, empty, escapes, huge, fifo, tmp_path, "/dev/zero", tmp_path / "missing"]


@pytest.mark.parametrize("option", ["--dmidecode", "--lspci"])
def test_a_bad_file_is_one_line_and_exit_2(option, tmp_path):
    out = tmp_path / "out.json"
    for bad in bad_files(tmp_path):
        if option == "--lspci" and str(bad).endswith("truncated.txt"):
            continue  # this build checks an lspci file as text only (its parser is on the facts-pcie branch)
        proc = run_movebench("facts", option, bad, "--json", out, timeout=20)
        assert proc.returncode == 2, (bad, proc.stdout, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"movebench facts: error: {option} "), (bad, proc.stderr)
        assert "\x1b" not in proc.stderr
        assert not out.exists(), bad


def test_a_real_lspci_names_the_degraded_link_in_the_table_and_the_document(tmp_path):
    # A ConnectX-5 (a Gen3 x16 card) trained at x8 behind a Gen4 x16 root port
    # (linuxhw/LsPCI, tests/data/README.md): the table says DEGRADED and why.
    lspci = REPO / "tests" / "data" / "lspci" / "supermicro-as4124gs-tnr-excerpt.txt"
    out = tmp_path / "facts.json"
    proc = run_movebench("facts", "--lspci", lspci, "--json", out)
    line = next(l for l in proc.stdout.splitlines() if "ConnectX-5" in l)
    assert "Gen3 x8 of Gen3 x16, peak 7.877 GB/s per direction" in line, proc.stdout
    after = proc.stdout.splitlines()[proc.stdout.splitlines().index(line) + 1]
    assert "DEGRADED: trained at 8 GT/s (Gen3) x8, below the 8 GT/s (Gen3) x16 both ends support" in after, after
    nic = next(d for d in load_result(out)["facts"]["pcie"] if d["bus_id"] == "0000:01:00.0")
    assert nic["degraded"] is True and nic["width"] == 8 and nic["max_width"] == 16


def nvlink_of(tmp_path, spec, **extra):
    """accelerators.nvlink and the table's NVLink lines, with the stand-in
    libnvidia-ml.so.1 (tests/standin/nvml_standin.cpp) on LD_LIBRARY_PATH."""
    standin = binary_path().parent / "tests" / "nvml"
    assert (standin / "libnvidia-ml.so.1").exists(), standin
    out = tmp_path / "facts.json"
    env = {"LD_LIBRARY_PATH": str(standin), "MOVEBENCH_NVML_STANDIN": spec, **extra}
    proc = run_movebench("facts", "--json", out, env=env, check=0)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("  NVLink: ")]
    return load_result(out)["facts"]["accelerators"]["nvlink"], lines


def test_nvlink_from_nvml_where_the_library_is(tmp_path):
    nv, lines = nvlink_of(tmp_path, "00000000:07:00.0=4,4,4,0;0000:08:00.0=")
    assert nv["status"] == "known" and nv["source"] == "nvml (libnvidia-ml.so.1)"
    assert nv["devices"] == [
        {
            "bus_id": "0000:07:00.0",
            "links_active": 3,
            "links": [
                {"link": 0, "active": True, "version": 4},
                {"link": 1, "active": True, "version": 4},
                {"link": 2, "active": True, "version": 4},
                {"link": 3, "active": False},
            ],
        },
        {"bus_id": "0000:08:00.0", "links_active": 0, "links": []},
    ]
    assert lines == [
        "  NVLink: 0000:07:00.0: 3 of 4 links active (NVML's NVLink version 4)  [nvml (libnvidia-ml.so.1)]",
        "  NVLink: 0000:08:00.0: 0 of 0 links active  [nvml (libnvidia-ml.so.1)]",
    ]


@pytest.mark.parametrize(
    "spec,extra,status,why",
    [
        ("0000:08:00.0=0,0", {}, "none", "NVML lists 1 GPU(s), none with an active NVLink link"),
        ("", {}, "none", "NVML lists 0 GPU(s), none with an active NVLink link"),
        ("0000:08:00.0=4", {"MOVEBENCH_NVML_STANDIN_INIT": "9"}, "unknown", "nvmlInit_v2 failed (NVML error 9)"),
    ],
)
def test_nvlink_none_or_unknown_says_why(tmp_path, spec, extra, status, why):
    nv, lines = nvlink_of(tmp_path, spec, **extra)
    assert (nv["status"], nv["why"]) == (status, why)
    assert lines == [f"  NVLink: {status}: {why}"]


def c2c_of(tmp_path, spec, **extra):
    """accelerators.c2c and the table's C2C lines, with the stand-in NVML."""
    standin = binary_path().parent / "tests" / "nvml"
    out = tmp_path / "facts.json"
    env = {"LD_LIBRARY_PATH": str(standin), "MOVEBENCH_NVML_STANDIN": spec, **extra}
    proc = run_movebench("facts", "--json", out, env=env, check=0)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("  C2C: ")]
    return load_result(out)["facts"]["accelerators"]["c2c"], lines


GH200 = "/name=NVIDIA GH200 480GB"


def test_c2c_links_and_their_peak_from_nvml(tmp_path):
    # Ten active links of 45000 MB/s each (a made-up figure: what a real
    # GH200's NVML says is not recorded here), beside a PCIe GPU without C2C.
    c2c, lines = c2c_of(tmp_path, "00000009:01:00.0=/c2c=" + ",".join(["45000"] * 10) + GH200 + ";0000:08:00.0=4")
    assert c2c["status"] == "known"
    gh200, pcie_gpu = c2c["devices"]
    assert gh200["bus_id"] == "0009:01:00.0" and gh200["name"] == "NVIDIA GH200 480GB"
    assert gh200["mode_enabled"] is True and gh200["link_count"] == 10 and gh200["links_active"] == 10
    assert gh200["links"][0] == {"link": 0, "active": True, "max_mb_per_second": 45000}
    assert gh200["peak"] == {
        "bytes_per_second": 10 * 45000e6,
        "source": "nvml field values",
        "formula": "10 active links x 45000 MB/s (NVML_FI_DEV_C2C_LINK_GET_MAX_BW)",
    }
    assert gh200["published"]["bytes_per_second"] == 450e9  # NVIDIA's figure, beside NVML's sum
    assert pcie_gpu["links_active"] == 0 and pcie_gpu["link_count"] is None and "peak" not in pcie_gpu
    assert pcie_gpu["mode_why"] == "nvmlDeviceGetC2cModeInfoV: NVML error 3"  # NOT_SUPPORTED
    assert lines == [
        "  C2C: 0009:01:00.0: 10 of 10 links active, peak 450 GB/s per direction (10 active links x "
        "45000 MB/s (NVML_FI_DEV_C2C_LINK_GET_MAX_BW); nvml field values); NVIDIA publishes 450 GB/s "
        "for the NVIDIA GH200 Grace Hopper Superchip  [nvml (libnvidia-ml.so.1): NVML_FI_DEV_C2C_LINK_* "
        "field values]"
    ]


def test_c2c_peak_is_the_published_figure_where_nvml_gives_no_link_bandwidth(tmp_path):
    c2c, lines = c2c_of(tmp_path, "0009:01:00.0=/c2c=-,-,0" + GH200)
    gpu = c2c["devices"][0]
    assert gpu["links_active"] == 2 and gpu["link_count"] == 3
    assert gpu["peak"]["bytes_per_second"] == 450e9
    assert gpu["peak"]["formula"] == "NVIDIA's figure for the NVIDIA GH200 Grace Hopper Superchip"
    assert "nvidia-grace-hopper-superchip-architecture-in-depth" in gpu["peak"]["source"]
    assert lines[0].startswith("  C2C: 0009:01:00.0: 2 of 3 links active, peak 450 GB/s per direction"), lines
    c2c, lines = c2c_of(tmp_path, "0009:01:00.0=/c2c=-/name=NVIDIA Future Part")
    assert c2c["devices"][0]["peak"] == {
        "status": "unknown",
        "why": "NVML gives no per-link C2C bandwidth, and no published figure (data/c2c.json) names 'NVIDIA Future Part'",
    }
    assert "peak unknown: NVML gives no per-link C2C bandwidth" in lines[0], lines


@pytest.mark.parametrize(
    "spec,extra,status,why",
    [
        ("0000:08:00.0=4,4", {}, "none", "NVML lists 1 GPU(s), none with an active C2C link"),
        ("0000:08:00.0=/c2c=0,0", {}, "none", "NVML lists 1 GPU(s), none with an active C2C link"),
        ("0000:08:00.0=/c2c=1", {"MOVEBENCH_NVML_STANDIN_INIT": "9"}, "unknown", "nvmlInit_v2 failed (NVML error 9)"),
    ],
)
def test_c2c_none_or_unknown_says_why(tmp_path, spec, extra, status, why):
    c2c, lines = c2c_of(tmp_path, spec, **extra)
    assert (c2c["status"], c2c["why"]) == (status, why)
    assert lines == [f"  C2C: {status}: {why}"]


@pytest.mark.skipif(ctypes.util.find_library("nvidia-ml") is not None, reason="an NVIDIA driver is installed here")
def test_nvlink_without_the_library_is_unknown(tmp_path):
    out = tmp_path / "facts.json"
    run_movebench("facts", "--json", out, check=0)
    accelerators = load_result(out)["facts"]["accelerators"]
    for part in ("nvlink", "c2c"):
        assert accelerators[part] == {"status": "unknown", "why": "libnvidia-ml.so.1 not found"}, part
