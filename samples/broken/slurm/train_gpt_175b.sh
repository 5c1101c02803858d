#!/bin/bash
# An example launch script left at one node: tp 8 × pp 16 needs 128 GPUs
export CUDA_DEVICE_MAX_CONNECTIONS=1

GPUS_PER_NODE=8
NUM_NODES=1

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
)

GPT_ARGS=(
    --num-layers 96
    --hidden-size 12288
    --num-attention-heads 96
    --seq-length 2048
    --tensor-model-parallel-size 8
    --pipeline-model-parallel-size 16
)

torchrun "${DISTRIBUTED_ARGS[@]}" pretrain_gpt.py "${GPT_ARGS[@]}"
