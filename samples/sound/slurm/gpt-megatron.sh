#!/bin/bash
# Megatron-LM GPT on 4 nodes of 8 GPUs: tp 4 × pp 2 × dp 4 = 32
GPUS_PER_NODE=8
NNODES=4
WORLD_SIZE=$((GPUS_PER_NODE * NNODES))

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NNODES
    --node_rank ${NODE_RANK:-0}
    --master_addr ${MASTER_ADDR:-localhost}
)

MODEL_ARGS=(
    --num-layers 32
    --hidden-size 4096
    --num-attention-heads 32
    --seq-length 4096
)

TRAINING_ARGS=(
    --micro-batch-size 2
    --global-batch-size 256
    --tensor-model-parallel-size 4
    --pipeline-model-parallel-size 2
    --sequence-parallel
)

torchrun "${DISTRIBUTED_ARGS[@]}" pretrain_gpt.py "${MODEL_ARGS[@]}" "${TRAINING_ARGS[@]}"
