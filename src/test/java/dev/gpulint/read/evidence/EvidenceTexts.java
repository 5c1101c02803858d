package dev.gpulint.read.evidence;

/** Tool outputs written after the tools' documented shapes, for the tests that read or sniff them. */
public final class EvidenceTexts {
    private EvidenceTexts() {}

    /** nvidia-smi topo -m of two GPUs joined by 12 NVLinks and one NIC, with its legends. */
    public static final String TOPO = String.join("\n",
            "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID",
            "GPU0\t X \tNV12\tPXB\t0-31\t0\t\tN/A",
            "GPU1\tNV12\t X \tSYS\t32-63\t1\t\tN/A",
            "NIC0\tPXB\tSYS\t X ",
            "",
            "Legend:",
            "",
            "  X    = Self",
            "  NV#  = Connection traversing a bonded set of # NVLinks",
            "",
            "NIC Legend:",
            "",
            "  NIC0: mlx5_0", "");
}
