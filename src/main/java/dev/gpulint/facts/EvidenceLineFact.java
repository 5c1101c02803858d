package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A line of a captured tool output that matters on its own: an NCCL WARN line of an NCCL log
 * (kind NCCL_WARN), or an NVLink of nvidia-smi nvlink -s or dcgmi nvlink --link-status (kind NVLINK, with its GPU, link
 * number, speed, whether it is inactive and its state as the tool prints it).
 */
public record EvidenceLineFact(String file, LineKind kind, String text, Span span, String gpu, int link, boolean inactive,
                               double speed, int activeLinksOfGpu, boolean linked, boolean nvlinkDeclared, String state) {
    /** The file. */
    public String getFile() { return file; }
    /** NCCL_WARN or NVLINK. */
    public LineKind getKind() { return kind; }
    /** The line's text: the warning after "NCCL WARN"; for a link, the line as printed. */
    public String getText() { return text; }
    /** Where the line is. */
    public Span getSpan() { return span; }
    /** For a link: its GPU, index and name as printed ("GPU 0 (NVIDIA H100 80GB HBM3)", "GPU 0" when no name is printed); "" otherwise. */
    public String getGpu() { return gpu; }
    /** For a link: its number; -1 otherwise. */
    public int getLink() { return link; }
    /** For a link: it prints &lt;inactive&gt;. */
    public boolean isInactive() { return inactive; }
    /** For a link: its state as the tool prints it: "&lt;inactive&gt;" or "26.562 GB/s" (nvidia-smi), "D (Down)", "X (Disabled)" or "U (Up)" (dcgmi); "" otherwise. */
    public String getState() { return state; }
    /** For a link: its speed, GB/s; 0 when inactive or otherwise. */
    public double getSpeed() { return speed; }
    /** For a link: the active links of its GPU. */
    public int getActiveLinksOfGpu() { return activeLinksOfGpu; }
    /** The file belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** The linked node group declares NVLink between its GPUs. */
    public boolean isNvlinkDeclared() { return nvlinkDeclared; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "line:" + file + "/" + kind + "/" + (link >= 0 ? gpu + "/" + link : text); }
}
