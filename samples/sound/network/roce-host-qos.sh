#!/bin/bash
# Host side of lossless RoCE on bare-metal GPU nodes (run by the node prolog):
# classify by DSCP, PFC on priority 3 where NVIDIA's RoCE DSCP 26 lands.
set -euo pipefail
RAILS="ens1f0np0 ens2f0np0 ens3f0np0 ens4f0np0"
for dev in $RAILS; do
    mlnx_qos -i "$dev" --trust dscp
    mlnx_qos -i "$dev" --pfc 0,0,0,1,0,0,0,0
done
