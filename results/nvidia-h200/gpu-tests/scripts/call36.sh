#!/bin/bash
# Next session's first call: the TensorCore GPU tests after the review's wgmma.cu dispatch refactor
# (8e41dff, host code only, not yet run on a GPU), then every GPU test with per-test times (issue 65: 300 s).
S=$1; O=$OUT/r; mkdir -p $O
nvidia-smi -q | grep -i "part number\|GPU UUID\|Driver Version" > $O/smi.txt 2>&1; cat $O/smi.txt
T0=$(date +%s)
cmake --preset tests -DARCHBENCH_GIT_SHA=$S > $O/build.log 2>&1 && cmake --build --preset tests -j16 >> $O/build.log 2>&1 || { grep -E "error" $O/build.log | head; tail -30 $O/build.log; cd $OUT && tar czf call36.tgz r; exit 1; }
echo "build $(( $(date +%s) - T0 )) s"
./build/tests/tests/archbench_gpu_tests --gtest_filter='TensorCore.*' > $O/gtest-tensor.txt 2>&1; echo "gtest rc=$?"
grep -E "FAIL|Failure|OK \]|PASSED|wgmma .*n256" $O/gtest-tensor.txt | head -40
T1=$(date +%s); (cd build/tests && ctest -L gpu --timeout 400 --output-on-failure --output-junit $O/ctest-junit.xml > $O/ctest-gpu.txt 2>&1; echo "ctest rc=$?"); echo "ctest -L gpu $(( $(date +%s) - T1 )) s"
grep -E "tests passed|Failed|\*\*\*" $O/ctest-gpu.txt | tail -8
grep -E "Test +#" $O/ctest-gpu.txt | sort -t'.' -k2 | awk '{print $(NF-1), $4}' | sort -rn | head -8
echo "total $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf call36.tgz r && rm -rf r
