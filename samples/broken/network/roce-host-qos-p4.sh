#!/bin/bash
# Host side of lossless RoCE, copied from a storage cluster's runbook:
# PFC on priority 4, while NCCL's RoCE traffic keeps NVIDIA's DSCP 26 (priority 3).
set -euo pipefail
for dev in ens1f0np0 ens2f0np0 ens3f0np0 ens4f0np0; do
    mlnx_qos -i "$dev" --trust=dscp
    mlnx_qos -i "$dev" --pfc=0,0,0,0,1,0,0,0
done
