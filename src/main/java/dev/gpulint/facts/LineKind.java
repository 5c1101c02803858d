package dev.gpulint.facts;

/** What a line of a captured tool output is ({@link EvidenceLineFact#getKind()}). */
public enum LineKind {
    /** A "NCCL WARN" line of an NCCL_DEBUG=INFO log. */
    NCCL_WARN,
    /** A link of nvidia-smi nvlink -s. */
    NVLINK
}
