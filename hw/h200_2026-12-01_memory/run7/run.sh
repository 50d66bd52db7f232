#!/bin/bash
# run 7 (cp.async factors; predictions recorded before the run): bash .../run5/run.sh (writes into $OUT)
D=$(dirname "$0"); W=/tmp/run7; mkdir -p $W
zcat $D/cases.txt.gz > $W/cases.txt; cp $D/memprobe.cu $W/; cd $W
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv > $OUT/gpu.csv
(nvcc --version; ncu --version) > $OUT/env.txt 2>&1
nvcc -O2 -arch=sm_90 -o memprobe memprobe.cu > $OUT/build_mem.txt 2>&1
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
echo "$M" > $OUT/metric_list.txt
timeout 420 ncu --metrics $M --csv --print-units base ./memprobe cases.txt > ncu.csv 2> $OUT/ncu_err.txt
echo "ncu rc $?" >> $OUT/ncu_err.txt
gzip -c ncu.csv > $OUT/ncu.csv.gz
