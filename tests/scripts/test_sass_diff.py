"""sass_diff.py compares two builds kernel by kernel: a refactor that moved a file (its path and
its anonymous namespace's hash change) is identical; a changed instruction, a kernel gone or a
new one is named; bad input exits 2."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "sass_diff.py")

DUMP = """
Fatbin elf code:
================
arch = sm_90
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _ZN9archbench41_GLOBAL__N__{hash}_9_pchase_cu_8c3eba9b14warm_l2_kernelEPKjm
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   {ld} R2, desc[UR4][R2.64] ;
        /*0020*/                   EXIT ;
{extra}
Fatbin elf code:
================
arch = sm_90
identifier = {path}/kernels/pchase.cu
"""
EXTRA = """		Function : _ZN9archbench10new_kernelEv
        /*0000*/                   EXIT ;
"""


def dump(tmp_path, name, hash="7158bd38", path="/work/main", ld="LDG.E.STRONG.GPU", extra=""):
    p = tmp_path / name
    p.write_text(DUMP.format(hash=hash, path=path, ld=ld, extra=extra))
    return str(p)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def test_a_moved_file_is_identical_and_a_changed_kernel_is_named(tmp_path):
    before = dump(tmp_path, "before.txt")
    moved = dump(tmp_path, "moved.txt", hash="7dafbc25", path="/tmp/wt")
    r = run(before, moved)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 kernel(s) identical, 0 differ" in r.stdout
    changed = dump(tmp_path, "changed.txt", ld="LDG.E.EF")
    r = run(before, changed)
    assert r.returncode == 1 and "CHANGED sm_90" in r.stdout and "warm_l2_kernel" in r.stdout, r.stdout
    # cuobjdump pads every line to the file's widest instruction: a kernel added beside re-pads them.
    padded = tmp_path / "padded.txt"
    padded.write_text(open(before).read().replace("/*0000*/                   LDC", "/*0000*/                        LDC"))
    r = run(before, str(padded))
    assert r.returncode == 0 and "1 kernel(s) identical" in r.stdout, r.stdout
    added = dump(tmp_path, "added.txt", extra=EXTRA)
    r = run(before, added)
    assert r.returncode == 1 and "ADDED   sm_90 _ZN9archbench10new_kernelEv" in r.stdout, r.stdout


def test_bad_input_exits_2_with_one_line(tmp_path):
    r = run(str(tmp_path / "missing"), str(tmp_path / "missing2"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such file" in r.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here\n")
    r = run(str(empty), str(empty))
    assert r.returncode == 2 and "no kernel found" in r.stderr
